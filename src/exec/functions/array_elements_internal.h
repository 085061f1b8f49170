#pragma once
/// Building blocks of the array, map and higher-order function kernels (private to
/// exec/functions): the element positions of a list column's non-null rows, assembling a
/// list or map column from per-row lengths and a child, and a three-way order of single
/// values (numbers, decimals, strings, booleans, temporal types, and arrays of them
/// lexicographically) that the set functions (array_distinct, array_union, ...) and
/// array_sort use. Pure functions; thread-safe.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "columnar/column.h"
#include "columnar/selection_vector.h"
#include "common/result.h"
#include "exec/functions/nested_comparison.h"
#include "exec/functions/registry.h"

namespace sqe::exec::array_elements {

inline bool IsList(const columnar::TypePtr& t) {
  return t != nullptr && t->id() == columnar::TypeId::kList;
}
inline bool IsMap(const columnar::TypePtr& t) {
  return t != nullptr && t->id() == columnar::TypeId::kMap;
}
/// The element type of an array type.
inline const columnar::TypePtr& ElementOf(const columnar::TypePtr& t) {
  return t->value_field().type();
}

/// Each row's element count (0 for NULL rows) of a list or map column.
std::vector<int64_t> Lengths(const columnar::Column& list, int64_t rows);
/// 1 where row i of `c` is NULL.
std::vector<uint8_t> NullFlags(const columnar::Column& c, int64_t rows);

/// Registers a scalar family whose resolver cannot fail (returns nullopt when it does not
/// apply), with its SHOW FUNCTIONS row.
void AddFamily(
    FunctionRegistry& r, const std::string& name,
    std::function<std::optional<ScalarFunction>(const std::vector<columnar::TypePtr>&)> resolve,
    std::string returns, std::string arguments, std::string description);

/// The elements of a list (or map) column's non-null rows, in row order: child index and
/// the row each belongs to.
struct ElementRows {
  std::vector<uint32_t> index;   ///< into the list's child (ListValues / map entries)
  std::vector<uint32_t> row_of;  ///< the row of the list column
};
ElementRows ListElements(const columnar::Column& list, int64_t rows);

/// A list column of `type` with `rows` rows: row i holds lengths[i] consecutive values of
/// `child` (NULL where `nulls_from` is NULL, with length 0 there; nulls_from may be any
/// column of `rows` rows, or nullptr for no nulls).
Result<columnar::Column> MakeList(const columnar::TypePtr& type, int64_t rows,
                                  const columnar::Column* nulls_from,
                                  const std::vector<int64_t>& lengths, columnar::Column child,
                                  const EvalContext& ctx);
/// Same, with an explicit per-row null flag.
Result<columnar::Column> MakeListWithNulls(const columnar::TypePtr& type, int64_t rows,
                                           const std::vector<uint8_t>& is_null,
                                           const std::vector<int64_t>& lengths,
                                           columnar::Column child, const EvalContext& ctx);

/// A map column of `type` (map(K, V)) whose row i holds lengths[i] consecutive entries of
/// `keys` and `values`; NULL rows as in MakeListWithNulls.
Result<columnar::Column> MakeMap(const columnar::TypePtr& type, int64_t rows,
                                 const std::vector<uint8_t>& is_null,
                                 const std::vector<int64_t>& lengths, columnar::Column keys,
                                 columnar::Column values, const EvalContext& ctx);

// Which element types the functions take: IsOrderableType (nested_comparison.h: scalars,
// arrays and rows of such, no map inside; CompareValues orders them as SQL does) and
// IsComparableType (comparison.h: every type, maps included, since CompareValues orders
// maps by their grouping-key images and so gives 0 exactly when not distinct).

/// The element type of array_position / array_remove / contains over `array`: its
/// element type, widened to the common type with the value's when there is one
/// (contains(ARRAY[1], 1.5), nested elements too; the value's type for an empty ARRAY[]),
/// so the planner casts both sides to it.
columnar::TypePtr ElementWithValue(const columnar::TypePtr& array, const columnar::TypePtr& value);

/// <0, 0, >0 as non-null value i of `a` sorts before, equal to, or after non-null value j of
/// `b` (same type). NaN sorts above every number and equals NaN; NULL elements inside
/// arrays (and NULL fields of rows, compared field by field) sort last; maps compare by
/// their grouping-key images (no SQL order, but 0 exactly when not distinct).
int CompareValues(const columnar::Column& a, int64_t i, const columnar::Column& b, int64_t j);

/// Three-way comparison with NULLs equal to each other and after every value.
inline int CompareNullable(const columnar::Column& a, int64_t i, const columnar::Column& b,
                           int64_t j) {
  const bool an = a.IsNull(i);
  const bool bn = b.IsNull(j);
  if (an || bn) return an == bn ? 0 : (an ? 1 : -1);
  return CompareValues(a, i, b, j);
}

/// Gathers rows `index` of `column` (a typed empty column when `index` is empty).
Result<columnar::Column> Gather(const columnar::Column& column, const std::vector<uint32_t>& index,
                                const EvalContext& ctx);

/// `positions` (indices into `values`) with only the first of each group of equal values
/// (NULLs equal to each other) kept, in their original order.
std::vector<uint32_t> DistinctPositions(const columnar::Column& values,
                                        const std::vector<uint32_t>& positions);

/// A boolean column from per-row states: 0 false, 1 true, 2 NULL.
Result<columnar::Column> BooleanFromStates(const std::vector<uint8_t>& state,
                                           const EvalContext& ctx);

/// Trino's checks of a map's keys: `keys` holds the keys of each non-null row (lengths[i]
/// of them for row i, consecutively). InvalidArgument "map key cannot be null" or
/// "Duplicate map keys (k) are not allowed".
Status CheckMapKeys(const columnar::Column& keys, const std::vector<int64_t>& lengths,
                    const std::vector<uint8_t>& is_null, const EvalContext& ctx);

}  // namespace sqe::exec::array_elements
