#include "exec/key_hash_table.h"

#include <algorithm>
#include <cstring>

namespace sqe::exec {

namespace {
inline uint32_t Tag(uint64_t hash) { return static_cast<uint32_t>(hash >> 32); }
}  // namespace

KeyHashTable::KeyHashTable(std::shared_ptr<MemoryTracker> tracker)
    : reservation_(std::move(Reservation::Make(std::move(tracker), 0)).value()) {
  slots_.assign(64, Slot{0, 0});
}

int64_t KeyHashTable::MemoryUsage() const {
  return static_cast<int64_t>(slots_.capacity() * sizeof(Slot) + arena_.capacity() +
                              starts_.capacity() * 8 + hashes_.capacity() * 8);
}

Status KeyHashTable::Reserve(int64_t more_keys, int64_t more_bytes) {
  // What the table would hold after `more_keys` keys of `more_bytes` bytes: vectors grow
  // by doubling, so charge their next capacities when they would grow.
  const size_t keys = hashes_.size() + static_cast<size_t>(more_keys);
  size_t slots = slots_.size();
  while (keys * 2 > slots) slots *= 2;
  auto grown = [](size_t capacity, size_t needed) {
    return needed <= capacity ? capacity : std::max(needed, capacity * 2);
  };
  const int64_t needed = static_cast<int64_t>(
      slots * sizeof(Slot) + grown(arena_.capacity(), arena_.size() + more_bytes) +
      grown(starts_.capacity(), keys + 1) * 8 + grown(hashes_.capacity(), keys) * 8);
  if (needed > reservation_.bytes()) {
    SQE_RETURN_NOT_OK(reservation_.Resize(needed + needed / 4));
  }
  if (slots != slots_.size()) return Rehash(slots);
  return Status::OK();
}

Status KeyHashTable::Rehash(size_t capacity) {
  std::vector<Slot> slots(capacity, Slot{0, 0});
  const size_t mask = capacity - 1;
  for (size_t g = 0; g < hashes_.size(); ++g) {
    size_t s = hashes_[g] & mask;
    while (slots[s].group != 0) s = (s + 1) & mask;
    slots[s] = Slot{Tag(hashes_[g]), static_cast<uint32_t>(g + 1)};
  }
  slots_.swap(slots);
  return Status::OK();
}

uint32_t KeyHashTable::Insert(std::string_view key, uint64_t hash, size_t slot) {
  const uint32_t group = static_cast<uint32_t>(hashes_.size());
  slots_[slot] = Slot{Tag(hash), group + 1};
  arena_.insert(arena_.end(), key.begin(), key.end());
  starts_.push_back(arena_.size());
  hashes_.push_back(hash);
  return group;
}

Status KeyHashTable::FindOrInsert(const EncodedRows& rows, const uint64_t* hashes, int64_t n,
                                  uint32_t* groups) {
  SQE_RETURN_NOT_OK(Reserve(n, static_cast<int64_t>(rows.bytes.size())));
  const size_t mask = slots_.size() - 1;
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t hash = hashes[i];
    const std::string_view k = rows.row(i);
    const uint32_t tag = Tag(hash);
    size_t s = hash & mask;
    while (true) {
      const Slot slot = slots_[s];
      if (slot.group == 0) {
        groups[i] = Insert(k, hash, s);
        break;
      }
      if (slot.tag == tag && key(slot.group - 1) == k) {
        groups[i] = slot.group - 1;
        break;
      }
      s = (s + 1) & mask;
    }
  }
  return Status::OK();
}

Result<uint32_t> KeyHashTable::FindOrInsert(std::string_view k, uint64_t hash) {
  SQE_RETURN_NOT_OK(Reserve(1, static_cast<int64_t>(k.size())));
  const size_t mask = slots_.size() - 1;
  const uint32_t tag = Tag(hash);
  for (size_t s = hash & mask;; s = (s + 1) & mask) {
    const Slot slot = slots_[s];
    if (slot.group == 0) return Insert(k, hash, s);
    if (slot.tag == tag && key(slot.group - 1) == k) return slot.group - 1;
  }
}

void KeyHashTable::Find(const EncodedRows& rows, const uint64_t* hashes, int64_t n,
                        const uint8_t* skip, uint32_t* groups) const {
  const size_t mask = slots_.size() - 1;
  for (int64_t i = 0; i < n; ++i) {
    groups[i] = kNotFound;
    if (skip != nullptr && skip[i]) continue;
    const uint64_t hash = hashes[i];
    const std::string_view k = rows.row(i);
    const uint32_t tag = Tag(hash);
    for (size_t s = hash & mask;; s = (s + 1) & mask) {
      const Slot slot = slots_[s];
      if (slot.group == 0) break;
      if (slot.tag == tag && key(slot.group - 1) == k) {
        groups[i] = slot.group - 1;
        break;
      }
    }
  }
}

void KeyHashTable::Truncate(int64_t groups) {
  if (groups >= size()) return;
  const auto g = static_cast<size_t>(groups);
  arena_.resize(starts_[g]);
  starts_.resize(g + 1);
  hashes_.resize(g);
  (void)Rehash(slots_.size());
}

std::vector<std::string_view> KeyHashTable::Keys() const {
  std::vector<std::string_view> keys;
  keys.reserve(hashes_.size());
  for (size_t g = 0; g < hashes_.size(); ++g) keys.push_back(key(static_cast<uint32_t>(g)));
  return keys;
}

}  // namespace sqe::exec
