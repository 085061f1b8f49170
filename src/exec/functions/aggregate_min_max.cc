// min, max (every scalar type, Trino's order: NaN largest, strings by UTF-8 bytes),
// arbitrary / any_value (the first non-null value seen), and max_by / min_by (x of the
// row with the largest / smallest y). NULL for a group without values.

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "exec/functions/aggregate_accumulator_internal.h"
#include "exec/functions/nested_comparison.h"
#include "exec/functions/nested_key_encoding.h"
#include "exec/functions/order_preserving_key.h"

namespace sqe::exec::aggregate_internal {
namespace {

using columnar::Column;

enum class Pick { kMin, kMax, kFirst };

template <Pick kPick, typename Traits>
bool Better(typename Traits::View candidate, typename Traits::View current) {
  if constexpr (kPick == Pick::kMin) return Traits::Less(candidate, current);
  if constexpr (kPick == Pick::kMax) return Traits::Less(current, candidate);
  return false;
}

/// Arrays, rows and maps for min / max / arbitrary: a value is held as its uint32-prefixed
/// order-preserving image (order_preserving_key.h; empty for maps, which only arbitrary
/// takes), compared with memcmp, then its grouping-key image, decoded at the end. NULL
/// elements order after every value (Trino refuses to compare them).
struct NestedTraits {
  using Stored = std::string;
  using View = std::string_view;
  struct Reader {
    explicit Reader(const Column& c) : column(&c), orderable(IsOrderableType(c.type())) {}
    /// Valid until the next call.
    std::string_view operator[](int64_t i) const {
      scratch.assign(sizeof(uint32_t), '\0');
      if (orderable) order_key::AppendSortValue(*column, i, &scratch);
      const uint32_t n = static_cast<uint32_t>(scratch.size() - sizeof(uint32_t));
      std::memcpy(scratch.data(), &n, sizeof(n));
      AppendGroupingKey(*column, i, &scratch);
      return scratch;
    }
    const Column* column;
    bool orderable;
    mutable std::string scratch;
  };
  static std::string_view OrderPart(View v) {
    uint32_t n;
    std::memcpy(&n, v.data(), sizeof(n));
    return v.substr(sizeof(n), n);
  }
  static void Assign(Stored* slot, View v) { slot->assign(v.data(), v.size()); }
  static View ToView(const Stored& s) { return s; }
  static bool Less(View a, View b) { return OrderPart(a) < OrderPart(b); }
  static int64_t ExtraBytes(View v) { return static_cast<int64_t>(v.size()); }
  static Result<Column> Build(const columnar::TypePtr& type, const std::vector<Stored>& v,
                              const std::vector<uint8_t>& valid,
                              const std::shared_ptr<MemoryTracker>& tracker) {
    std::vector<std::string> images(v.size());
    for (size_t g = 0; g < v.size(); ++g) {
      if (!valid[g]) continue;
      const std::string_view order = OrderPart(v[g]);
      images[g] = std::string(v[g].substr(sizeof(uint32_t) + order.size()));
    }
    return BuildRaw(type, images, valid, tracker);
  }
};

/// One value per group chosen by kPick.
template <typename Traits, Pick kPick>
class PickAccumulator final : public GroupAccumulator {
 public:
  PickAccumulator(columnar::TypePtr type, std::shared_ptr<MemoryTracker> tracker)
      : type_(std::move(type)), memory_(std::move(tracker)) {}

  Status Resize(int64_t n) override {
    values_.resize(static_cast<size_t>(n));
    has_.resize(static_cast<size_t>(n), 0);
    return Charge();
  }
  Status Update(const std::vector<Column>& args, const uint32_t* groups, int64_t rows) override {
    const Column& column = args[0];
    typename Traits::Reader reader(column);
    const bool nulls = column.null_count() > 0;
    for (int64_t i = 0; i < rows; ++i) {
      if (nulls && column.IsNull(i)) continue;
      Offer(groups[i], reader[i]);
    }
    return Charge();
  }
  Status Merge(GroupAccumulator& other, const uint32_t* map) override {
    auto& source = static_cast<PickAccumulator&>(other);
    for (size_t g = 0; g < source.values_.size(); ++g) {
      if (map[g] == kSkipGroup || !source.has_[g]) continue;
      Offer(map[g], Traits::ToView(source.values_[g]));
    }
    return Charge();
  }
  Result<Column> Finalize() override {
    return Traits::Build(type_, values_, has_, memory_.tracker());
  }
  int64_t MemoryUsage() const override {
    return static_cast<int64_t>(values_.capacity() * (sizeof(typename Traits::Stored) + 1)) +
           extra_bytes_;
  }

