#pragma once
/// BYTE_STREAM_SPLIT (Encodings.md): byte k of every value goes to stream k, streams are
/// concatenated. Defined for FLOAT and DOUBLE, and since format 2.11 for INT32, INT64 and
/// FIXED_LEN_BYTE_ARRAY; this code is width-generic (`width` = bytes per value).

#include <cstdint>
#include <string>

#include "common/result.h"

namespace sqe::parquet {

/// Decodes `n` values of `width` bytes from a page of `size` bytes, which must be exactly
/// n * width (Corruption otherwise); `out` receives n * width bytes.
Status DecodeByteStreamSplit(const uint8_t* data, size_t size, int64_t n, int32_t width,
                             uint8_t* out);
void EncodeByteStreamSplit(const uint8_t* values, int64_t n, int32_t width, std::string* out);

}  // namespace sqe::parquet
