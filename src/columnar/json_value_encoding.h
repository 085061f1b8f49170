#pragma once
/// The JSON encoding of values the Trino client protocol uses (and our JSONL outputs):
/// implemented once here so every protocol and exporter prints values identically.
///
///   boolean                 true / false
///   integers                numbers: 42
///   real, double            shortest round-trip numbers (1.5, 1e+20, -0); NaN and the
///                           infinities as the strings "NaN", "Infinity", "-Infinity"
///   decimal(p,s)            strings with exactly s fractional digits: "12.30", "-0.05"
///   varchar                 JSON strings; valid UTF-8 passes through, control
///                           characters, '"' and '\' are escaped, invalid bytes become
///                           U+FFFD
///   varbinary, fixed(n)     base64 strings (RFC 4648, padded)
///   uuid                    "123e4567-e89b-12d3-a456-426614174000"
///   date                    "2024-02-29" (before 1970 and past 9999 too: "-0044-03-15")
///   time(6|9)               "13:45:00.000000"
///   timestamp(6|9)          "2024-02-29 13:45:00.000000"
///   ... with time zone      "2024-02-29 08:45:00.000000 America/New_York": the wall-clock
///                           time in the zone the type names, then the zone (values are
///                           UTC instants)
///   array(T)                [v, ...]
///   row(a T, ...)           {"a": v, ...} keys in field order (the Trino protocol's data:
///                           [v, ...], AppendTrinoRowArray)
///   map(K, V)               {"k": v, ...} keys as strings (JSON text of non-string keys)
///   null                    null
///
/// Output is compact (no spaces). Pure functions over immutable columns: thread-safe.

#include <cstdint>
#include <string>

#include "columnar/batch.h"
#include "columnar/column.h"
#include "common/result.h"

namespace sqe::columnar {

/// Appends the JSON of row `row` of `column`. InvalidArgument for a row out of range or
/// a null map key.
Status AppendJsonValue(const Column& column, int64_t row, std::string* out);

/// Appends row `row` of `batch` as a JSON array of its values, in column order (the
/// shape of one element of a Trino response's "data").
Status AppendJsonRowArray(const Batch& batch, int64_t row, std::string* out);

/// As AppendJsonRowArray, but ROW values (also inside arrays and maps) as JSON arrays of
/// their field values, [1,"a"], as Trino's client protocol sends them (its clients read a
/// row positionally and take the field names from the column's type signature).
Status AppendTrinoRowArray(const Batch& batch, int64_t row, std::string* out);

/// Appends row `row` of `batch` as a JSON object keyed by column name, in column order.
Status AppendJsonRowObject(const Batch& batch, int64_t row, std::string* out);

/// Appends every row of `batch` as a JSON object followed by '\n' (JSON Lines).
Status AppendJsonLines(const Batch& batch, std::string* out);

/// Appends `text` as a JSON string literal (quotes included), escaping as above.
void AppendJsonString(std::string_view text, std::string* out);

}  // namespace sqe::columnar
