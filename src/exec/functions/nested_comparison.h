#pragma once
/// Comparison of nested values (array, row, map), with Trino's rules: the kernels behind
/// = <> < <= > >= (and so IN, BETWEEN, greatest / least) and IS [NOT] DISTINCT FROM when
/// the operands are nested.
///   `=`: arrays of different lengths are not equal; else element-wise (rows field-wise,
///   maps value-wise by key, maps with different key sets unequal): any false -> false,
///   else any NULL element -> NULL, else true. `<>` is its negation.
///   IS DISTINCT FROM: the same walk with NULL elements equal to each other.
///   Ordering (arrays and rows of orderable types; maps have none): lexicographic, a
///   shorter array first; reaching a NULL element before the order is decided is an
///   error, as in Trino ("ARRAY comparison not supported for arrays with null elements").
/// Pure, thread-safe.

#include <cstdint>
#include <optional>

#include "columnar/column.h"
#include "common/result.h"
#include "exec/functions/comparison.h"

namespace sqe::exec {

/// Whether values of `type` have an order (no map anywhere inside).
bool IsOrderableType(const columnar::TypePtr& type);

/// a[i] = b[j] for valid values of the same nested type: true, false, or nullopt when a
/// NULL element leaves it unknown (array_position / array_remove refuse that, as Trino).
std::optional<bool> NestedEquals(const columnar::Column& a, int64_t i, const columnar::Column& b,
                                 int64_t j);

/// a[i] op b[i] for nested columns of the same type.
Result<columnar::Column> CompareNestedColumns(CompareOp op, const columnar::Column& a,
                                              const columnar::Column& b, const EvalContext& ctx);

/// a[i] IS DISTINCT FROM b[i] (never NULL); `distinct` false gives IS NOT DISTINCT FROM.
/// Works for every type (nested or not) whose values CompareColumns accepts.
Result<columnar::Column> DistinctColumns(const columnar::Column& a, const columnar::Column& b,
                                         bool distinct, const EvalContext& ctx);

}  // namespace sqe::exec
