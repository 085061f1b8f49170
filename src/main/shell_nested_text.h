#pragma once
/// The text of an array, map or row value in sqe-shell's table, CSV and TSV formats, as
/// the Trino CLI prints it: arrays [1, 2], maps {k=v, ...}, rows {x=1, y=a} (an anonymous
/// field shows its value alone: {1, a}), NULL inside them as NULL, other values as the
/// shell prints them on their own. Pure functions, thread-safe.

#include <cstdint>
#include <string>

#include "columnar/column.h"
#include "common/result.h"

namespace sqe::app {

/// Row `row` of `column` (any type; nested types as above).
Result<std::string> NestedCellText(const columnar::Column& column, int64_t row);

}  // namespace sqe::app
