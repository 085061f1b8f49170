#pragma once
/// The RLE / bit-packing hybrid (Encodings.md): definition and repetition levels,
/// dictionary indices and RLE booleans. A run header varint's low bit selects a
/// bit-packed run of (header >> 1) groups of 8 values or an RLE run of (header >> 1)
/// copies of one value stored in ceil(bit_width / 8) bytes.
///
/// The decoder reads a borrowed buffer (no length prefix: callers strip the 4-byte prefix
/// of v1 levels and the bit-width byte of dictionary indices), is bounds-checked, and
/// reports running out of data as Corruption. Not thread-safe.

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"

namespace sqe::parquet {

class RleBitPackedDecoder {
 public:
  /// Precondition checked: 0 <= bit_width <= 32 (else every Get fails with Corruption).
  RleBitPackedDecoder(const uint8_t* data, size_t size, int bit_width);

  /// Decodes exactly `n` values into `out` (T: uint8_t, int16_t, int32_t or uint32_t;
  /// values must fit T). Corruption if the stream ends early or is malformed.
  template <typename T>
  Status GetBatch(T* out, int64_t n);

  int bit_width() const { return bit_width_; }

 private:
  Status NextRun();

  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  int bit_width_;
  int64_t rle_left_ = 0;  // values left in the current RLE run
  uint32_t rle_value_ = 0;
  int64_t literal_groups_left_ = 0;  // groups of 8 left in the current bit-packed run
  static constexpr int kBufferValues = 512;
  uint32_t buffer_[kBufferValues];
  int buffer_pos_ = 0;
  int buffer_len_ = 0;
};

/// Builds an RLE / bit-packed hybrid stream (no length prefix). Runs of 8 or more equal
/// values become RLE runs; the rest is bit-packed in groups of 8 (the final group is
/// zero-padded, which readers ignore because they know the value count).
class RleBitPackedEncoder {
 public:
  explicit RleBitPackedEncoder(int bit_width) : bit_width_(bit_width) {}
  void Put(uint32_t value) { values_.push_back(value); }
  void PutBatch(const uint32_t* values, int64_t n) {
    values_.insert(values_.end(), values, values + n);
  }
  /// Appends the encoded stream to `out` and clears the encoder.
  void Finish(std::string* out);

 private:
  int bit_width_;
  std::vector<uint32_t> values_;
};

}  // namespace sqe::parquet
