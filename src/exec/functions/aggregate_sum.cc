// sum: integers -> bigint (overflow is an error), decimal(p,s) -> decimal(38,s) (an
// error past 38 digits), real / double -> double. NULL for a group without values.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "exec/functions/aggregate_accumulator_internal.h"

namespace sqe::exec::aggregate_internal {
namespace {

using columnar::Column;

Status BigintOverflow(int64_t a, int64_t b) {
  return Status::InvalidArgument("bigint addition overflow in sum: " + std::to_string(a) + " + " +
                                 std::to_string(b));
}

/// Integer inputs of type T summed into int64 with overflow checks.
template <typename T>
class IntegerSum final : public GroupAccumulator {
 public:
  explicit IntegerSum(std::shared_ptr<MemoryTracker> tracker) : memory_(std::move(tracker)) {}

  Status Resize(int64_t n) override {
    SQE_RETURN_NOT_OK(memory_.Ensure(n * 9));
    sums_.resize(static_cast<size_t>(n), 0);
    seen_.resize(static_cast<size_t>(n), 0);
    return Status::OK();
  }
  Status Update(const std::vector<Column>& args, const uint32_t* groups, int64_t rows) override {
    const Column& column = args[0];
    const T* values = column.Values<T>();
    const bool nulls = column.null_count() > 0;
    for (int64_t i = 0; i < rows; ++i) {
      if (nulls && column.IsNull(i)) continue;
      const uint32_t g = groups[i];
      int64_t result;
      if (__builtin_add_overflow(sums_[g], static_cast<int64_t>(values[i]), &result)) {
        return BigintOverflow(sums_[g], values[i]);
      }
      sums_[g] = result;
      seen_[g] = 1;
    }
    return Status::OK();
  }
  Status Merge(GroupAccumulator& other, const uint32_t* map) override {
    auto& source = static_cast<IntegerSum&>(other);
    for (size_t g = 0; g < source.sums_.size(); ++g) {
      if (map[g] == kSkipGroup || !source.seen_[g]) continue;
      int64_t result;
      if (__builtin_add_overflow(sums_[map[g]], source.sums_[g], &result)) {
        return BigintOverflow(sums_[map[g]], source.sums_[g]);
      }
      sums_[map[g]] = result;
      seen_[map[g]] = 1;
    }
    return Status::OK();
  }
  Result<Column> Finalize() override {
    return FixedTraits<int64_t>::Build(columnar::Int64(), sums_, seen_, memory_.tracker());
  }
  int64_t MemoryUsage() const override { return static_cast<int64_t>(sums_.capacity() * 9); }

 private:
  MemoryCharge memory_;
  std::vector<int64_t> sums_;
  std::vector<uint8_t> seen_;
};

/// real / double summed into double.
template <typename T>
class FloatingSum final : public GroupAccumulator {
 public:
  explicit FloatingSum(std::shared_ptr<MemoryTracker> tracker) : memory_(std::move(tracker)) {}

  Status Resize(int64_t n) override {
    SQE_RETURN_NOT_OK(memory_.Ensure(n * 9));
    sums_.resize(static_cast<size_t>(n), 0.0);
    seen_.resize(static_cast<size_t>(n), 0);
    return Status::OK();
  }
  Status Update(const std::vector<Column>& args, const uint32_t* groups, int64_t rows) override {
    const Column& column = args[0];
    const T* values = column.Values<T>();
    const bool nulls = column.null_count() > 0;
    for (int64_t i = 0; i < rows; ++i) {
      if (nulls && column.IsNull(i)) continue;
      sums_[groups[i]] += static_cast<double>(values[i]);
      seen_[groups[i]] = 1;
    }
    return Status::OK();
  }
  Status Merge(GroupAccumulator& other, const uint32_t* map) override {
    auto& source = static_cast<FloatingSum&>(other);
    for (size_t g = 0; g < source.sums_.size(); ++g) {
      if (map[g] == kSkipGroup || !source.seen_[g]) continue;
      sums_[map[g]] += source.sums_[g];
      seen_[map[g]] = 1;
    }
    return Status::OK();
  }
  Result<Column> Finalize() override {
    return FixedTraits<double>::Build(columnar::Float64(), sums_, seen_, memory_.tracker());
  }
  int64_t MemoryUsage() const override { return static_cast<int64_t>(sums_.capacity() * 9); }

 private:
  MemoryCharge memory_;
  std::vector<double> sums_;
  std::vector<uint8_t> seen_;
};

class DecimalSum final : public DecimalSumAccumulator {
 public:
  using DecimalSumAccumulator::DecimalSumAccumulator;

  Result<Column> Finalize() override {
    std::vector<columnar::Decimal128> values(state_.size());
    std::vector<uint8_t> valid(state_.size());
    for (size_t g = 0; g < state_.size(); ++g) {
      if (state_.count(g) == 0) continue;
      const columnar::Decimal128 sum = FromInt128(state_.sum(g));
      if (state_.wrapped(g) || !sum.FitsInPrecision(38)) {
        return Status::InvalidArgument("decimal overflow in sum: the result exceeds 38 digits");
      }
      values[g] = sum;
      valid[g] = 1;
    }
    return FixedTraits<columnar::Decimal128>::Build(result_type_, values, valid, memory_.tracker());
  }
};

std::optional<AggregateFunction> ResolveSum(const std::vector<columnar::TypePtr>& args) {
  using columnar::TypeId;
  if (args.size() != 1) return std::nullopt;
  const columnar::TypePtr type = args[0] != nullptr ? args[0] : columnar::Int64();
  switch (type->id()) {
    case TypeId::kInt8:
      return MakeFunction("sum", {type}, columnar::Int64(), FactoryOf<IntegerSum<int8_t>>());
    case TypeId::kInt16:
      return MakeFunction("sum", {type}, columnar::Int64(), FactoryOf<IntegerSum<int16_t>>());
    case TypeId::kInt32:
      return MakeFunction("sum", {type}, columnar::Int64(), FactoryOf<IntegerSum<int32_t>>());
    case TypeId::kInt64:
      return MakeFunction("sum", {type}, columnar::Int64(), FactoryOf<IntegerSum<int64_t>>());
    case TypeId::kFloat32:
      return MakeFunction("sum", {type}, columnar::Float64(), FactoryOf<FloatingSum<float>>());
    case TypeId::kFloat64:
      return MakeFunction("sum", {type}, columnar::Float64(), FactoryOf<FloatingSum<double>>());
    case TypeId::kDecimal128: {
      columnar::TypePtr result = columnar::Decimal(38, type->scale());
      return MakeFunction(
          "sum", {type}, result,
          [result](
              std::shared_ptr<MemoryTracker> tracker) -> Result<std::unique_ptr<GroupAccumulator>> {
            return std::unique_ptr<GroupAccumulator>(new DecimalSum(result, std::move(tracker)));
          });
    }
    default:
      return std::nullopt;
  }
}

}  // namespace

void RegisterSumAggregates(FunctionRegistry& registry) {
  AddAggregateFamily(registry, "sum", ResolveSum, "bigint | decimal(38,s) | double",
                     "integer | decimal(p,s) | real | double",
                     "the sum of the non-null values (NULL when there are none)");
}

}  // namespace sqe::exec::aggregate_internal
