#include "formats/parquet/encoding/levels.h"

#include <algorithm>
#include <cstring>

#include "formats/parquet/encoding/bit_packing.h"
#include "formats/parquet/encoding/rle.h"

namespace sqe::parquet {
namespace {

Status DecodeRleLevels(const uint8_t* data, size_t size, int16_t max_level, int64_t n,
                       int16_t* out) {
  RleBitPackedDecoder decoder(data, size, BitWidthOf(static_cast<uint64_t>(max_level)));
  SQE_RETURN_NOT_OK(decoder.GetBatch(out, n));
  int16_t highest = 0;
  for (int64_t i = 0; i < n; ++i) highest = std::max(highest, out[i]);
  if (highest > max_level) {
    return Status::Corruption("parquet levels: level " + std::to_string(highest) +
                              " exceeds the column's max level " + std::to_string(max_level));
  }
  return Status::OK();
}

}  // namespace

Result<size_t> DecodeV1Levels(Encoding encoding, const uint8_t* data, size_t size,
                              int16_t max_level, int64_t n, int16_t* out) {
  if (max_level < 0) return Status::Corruption("parquet levels: negative max level");
  if (max_level == 0) {
    std::fill(out, out + n, int16_t{0});
    return size_t{0};
  }
  if (encoding == Encoding::kBitPacked) {
    return Status::NotImplemented("parquet levels: the deprecated BIT_PACKED encoding");
  }
  if (encoding != Encoding::kRle) {
    return Status::Corruption("parquet levels: encoding " + std::string(EncodingName(encoding)) +
                              " is not a level encoding");
  }
  if (size < 4) return Status::Corruption("parquet levels: truncated length prefix");
  uint32_t len;
  std::memcpy(&len, data, 4);
  if (len > size - 4) {
    return Status::Corruption("parquet levels: section of " + std::to_string(len) +
                              " bytes exceeds the " + std::to_string(size - 4) +
                              " bytes of the page");
  }
  SQE_RETURN_NOT_OK(DecodeRleLevels(data + 4, len, max_level, n, out));
  return size_t{4} + len;
}

Status DecodeV2Levels(const uint8_t* data, size_t size, int16_t max_level, int64_t n,
                      int16_t* out) {
  if (max_level < 0) return Status::Corruption("parquet levels: negative max level");
  if (max_level == 0) {
    std::fill(out, out + n, int16_t{0});
    return Status::OK();
  }
  return DecodeRleLevels(data, size, max_level, n, out);
}

}  // namespace sqe::parquet