 private:
  void Offer(uint32_t g, typename Traits::View v) {
    if (!has_[g]) {
      has_[g] = 1;
      extra_bytes_ += Traits::ExtraBytes(v);
      Traits::Assign(&values_[g], v);
    } else if (Better<kPick, Traits>(v, Traits::ToView(values_[g]))) {
      extra_bytes_ += Traits::ExtraBytes(v) - Traits::ExtraBytes(Traits::ToView(values_[g]));
      Traits::Assign(&values_[g], v);
    }
  }
  Status Charge() { return memory_.Ensure(MemoryUsage()); }

  columnar::TypePtr type_;
  MemoryCharge memory_;
  std::vector<typename Traits::Stored> values_;
  std::vector<uint8_t> has_;
  int64_t extra_bytes_ = 0;
};

/// max_by(x, y) / min_by(x, y): y picked by KeyTraits, x carried as raw bytes.
template <typename KeyTraits, Pick kPick>
class PickByAccumulator final : public GroupAccumulator {
 public:
  PickByAccumulator(columnar::TypePtr type, std::shared_ptr<MemoryTracker> tracker)
      : type_(std::move(type)), memory_(std::move(tracker)) {}

  Status Resize(int64_t n) override {
    keys_.resize(static_cast<size_t>(n));
    values_.resize(static_cast<size_t>(n));
    has_.resize(static_cast<size_t>(n), 0);
    value_valid_.resize(static_cast<size_t>(n), 0);
    return Charge();
  }
  Status Update(const std::vector<Column>& args, const uint32_t* groups, int64_t rows) override {
    const Column& x = args[0];
    const Column& y = args[1];
    typename KeyTraits::Reader keys(y);
    char bool_byte;
    std::string image;  // a nested x travels as its grouping-key image (BuildRaw reads it)
    auto value = [&](int64_t i) -> std::string_view {
      if (!x.type()->is_nested()) return RawValue(x, i, &bool_byte);
      image.clear();
      AppendGroupingKey(x, i, &image);
      return image;
    };
    for (int64_t i = 0; i < rows; ++i) {
      if (y.IsNull(i)) continue;
      const uint32_t g = groups[i];
      const auto key = keys[i];
      if (has_[g] && !Better<kPick, KeyTraits>(key, KeyTraits::ToView(keys_[g]))) continue;
      Take(g, key, x.IsValid(i), x.IsValid(i) ? value(i) : std::string_view());
    }
    return Charge();
  }
  Status Merge(GroupAccumulator& other, const uint32_t* map) override {
    auto& source = static_cast<PickByAccumulator&>(other);
    for (size_t g = 0; g < source.keys_.size(); ++g) {
      if (map[g] == kSkipGroup || !source.has_[g]) continue;
      const uint32_t target = map[g];
      const auto key = KeyTraits::ToView(source.keys_[g]);
      if (has_[target] && !Better<kPick, KeyTraits>(key, KeyTraits::ToView(keys_[target]))) {
        continue;
      }
      Take(target, key, source.value_valid_[g] != 0, source.values_[g]);
    }
    return Charge();
  }
  Result<Column> Finalize() override {
    std::vector<uint8_t> valid(has_.size());
    for (size_t g = 0; g < has_.size(); ++g) valid[g] = has_[g] && value_valid_[g];
    return BuildRaw(type_, values_, valid, memory_.tracker());
  }
  int64_t MemoryUsage() const override {
    return static_cast<int64_t>(keys_.capacity() * (sizeof(typename KeyTraits::Stored) + 34)) +
           extra_bytes_;
  }

 private:
  void Take(uint32_t g, typename KeyTraits::View key, bool valid, std::string_view value) {
    if (has_[g]) extra_bytes_ -= KeyTraits::ExtraBytes(KeyTraits::ToView(keys_[g]));
    extra_bytes_ += KeyTraits::ExtraBytes(key) + static_cast<int64_t>(value.size()) -
                    static_cast<int64_t>(values_[g].size());
    has_[g] = 1;
    KeyTraits::Assign(&keys_[g], key);
    value_valid_[g] = valid ? 1 : 0;
    values_[g].assign(value.data(), value.size());
  }
  Status Charge() { return memory_.Ensure(MemoryUsage()); }

