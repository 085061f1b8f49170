#pragma once
/// Batch bit packing as Parquet uses it (Encodings.md, "Bit-packed"): values packed
/// LSB-first, `bit_width` bits each, in groups of 8 values = `bit_width` bytes. Unpacking
/// dispatches once per call to a routine specialised for the width, so the inner loop has
/// no per-value branches or calls. Callers bounds-check; these functions trust their sizes.

#include <cstdint>
#include <string>

namespace sqe::parquet {

/// Unpacks `num_groups` groups of 8 values of `bit_width` (0..32) bits from `in`, which
/// holds at least num_groups * bit_width bytes, into `out` (num_groups * 8 values).
void UnpackBits32(const uint8_t* in, int64_t num_groups, int bit_width, uint32_t* out);
/// Same for `bit_width` 0..64 (DELTA_BINARY_PACKED miniblocks of int64 deltas).
void UnpackBits64(const uint8_t* in, int64_t num_groups, int bit_width, uint64_t* out);

/// Appends `n` values (n padded up to a multiple of 8 with zeros) packed at `bit_width`.
void PackBits(const uint64_t* values, int64_t n, int bit_width, std::string* out);

/// Bits needed for `max_value` (0 for 0).
int BitWidthOf(uint64_t max_value);

}  // namespace sqe::parquet
