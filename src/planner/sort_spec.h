#pragma once
/// SortSpec: one ORDER BY key of a logical plan (Sort, TopN, a window's ORDER BY): an
/// expression over the node's input columns, its direction and where NULLs go.

#include "exec/expression.h"

namespace sqe::planner {

struct SortSpec {
  exec::ExprPtr expr;
  bool ascending = true;
  bool nulls_first = false;
};

}  // namespace sqe::planner
