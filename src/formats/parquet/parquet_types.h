#pragma once
/// The enums of the Parquet format (apache/parquet-format parquet.thrift), with the
/// spec's numeric values. Values outside the known set are kept as-is when decoded so a
/// newer file round-trips; consumers reject what they do not understand.

#include <cstdint>
#include <string_view>

namespace sqe::parquet {

enum class PhysicalType : int32_t {
  kBoolean = 0,
  kInt32 = 1,
  kInt64 = 2,
  kInt96 = 3,
  kFloat = 4,
  kDouble = 5,
  kByteArray = 6,
  kFixedLenByteArray = 7,
};

/// Deprecated annotations that LogicalType supersedes; still written for old readers.
enum class ConvertedType : int32_t {
  kUtf8 = 0,
  kMap = 1,
  kMapKeyValue = 2,
  kList = 3,
  kEnum = 4,
  kDecimal = 5,
  kDate = 6,
  kTimeMillis = 7,
  kTimeMicros = 8,
  kTimestampMillis = 9,
  kTimestampMicros = 10,
  kUint8 = 11,
  kUint16 = 12,
  kUint32 = 13,
  kUint64 = 14,
  kInt8 = 15,
  kInt16 = 16,
  kInt32 = 17,
  kInt64 = 18,
  kJson = 19,
  kBson = 20,
  kInterval = 21,
};

enum class FieldRepetitionType : int32_t { kRequired = 0, kOptional = 1, kRepeated = 2 };

enum class Encoding : int32_t {
  kPlain = 0,
  kPlainDictionary = 2,
  kRle = 3,
  kBitPacked = 4,
  kDeltaBinaryPacked = 5,
  kDeltaLengthByteArray = 6,
  kDeltaByteArray = 7,
  kRleDictionary = 8,
  kByteStreamSplit = 9,
};

enum class CompressionCodec : int32_t {
  kUncompressed = 0,
  kSnappy = 1,
  kGzip = 2,
  kLzo = 3,
  kBrotli = 4,
  kLz4 = 5,  // deprecated Hadoop-framed LZ4
  kZstd = 6,
  kLz4Raw = 7,
};

enum class PageType : int32_t {
  kDataPage = 0,
  kIndexPage = 1,
  kDictionaryPage = 2,
  kDataPageV2 = 3,
};

enum class BoundaryOrder : int32_t { kUnordered = 0, kAscending = 1, kDescending = 2 };

/// Stable upper-case spec names ("INT64", "RLE_DICTIONARY", "ZSTD"); "UNKNOWN(n)" otherwise.
std::string_view PhysicalTypeName(PhysicalType t);
std::string_view EncodingName(Encoding e);
std::string_view CompressionCodecName(CompressionCodec c);

}  // namespace sqe::parquet
