// avg: integers and double -> double, real -> real, decimal(p,s) -> decimal(p,s) rounded
// half up (Trino's results exactly). NULL for a group without values.

#include <cstdint>
#include <memory>
#include <vector>

#include "exec/functions/aggregate_accumulator_internal.h"

namespace sqe::exec::aggregate_internal {
namespace {

using columnar::Column;

/// Sums in double (as Trino does for every non-decimal input) and counts.
template <typename T, typename Out>
class FloatingAvg final : public GroupAccumulator {
 public:
  FloatingAvg(columnar::TypePtr result_type, std::shared_ptr<MemoryTracker> tracker)
      : result_type_(std::move(result_type)), memory_(std::move(tracker)) {}

  Status Resize(int64_t n) override {
    SQE_RETURN_NOT_OK(memory_.Ensure(n * 16));
    sums_.resize(static_cast<size_t>(n), 0.0);
    counts_.resize(static_cast<size_t>(n), 0);
    return Status::OK();
  }
  Status Update(const std::vector<Column>& args, const uint32_t* groups, int64_t rows) override {
    const Column& column = args[0];
    const T* values = column.Values<T>();
    const bool nulls = column.null_count() > 0;
    for (int64_t i = 0; i < rows; ++i) {
      if (nulls && column.IsNull(i)) continue;
      sums_[groups[i]] += static_cast<double>(values[i]);
      ++counts_[groups[i]];
    }
    return Status::OK();
  }
  Status Merge(GroupAccumulator& other, const uint32_t* map) override {
    auto& source = static_cast<FloatingAvg&>(other);
    for (size_t g = 0; g < source.sums_.size(); ++g) {
      if (map[g] == kSkipGroup) continue;
      sums_[map[g]] += source.sums_[g];
      counts_[map[g]] += source.counts_[g];
    }
    return Status::OK();
  }
  Result<Column> Finalize() override {
    std::vector<Out> values(sums_.size());
    std::vector<uint8_t> valid(sums_.size());
    for (size_t g = 0; g < sums_.size(); ++g) {
      if (counts_[g] == 0) continue;
      values[g] = static_cast<Out>(sums_[g] / static_cast<double>(counts_[g]));
      valid[g] = 1;
    }
    return FixedTraits<Out>::Build(result_type_, values, valid, memory_.tracker());
  }
  int64_t MemoryUsage() const override { return static_cast<int64_t>(sums_.capacity() * 16); }

 private:
  columnar::TypePtr result_type_;
  MemoryCharge memory_;
  std::vector<double> sums_;
  std::vector<int64_t> counts_;
};

class DecimalAvg final : public DecimalSumAccumulator {
 public:
  using DecimalSumAccumulator::DecimalSumAccumulator;

  Result<Column> Finalize() override {
    std::vector<columnar::Decimal128> values(state_.size());
    std::vector<uint8_t> valid(state_.size());
    for (size_t g = 0; g < state_.size(); ++g) {
      const int64_t count = state_.count(g);
      if (count == 0) continue;
      if (state_.wrapped(g)) {
        return Status::InvalidArgument(
            "decimal overflow in avg: the sum of the values exceeds 128 bits");
      }
      const Int128 sum = state_.sum(g);
      Int128 quotient = sum / count;
      Int128 remainder = sum % count;
      if (remainder < 0) remainder = -remainder;
      // Half up: a remainder of at least half the divisor rounds away from zero.
      if (remainder * 2 >= count) quotient += sum < 0 ? -1 : 1;
      values[g] = FromInt128(quotient);
      valid[g] = 1;
    }
    return FixedTraits<columnar::Decimal128>::Build(result_type_, values, valid, memory_.tracker());
  }
};

template <typename Acc>
AccumulatorFactory WithType(columnar::TypePtr type) {
  return
      [type](std::shared_ptr<MemoryTracker> tracker) -> Result<std::unique_ptr<GroupAccumulator>> {
        return std::unique_ptr<GroupAccumulator>(new Acc(type, std::move(tracker)));
      };
}

std::optional<AggregateFunction> ResolveAvg(const std::vector<columnar::TypePtr>& args) {
  using columnar::TypeId;
  if (args.size() != 1) return std::nullopt;
  const columnar::TypePtr type = args[0] != nullptr ? args[0] : columnar::Float64();
  const columnar::TypePtr dbl = columnar::Float64();
  switch (type->id()) {
    case TypeId::kInt8:
      return MakeFunction("avg", {type}, dbl, WithType<FloatingAvg<int8_t, double>>(dbl));
    case TypeId::kInt16:
      return MakeFunction("avg", {type}, dbl, WithType<FloatingAvg<int16_t, double>>(dbl));
    case TypeId::kInt32:
      return MakeFunction("avg", {type}, dbl, WithType<FloatingAvg<int32_t, double>>(dbl));
    case TypeId::kInt64:
      return MakeFunction("avg", {type}, dbl, WithType<FloatingAvg<int64_t, double>>(dbl));
    case TypeId::kFloat32:
      return MakeFunction("avg", {type}, columnar::Float32(),
                          WithType<FloatingAvg<float, float>>(columnar::Float32()));
    case TypeId::kFloat64:
      return MakeFunction("avg", {type}, dbl, WithType<FloatingAvg<double, double>>(dbl));
    case TypeId::kDecimal128:
      return MakeFunction("avg", {type}, type, WithType<DecimalAvg>(type));
    default:
      return std::nullopt;
  }
}

}  // namespace

void RegisterAvgAggregates(FunctionRegistry& registry) {
  AddAggregateFamily(registry, "avg", ResolveAvg, "double | real | decimal(p,s)",
                     "integer | real | double | decimal(p,s)",
                     "the arithmetic mean of the non-null values (NULL when there are none)");
}

}  // namespace sqe::exec::aggregate_internal
