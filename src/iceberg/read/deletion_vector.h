#pragma once
/// Decoding the Puffin blob type `deletion-vector-v1` (Iceberg table spec "Deletion
/// Vectors", Puffin spec): a big-endian length, the magic D1 D3 39 64, a 64-bit Roaring
/// bitmap in the portable serialization (a count of 32-bit bitmaps, each a key and a
/// RoaringFormatSpec bitmap with array, bitmap or run containers) and a big-endian CRC-32
/// of magic and vector. Hostile bytes give Corruption, never a crash. Pure functions.

#include <cstdint>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace sqe::iceberg {

/// The deleted positions of a deletion-vector-v1 blob, ascending. `max_positions` bounds
/// the result (a data file's record count): more positions is Corruption.
Result<std::vector<int64_t>> DecodeDeletionVector(std::string_view blob, int64_t max_positions);

}  // namespace sqe::iceberg
