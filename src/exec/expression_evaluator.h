#pragma once
/// The vectorized expression evaluator: evaluates a bound Expr over a whole Batch, one
/// column per expression node (kernels run typed loops over raw buffers; no per-row
/// virtual call or allocation). Literals are broadcast to full columns.
///
/// Laziness: AND / OR evaluate their later operands only on the rows the earlier ones
/// left undecided (and not at all when every row is decided); CASE evaluates each WHEN
/// only on rows no earlier WHEN took and each THEN only on the rows its WHEN took;
/// COALESCE evaluates later arguments only on rows still NULL. So
/// `CASE WHEN x = 0 THEN 0 ELSE 10 / x END` never divides by zero.
///
/// Thread-safe: evaluation only reads the expression and the batch.

#include "columnar/batch.h"
#include "columnar/column.h"
#include "columnar/selection_vector.h"
#include "common/result.h"
#include "exec/expression.h"
#include "exec/functions/registry.h"
#include "exec/value.h"

namespace sqe::exec {

/// The column `expr` computes for every row of `input` (kColumn reads
/// input.column(expr.column)).
Result<columnar::Column> Evaluate(const Expr& expr, const columnar::Batch& input,
                                  const EvalContext& ctx);

/// Rows of `input` where the boolean `predicate` is true (not false, not null).
Result<columnar::SelectionVector> EvaluatePredicate(const Expr& predicate,
                                                    const columnar::Batch& input,
                                                    const EvalContext& ctx);

/// A constant expression (no column refs) folded to a Value (constant folding in the
/// binder). InvalidArgument when the expression references a column.
Result<Value> EvaluateConstant(const Expr& expr, const EvalContext& ctx);

}  // namespace sqe::exec
