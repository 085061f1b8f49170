// DISTINCT aggregates (count(DISTINCT x), sum(DISTINCT x), ...): a per-group set of the
// argument values seen; the wrapped accumulator sees each (group, value) once, at
// Finalize. Rows with a NULL argument are skipped (most aggregates ignore them), except
// for aggregates that collect NULLs (array_agg, checksum: AggregateKeepsNullInputs), where
// NULL is one more distinct value.

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "exec/functions/aggregate_accumulator_internal.h"
#include "exec/functions/aggregate_hash.h"
#include "exec/functions/aggregate_ordered.h"
#include "exec/functions/nested_key_encoding.h"

namespace sqe::exec::aggregate_internal {
namespace {

using columnar::Column;

/// A set of byte strings (group id ++ length-prefixed argument values) in one arena,
/// open addressing on 64-bit hashes.
class ByteStringSet {
 public:
  int64_t size() const { return static_cast<int64_t>(starts_.size()); }
  std::string_view at(int64_t e) const {
    const uint64_t end = e + 1 < size() ? starts_[e + 1] : arena_.size();
    return {reinterpret_cast<const char*>(arena_.data()) + starts_[e],
            static_cast<size_t>(end - starts_[e])};
  }
  /// Inserts `key`; true when it was new.
  bool Insert(std::string_view key, uint64_t hash) {
    if ((size() + 1) * 2 > static_cast<int64_t>(slots_.size())) Grow();
    const uint64_t mask = slots_.size() - 1;
    for (uint64_t s = hash & mask;; s = (s + 1) & mask) {
      const uint32_t entry = slots_[s];
      if (entry == 0) {
        slots_[s] = static_cast<uint32_t>(size() + 1);
        hashes_.push_back(hash);
        starts_.push_back(arena_.size());
        arena_.insert(arena_.end(), key.begin(), key.end());
        return true;
      }
      if (hashes_[entry - 1] == hash && at(entry - 1) == key) return false;
    }
  }
  int64_t MemoryUsage() const {
    return static_cast<int64_t>(arena_.capacity() + slots_.capacity() * 4 + hashes_.capacity() * 8 +
                                starts_.capacity() * 8);
  }

 private:
  void Grow() {
    std::vector<uint32_t> slots(std::max<size_t>(64, slots_.size() * 2), 0);
    const uint64_t mask = slots.size() - 1;
    for (int64_t e = 0; e < size(); ++e) {
      uint64_t s = hashes_[e] & mask;
      while (slots[s] != 0) s = (s + 1) & mask;
      slots[s] = static_cast<uint32_t>(e + 1);
    }
    slots_.swap(slots);
  }

  std::vector<uint8_t> arena_;
  std::vector<uint64_t> starts_;
  std::vector<uint64_t> hashes_;
  std::vector<uint32_t> slots_;
};

class DistinctAccumulator final : public GroupAccumulator {
 public:
  DistinctAccumulator(AggregateFunction inner, std::shared_ptr<MemoryTracker> tracker)
      : inner_(std::move(inner)),
        keep_nulls_(AggregateKeepsNullInputs(inner_.name)),
        memory_(std::move(tracker)) {}

