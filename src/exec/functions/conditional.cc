// Conditional functions: nullif, greatest, least. `if(cond, a[, b])` is not a kernel: the
// binder rewrites it to CASE (ExprKind::kCase), so its branches are evaluated lazily like
// CASE's; COALESCE is ExprKind::kCoalesce for the same reason.

#include "exec/functions/builtin_families.h"
#include "exec/functions/comparison.h"
#include "exec/functions/interleave.h"
#include "exec/functions/kernel_internal.h"
#include "exec/functions/nested_comparison.h"

namespace sqe::exec {

using columnar::Column;
using columnar::TypePtr;

namespace {

Result<Column> NullIf(const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
                      const EvalContext& ctx) {
  SQE_ASSIGN_OR_RETURN(Column eq, CompareColumns(CompareOp::kEq, args[0], args[1], ctx));
  SQE_ASSIGN_OR_RETURN(auto validity, kernel::AllocateBuffer(columnar::BytesForBits(rows), ctx));
  int64_t nulls = 0;
  for (int64_t i = 0; i < rows; ++i) {
    const bool equal = eq.IsValid(i) && eq.BoolAt(i);
    if (args[0].IsValid(i) && !equal) {
      columnar::SetBit(validity->mutable_data(), i);
    } else {
      ++nulls;
    }
  }
  return kernel::WithValidity(args[0], std::move(validity), nulls, ctx);
}

ScalarKernel Extreme(bool greatest) {
  return [greatest](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
                    const EvalContext& ctx) -> Result<Column> {
    // Winner per row as (piece, row); NULL if any argument is NULL (Trino).
    std::vector<int32_t> piece(rows, 0);
    std::vector<uint32_t> index(rows);
    for (int64_t i = 0; i < rows; ++i) index[i] = static_cast<uint32_t>(i);
    Column best = args[0];
    for (size_t k = 1; k < args.size(); ++k) {
      SQE_ASSIGN_OR_RETURN(Column better, CompareColumns(greatest ? CompareOp::kGt : CompareOp::kLt,
                                                         args[k], best, ctx));
      for (int64_t i = 0; i < rows; ++i) {
        if (better.IsValid(i) && better.BoolAt(i)) piece[i] = static_cast<int32_t>(k);
      }
      SQE_ASSIGN_OR_RETURN(best,
                           Interleave(fn.return_type, args, piece.data(), index.data(), rows, ctx));
    }
    for (int64_t i = 0; i < rows; ++i) {
      for (const Column& a : args) {
        if (a.IsNull(i)) {
          piece[i] = -1;
          break;
        }
      }
    }
    return Interleave(fn.return_type, args, piece.data(), index.data(), rows, ctx);
  };
}

ScalarResolver SameTypeResolver(std::string name, size_t min_args, size_t max_args,
                                ScalarKernel k) {
  return [=](const std::vector<TypePtr>& types) -> Result<std::optional<ScalarFunction>> {
    if (types.size() < min_args || types.size() > max_args) return std::optional<ScalarFunction>();
    TypePtr super;
    for (const TypePtr& t : types) {
      auto s = CommonSuperType(super, t);
      if (!s) return std::optional<ScalarFunction>();
      super = *s;
    }
    if (super == nullptr) super = columnar::Boolean();
    if (!IsComparableType(super)) return std::optional<ScalarFunction>();
    // greatest / least order their arguments: no map (nullif only tests `=`).
    if (name != "nullif" && !IsOrderableType(super)) return std::optional<ScalarFunction>();
    return kernel::Instance(name, std::vector<TypePtr>(types.size(), super), super, k);
  };
}

}  // namespace

void RegisterConditionalFunctions(FunctionRegistry& r) {
  r.AddScalar(
      "nullif", SameTypeResolver("nullif", 2, 2, NullIf),
      {"nullif", "T", "T, T", "scalar", "NULL if the two values are equal, else the first"});
  r.AddScalar(
      "greatest", SameTypeResolver("greatest", 1, 1 << 16, Extreme(true)),
      {"greatest", "T", "T, ...", "scalar", "the largest argument (NULL if any argument is NULL)"});
  r.AddScalar(
      "least", SameTypeResolver("least", 1, 1 << 16, Extreme(false)),
      {"least", "T", "T, ...", "scalar", "the smallest argument (NULL if any argument is NULL)"});
}

}  // namespace sqe::exec
