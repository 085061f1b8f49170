#pragma once
/// Split-block Bloom filters (BloomFilter.md): 32-byte blocks of eight 32-bit words; a
/// value's 64-bit xxHash (XXH64, seed 0, of its PLAIN encoding without the BYTE_ARRAY length
/// prefix) picks a block with its upper half and one bit per word with its lower half.
/// Used for pruning row groups on equality predicates. Not thread-safe for Insert.

#include <cstdint>
#include <string>
#include <string_view>

#include "common/result.h"
#include "formats/parquet/metadata.h"

namespace sqe::parquet {

/// XXH64 of `data` (the xxHash specification), as Parquet uses it.
uint64_t XxHash64(std::string_view data, uint64_t seed = 0);

class SplitBlockBloomFilter {
 public:
  static constexpr int32_t kBytesPerBlock = 32;
  static constexpr int32_t kMinBytes = 32;
  static constexpr int32_t kMaxBytes = 128 << 20;

  /// An empty filter of `num_bytes`, rounded up to a power of two within [32, 128 MiB].
  explicit SplitBlockBloomFilter(int32_t num_bytes);
  /// Wraps a bitset read from a file; checks the header's algorithm/hash/compression and
  /// that the bitset has the header's size (a whole number of blocks).
  static Result<SplitBlockBloomFilter> FromFile(const BloomFilterHeader& header,
                                                std::string bitset);
  /// Bytes for `ndv` distinct values at false-positive rate `fpp` (spec formula).
  static int32_t OptimalNumBytes(int64_t ndv, double fpp);

  void Insert(uint64_t hash);
  bool MightContain(uint64_t hash) const;

  const std::string& bitset() const { return bitset_; }
  BloomFilterHeader header() const;

 private:
  SplitBlockBloomFilter() = default;
  std::string bitset_;
};

}  // namespace sqe::parquet
