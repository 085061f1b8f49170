#pragma once
/// Definition / repetition level sections of data pages. In v1 pages each section is
/// RLE-encoded with a 4-byte little-endian length prefix (or the deprecated BIT_PACKED
/// encoding, NotImplemented); in v2 pages the header gives the section sizes and there is
/// no prefix. The bit width is that of the column's max level. Levels above the max are
/// Corruption, so the column reader can index by level without checks.

#include <cstdint>

#include "common/result.h"
#include "formats/parquet/parquet_types.h"

namespace sqe::parquet {

/// Decodes `n` levels of a v1 page section starting at `data` and returns the bytes the
/// section occupies (prefix included). `max_level` 0 means the section is absent: `out` is
/// zero-filled and 0 is returned.
Result<size_t> DecodeV1Levels(Encoding encoding, const uint8_t* data, size_t size,
                              int16_t max_level, int64_t n, int16_t* out);

/// Decodes `n` levels from a v2 section of exactly `size` bytes.
Status DecodeV2Levels(const uint8_t* data, size_t size, int16_t max_level, int64_t n, int16_t* out);

}  // namespace sqe::parquet
