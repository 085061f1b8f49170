#pragma once
/// StrictMetricsMatch: does EVERY row of a data file satisfy a bound filter, as far as its
/// metrics prove? (Java's StrictMetricsEvaluator: true only when no row can fail; false
/// means "maybe not".) Overwrite-by-filter removes a file only when this is true. A
/// predicate on a column the file's partition holds by identity is decided exactly on the
/// partition value (every row of the file has it).

#include <cstdint>
#include <map>
#include <optional>

#include "common/result.h"
#include "iceberg/expr/evaluators.h"
#include "iceberg/expr/expression.h"

namespace sqe::iceberg::expr {

/// Source field id -> the file's value of an identity partition field over it (nullopt:
/// null). May be null or empty.
using IdentityPartitionValues = std::map<int32_t, std::optional<Literal>>;

Result<bool> StrictMetricsMatch(const ExprPtr& bound, const FileStats& stats,
                                const IdentityPartitionValues* identity = nullptr);

}  // namespace sqe::iceberg::expr
