// MakeOrderedAggregate: the buffering wrapper of aggregate_ordered.h.

#include "exec/functions/aggregate_ordered.h"

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "exec/functions/aggregate_accumulator_internal.h"
#include "exec/functions/nested_comparison.h"
#include "exec/functions/order_preserving_key.h"

namespace sqe::exec {
namespace {

using aggregate_internal::KeptChunks;
using aggregate_internal::RowRef;
using columnar::Column;

using aggregate_internal::MakeValueCompare;
using aggregate_internal::ValueCompare;

class OrderedAccumulator final : public GroupAccumulator {
 public:
  OrderedAccumulator(const AggregateFunction* inner, const std::vector<AggregateSortKey>* keys,
                     const std::vector<ValueCompare>* compares, bool with_filter,
                     std::shared_ptr<MemoryTracker> tracker)
      : inner_(inner),
        keys_(keys),
        compares_(compares),
        with_filter_(with_filter),
        chunks_(std::move(tracker)) {}

  Status Resize(int64_t n) override {
    groups_.resize(static_cast<size_t>(n));
    return Charge();
  }
  Status Update(const std::vector<Column>& args, const uint32_t* groups, int64_t rows) override {
    if (rows == 0) return Status::OK();
    SQE_ASSIGN_OR_RETURN(const uint32_t chunk, chunks_.Keep(args, rows, OwnBytes()));
    const Column* filter = with_filter_ ? &args.back() : nullptr;
    for (int64_t i = 0; i < rows; ++i) {
      if (filter != nullptr && (filter->IsNull(i) || !filter->BoolAt(i))) continue;
      groups_[groups[i]].push_back(RowRef{chunk, static_cast<uint32_t>(i)});
      ++refs_;
    }
    return Charge();
  }
  Status Merge(GroupAccumulator& other, const uint32_t* map) override {
    const auto& source = static_cast<OrderedAccumulator&>(other);
    SQE_ASSIGN_OR_RETURN(const uint32_t base, chunks_.KeepAll(source.chunks_, OwnBytes()));
    for (size_t g = 0; g < source.groups_.size(); ++g) {
      if (map[g] == kSkipGroup) continue;
      auto& target = groups_[map[g]];
      for (const RowRef& r : source.groups_[g]) target.push_back(RowRef{base + r.chunk, r.row});
      refs_ += static_cast<int64_t>(source.groups_[g].size());
    }
    return Charge();
  }
  Result<Column> Finalize() override {
    const size_t num_args = inner_->arg_types.size();
    std::vector<RowRef> sorted_refs;
    std::vector<uint32_t> group_ids;
    sorted_refs.reserve(static_cast<size_t>(refs_));
    group_ids.reserve(static_cast<size_t>(refs_));
    for (size_t g = 0; g < groups_.size(); ++g) {
      std::vector<RowRef>& refs = groups_[g];
      std::stable_sort(refs.begin(), refs.end(),
                       [&](const RowRef& a, const RowRef& b) { return Compare(a, b) < 0; });
      sorted_refs.insert(sorted_refs.end(), refs.begin(), refs.end());
      group_ids.insert(group_ids.end(), refs.size(), static_cast<uint32_t>(g));
    }
    SQE_ASSIGN_OR_RETURN(auto accumulator, inner_->make_accumulator(chunks_.tracker()));
    SQE_RETURN_NOT_OK(accumulator->Resize(static_cast<int64_t>(groups_.size())));
    if (!group_ids.empty()) {
      std::vector<Column> sorted(num_args);
      for (size_t a = 0; a < num_args; ++a) {
        SQE_ASSIGN_OR_RETURN(
            sorted[a], aggregate_internal::Gather(chunks_, a, inner_->arg_types[a], sorted_refs));
      }
      SQE_RETURN_NOT_OK(
          accumulator->Update(sorted, group_ids.data(), static_cast<int64_t>(group_ids.size())));
    }
    return accumulator->Finalize();
  }
  int64_t MemoryUsage() const override { return chunks_.bytes() + OwnBytes(); }

