#pragma once
/// Sort elision: an ORDER BY over an Iceberg scan (through filters and projections that
/// pass the sort keys through unchanged) served by the scan reading its files in sorted
/// order instead of sorting (query.sort_mode, catalog.trust_sort_order; what proves the
/// order is iceberg/scan/task_ordering.h). The physical planner asks after planning the
/// sort's input; when the scan can deliver the order it is planned right then (its
/// manifests read), reads its tasks in order on one thread, and the Sort is left out (a
/// TopN becomes a Limit). EXPLAIN shows the scan's ordered_by=... and no Sort.

#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "exec/physical_operator.h"
#include "iceberg/scan/task_ordering.h"
#include "planner/logical_plan.h"

namespace sqe::planner {

/// The Iceberg field ids and directions of `keys` when each is a column that `input`
/// passes through unchanged from one Iceberg table scan; nullopt otherwise.
std::optional<std::vector<iceberg::OrderKey>> SortKeysOnScan(const LogicalNode& input,
                                                             const std::vector<SortSpec>& keys);

/// How `sort_mode` ("strict", "partition_only", "adaptive") and `trust_sort_order` let
/// metadata prove an order; nullopt for strict (never).
std::optional<iceberg::TaskOrderingOptions> TaskOrderingFor(const std::string& sort_mode,
                                                            bool trust_sort_order);

/// Makes the Iceberg scan at the bottom of `input` (a physical chain of Filter and
/// Projection operators over it) read its tasks ordered by `keys`, when its files prove
/// that order; true when it will. Plans the scan now (it must have its own file system).
bool OrderScanBy(exec::PhysicalOperator& input, const std::vector<iceberg::OrderKey>& keys,
                 const iceberg::TaskOrderingOptions& options);

}  // namespace sqe::planner
