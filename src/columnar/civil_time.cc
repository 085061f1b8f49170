#include "columnar/civil_time.h"

#include <charconv>

namespace sqe::columnar {
namespace {

constexpr int64_t kSecondsPerDay = 86'400;

// Floor division and its non-negative remainder, so instants before the epoch land on
// the previous day instead of rounding toward zero.
int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
// For b > 0; computed from the remainder so it cannot overflow near INT64_MIN.
int64_t FloorMod(int64_t a, int64_t b) {
  const int64_t r = a % b;
  return r < 0 ? r + b : r;
}

void AppendPadded(int64_t value, int width, std::string* out) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), value);
  int64_t len = end - buf;
  for (int64_t i = len; i < width; ++i) out->push_back('0');
  out->append(buf, end);
}

}  // namespace

// Calendar conversion via 400-year eras (146097 days each), counting years from March
// so the leap day is the last day of a year; then shifting back to January-based months.
CivilDate CivilFromDays(int64_t days) {
  const int64_t z = days + 719'468;  // days since 0000-03-01
  const int64_t era = FloorDiv(z, 146'097);
  const int64_t day_of_era = z - era * 146'097;  // [0, 146096]
  const int64_t year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36'524 - day_of_era / 146'096) / 365;
  const int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 -
                                            year_of_era / 100);  // [0, 365], from March 1
  const int64_t shifted_month = (5 * day_of_year + 2) / 153;     // [0, 11], March = 0
  const int32_t day = static_cast<int32_t>(day_of_year - (153 * shifted_month + 2) / 5 + 1);
  const int32_t month =
      static_cast<int32_t>(shifted_month < 10 ? shifted_month + 3 : shifted_month - 9);
  const int64_t year = year_of_era + era * 400 + (month <= 2 ? 1 : 0);
  return CivilDate{year, month, day};
}

int64_t DaysFromCivil(int64_t year, int32_t month, int32_t day) {
  const int64_t y = month <= 2 ? year - 1 : year;
  const int64_t era = FloorDiv(y, 400);
  const int64_t year_of_era = y - era * 400;                            // [0, 399]
  const int64_t shifted_month = month > 2 ? month - 3 : month + 9;      // March = 0
  const int64_t day_of_year = (153 * shifted_month + 2) / 5 + day - 1;  // [0, 365]
  const int64_t day_of_era =
      year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;  // [0, 146096]
  return era * 146'097 + day_of_era - 719'468;
}

void AppendDate(int64_t days, std::string* out) {
  const CivilDate date = CivilFromDays(days);
  if (date.year < 0) {
    out->push_back('-');
    AppendPadded(-date.year, 4, out);
  } else {
    if (date.year > 9999) out->push_back('+');
    AppendPadded(date.year, 4, out);
  }
  out->push_back('-');
  AppendPadded(date.month, 2, out);
  out->push_back('-');
  AppendPadded(date.day, 2, out);
}

void AppendTimeOfDay(int64_t ticks, TimeUnit unit, std::string* out) {
  const int64_t per_second = TicksPerSecond(unit);
  ticks = FloorMod(ticks, kSecondsPerDay * per_second);
  const int64_t seconds = ticks / per_second;
  AppendPadded(seconds / 3600, 2, out);
  out->push_back(':');
  AppendPadded(seconds / 60 % 60, 2, out);
  out->push_back(':');
  AppendPadded(seconds % 60, 2, out);
  out->push_back('.');
  AppendPadded(ticks % per_second, FractionDigits(unit), out);
}

void AppendTimestamp(int64_t ticks, TimeUnit unit, std::string* out) {
  const int64_t ticks_per_day = kSecondsPerDay * TicksPerSecond(unit);
  AppendDate(FloorDiv(ticks, ticks_per_day), out);
  out->push_back(' ');
  AppendTimeOfDay(FloorMod(ticks, ticks_per_day), unit, out);
}

std::string FormatDate(int64_t days) {
  std::string out;
  AppendDate(days, &out);
  return out;
}

std::string FormatTimeOfDay(int64_t ticks, TimeUnit unit) {
  std::string out;
  AppendTimeOfDay(ticks, unit, &out);
  return out;
}

std::string FormatTimestamp(int64_t ticks, TimeUnit unit) {
  std::string out;
  AppendTimestamp(ticks, unit, &out);
  return out;
}

}  // namespace sqe::columnar
