#pragma once
// Shared by the TpchGenerator files: the random stream of each table and the small value
// formats of clause 4.2.2 (padded numbers, phone numbers, random v-strings).

#include <cstdint>
#include <string>

#include "datagen/row_random.h"

namespace sqe::datagen::internal {

// One random stream per table (lineitem draws from its order's stream).
enum Stream : uint64_t {
  kRegionStream = 1,
  kNationStream = 2,
  kPartStream = 3,
  kSupplierStream = 4,
  kPartSuppStream = 5,
  kCustomerStream = 6,
  kOrdersStream = 7,
};

/// Appends `value` zero-padded to `width` digits.
void AppendPadded(int64_t value, int width, std::string* out);
/// Sets `out` to `prefix` followed by `value` padded to 9 digits ("Supplier#000000001").
void FormatKeyName(const char* prefix, int64_t value, std::string* out);
/// A phone number of nation `nation_key` (4.2.2.9): "CC-LLL-LLL-LLLL", CC = key + 10.
void FormatPhone(RowRandom& rng, int32_t nation_key, std::string* out);
/// A random v-string (4.2.2.7) of length uniform in [min_length, max_length] from 64
/// characters.
void RandomVString(RowRandom& rng, int min_length, int max_length, std::string* out);

}  // namespace sqe::datagen::internal
