#pragma once
/// RLE_DICTIONARY / PLAIN_DICTIONARY data pages (Encodings.md): one byte of bit width,
/// then the RLE / bit-packed hybrid of indices into the column chunk's dictionary page.
/// Decoding gathers dictionary values straight into the output; an index at or past the
/// dictionary size is Corruption.

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace sqe::parquet {

/// T: int32_t, int64_t, float, double, Int96 or std::string_view (BYTE_ARRAY and
/// FIXED_LEN_BYTE_ARRAY dictionaries as views).
template <typename T>
Status DecodeDictionaryIndices(const uint8_t* data, size_t size, const T* dictionary,
                               int64_t dictionary_size, int64_t n, T* out);

/// Decodes only the indices (for callers that keep data dictionary-encoded).
Status DecodeDictionaryIndexValues(const uint8_t* data, size_t size, int64_t dictionary_size,
                                   int64_t n, uint32_t* out);

/// Appends bit width + RLE/bit-packed indices. `dictionary_size` fixes the bit width.
void EncodeDictionaryIndices(const uint32_t* indices, int64_t n, int64_t dictionary_size,
                             std::string* out);

}  // namespace sqe::parquet
