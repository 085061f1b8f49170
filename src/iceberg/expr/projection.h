#pragma once
/// Inclusive projection of a row filter onto a partition spec (spec "Scan Planning"):
/// an expression over the partition fields that is true for every partition that may
/// hold a matching row. `id > 5` on a day(ts)-partitioned table becomes a range on the
/// day field; predicates a transform cannot carry (a range through bucket) become true.
/// The result's predicates name partition field ids and their result types, ready for
/// Evaluate() on a file's partition tuple or SummariesMightMatch() on a manifest.

#include "common/result.h"
#include "iceberg/expr/expression.h"
#include "iceberg/partition_spec.h"

namespace sqe::iceberg::expr {

Result<ExprPtr> ProjectInclusive(const ExprPtr& bound, const PartitionSpec& spec,
                                 const Schema& schema);

}  // namespace sqe::iceberg::expr
