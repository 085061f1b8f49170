#pragma once
/// KeyHashTable: distinct encoded row keys (row_key_encoder.h) numbered 0, 1, 2, ... in
/// insertion order: the group table of HashAggregate and the key table of HashJoin's
/// build side. Open addressing with linear probing on the low bits of a 64-bit hash
/// (the high bits are left for radix partitioning); the probe compares a 32-bit hash tag
/// first, then the key bytes with memcmp. Keys live in one arena. Every growth is
/// reserved on the tracker first (ResourceExhausted when the query limit is hit).
///
/// Single-owner, not thread-safe; Find is const and may run concurrently with other
/// Finds once inserts are over.

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "common/memory_tracker.h"
#include "common/result.h"
#include "exec/row_key_encoder.h"

namespace sqe::exec {

class KeyHashTable {
 public:
  static constexpr uint32_t kNotFound = UINT32_MAX;

  explicit KeyHashTable(std::shared_ptr<MemoryTracker> tracker);

  /// groups[i] = the number of row i's key, inserting keys not seen before.
  Status FindOrInsert(const EncodedRows& rows, const uint64_t* hashes, int64_t n, uint32_t* groups);
  /// One key (merging tables).
  Result<uint32_t> FindOrInsert(std::string_view key, uint64_t hash);
  /// groups[i] = the number of row i's key, or kNotFound; rows with skip[i] != 0 (when
  /// skip is given) get kNotFound without a lookup.
  void Find(const EncodedRows& rows, const uint64_t* hashes, int64_t n, const uint8_t* skip,
            uint32_t* groups) const;

  /// Forgets the keys numbered `groups` and above (a batch that did not fit is taken
  /// back). O(capacity): it rebuilds the slots.
  void Truncate(int64_t groups);

  int64_t size() const { return static_cast<int64_t>(hashes_.size()); }
  std::string_view key(uint32_t g) const {
    return {reinterpret_cast<const char*>(arena_.data()) + starts_[g],
            static_cast<size_t>(starts_[g + 1] - starts_[g])};
  }
  uint64_t hash(uint32_t g) const { return hashes_[g]; }
  /// Every key, in group order (for RowKeyEncoder::Decode).
  std::vector<std::string_view> Keys() const;
  int64_t MemoryUsage() const;

 private:
  struct Slot {
    uint32_t tag;    // high half of the hash
    uint32_t group;  // group + 1; 0 = empty
  };
  Status Reserve(int64_t more_keys, int64_t more_bytes);
  Status Rehash(size_t capacity);
  uint32_t Insert(std::string_view key, uint64_t hash, size_t slot);

  Reservation reservation_;
  std::vector<Slot> slots_;
  std::vector<uint8_t> arena_;
  std::vector<uint64_t> starts_{0};  // size() + 1 entries
  std::vector<uint64_t> hashes_;
};

}  // namespace sqe::exec
