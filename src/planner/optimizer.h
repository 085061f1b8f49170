#pragma once
/// The logical optimizer: rewrites a bound plan into a cheaper equivalent, rule by rule:
///  1. filter pushdown: conjuncts move below projections and into join sides (and into
///     join conditions for inner joins; equalities spanning both sides become join keys),
///     and into scans, where they prune Iceberg files and Parquet row groups / pages;
///  2. join reordering of inner-join trees from estimated cardinalities (dynamic
///     programming up to 10 relations, greedy beyond) with the smaller side built;
///  3. projection pruning: scans read only the columns some ancestor uses;
///  4. limit pushdown: Sort + Limit become TopN.
/// Each rule keeps the plan's output columns (ids and order) unchanged.

#include "common/result.h"
#include "planner/logical_plan.h"

namespace sqe::planner {

Result<LogicalPtr> Optimize(const LogicalPtr& plan);

}  // namespace sqe::planner