 private:
  /// The references and per-group vectors (the kept chunks aside).
  int64_t OwnBytes() const {
    return refs_ * static_cast<int64_t>(sizeof(RowRef)) + static_cast<int64_t>(groups_.size()) * 24;
  }
  Status Charge() { return chunks_.Charge(OwnBytes()); }
  int Compare(const RowRef& a, const RowRef& b) const {
    const size_t first_key = inner_->arg_types.size();
    for (size_t k = 0; k < keys_->size(); ++k) {
      const Column& ca = chunks_.At(a.chunk, first_key + k);
      const Column& cb = chunks_.At(b.chunk, first_key + k);
      const bool na = ca.IsNull(a.row), nb = cb.IsNull(b.row);
      const AggregateSortKey& key = (*keys_)[k];
      if (na || nb) {
        if (na && nb) continue;
        return (na == key.nulls_first) ? -1 : 1;
      }
      const int c = (*compares_)[k](ca, a.row, cb, b.row);
      if (c != 0) return key.ascending ? c : -c;
    }
    return 0;
  }

  const AggregateFunction* inner_;
  const std::vector<AggregateSortKey>* keys_;
  const std::vector<ValueCompare>* compares_;
  bool with_filter_;
  KeptChunks chunks_;
  std::vector<std::vector<RowRef>> groups_;
  int64_t refs_ = 0;
};

/// An interned wrapper: the function and what its accumulators point at.
struct OrderedEntry {
  AggregateFunction function;
  std::vector<AggregateSortKey> keys;
  std::vector<ValueCompare> compares;
};

}  // namespace

namespace aggregate_internal {

ValueCompare MakeValueCompare(const columnar::TypePtr& type) {
  ValueCompare compare;
  if (type->is_nested()) {  // arrays and rows: by their order-preserving images
    return [](const Column& a, int64_t i, const Column& b, int64_t j) {
      std::string x, y;
      order_key::AppendSortValue(a, i, &x);
      order_key::AppendSortValue(b, j, &y);
      const int c = x.compare(y);
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    };
  }
  VisitValueTraits(type, [&](auto traits) {
    using Traits = decltype(traits);
    compare = [](const Column& a, int64_t i, const Column& b, int64_t j) {
      typename Traits::Reader ra(a), rb(b);
      const auto va = ra[i];
      const auto vb = rb[j];
      if (Traits::Less(va, vb)) return -1;
      if (Traits::Less(vb, va)) return 1;
      return 0;
    };
  });
  return compare;
}

}  // namespace aggregate_internal

Result<const AggregateFunction*> MakeOrderedAggregate(const AggregateFunction* inner,
                                                      const std::vector<AggregateSortKey>& keys,
                                                      bool with_filter) {
  std::string key = std::to_string(reinterpret_cast<uintptr_t>(inner)) + (with_filter ? "f" : "");
  for (const AggregateSortKey& k : keys) {
    if (k.type == nullptr || !IsOrderableType(k.type)) {
      return Status::InvalidArgument("ORDER BY inside " + inner->name + " on type " +
                                     (k.type == nullptr ? "unknown" : k.type->ToString()) +
                                     " is not orderable");
    }
    key += "|" + k.type->ToString() + (k.ascending ? "a" : "d") + (k.nulls_first ? "f" : "l");
  }
  static std::mutex mutex;
  static auto* interned = new std::map<std::string, std::unique_ptr<OrderedEntry>>();
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = (*interned)[key];
  if (slot == nullptr) {
    auto entry = std::make_unique<OrderedEntry>();
    entry->keys = keys;
    for (const AggregateSortKey& k : keys) entry->compares.push_back(MakeValueCompare(k.type));
    AggregateFunction& f = entry->function;
    f.name = inner->name;
    f.arg_types = inner->arg_types;
    for (const AggregateSortKey& k : keys) f.arg_types.push_back(k.type);
    if (with_filter) f.arg_types.push_back(columnar::Boolean());
    f.return_type = inner->return_type;
    f.distinct = inner->distinct;
    const OrderedEntry* e = entry.get();
    f.make_accumulator =
        [inner, e, with_filter](
            std::shared_ptr<MemoryTracker> tracker) -> Result<std::unique_ptr<GroupAccumulator>> {
      return std::unique_ptr<GroupAccumulator>(
          new OrderedAccumulator(inner, &e->keys, &e->compares, with_filter, std::move(tracker)));
    };
    slot = std::move(entry);
  }
  return &slot->function;
}

bool AggregateKeepsNullInputs(std::string_view name) {
  return name == "array_agg" || name == "map_agg" || name == "multimap_agg" || name == "checksum";
}

}  // namespace sqe::exec