  Status Resize(int64_t n) override {
    num_groups_ = n;
    return Status::OK();
  }
  Status Update(const std::vector<Column>& args, const uint32_t* groups, int64_t rows) override {
    std::string key;
    std::string image;
    char bool_byte;
    for (int64_t i = 0; i < rows; ++i) {
      bool any_null = false;
      for (const Column& arg : args) any_null |= arg.IsNull(i);
      if (any_null && !keep_nulls_) continue;
      key.assign(reinterpret_cast<const char*>(&groups[i]), sizeof(uint32_t));
      for (const Column& arg : args) {
        if (arg.IsNull(i)) {
          key.append(reinterpret_cast<const char*>(&kNullLength), sizeof(kNullLength));
        } else if (arg.type()->is_nested()) {  // its grouping-key image (BuildRaw reads it)
          image.clear();
          AppendGroupingKey(arg, i, &image);
          AppendValue(image, &key);
        } else {
          AppendValue(RawValue(arg, i, &bool_byte), &key);
        }
      }
      set_.Insert(key, HashBytes(key));
    }
    return memory_.Ensure(set_.MemoryUsage());
  }
  Status Merge(GroupAccumulator& other, const uint32_t* map) override {
    auto& source = static_cast<DistinctAccumulator&>(other);
    std::string key;
    for (int64_t e = 0; e < source.set_.size(); ++e) {
      std::string_view entry = source.set_.at(e);
      uint32_t group;
      std::memcpy(&group, entry.data(), sizeof(group));
      if (map[group] == kSkipGroup) continue;
      key.assign(reinterpret_cast<const char*>(&map[group]), sizeof(uint32_t));
      key.append(entry.substr(sizeof(uint32_t)));
      set_.Insert(key, HashBytes(key));
    }
    return memory_.Ensure(set_.MemoryUsage());
  }
  Result<Column> Finalize() override {
    SQE_ASSIGN_OR_RETURN(auto inner, inner_.make_accumulator(memory_.tracker()));
    SQE_RETURN_NOT_OK(inner->Resize(num_groups_));
    // Feed the distinct entries in chunks, one column per argument.
    constexpr int64_t kChunk = 4096;
    const size_t num_args = inner_.arg_types.size();
    for (int64_t begin = 0; begin < set_.size(); begin += kChunk) {
      const int64_t end = std::min(set_.size(), begin + kChunk);
      std::vector<uint32_t> groups;
      std::vector<std::vector<std::string>> values(num_args);
      std::vector<std::vector<uint8_t>> valid(num_args);
      for (int64_t e = begin; e < end; ++e) {
        std::string_view entry = set_.at(e);
        uint32_t group;
        std::memcpy(&group, entry.data(), sizeof(group));
        groups.push_back(group);
        entry.remove_prefix(sizeof(uint32_t));
        for (size_t a = 0; a < num_args; ++a) {
          uint32_t length;
          std::memcpy(&length, entry.data(), sizeof(length));
          entry.remove_prefix(sizeof(length));
          if (length == kNullLength) {
            values[a].emplace_back();
            valid[a].push_back(0);
            continue;
          }
          values[a].emplace_back(entry.substr(0, length));
          valid[a].push_back(1);
          entry.remove_prefix(length);
        }
      }
      std::vector<Column> columns;
      for (size_t a = 0; a < num_args; ++a) {
        SQE_ASSIGN_OR_RETURN(Column column,
                             BuildRaw(inner_.arg_types[a], values[a], valid[a], memory_.tracker()));
        columns.push_back(std::move(column));
      }
      SQE_RETURN_NOT_OK(inner->Update(columns, groups.data(), end - begin));
    }
    return inner->Finalize();
  }
  int64_t MemoryUsage() const override { return set_.MemoryUsage(); }

 private:
  static void AppendValue(std::string_view value, std::string* key) {
    const uint32_t length = static_cast<uint32_t>(value.size());
    key->append(reinterpret_cast<const char*>(&length), sizeof(length));
    key->append(value);
  }

  /// The length that marks a NULL argument in a key (no value bytes follow).
  static constexpr uint32_t kNullLength = UINT32_MAX;

  AggregateFunction inner_;
  bool keep_nulls_;
  MemoryCharge memory_;
  ByteStringSet set_;
  int64_t num_groups_ = 0;
};

}  // namespace

AggregateFunction MakeDistinct(AggregateFunction inner) {
  AggregateFunction distinct = inner;
  distinct.distinct = true;
  distinct.make_accumulator =
      [inner](std::shared_ptr<MemoryTracker> tracker) -> Result<std::unique_ptr<GroupAccumulator>> {
    return std::unique_ptr<GroupAccumulator>(new DistinctAccumulator(inner, std::move(tracker)));
  };
  return distinct;
}

}  // namespace sqe::exec::aggregate_internal
