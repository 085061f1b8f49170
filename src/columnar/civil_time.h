#pragma once
/// Civil (proleptic Gregorian, UTC) calendar arithmetic and the text forms of dates,
/// times and timestamps: "YYYY-MM-DD", "HH:MM:SS.ffffff", "YYYY-MM-DD HH:MM:SS.ffffff".
/// Exact for every int32 day count and every int64 tick count, before 1970 included.
/// Years use astronomical numbering (year 0 is 1 BC); years outside 0..9999 print as
/// ISO 8601 expanded years, like java.time: "-0001-12-31", "+10000-01-01". Pure
/// functions, thread-safe.

#include <cstdint>
#include <string>

#include "columnar/time_unit.h"

namespace sqe::columnar {

struct CivilDate {
  int64_t year;
  int32_t month;  // 1..12
  int32_t day;    // 1..31
};

/// The date `days` after 1970-01-01 (negative: before).
CivilDate CivilFromDays(int64_t days);
/// Days from 1970-01-01 to the given date (month 1..12, day 1..31, not validated).
int64_t DaysFromCivil(int64_t year, int32_t month, int32_t day);

/// Appends "YYYY-MM-DD".
void AppendDate(int64_t days, std::string* out);
/// Appends "HH:MM:SS" plus 6 (kMicro) or 9 (kNano) fractional digits for a time of day
/// in ticks since midnight. Values outside one day are wrapped into it.
void AppendTimeOfDay(int64_t ticks, TimeUnit unit, std::string* out);
/// Appends "YYYY-MM-DD HH:MM:SS.fff..." for ticks since 1970-01-01T00:00:00 UTC.
void AppendTimestamp(int64_t ticks, TimeUnit unit, std::string* out);

std::string FormatDate(int64_t days);
std::string FormatTimeOfDay(int64_t ticks, TimeUnit unit);
std::string FormatTimestamp(int64_t ticks, TimeUnit unit);

}  // namespace sqe::columnar
