#pragma once
/// The logical plan: what the binder builds from the AST and the optimizer rewrites.
/// Every node produces a list of columns, each with a plan-wide unique id (ColumnInfo);
/// expressions (exec::Expr) refer to columns by that id, so rules can move predicates
/// and prune columns without renumbering. Nodes that only pass rows through (Filter,
/// Sort, Limit) keep their child's ids; nodes that compute columns (Project, Aggregate,
/// Scan, Values, set operations) give them fresh ids from the plan's IdAllocator.
///
/// Plans are trees of shared_ptr<LogicalNode>; rules build new nodes rather than editing
/// shared ones in place.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "columnar/batch.h"
#include "columnar/data_type.h"
#include "exec/expression.h"
#include "exec/functions/registry.h"
#include "exec/parquet_scan.h"
#include "io/file_system.h"
#include "planner/logical_window.h"
#include "planner/sort_spec.h"

namespace sqe::planner {

using exec::ExprPtr;

struct ColumnInfo {
  int32_t id = -1;
  std::string name;
  columnar::TypePtr type;
  bool nullable = true;
};

/// Hands out column ids, unique within one statement's plan.
class IdAllocator {
 public:
  int32_t Next() { return next_++; }

 private:
  int32_t next_ = 0;
};

/// What a scan reads: an Iceberg table, Parquet files, or generated integers.
struct ScanSource {
  enum class Kind { kIceberg, kParquet, kRange };
  Kind kind = Kind::kIceberg;
  std::string display_name;  ///< "iceberg.tpch.lineitem", "read_parquet(...)"
  /// Every column of the source, in table order.
  columnar::SchemaPtr schema;
  // Iceberg:
  catalog::LoadedTable table;
  std::shared_ptr<io::FileSystem> fs;
  std::vector<int32_t> field_ids;  ///< per column of `schema`
  std::optional<int64_t> snapshot_id;
  std::optional<std::string> ref;
  std::optional<int64_t> as_of_timestamp_ms;
  // Parquet (read_parquet): the paths as written and what they expanded to.
  std::vector<std::string> patterns;
  exec::ParquetScanSource parquet;
  // Range (range / generate_series): row_count values range_start, + range_step, ...
  int64_t range_start = 0;
  int64_t range_step = 1;
  /// Rows in the source (snapshot summary total-records, Parquet footers); -1 unknown.
  int64_t row_count = -1;
  /// Per column of `schema`: an upper bound on its distinct values (from column metrics:
  /// max - min + 1 of integer-like columns, else the row count); empty or -1 unknown.
  std::vector<int64_t> distinct_bounds;
  /// Iceberg hidden columns ("$path", "$file_modified_time"), not part of `SELECT *`: index
  /// schema->num_fields() + k of scan_columns is hidden_columns[k]; field_ids holds their
  /// reserved field ids (exec/table_scan.h) after the schema's.
  std::vector<columnar::Field> hidden_columns;
  /// Column `c` of the index space scan_columns uses: the schema's, then the hidden ones.
  const columnar::Field& column(int c) const {
    const int n = schema->num_fields();
    return c < n ? schema->field(c) : hidden_columns[static_cast<size_t>(c - n)];
  }
};

enum class LogicalKind {
  kScan,       ///< source, scan_columns (indices into source->schema), filters (pushed)
  kValues,     ///< rows (constant batches)
  kFilter,     ///< expressions = conjuncts
  kProject,    ///< expressions: one per output column
  kAggregate,  ///< group_keys (exprs over child), aggregates; output = keys then aggs
  kJoin,       ///< join_type, conditions (conjuncts over both sides); children: left, right
  kSort,       ///< sort_keys
  kLimit,      ///< limit, offset
  kTopN,       ///< sort_keys, limit, offset
  kUnionAll,   ///< children's columns matched by position
  kDistinct,   ///< duplicate rows removed (all columns)
  kSetOp,      ///< INTERSECT / EXCEPT [ALL] (set_op): children matched by position
  kUnnest,     ///< expressions: arrays / maps over the child; output = the child's columns,
               ///< then one per array (two per map: key, value), then the ordinality
               ///< (with_ordinality); unnest_outer keeps rows without elements (LEFT JOIN)
  kWindow,     ///< window_functions over the child; output = the child's columns, then one
               ///< per function (logical_window.h)
  kRecursiveCte,  ///< WITH RECURSIVE cte_name: children[0] the anchor, children[1] the
                  ///< recursive step (both with output's types, matched by position);
                  ///< set_all: UNION ALL, else UNION (new rows only)
  kWorkingTable,  ///< the step's reference to its kRecursiveCte (same cte_id): the rows
                  ///< the previous iteration added
  kCteRef,        ///< a reference to WITH query cte_name (cte_id: one per WITH query):
                  ///< children[0] its plan, output = the child's; with `materialized` every
                  ///< reference of that cte_id reads one shared result computed once
};

/// kRightSemi / kRightAnti: the optimizer's flipped kSemi / kAnti (EXISTS semantics), built
/// on the kept side: output = children[1]'s columns.
enum class JoinType { kInner, kLeft, kRight, kFull, kCross, kSemi, kAnti, kMark, kRightSemi, kRightAnti };
const char* JoinTypeName(JoinType type);

enum class SetOpKind { kIntersect, kExcept };

struct AggregateSpec {
  const exec::AggregateFunction* function = nullptr;
  std::vector<ExprPtr> args;  ///< over the child's columns
  ExprPtr filter;             ///< FILTER (WHERE ...) or nullptr
};

struct LogicalNode;
using LogicalPtr = std::shared_ptr<LogicalNode>;

struct LogicalNode {
  LogicalKind kind;
  std::vector<ColumnInfo> output;
  std::vector<LogicalPtr> children;

  // kScan
  std::shared_ptr<const ScanSource> source;
  std::vector<int> scan_columns;
  // kFilter, kProject; kScan: pushed-down filters (over the scan's output ids)
  std::vector<ExprPtr> expressions;
  // kValues
  std::vector<columnar::Batch> rows;
  // kAggregate
  std::vector<ExprPtr> group_keys;
  std::vector<AggregateSpec> aggregates;
  // kJoin
  JoinType join_type = JoinType::kInner;
  std::vector<ExprPtr> conditions;
  bool null_aware = false;  ///< kAnti / kMark for NOT IN / IN
  // kSort, kTopN
  std::vector<SortSpec> sort_keys;
  // kLimit, kTopN
  int64_t limit = -1;
  int64_t offset = 0;
  // kSetOp
  SetOpKind set_op = SetOpKind::kIntersect;
  bool set_all = false;
  // kUnnest
  bool with_ordinality = false;
  bool unnest_outer = false;
  /// The columns the unnest adds (a suffix of `output`).
  std::vector<ColumnInfo> UnnestColumns() const;
  // kWindow
  std::vector<WindowFunctionSpec> window_functions;
  // kRecursiveCte, kWorkingTable: which recursive query (unique in the plan) and its name
  int32_t cte_id = -1;
  std::string cte_name;
  bool materialized = false;  ///< kCteRef

  /// Estimated output rows (optimizer); -1 unknown.
  int64_t estimated_rows = -1;

  /// The output position of column `id`, or -1.
  int IndexOf(int32_t id) const;
};

/// A printable tree (EXPLAIN (TYPE LOGICAL)), one node a line.
std::string ExplainLogicalPlan(const LogicalNode& root);

}  // namespace sqe::planner
