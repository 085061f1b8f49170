// bool_and / every (true when every non-null value is true) and bool_or (true when any
// is). NULL for a group without values.

#include <cstdint>
#include <memory>
#include <vector>

#include "exec/functions/aggregate_accumulator_internal.h"

namespace sqe::exec::aggregate_internal {
namespace {

using columnar::Column;

template <bool kAnd>
class BoolAccumulator final : public GroupAccumulator {
 public:
  explicit BoolAccumulator(std::shared_ptr<MemoryTracker> tracker) : memory_(std::move(tracker)) {}

  Status Resize(int64_t n) override {
    SQE_RETURN_NOT_OK(memory_.Ensure(n * 2));
    values_.resize(static_cast<size_t>(n), kAnd ? 1 : 0);
    seen_.resize(static_cast<size_t>(n), 0);
    return Status::OK();
  }
  Status Update(const std::vector<Column>& args, const uint32_t* groups, int64_t rows) override {
    const Column& column = args[0];
    const bool nulls = column.null_count() > 0;
    for (int64_t i = 0; i < rows; ++i) {
      if (nulls && column.IsNull(i)) continue;
      Add(groups[i], column.BoolAt(i));
    }
    return Status::OK();
  }
  Status Merge(GroupAccumulator& other, const uint32_t* map) override {
    auto& source = static_cast<BoolAccumulator&>(other);
    for (size_t g = 0; g < source.values_.size(); ++g) {
      if (map[g] != kSkipGroup && source.seen_[g]) Add(map[g], source.values_[g] != 0);
    }
    return Status::OK();
  }
  Result<Column> Finalize() override {
    return BoolTraits::Build(columnar::Boolean(), values_, seen_, memory_.tracker());
  }
  int64_t MemoryUsage() const override { return static_cast<int64_t>(values_.capacity() * 2); }

 private:
  void Add(uint32_t g, bool v) {
    seen_[g] = 1;
    if constexpr (kAnd) {
      values_[g] &= v ? 1 : 0;
    } else {
      values_[g] |= v ? 1 : 0;
    }
  }

  MemoryCharge memory_;
  std::vector<uint8_t> values_;
  std::vector<uint8_t> seen_;
};

template <bool kAnd>
void AddBool(FunctionRegistry& registry, const std::string& name, const char* description) {
  AddAggregateFamily(
      registry, name,
      [name](const std::vector<columnar::TypePtr>& args) -> std::optional<AggregateFunction> {
        if (args.size() != 1) return std::nullopt;
        if (args[0] != nullptr && args[0]->id() != columnar::TypeId::kBoolean) return std::nullopt;
        return MakeFunction(name, {columnar::Boolean()}, columnar::Boolean(),
                            FactoryOf<BoolAccumulator<kAnd>>());
      },
      "boolean", "boolean", description);
}

}  // namespace

void RegisterBoolAggregates(FunctionRegistry& registry) {
  AddBool<true>(registry, "bool_and", "true when every non-null value is true");
  AddBool<true>(registry, "every", "true when every non-null value is true");
  AddBool<false>(registry, "bool_or", "true when any non-null value is true");
}

}  // namespace sqe::exec::aggregate_internal
