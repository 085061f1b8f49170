#pragma once
/// Calendar-month arithmetic on days since 1970-01-01 (proleptic Gregorian), shared by
/// date_add / date_diff (datetime.cc) and sequence with month steps (sequence.cc), so that
/// both move across month ends the same way (Jan 31 + 1 month = Feb 29 in 2020). Private
/// to exec/functions; pure functions, thread-safe.

#include <algorithm>
#include <cstdint>

#include "columnar/civil_time.h"

namespace sqe::exec::calendar {

/// a / b rounded toward negative infinity (b != 0).
inline int64_t FloorDivide(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

inline bool IsLeapYear(int64_t year) {
  return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

/// Days of `month` (1..12) in `year`.
inline int DaysInMonth(int64_t year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeapYear(year) ? 29 : kDays[month - 1];
}

/// The day `months` calendar months after `days`, clamped to the end of the month.
inline int64_t AddMonths(int64_t days, int64_t months) {
  const columnar::CivilDate d = columnar::CivilFromDays(days);
  const int64_t index = d.year * 12 + (d.month - 1) + months;
  const int64_t year = FloorDivide(index, 12);
  const int month = static_cast<int>(index - year * 12) + 1;
  return columnar::DaysFromCivil(year, month, std::min(d.day, DaysInMonth(year, month)));
}

/// Whole months from tick `a` to tick `b` (ticks of `per_day` a day; Joda's monthsBetween:
/// a month counts only when `a` plus that many months, time of day included, does not
/// pass `b`).
inline int64_t MonthsBetween(int64_t a, int64_t b, int64_t per_day) {
  const int64_t da = FloorDivide(a, per_day);
  const int64_t db = FloorDivide(b, per_day);
  const columnar::CivilDate ca = columnar::CivilFromDays(da);
  const columnar::CivilDate cb = columnar::CivilFromDays(db);
  int64_t months = (cb.year - ca.year) * 12 + (cb.month - ca.month);
  auto shifted = [&](int64_t m) { return AddMonths(da, m) * per_day + (a - da * per_day); };
  if (months > 0 && shifted(months) > b) --months;
  if (months < 0 && shifted(months) < b) ++months;
  return months;
}

}  // namespace sqe::exec::calendar
