#pragma once
/// PhysicalPlanner: turns an optimized logical plan into physical operators
/// (exec/*.h): column ids become input indices, non-column keys are computed by a
/// projection below the operator that needs them, equi-join conditions become hash
/// keys, and the root is a ResultCollector. Stateless apart from its options.

#include <functional>
#include <memory>
#include <string>

#include "common/result.h"
#include "exec/physical_operator.h"
#include "exec/result_collector.h"
#include "planner/logical_plan.h"

namespace sqe::planner {

struct PhysicalPlanOptions {
  int64_t max_result_rows = 0;  ///< query.max_result_rows (0 = unlimited)
  int64_t target_split_size = int64_t{128} << 20;
  /// query.sort_mode: "strict" always sorts; "partition_only" (identity partition values)
  /// and "adaptive" (also the files' sort orders and bounds) let an ORDER BY over an
  /// Iceberg scan be served by reading its files in order (sort_elision.h).
  std::string sort_mode = "adaptive";
  /// catalog.trust_sort_order: files that declare no sort order are sorted by the
  /// table's default one.
  bool trust_sort_order = false;
  /// When set, the plan's output operator (columns in the plan's output order) is passed
  /// through this before the ResultCollector goes on top, e.g. INSERT puts its
  /// TableInsert sink there and the collector receives the row count it produces.
  std::function<Result<exec::PhysicalOperatorPtr>(exec::PhysicalOperatorPtr)> wrap_output;
};

/// The executable plan: `root` is the ResultCollector, whose schema is the result's.
struct PhysicalPlan {
  std::unique_ptr<exec::ResultCollector> root;
};

Result<PhysicalPlan> CreatePhysicalPlan(const LogicalPtr& plan, const PhysicalPlanOptions& options);

}  // namespace sqe::planner
