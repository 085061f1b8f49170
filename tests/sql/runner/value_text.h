#pragma once
/// The text form of one result value in a SQL logic test, the form expected rows are
/// written in (close to DuckDB's sqllogictest runner):
///
///   NULL                    NULL
///   boolean                 true / false
///   integers                42
///   real, double            shortest round-trip digits, Python repr style: 1.5, 3.0,
///                           1e+16, 1e-05, -0.0; NaN, Infinity, -Infinity
///   decimal(p,s)            exactly s fractional digits: 12.30, -0.05
///   varchar                 raw text; the empty string as (empty)
///   varbinary, fixed(n)     lowercase hex
///   uuid                    123e4567-e89b-12d3-a456-426614174000
///   date                    2024-01-31
///   time                    13:45:00, 13:45:00.5 (trailing fractional zeros dropped)
///   timestamp               2024-01-31 13:45:00[.5]; with time zone "... UTC"
///   array(T)                [1, 2, NULL]
///   row(a T, b U)           {'a': 1, 'b': x}
///   map(K, V)               {k=v, k2=v2}
///
/// Pure functions over immutable columns: thread-safe.

#include <cstdint>
#include <string>

#include "columnar/column.h"

namespace sqe::sqltest {

/// The test text of row `row` of `column` (see above).
std::string ValueText(const columnar::Column& column, int64_t row);

/// A double in the Python-repr style above (shortest digits that read back exactly).
std::string DoubleText(double value);
/// A float32 with the shortest digits that read back as the same float.
std::string FloatText(float value);

}  // namespace sqe::sqltest
