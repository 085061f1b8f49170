#pragma once
/// The logical Window node's functions (LogicalKind::kWindow): each window function call
/// of a SELECT, bound over the node's input columns, with its PARTITION BY, ORDER BY and
/// resolved frame. The node outputs its input's columns, then one column per function.
/// The physical planner turns them into exec::WindowCall (exec/window.h), which the
/// Window operator groups by distinct (PARTITION BY, ORDER BY) so each sorts once.

#include <set>
#include <string>
#include <vector>

#include "exec/expression.h"
#include "exec/functions/registry.h"
#include "exec/window.h"
#include "planner/sort_spec.h"

namespace sqe::planner {

/// One frame bound: a count of rows / peer groups for ROWS and GROUPS; for RANGE with an
/// offset, `range_value` computes the ORDER BY key value the bound reaches (key - offset
/// or key + offset, in the ORDER BY's direction).
struct WindowBoundSpec {
  exec::WindowBoundType type = exec::WindowBoundType::kCurrentRow;
  int64_t offset = 0;
  exec::ExprPtr range_value;
};

struct WindowFunctionSpec {
  exec::WindowFunctionKind kind = exec::WindowFunctionKind::kRowNumber;
  std::string name;                                    ///< as called, lower-case
  const exec::AggregateFunction* aggregate = nullptr;  ///< kAggregate
  std::vector<exec::ExprPtr> args;
  bool ignore_nulls = false;
  std::vector<exec::ExprPtr> partition_by;
  std::vector<SortSpec> order_by;
  exec::WindowFrameUnit unit = exec::WindowFrameUnit::kRange;
  WindowBoundSpec start{exec::WindowBoundType::kUnboundedPreceding, 0, nullptr};
  WindowBoundSpec end{exec::WindowBoundType::kCurrentRow, 0, nullptr};
  /// RANGE with an offset: the single ORDER BY key in the bound values' type.
  exec::ExprPtr range_key;
};

/// "rank() OVER (PARTITION BY #3 ORDER BY #4 DESC RANGE BETWEEN UNBOUNDED PRECEDING AND
/// CURRENT ROW)" for EXPLAIN.
std::string WindowFunctionToString(const WindowFunctionSpec& spec);

/// Every expression of `spec` (arguments, keys, bound values), for column pruning.
std::vector<exec::ExprPtr> WindowFunctionExprs(const WindowFunctionSpec& spec);

}  // namespace sqe::planner
