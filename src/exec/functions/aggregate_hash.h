#pragma once
/// Fast 64-bit hashing of SQL values for hash tables (group-by, join, distinct) and
/// sketches (approx_distinct): a strong finalizer for fixed-width values and a word-at-a-
/// time hash for byte strings. Values that compare equal hash equal: callers normalize
/// doubles first (NormalizeDouble: -0.0 -> 0.0, every NaN -> one NaN). Pure functions.

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string_view>

namespace sqe::exec {

/// A bijective avalanche mix of a 64-bit word (the splitmix64 finalizer): every input
/// bit affects every output bit, so the top bits serve as radix partitions and HLL
/// register indices.
inline uint64_t MixHash64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

/// Folds the hash of one more key column into a row's running hash.
inline uint64_t CombineHash(uint64_t running, uint64_t value_hash) {
  return MixHash64(running ^ (value_hash + 0x9e3779b97f4a7c15ULL + (running << 6)));
}

/// Hash of `n` bytes, eight at a time.
inline uint64_t HashBytes(const void* data, size_t n, uint64_t seed = 0) {
  const auto* p = static_cast<const uint8_t*>(data);
  uint64_t h = seed ^ (static_cast<uint64_t>(n) * 0x9e3779b97f4a7c15ULL);
  while (n >= 8) {
    uint64_t word;
    std::memcpy(&word, p, 8);
    h = std::rotl(h ^ MixHash64(word), 27) * 0xff51afd7ed558ccdULL;
    p += 8;
    n -= 8;
  }
  if (n > 0) {
    // The tail byte by byte: a variable-length memcpy is a library call, and short
    // values (flags, codes) are the common grouping keys.
    uint64_t word = 0;
    for (size_t k = 0; k < n; ++k) word |= static_cast<uint64_t>(p[k]) << (8 * k);
    h = std::rotl(h ^ MixHash64(word ^ (static_cast<uint64_t>(n) << 56)), 27) *
        0xff51afd7ed558ccdULL;
  }
  return MixHash64(h);
}

inline uint64_t HashBytes(std::string_view bytes, uint64_t seed = 0) {
  return HashBytes(bytes.data(), bytes.size(), seed);
}

/// -0.0 becomes 0.0 and every NaN the same quiet NaN, so equal values have equal bits
/// (SQL grouping: NaN groups with NaN, 0.0 with -0.0).
inline double NormalizeDouble(double v) {
  if (v == 0.0) return 0.0;
  if (std::isnan(v)) return std::numeric_limits<double>::quiet_NaN();
  return v;
}

inline uint64_t HashDouble(double v) {
  return MixHash64(std::bit_cast<uint64_t>(NormalizeDouble(v)));
}

}  // namespace sqe::exec