  columnar::TypePtr type_;
  MemoryCharge memory_;
  std::vector<typename KeyTraits::Stored> keys_;
  std::vector<std::string> values_;
  std::vector<uint8_t> has_;
  std::vector<uint8_t> value_valid_;
  int64_t extra_bytes_ = 0;
};

template <Pick kPick>
std::optional<AggregateFunction> ResolvePick(const std::string& name,
                                             const std::vector<columnar::TypePtr>& args) {
  if (args.size() != 1) return std::nullopt;
  const columnar::TypePtr type = args[0] != nullptr ? args[0] : columnar::Boolean();
  if (type->is_nested()) {
    // min / max need an order (no map inside); arbitrary takes any value.
    if (kPick != Pick::kFirst && !IsOrderableType(type)) return std::nullopt;
    return MakeFunction(name, {type}, type,
                        [type](std::shared_ptr<MemoryTracker> tracker)
                            -> Result<std::unique_ptr<GroupAccumulator>> {
                          return std::unique_ptr<GroupAccumulator>(
                              new PickAccumulator<NestedTraits, kPick>(type, std::move(tracker)));
                        });
  }
  std::optional<AggregateFunction> result;
  VisitValueTraits(type, [&](auto traits) {
    using Traits = decltype(traits);
    result = MakeFunction(name, {type}, type,
                          [type](std::shared_ptr<MemoryTracker> tracker)
                              -> Result<std::unique_ptr<GroupAccumulator>> {
                            return std::unique_ptr<GroupAccumulator>(
                                new PickAccumulator<Traits, kPick>(type, std::move(tracker)));
                          });
  });
  return result;
}

template <Pick kPick>
std::optional<AggregateFunction> ResolvePickBy(const std::string& name,
                                               const std::vector<columnar::TypePtr>& args) {
  if (args.size() != 2) return std::nullopt;
  const columnar::TypePtr x = args[0] != nullptr ? args[0] : columnar::Boolean();
  const columnar::TypePtr y = args[1] != nullptr ? args[1] : columnar::Boolean();
  auto make = [&](auto traits) {
    using Traits = decltype(traits);
    return MakeFunction(
        name, {x, y}, x,
        [x](std::shared_ptr<MemoryTracker> tracker) -> Result<std::unique_ptr<GroupAccumulator>> {
          return std::unique_ptr<GroupAccumulator>(
              new PickByAccumulator<Traits, kPick>(x, std::move(tracker)));
        });
  };
  if (y->is_nested()) {
    if (!IsOrderableType(y)) return std::nullopt;
    return make(NestedTraits{});
  }
  std::optional<AggregateFunction> result;
  VisitValueTraits(y, [&](auto traits) { result = make(traits); });
  return result;
}

}  // namespace

void RegisterMinMaxAggregates(FunctionRegistry& registry) {
  auto pick = [&](const std::string& name, auto resolver, const char* description) {
    AddAggregateFamily(
        registry, name,
        [name, resolver](const std::vector<columnar::TypePtr>& args) {
          return resolver(name, args);
        },
        "T", "T", description);
  };
  pick("min", ResolvePick<Pick::kMin>, "the smallest non-null value");
  pick("max", ResolvePick<Pick::kMax>, "the largest non-null value");
  pick("arbitrary", ResolvePick<Pick::kFirst>, "an arbitrary non-null value of the group");
  pick("any_value", ResolvePick<Pick::kFirst>, "an arbitrary non-null value of the group");
  auto pick_by = [&](const std::string& name, auto resolver, const char* description) {
    AddAggregateFamily(
        registry, name,
        [name, resolver](const std::vector<columnar::TypePtr>& args) {
          return resolver(name, args);
        },
        "T", "T, U", description);
  };
  pick_by("max_by", ResolvePickBy<Pick::kMax>, "x of the row with the largest y");
  pick_by("min_by", ResolvePickBy<Pick::kMin>, "x of the row with the smallest y");
}

}  // namespace sqe::exec::aggregate_internal
