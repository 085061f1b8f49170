#pragma once
/// ROW values in expressions: the anonymous row type of a ROW(...) constructor, field
/// access (r.x, r[1]) as a bound call, and the column of one field. Thread-safe.

#include <vector>

#include "columnar/column.h"
#include "columnar/data_type.h"
#include "common/result.h"
#include "exec/functions/registry.h"

namespace sqe::exec {

/// row(T1, T2, ...) with anonymous fields (empty names), the type of ROW(a, b, ...). A
/// null type is an untyped NULL's field: boolean, marked unknown (IsUnknownRowField).
columnar::TypePtr AnonymousRowType(const std::vector<columnar::TypePtr>& field_types);

/// Whether a row field holds an untyped NULL (ROW(1, NULL)): it coerces and casts to any
/// type, as Trino's unknown does.
bool IsUnknownRowField(const columnar::Field& field);

/// The function that reads field `field` (0-based) of a row of type `row_type`: one
/// argument, the row; returns the field's type; a NULL row gives NULL. Owned for the
/// process's lifetime (like registry instances). InvalidArgument when `row_type` is not
/// a row or has no such field.
Result<const ScalarFunction*> RowFieldFunction(const columnar::TypePtr& row_type, int field);

/// Field `field` of every row of `row` (a row column), NULL where the row is NULL.
Result<columnar::Column> RowFieldColumn(const columnar::Column& row, int field,
                                        const EvalContext& ctx);

}  // namespace sqe::exec
