#pragma once
/// CAST between ROW types, field by field (Trino's rules): the source and target have the
/// same number of fields, each field casts to the target field's type, and the result
/// takes the target's field names. A failing field fails the cast with that field's
/// error; under TRY_CAST the whole row becomes NULL. CastColumn (cast.h) calls these for
/// row targets. Pure functions, thread-safe.

#include "columnar/column.h"
#include "columnar/data_type.h"
#include "common/result.h"
#include "exec/functions/registry.h"

namespace sqe::exec {

/// Whether CAST(from AS to) exists when `to` is a row: `from` is a row of as many
/// fields, each castable to its target field. `can_cast` decides the field pairs.
bool CanCastRow(const columnar::TypePtr& from, const columnar::TypePtr& to,
                bool (*can_cast)(const columnar::TypePtr&, const columnar::TypePtr&));

/// `input` (a row column) cast to the row type `to`. NotImplemented when the types have
/// no cast.
Result<columnar::Column> CastRow(const columnar::Column& input, const columnar::TypePtr& to,
                                 bool try_cast, const EvalContext& ctx);

}  // namespace sqe::exec
