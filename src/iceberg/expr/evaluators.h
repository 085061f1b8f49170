#pragma once
/// Evaluating bound filter expressions (expression.h) for scan planning:
///  - MetricsMightMatch: can a data file hold a matching row, given its column metrics
///    (value / null / NaN counts, lower and upper bounds)? (Java's
///    InclusiveMetricsEvaluator: false only when no row can match.)
///  - SummariesMightMatch: can a manifest hold a matching file, given the partition
///    field summaries of the manifest list, for an expression over partition fields
///    (projection.h)?
///  - Evaluate: the exact value of an expression on one row of values (a partition
///    tuple), SQL semantics: a comparison with null is false.

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <vector>

#include "common/result.h"
#include "iceberg/expr/expression.h"

namespace sqe::iceberg::expr {

/// Column metrics of one data file, keyed by field id; a missing entry is unknown.
struct FileStats {
  int64_t record_count = -1;  // < 0: unknown
  std::map<int32_t, int64_t> value_counts;
  std::map<int32_t, int64_t> null_counts;
  std::map<int32_t, int64_t> nan_counts;
  std::map<int32_t, Literal> lower_bounds;
  std::map<int32_t, Literal> upper_bounds;
};

Result<bool> MetricsMightMatch(const ExprPtr& bound, const FileStats& stats);

/// One partition field's summary over the files of a manifest.
struct PartitionSummary {
  bool contains_null = true;
  std::optional<bool> contains_nan;  // unknown when absent
  std::optional<Literal> lower;      // absent: no non-null value (or unknown)
  std::optional<Literal> upper;
};

/// `summaries` keyed by partition field id.
Result<bool> SummariesMightMatch(const ExprPtr& partition_expr,
                                 const std::map<int32_t, PartitionSummary>& summaries);

/// The value of field `id` in the row (nullptr: no such field, treated as null).
using RowAccessor = std::function<const Literal*(int32_t id)>;
Result<bool> Evaluate(const ExprPtr& bound, const RowAccessor& row);

}  // namespace sqe::iceberg::expr
