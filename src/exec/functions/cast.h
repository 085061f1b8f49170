#pragma once
/// CAST between scalar types with Trino's rules (the kernel behind ExprKind::kCast), and
/// the text forms it reads and writes: numbers, booleans, dates ('2024-01-31'), times,
/// timestamps ('2024-01-31 12:00:00.123456', with a zone suffix for timestamp with time
/// zone), uuids. Pure functions, thread-safe.

#include <cstdint>
#include <string>
#include <string_view>

#include "columnar/column.h"
#include "columnar/data_type.h"
#include "common/result.h"
#include "exec/functions/registry.h"

namespace sqe::exec {

/// `input` converted to `to`. Errors name the value and the target type ("Cannot cast
/// 'abc' to INTEGER", "Out of range for tinyint: 300"); with `try_cast` a row that fails
/// becomes NULL instead. NotImplemented for pairs without a cast (e.g. date -> integer).
Result<columnar::Column> CastColumn(const columnar::Column& input, const columnar::TypePtr& to,
                                    bool try_cast, const EvalContext& ctx);

/// Whether CAST(from AS to) exists (the binder's check before planning a cast).
bool CanCast(const columnar::TypePtr& from, const columnar::TypePtr& to);

/// Java's Double.toString / Float.toString, the form of doubles in Trino's error messages
/// ("Out of range for integer: 1.0E10"): 1.5 -> "1.5", 1e10 -> "1.0E10", 0.0001 ->
/// "1.0E-4", NaN, Infinity.
std::string FormatDouble(double value);
std::string FormatReal(float value);

/// Trino's CAST(double AS varchar): always scientific, the shortest round-trip digits with
/// at least one after the point: 1.5 -> "1.5E0", 1e10 -> "1.0E10", 0.0001 -> "1.0E-4",
/// -123.25 -> "-1.2325E2", zeros "0E0" / "-0E0", "NaN", "Infinity", "-Infinity".
std::string DoubleToVarchar(double value);
/// Trino's CAST(real AS varchar): the same form with at most 7 significant digits
/// (REAL '3.1415927' -> "3.141593E0").
std::string RealToVarchar(float value);

/// 'YYYY-MM-DD' (surrounding spaces allowed) -> days since 1970-01-01.
bool ParseDate(std::string_view text, int64_t* days);
/// 'YYYY-MM-DD[( |T)HH:MM[:SS[.fffffffff]]][ zone]' -> ticks of `unit` since the epoch,
/// local to the text's zone; *offset_seconds gets the zone's offset (UTC, Z, +hh:mm) and
/// *has_zone whether there was one.
bool ParseTimestamp(std::string_view text, columnar::TimeUnit unit, int64_t* ticks, bool* has_zone,
                    int64_t* offset_seconds);
/// 'HH:MM[:SS[.fffffffff]]' -> ticks of `unit` since midnight.
bool ParseTime(std::string_view text, columnar::TimeUnit unit, int64_t* ticks);
/// A session zone's offset from UTC in seconds: "UTC", "Z", "GMT", "+05:30", "-08:00".
/// Named IANA zones other than UTC are not supported yet and count as UTC.
int64_t ZoneOffsetSeconds(std::string_view zone);

}  // namespace sqe::exec
