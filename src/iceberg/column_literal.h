#pragma once
/// LiteralAt: one cell of a columnar Column (the Arrow layout of an Iceberg type, see
/// columnar_schema.h) as an Iceberg Literal: what row-at-a-time code (residual filters,
/// equality-delete keys, partition routing) compares and transforms.

#include <cstdint>

#include "columnar/column.h"
#include "common/result.h"
#include "iceberg/literal.h"
#include "iceberg/types.h"

namespace sqe::iceberg {

/// The value of row `row` of `column` as a literal of `type` (a null Literal for null).
/// InvalidArgument for a row outside the column; NotImplemented for nested and other
/// types without a Literal form.
Result<Literal> LiteralAt(const columnar::Column& column, int64_t row, const Type& type);

}  // namespace sqe::iceberg
