#pragma once
/// The delta encodings (Encodings.md): DELTA_BINARY_PACKED for INT32/INT64,
/// DELTA_LENGTH_BYTE_ARRAY (lengths delta-packed, then the bytes) and DELTA_BYTE_ARRAY
/// (prefix lengths delta-packed, then the suffixes as DELTA_LENGTH_BYTE_ARRAY).
/// Decoders are bounds-checked: header values, bit widths, lengths and the total output
/// size are validated, and lying input is Corruption. Arithmetic wraps as the spec says.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace sqe::parquet {

/// Stateful DELTA_BINARY_PACKED decoder over a borrowed buffer.
class DeltaBinaryPackedDecoder {
 public:
  /// Parses the header: block size, miniblocks per block, value count, first value.
  Status Init(const uint8_t* data, size_t size);
  int64_t total_values() const { return total_values_; }
  int64_t values_left() const { return total_values_ - emitted_; }
  /// Decodes the next `n` values (n <= values_left()); T: int32_t or int64_t.
  template <typename T>
  Status Decode(T* out, int64_t n);
  /// Bytes from the start of the buffer to the end of the encoded stream; valid once all
  /// values are decoded (byte-array encodings continue right after it).
  size_t consumed() const { return pos_; }

 private:
  Status NextMiniblock();
  Result<uint64_t> ReadVarint();

  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t pos_ = 0;
  uint64_t block_size_ = 0;
  uint64_t miniblocks_per_block_ = 0;
  uint64_t values_per_miniblock_ = 0;
  int64_t total_values_ = 0;
  int64_t emitted_ = 0;
  uint64_t last_value_ = 0;
  bool first_pending_ = false;
  uint64_t min_delta_ = 0;
  uint64_t miniblock_in_block_ = 0;
  const uint8_t* bit_widths_ = nullptr;
  std::vector<uint64_t> deltas_;
  size_t delta_pos_ = 0;
};

/// Encodes with block size 128 and 4 miniblocks of 32 values. T: int32_t or int64_t.
template <typename T>
void EncodeDeltaBinaryPacked(const T* values, int64_t n, std::string* out);

/// Decodes all values; views borrow `data`. Returns bytes consumed.
Result<size_t> DecodeDeltaLengthByteArray(const uint8_t* data, size_t size,
                                          std::vector<std::string_view>* out);
void EncodeDeltaLengthByteArray(const std::string_view* values, int64_t n, std::string* out);

/// Decoded byte arrays in Arrow's layout: offsets (n + 1) into data.
struct BinaryValues {
  std::string data;
  std::vector<int32_t> offsets;  // starts with 0
  int64_t size() const { return offsets.empty() ? 0 : static_cast<int64_t>(offsets.size()) - 1; }
  std::string_view operator[](int64_t i) const {
    return std::string_view(data).substr(offsets[i], offsets[i + 1] - offsets[i]);
  }
};

/// Decodes all values of a DELTA_BYTE_ARRAY stream. `max_output_bytes` bounds the
/// reconstructed data (prefix sharing can expand a small page enormously).
Result<size_t> DecodeDeltaByteArray(const uint8_t* data, size_t size, BinaryValues* out,
                                    int64_t max_output_bytes = int64_t{1} << 30);
void EncodeDeltaByteArray(const std::string_view* values, int64_t n, std::string* out);

}  // namespace sqe::parquet
