#pragma once
/// Element-wise comparison of two columns of the same orderable type (numbers, decimals,
/// strings and varbinary by unsigned bytes, booleans, dates, times, timestamps, uuid;
/// arrays, rows and maps through nested_comparison.h):
/// the kernels behind = <> < <= > >= and the evaluator's IN / IS DISTINCT FROM. NULL in,
/// NULL out; NaN compares unequal and unordered (IEEE). Pure, thread-safe.

#include "columnar/column.h"
#include "common/result.h"
#include "exec/functions/registry.h"

namespace sqe::exec {

enum class CompareOp : uint8_t { kEq, kNe, kLt, kLe, kGt, kGe };

/// Whether `op` holds for a three-way comparison result c (<0, 0, >0).
inline bool CompareHolds(CompareOp op, int c) {
  switch (op) {
    case CompareOp::kEq:
      return c == 0;
    case CompareOp::kNe:
      return c != 0;
    case CompareOp::kLt:
      return c < 0;
    case CompareOp::kLe:
      return c <= 0;
    case CompareOp::kGt:
      return c > 0;
    default:
      return c >= 0;
  }
}

/// A boolean column: a[i] op b[i]. InvalidArgument when the types differ or do not order.
Result<columnar::Column> CompareColumns(CompareOp op, const columnar::Column& a,
                                        const columnar::Column& b, const EvalContext& ctx);

/// Whether values of `type` can be compared by CompareColumns with `=`: every typed value
/// (scalars, arrays, rows and maps); `<` and the other orderings need IsOrderableType.
bool IsComparableType(const columnar::TypePtr& type);

}  // namespace sqe::exec
