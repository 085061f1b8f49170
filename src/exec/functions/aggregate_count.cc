// count(*), count(x), count_if(b): a bigint per group, 0 for a group that saw no rows.

#include <cstdint>
#include <memory>
#include <vector>

#include "exec/functions/aggregate_accumulator_internal.h"

namespace sqe::exec::aggregate_internal {
namespace {

using columnar::Column;

enum class CountMode { kRows, kNonNull, kTrue };

template <CountMode kMode>
class CountAccumulator final : public GroupAccumulator {
 public:
  explicit CountAccumulator(std::shared_ptr<MemoryTracker> tracker) : memory_(std::move(tracker)) {}

  Status Resize(int64_t num_groups) override {
    SQE_RETURN_NOT_OK(memory_.Ensure(num_groups * static_cast<int64_t>(sizeof(int64_t))));
    counts_.resize(static_cast<size_t>(num_groups), 0);
    return Status::OK();
  }

  Status Update(const std::vector<Column>& args, const uint32_t* group_ids, int64_t rows) override {
    int64_t* counts = counts_.data();
    if constexpr (kMode == CountMode::kRows) {
      for (int64_t i = 0; i < rows; ++i) ++counts[group_ids[i]];
    } else {
      const Column& column = args[0];
      const bool has_nulls = column.null_count() > 0;
      if constexpr (kMode == CountMode::kNonNull) {
        if (!has_nulls) {
          for (int64_t i = 0; i < rows; ++i) ++counts[group_ids[i]];
        } else {
          for (int64_t i = 0; i < rows; ++i) counts[group_ids[i]] += column.IsValid(i) ? 1 : 0;
        }
      } else {
        for (int64_t i = 0; i < rows; ++i) {
          counts[group_ids[i]] += (column.IsValid(i) && column.BoolAt(i)) ? 1 : 0;
        }
      }
    }
    return Status::OK();
  }

  Status Merge(GroupAccumulator& other, const uint32_t* group_map) override {
    auto& source = static_cast<CountAccumulator&>(other);
    for (size_t g = 0; g < source.counts_.size(); ++g) {
      if (group_map[g] != kSkipGroup) counts_[group_map[g]] += source.counts_[g];
    }
    return Status::OK();
  }

  Result<Column> Finalize() override {
    columnar::Int64Builder builder(columnar::Int64(), memory_.tracker());
    SQE_RETURN_NOT_OK(builder.AppendValues(counts_.data(), static_cast<int64_t>(counts_.size())));
    return builder.Finish();
  }

  int64_t MemoryUsage() const override {
    return static_cast<int64_t>(counts_.capacity() * sizeof(int64_t));
  }

 private:
  MemoryCharge memory_;
  std::vector<int64_t> counts_;
};

}  // namespace

void RegisterCountAggregates(FunctionRegistry& registry) {
  AddAggregateFamily(
      registry, "count",
      [](const std::vector<columnar::TypePtr>& args) -> std::optional<AggregateFunction> {
        if (args.empty()) {
          return MakeFunction("count", {}, columnar::Int64(),
                              FactoryOf<CountAccumulator<CountMode::kRows>>());
        }
        if (args.size() != 1) return std::nullopt;
        // count(NULL): an untyped NULL counts as boolean.
        columnar::TypePtr type = args[0] != nullptr ? args[0] : columnar::Boolean();
        return MakeFunction("count", {type}, columnar::Int64(),
                            FactoryOf<CountAccumulator<CountMode::kNonNull>>());
      },
      "bigint", "T", "count(*): the number of rows; count(x): the number of non-null values");
  AddAggregateFamily(
      registry, "count_if",
      [](const std::vector<columnar::TypePtr>& args) -> std::optional<AggregateFunction> {
        if (args.size() != 1) return std::nullopt;
        if (args[0] != nullptr && args[0]->id() != columnar::TypeId::kBoolean) return std::nullopt;
        return MakeFunction("count_if", {columnar::Boolean()}, columnar::Int64(),
                            FactoryOf<CountAccumulator<CountMode::kTrue>>());
      },
      "bigint", "boolean", "the number of rows where the argument is true");
}

}  // namespace sqe::exec::aggregate_internal
