// Comparison operators: one generic resolver per operator (both sides coerced to their
// common super type) and typed comparison loops.

#include "exec/functions/comparison.h"

#include <cstring>
#include <string_view>

#include "exec/functions/builtin_families.h"
#include "exec/functions/kernel_internal.h"
#include "exec/functions/nested_comparison.h"

namespace sqe::exec {

using columnar::Column;
using columnar::TypeId;
using columnar::TypePtr;

namespace {

template <typename T>
bool Apply(CompareOp op, const T& a, const T& b) {
  switch (op) {
    case CompareOp::kEq:
      return a == b;
    case CompareOp::kNe:
      return !(a == b);
    case CompareOp::kLt:
      return a < b;
    case CompareOp::kLe:
      return a < b || a == b;
    case CompareOp::kGt:
      return b < a;
    default:
      return b < a || a == b;
  }
}

template <typename T>
Result<Column> CompareFixed(CompareOp op, const Column& a, const Column& b, int64_t rows,
                            columnar::BufferPtr validity, int64_t nulls, const EvalContext& ctx) {
  const T* x = a.Values<T>();
  const T* y = b.Values<T>();
  switch (op) {
    case CompareOp::kEq:
      return kernel::MakeBooleanColumn(rows, validity, nulls, ctx,
                                       [&](int64_t i) { return x[i] == y[i]; });
    case CompareOp::kNe:
      return kernel::MakeBooleanColumn(rows, validity, nulls, ctx,
                                       [&](int64_t i) { return !(x[i] == y[i]); });
    case CompareOp::kLt:
      return kernel::MakeBooleanColumn(rows, validity, nulls, ctx,
                                       [&](int64_t i) { return x[i] < y[i]; });
    case CompareOp::kLe:
      return kernel::MakeBooleanColumn(rows, validity, nulls, ctx,
                                       [&](int64_t i) { return x[i] <= y[i]; });
    case CompareOp::kGt:
      return kernel::MakeBooleanColumn(rows, validity, nulls, ctx,
                                       [&](int64_t i) { return x[i] > y[i]; });
    default:
      return kernel::MakeBooleanColumn(rows, validity, nulls, ctx,
                                       [&](int64_t i) { return x[i] >= y[i]; });
  }
}

}  // namespace

bool IsComparableType(const TypePtr& type) { return type != nullptr; }

Result<Column> CompareColumns(CompareOp op, const Column& a, const Column& b,
                              const EvalContext& ctx) {
  if (!a.type()->Equals(*b.type())) {
    return Status::InvalidArgument("cannot compare " + a.type()->ToString() + " with " +
                                   b.type()->ToString());
  }
  if (a.type()->is_nested()) return CompareNestedColumns(op, a, b, ctx);
  const int64_t rows = a.length();
  int64_t nulls = 0;
  SQE_ASSIGN_OR_RETURN(columnar::BufferPtr validity,
                       kernel::IntersectValidity({&a, &b}, rows, ctx, &nulls));
  switch (a.type_id()) {
    case TypeId::kInt8:
      return CompareFixed<int8_t>(op, a, b, rows, validity, nulls, ctx);
    case TypeId::kInt16:
      return CompareFixed<int16_t>(op, a, b, rows, validity, nulls, ctx);
    case TypeId::kInt32:
    case TypeId::kDate32:
      return CompareFixed<int32_t>(op, a, b, rows, validity, nulls, ctx);
    case TypeId::kInt64:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
      return CompareFixed<int64_t>(op, a, b, rows, validity, nulls, ctx);
    case TypeId::kFloat32:
      return CompareFixed<float>(op, a, b, rows, validity, nulls, ctx);
    case TypeId::kFloat64:
      return CompareFixed<double>(op, a, b, rows, validity, nulls, ctx);
    case TypeId::kDecimal128: {
      const auto* x = a.Values<columnar::Decimal128>();
      const auto* y = b.Values<columnar::Decimal128>();
      return kernel::MakeBooleanColumn(rows, validity, nulls, ctx, [&](int64_t i) {
        return Apply(op, kernel::ToInt128(x[i]), kernel::ToInt128(y[i]));
      });
    }
    case TypeId::kBoolean:
      return kernel::MakeBooleanColumn(rows, validity, nulls, ctx, [&](int64_t i) {
        return Apply(op, static_cast<int>(a.BoolAt(i)), static_cast<int>(b.BoolAt(i)));
      });
    case TypeId::kString:
    case TypeId::kBinary:
      return kernel::MakeBooleanColumn(rows, validity, nulls, ctx, [&](int64_t i) {
        // string_view compares like memcmp: unsigned bytes, i.e. UTF-8 code point order.
        return CompareHolds(op, a.StringAt(i).compare(b.StringAt(i)));
      });
    case TypeId::kFixedSizeBinary:
    case TypeId::kUuid:
      return kernel::MakeBooleanColumn(rows, validity, nulls, ctx, [&](int64_t i) {
        return CompareHolds(op, a.FixedSizeBinaryAt(i).compare(b.FixedSizeBinaryAt(i)));
      });
    default:
      return Status::NotImplemented("comparison of " + a.type()->ToString() +
                                    " values is not supported");
  }
}

void RegisterComparisonFunctions(FunctionRegistry& registry) {
  const struct {
    CompareOp op;
    const char* name;
  } kOps[] = {{CompareOp::kEq, "="},  {CompareOp::kNe, "<>"}, {CompareOp::kLt, "<"},
              {CompareOp::kLe, "<="}, {CompareOp::kGt, ">"},  {CompareOp::kGe, ">="}};
  for (const auto& o : kOps) {
    const CompareOp op = o.op;
    const std::string name = o.name;
    ScalarKernel k = [op](const std::vector<Column>& args, int64_t, const ScalarFunction&,
                          const EvalContext& ctx) {
      return CompareColumns(op, args[0], args[1], ctx);
    };
    FunctionInfo info;
    info.name = name;
    info.return_type = "boolean";
    info.argument_types = "T, T";
    info.description =
        "comparison of two values of an orderable type T (after coercion to "
        "their common super type)";
    const bool ordering = op != CompareOp::kEq && op != CompareOp::kNe;
    registry.AddScalar(
        name,
        [name, k,
         ordering](const std::vector<TypePtr>& types) -> Result<std::optional<ScalarFunction>> {
          if (types.size() != 2) return std::optional<ScalarFunction>();
          auto super = CommonSuperType(types[0], types[1]);
          if (!super) return std::optional<ScalarFunction>();
          TypePtr t = *super ? *super : columnar::Boolean();
          if (!IsComparableType(t)) return std::optional<ScalarFunction>();
          // Maps (and arrays / rows holding one) have `=` but no order.
          if (ordering && t->is_nested() && !IsOrderableType(t)) {
            return std::optional<ScalarFunction>();
          }
          return kernel::Instance(name, {t, t}, columnar::Boolean(), k);
        },
        info);
  }
}

}  // namespace sqe::exec
