#pragma once
/// PLAIN encoding (Encodings.md) for every physical type: little-endian fixed-width
/// values, LSB-first bit-packed booleans, 4-byte-length-prefixed BYTE_ARRAY, raw
/// FIXED_LEN_BYTE_ARRAY and 12-byte INT96. Decoders are bounds-checked and return the
/// bytes consumed; byte arrays are returned as views into the input. Encoders append.

#include <cstdint>
#include <string>
#include <string_view>

#include "common/result.h"

namespace sqe::parquet {

/// The legacy INT96 timestamp: 8 bytes nanoseconds of the day, then 4 bytes Julian day.
struct Int96 {
  uint32_t value[3] = {0, 0, 0};
  bool operator==(const Int96&) const = default;
};

/// Nanoseconds since the Unix epoch of an INT96 timestamp (wraps for out-of-range days).
int64_t Int96ToUnixNanos(const Int96& v);
Int96 UnixNanosToInt96(int64_t nanos);

/// T: int32_t, int64_t, float, double or Int96.
template <typename T>
Result<size_t> DecodePlain(const uint8_t* data, size_t size, int64_t n, T* out);
template <typename T>
void EncodePlain(const T* values, int64_t n, std::string* out);

/// Booleans: one bit each, LSB first; `out` gets one 0/1 byte per value.
Result<size_t> DecodePlainBoolean(const uint8_t* data, size_t size, int64_t n, uint8_t* out);
void EncodePlainBoolean(const uint8_t* values, int64_t n, std::string* out);

/// BYTE_ARRAY: views borrow `data`.
Result<size_t> DecodePlainByteArray(const uint8_t* data, size_t size, int64_t n,
                                    std::string_view* out);
void EncodePlainByteArray(const std::string_view* values, int64_t n, std::string* out);

/// FIXED_LEN_BYTE_ARRAY of `width` bytes, copied contiguously into `out` (n * width bytes).
Result<size_t> DecodePlainFixedLenByteArray(const uint8_t* data, size_t size, int64_t n,
                                            int32_t width, uint8_t* out);
void EncodePlainFixedLenByteArray(const uint8_t* values, int64_t n, int32_t width,
                                  std::string* out);

}  // namespace sqe::parquet
