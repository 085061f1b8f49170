// RegisterAggregateFunctions and the helpers every aggregate family file shares.

#include <string>
#include <utility>
#include <vector>

#include "exec/functions/aggregate_accumulator_internal.h"
#include "exec/functions/builtin_families.h"
#include "exec/functions/nested_key_encoding.h"

namespace sqe::exec {
namespace aggregate_internal {

using columnar::Column;

std::string_view RawValue(const Column& column, int64_t i, char* bool_byte) {
  switch (column.type()->layout()) {
    case columnar::Layout::kBitmap:
      *bool_byte = column.BoolAt(i) ? 1 : 0;
      return {bool_byte, 1};
    case columnar::Layout::kFixedWidth:
      return column.FixedSizeBinaryAt(i);
    default:
      return column.StringAt(i);
  }
}

Result<Column> BuildRaw(const columnar::TypePtr& type, const std::vector<std::string>& values,
                        const std::vector<uint8_t>& valid,
                        const std::shared_ptr<MemoryTracker>& tracker) {
  const int64_t n = static_cast<int64_t>(values.size());
  if (type->is_nested()) {  // values are grouping-key images (nested_key_encoding.h)
    SQE_ASSIGN_OR_RETURN(std::unique_ptr<columnar::ColumnBuilder> builder,
                         columnar::MakeBuilder(type, tracker));
    SQE_RETURN_NOT_OK(builder->Reserve(n));
    for (int64_t g = 0; g < n; ++g) {
      const char* p = values[g].data();
      SQE_RETURN_NOT_OK(valid[g] ? ReadGroupingKey(&p, builder.get()) : builder->AppendNull());
    }
    return builder->Finish();
  }
  switch (type->layout()) {
    case columnar::Layout::kBitmap: {
      columnar::BooleanBuilder builder(tracker);
      SQE_RETURN_NOT_OK(builder.Reserve(n));
      for (int64_t g = 0; g < n; ++g) {
        SQE_RETURN_NOT_OK(valid[g] ? builder.Append(values[g][0] != 0) : builder.AppendNull());
      }
      return builder.Finish();
    }
    case columnar::Layout::kFixedWidth: {
      // The buffers of any fixed-width type are those of fixed(width): build that, retype.
      const int32_t width = type->byte_width();
      columnar::FixedSizeBinaryBuilder builder(columnar::FixedSizeBinary(width), tracker);
      SQE_RETURN_NOT_OK(builder.Reserve(n));
      for (int64_t g = 0; g < n; ++g) {
        SQE_RETURN_NOT_OK(valid[g] ? builder.Append(values[g]) : builder.AppendNull());
      }
      SQE_ASSIGN_OR_RETURN(Column raw, builder.Finish());
      return Column::Make(type, raw.length(), raw.buffers(), {}, raw.null_count());
    }
    default: {
      columnar::BinaryBuilder builder(type, tracker);
      SQE_RETURN_NOT_OK(builder.Reserve(n));
      for (int64_t g = 0; g < n; ++g) {
        SQE_RETURN_NOT_OK(valid[g] ? builder.Append(values[g]) : builder.AppendNull());
      }
      return builder.Finish();
    }
  }
}

AggregateFunction MakeFunction(std::string name, std::vector<columnar::TypePtr> arg_types,
                               columnar::TypePtr return_type, AccumulatorFactory factory) {
  AggregateFunction function;
  function.name = std::move(name);
  function.arg_types = std::move(arg_types);
  function.return_type = std::move(return_type);
  function.make_accumulator = std::move(factory);
  return function;
}

void AddAggregateFamily(
    FunctionRegistry& registry, const std::string& name,
    std::function<std::optional<AggregateFunction>(const std::vector<columnar::TypePtr>& arg_types)>
        resolver,
    std::string return_type, std::string argument_types, std::string description) {
  FunctionInfo info;
  info.name = name;
  info.return_type = std::move(return_type);
  info.argument_types = std::move(argument_types);
  info.kind = "aggregate";
  info.description = std::move(description);
  registry.AddAggregate(
      name,
      [resolver](const std::vector<columnar::TypePtr>& arg_types,
                 bool distinct) -> Result<std::optional<AggregateFunction>> {
        std::optional<AggregateFunction> function = resolver(arg_types);
        if (function && distinct && !function->arg_types.empty()) {
          function = MakeDistinct(std::move(*function));
        }
        return function;
      },
      std::move(info));
}

void AddDoubleArgumentFamily(FunctionRegistry& registry, const std::string& name, size_t arity,
                             bool bigint_result, AccumulatorFactory factory,
                             std::string argument_names, std::string description) {
  if (argument_names.empty()) {
    for (size_t i = 0; i < arity; ++i) argument_names += i == 0 ? "double" : ", double";
  }
  const columnar::TypePtr result = bigint_result ? columnar::Int64() : columnar::Float64();
  AddAggregateFamily(
      registry, name,
      [name, arity, result,
       factory](const std::vector<columnar::TypePtr>& args) -> std::optional<AggregateFunction> {
        if (args.size() != arity) return std::nullopt;
        for (const columnar::TypePtr& t : args) {
          if (!IsNumber(t)) return std::nullopt;
        }
        return MakeFunction(name, std::vector<columnar::TypePtr>(arity, columnar::Float64()),
                            result, factory);
      },
      bigint_result ? "bigint" : "double", std::move(argument_names), std::move(description));
}

}  // namespace aggregate_internal

void RegisterAggregateFunctions(FunctionRegistry& registry) {
  aggregate_internal::RegisterCountAggregates(registry);
  aggregate_internal::RegisterSumAggregates(registry);
  aggregate_internal::RegisterAvgAggregates(registry);
  aggregate_internal::RegisterMinMaxAggregates(registry);
  aggregate_internal::RegisterVarianceAggregates(registry);
  aggregate_internal::RegisterBoolAggregates(registry);
  aggregate_internal::RegisterApproxDistinctAggregates(registry);
  aggregate_internal::RegisterStatisticsAggregates(registry);
  aggregate_internal::RegisterCollectAggregates(registry);
  aggregate_internal::RegisterChecksumAggregate(registry);
  aggregate_internal::RegisterApproxPercentileAggregate(registry);
  aggregate_internal::RegisterMinMaxByNAggregates(registry);
}

}  // namespace sqe::exec
