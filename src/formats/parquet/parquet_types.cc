#include "formats/parquet/parquet_types.h"

namespace sqe::parquet {

std::string_view PhysicalTypeName(PhysicalType t) {
  switch (t) {
    case PhysicalType::kBoolean:
      return "BOOLEAN";
    case PhysicalType::kInt32:
      return "INT32";
    case PhysicalType::kInt64:
      return "INT64";
    case PhysicalType::kInt96:
      return "INT96";
    case PhysicalType::kFloat:
      return "FLOAT";
    case PhysicalType::kDouble:
      return "DOUBLE";
    case PhysicalType::kByteArray:
      return "BYTE_ARRAY";
    case PhysicalType::kFixedLenByteArray:
      return "FIXED_LEN_BYTE_ARRAY";
  }
  return "UNKNOWN";
}

std::string_view EncodingName(Encoding e) {
  switch (e) {
    case Encoding::kPlain:
      return "PLAIN";
    case Encoding::kPlainDictionary:
      return "PLAIN_DICTIONARY";
    case Encoding::kRle:
      return "RLE";
    case Encoding::kBitPacked:
      return "BIT_PACKED";
    case Encoding::kDeltaBinaryPacked:
      return "DELTA_BINARY_PACKED";
    case Encoding::kDeltaLengthByteArray:
      return "DELTA_LENGTH_BYTE_ARRAY";
    case Encoding::kDeltaByteArray:
      return "DELTA_BYTE_ARRAY";
    case Encoding::kRleDictionary:
      return "RLE_DICTIONARY";
    case Encoding::kByteStreamSplit:
      return "BYTE_STREAM_SPLIT";
  }
  return "UNKNOWN";
}

std::string_view CompressionCodecName(CompressionCodec c) {
  switch (c) {
    case CompressionCodec::kUncompressed:
      return "UNCOMPRESSED";
    case CompressionCodec::kSnappy:
      return "SNAPPY";
    case CompressionCodec::kGzip:
      return "GZIP";
    case CompressionCodec::kLzo:
      return "LZO";
    case CompressionCodec::kBrotli:
      return "BROTLI";
    case CompressionCodec::kLz4:
      return "LZ4";
    case CompressionCodec::kZstd:
      return "ZSTD";
    case CompressionCodec::kLz4Raw:
      return "LZ4_RAW";
  }
  return "UNKNOWN";
}

}  // namespace sqe::parquet
