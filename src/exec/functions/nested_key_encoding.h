#pragma once
/// Grouping-key images of nested values (array, row, map, and anything inside them), the
/// slow path RowKeyEncoder and HashKeyColumns take for nested key columns (GROUP BY,
/// DISTINCT, join keys, set operations, PARTITION BY). An image is self-delimiting and
/// two images are byte-equal exactly when the values are "not distinct" (NULL elements
/// equal each other, NaN equals NaN, -0.0 equals 0.0, map entries in any order):
///   flag byte 0 (null) or 1 (valid), then for a valid value:
///   boolean one byte; fixed-width scalars their bytes (floats normalized); strings and
///   varbinary a uint32 length and the bytes; array a uint32 count and each element's
///   image; row each field's image; map a uint32 count and its (key image, value image)
///   entries sorted by key image.
/// ReadGroupingKey turns an image back into a row of a column builder. Pure functions,
/// thread-safe.

#include <cstdint>
#include <string>

#include "columnar/column.h"
#include "columnar/column_builder.h"
#include "common/result.h"

namespace sqe::exec {

/// Appends the image of row i of `column` (any type) to *out.
void AppendGroupingKey(const columnar::Column& column, int64_t i, std::string* out);

/// Reads one image at *p (advancing *p past it) into `builder`, which builds the type the
/// image was written from (columnar::MakeBuilder of that type).
Status ReadGroupingKey(const char** p, columnar::ColumnBuilder* builder);

/// True when row i of `column` is NULL or holds a NULL anywhere inside (an element, a
/// field, a map value): such a value is never `=` to anything (the result is false or
/// NULL), so it never matches as an equi-join key.
bool ContainsNull(const columnar::Column& column, int64_t i);

}  // namespace sqe::exec
