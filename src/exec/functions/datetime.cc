// Date and time functions over date (days since the epoch) and timestamp (ticks of the
// type's unit since the epoch, UTC) columns. Fields of a timestamp with time zone are
// taken in the zone its type names (TimeZoneRules: IANA names with their daylight-saving
// rules, fixed offsets); the session's zone likewise. The week is ISO's:
// weeks start on Monday (day_of_week 1) and week 1 holds the year's first Thursday.

#include <cmath>

#include "columnar/civil_time.h"
#include "columnar/time_zone_rules.h"
#include "exec/functions/builtin_families.h"
#include "exec/functions/calendar_months_internal.h"
#include "exec/functions/cast.h"
#include "exec/functions/datetime_families_internal.h"
#include "exec/functions/kernel_internal.h"

namespace sqe::exec {

using columnar::Column;
using columnar::TimeUnit;
using columnar::TypeId;
using columnar::TypePtr;

namespace {

constexpr int64_t kSecondsPerDay = 86400;

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
int64_t FloorMod(int64_t a, int64_t b) { return a - FloorDiv(a, b) * b; }

using calendar::AddMonths;
using calendar::DaysInMonth;
using calendar::MonthsBetween;

enum class Unit { kMillisecond, kSecond, kMinute, kHour, kDay, kWeek, kMonth, kQuarter, kYear };

Result<Unit> ParseUnit(std::string_view text, bool date_only) {
  std::string u;
  for (char c : text) u.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (!u.empty() && u.back() == 's' && u != "s") u.pop_back();  // "days" -> "day"
  Unit unit;
  if (u == "millisecond")
    unit = Unit::kMillisecond;
  else if (u == "second")
    unit = Unit::kSecond;
  else if (u == "minute")
    unit = Unit::kMinute;
  else if (u == "hour")
    unit = Unit::kHour;
  else if (u == "day")
    unit = Unit::kDay;
  else if (u == "week")
    unit = Unit::kWeek;
  else if (u == "month")
    unit = Unit::kMonth;
  else if (u == "quarter")
    unit = Unit::kQuarter;
  else if (u == "year")
    unit = Unit::kYear;
  else
    return Status::InvalidArgument("'" + std::string(text) + "' is not a valid " +
                                   (date_only ? "DATE" : "TIMESTAMP") + " field");
  if (date_only && unit < Unit::kDay) {
    return Status::InvalidArgument("'" + std::string(text) + "' is not a valid DATE field");
  }
  return unit;
}

int64_t DayOfWeek(int64_t days) { return FloorMod(days + 3, 7) + 1; }  // 1970-01-01: Thu

int64_t DayOfYear(int64_t days) {
  const columnar::CivilDate d = columnar::CivilFromDays(days);
  return days - columnar::DaysFromCivil(d.year, 1, 1) + 1;
}

/// ISO week-based year and week of a day.
void IsoWeek(int64_t days, int64_t* year, int64_t* week) {
  const int64_t thursday = days - (DayOfWeek(days) - 1) + 3;
  const columnar::CivilDate d = columnar::CivilFromDays(thursday);
  *year = d.year;
  *week = (thursday - columnar::DaysFromCivil(d.year, 1, 1)) / 7 + 1;
}

enum class Field {
  kYear,
  kQuarter,
  kMonth,
  kWeek,
  kDay,
  kDayOfWeek,
  kDayOfYear,
  kYearOfWeek,
  kHour,
  kMinute,
  kSecond,
  kMillisecond
};

int64_t DateField(Field f, int64_t days) {
  switch (f) {
    case Field::kYear:
      return columnar::CivilFromDays(days).year;
    case Field::kQuarter:
      return (columnar::CivilFromDays(days).month - 1) / 3 + 1;
    case Field::kMonth:
      return columnar::CivilFromDays(days).month;
    case Field::kDay:
      return columnar::CivilFromDays(days).day;
    case Field::kDayOfWeek:
      return DayOfWeek(days);
    case Field::kDayOfYear:
      return DayOfYear(days);
    case Field::kWeek:
    case Field::kYearOfWeek: {
      int64_t y = 0;
      int64_t w = 0;
      IsoWeek(days, &y, &w);
      return f == Field::kWeek ? w : y;
    }
    default:
      return 0;
  }
}

/// A timestamp column's view: local ticks (the wall-clock time in the type's zone) split
/// into days and the ticks of the day, and back to instants.
struct TsView {
  int64_t per_second;
  std::shared_ptr<const columnar::TimeZoneRules> zone;  ///< nullptr: ticks are local already
  int64_t per_day() const { return kSecondsPerDay * per_second; }
  int64_t Local(int64_t t) const { return zone ? zone->ToLocal(t, per_second) : t; }
  int64_t Instant(int64_t local) const { return zone ? zone->FromLocal(local, per_second) : local; }
  static TsView Of(const TypePtr& t) {
    const int64_t ps = columnar::TicksPerSecond(t->unit());
    return {ps, t->has_timezone() ? columnar::ZoneRulesOf(*t) : nullptr};
  }
};

/// The session zone's wall-clock micros of the instant `micros`.
int64_t SessionLocalMicros(int64_t micros, const EvalContext& ctx) {
  auto rules = columnar::TimeZoneRules::Load(ctx.time_zone);
  return rules.ok() ? (*rules)->ToLocal(micros, 1'000'000)
                    : micros + ZoneOffsetSeconds(ctx.time_zone) * 1'000'000;
}

int64_t TimeField(Field f, int64_t tod, int64_t per_second) {
  switch (f) {
    case Field::kHour:
      return tod / (3600 * per_second);
    case Field::kMinute:
      return tod / (60 * per_second) % 60;
    case Field::kSecond:
      return tod / per_second % 60;
    case Field::kMillisecond:
      return tod / (per_second / 1000) % 1000;
    default:
      return 0;
  }
}

bool IsTimeField(Field f) { return f >= Field::kHour; }

ScalarKernel FieldKernel(Field f) {
  return [f](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
             const EvalContext& ctx) -> Result<Column> {
    const Column& a = args[0];
    const TypePtr& type = a.type();
    if (type->id() == TypeId::kDate32) {
      return kernel::MapUnary<int32_t, int64_t>(
          a, rows, fn.return_type, ctx,
          [f](int32_t d, int64_t* o) {
            *o = DateField(f, d);
            return true;
          },
          [](int32_t) { return Status::OK(); });
    }
    if (type->id() == TypeId::kTime64) {
      const int64_t ps = columnar::TicksPerSecond(type->unit());
      return kernel::MapUnary<int64_t, int64_t>(
          a, rows, fn.return_type, ctx,
          [f, ps](int64_t t, int64_t* o) {
            *o = TimeField(f, t, ps);
            return true;
          },
          [](int64_t) { return Status::OK(); });
    }
    const TsView v = TsView::Of(type);
    return kernel::MapUnary<int64_t, int64_t>(
        a, rows, fn.return_type, ctx,
        [f, v](int64_t t, int64_t* o) {
          const int64_t local = v.Local(t);
          const int64_t days = FloorDiv(local, v.per_day());
          *o = IsTimeField(f) ? TimeField(f, local - days * v.per_day(), v.per_second)
                              : DateField(f, days);
          return true;
        },
        [](int64_t) { return Status::OK(); });
  };
}

/// Resolver for one-argument functions over date / timestamp / time (per `accepts`).
ScalarResolver TemporalResolver(std::string name, bool date, bool timestamp, bool time,
                                std::function<TypePtr(const TypePtr&)> result,
                                ScalarKernel kernel) {
  return [=](const std::vector<TypePtr>& types) -> Result<std::optional<ScalarFunction>> {
    if (types.size() != 1 || types[0] == nullptr) return std::optional<ScalarFunction>();
    const TypeId id = types[0]->id();
    if ((id == TypeId::kDate32 && date) || (id == TypeId::kTimestamp && timestamp) ||
        (id == TypeId::kTime64 && time)) {
      return kernel::Instance(name, {types[0]}, result(types[0]), kernel);
    }
    return std::optional<ScalarFunction>();
  };
}

int64_t TruncateLocal(Unit unit, int64_t local, int64_t per_second) {
  const int64_t per_day = kSecondsPerDay * per_second;
  int64_t days = FloorDiv(local, per_day);
  switch (unit) {
    case Unit::kMillisecond:
      return local - FloorMod(local, per_second / 1000);
    case Unit::kSecond:
      return local - FloorMod(local, per_second);
    case Unit::kMinute:
      return local - FloorMod(local, 60 * per_second);
    case Unit::kHour:
      return local - FloorMod(local, 3600 * per_second);
    case Unit::kDay:
      return days * per_day;
    case Unit::kWeek:
      return (days - (DayOfWeek(days) - 1)) * per_day;
    case Unit::kMonth: {
      const auto d = columnar::CivilFromDays(days);
      return columnar::DaysFromCivil(d.year, d.month, 1) * per_day;
    }
    case Unit::kQuarter: {
      const auto d = columnar::CivilFromDays(days);
      return columnar::DaysFromCivil(d.year, (d.month - 1) / 3 * 3 + 1, 1) * per_day;
    }
    case Unit::kYear: {
      const auto d = columnar::CivilFromDays(days);
      return columnar::DaysFromCivil(d.year, 1, 1) * per_day;
    }
  }
  return local;
}

ScalarKernel DateTruncKernel() {
  return [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
            const EvalContext& ctx) -> Result<Column> {
    const TypePtr& type = args[1].type();
    const bool is_date = type->id() == TypeId::kDate32;
    if (is_date) {
      return kernel::MapToFixed<int32_t>(
          args, rows, fn.return_type, ctx, [&](int64_t i, int32_t* out, bool*) -> Status {
            SQE_ASSIGN_OR_RETURN(Unit unit, ParseUnit(args[0].StringAt(i), true));
            *out = static_cast<int32_t>(
                TruncateLocal(unit, args[1].Value<int32_t>(i) * kSecondsPerDay, 1) /
                kSecondsPerDay);
            return Status::OK();
          });
    }
    const TsView v = TsView::Of(type);
    return kernel::MapToFixed<int64_t>(
        args, rows, fn.return_type, ctx, [&](int64_t i, int64_t* out, bool*) -> Status {
          SQE_ASSIGN_OR_RETURN(Unit unit, ParseUnit(args[0].StringAt(i), false));
          *out = v.Instant(TruncateLocal(unit, v.Local(args[1].Value<int64_t>(i)), v.per_second));
          return Status::OK();
        });
  };
}

int64_t UnitTicks(Unit unit, int64_t per_second) {
  switch (unit) {
    case Unit::kMillisecond:
      return per_second / 1000;
    case Unit::kSecond:
      return per_second;
    case Unit::kMinute:
      return 60 * per_second;
    case Unit::kHour:
      return 3600 * per_second;
    case Unit::kDay:
      return kSecondsPerDay * per_second;
    case Unit::kWeek:
      return 7 * kSecondsPerDay * per_second;
    default:
      return 0;
  }
}

int64_t MonthsOf(Unit unit) {
  return unit == Unit::kMonth ? 1 : unit == Unit::kQuarter ? 3 : unit == Unit::kYear ? 12 : 0;
}

Status AddOverflow() { return Status::InvalidArgument("date_add overflow"); }

ScalarKernel DateAddKernel() {
  return [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
            const EvalContext& ctx) -> Result<Column> {
    const TypePtr& type = args[2].type();
    if (type->id() == TypeId::kDate32) {
      return kernel::MapToFixed<int32_t>(
          args, rows, fn.return_type, ctx, [&](int64_t i, int32_t* out, bool*) -> Status {
            SQE_ASSIGN_OR_RETURN(Unit unit, ParseUnit(args[0].StringAt(i), true));
            const int64_t n = args[1].Value<int64_t>(i);
            const int64_t d = args[2].Value<int32_t>(i);
            int64_t r = 0;
            if (const int64_t months = MonthsOf(unit); months != 0) {
              if (n > 12 * 10'000'000 || n < -12 * 10'000'000) return AddOverflow();
              r = AddMonths(d, n * months);
            } else {
              int64_t delta = 0;
              if (__builtin_mul_overflow(n, unit == Unit::kWeek ? 7 : 1, &delta)) {
                return AddOverflow();
              }
              r = d + delta;
            }
            if (r < INT32_MIN || r > INT32_MAX) return AddOverflow();
            *out = static_cast<int32_t>(r);
            return Status::OK();
          });
    }
    const TsView v = TsView::Of(type);
    return kernel::MapToFixed<int64_t>(
        args, rows, fn.return_type, ctx, [&](int64_t i, int64_t* out, bool*) -> Status {
          SQE_ASSIGN_OR_RETURN(Unit unit, ParseUnit(args[0].StringAt(i), false));
          const int64_t n = args[1].Value<int64_t>(i);
          const int64_t t = args[2].Value<int64_t>(i);
          if (const int64_t months = MonthsOf(unit); months != 0) {
            if (n > 12 * 10'000'000 || n < -12 * 10'000'000) return AddOverflow();
            const int64_t local = v.Local(t);
            const int64_t days = FloorDiv(local, v.per_day());
            const int64_t tod = local - days * v.per_day();
            if (__builtin_mul_overflow(AddMonths(days, n * months), v.per_day(), out) ||
                __builtin_add_overflow(*out, tod, out)) {
              return AddOverflow();
            }
            *out = v.Instant(*out);
            return Status::OK();
          }
          // Days and weeks move the wall clock (the time of day stays across a daylight-
          // saving change); smaller units move the instant.
          const bool calendar = unit == Unit::kDay || unit == Unit::kWeek;
          int64_t delta = 0;
          if (__builtin_mul_overflow(n, UnitTicks(unit, v.per_second), &delta) ||
              __builtin_add_overflow(calendar ? v.Local(t) : t, delta, out)) {
            return AddOverflow();
          }
          if (calendar) *out = v.Instant(*out);
          return Status::OK();
        });
  };
}

ScalarKernel DateDiffKernel() {
  return [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
            const EvalContext& ctx) -> Result<Column> {
    const TypePtr& type = args[1].type();
    const bool is_date = type->id() == TypeId::kDate32;
    const TsView v = is_date ? TsView{1, nullptr} : TsView::Of(type);
    return kernel::MapToFixed<int64_t>(
        args, rows, fn.return_type, ctx, [&](int64_t i, int64_t* out, bool*) -> Status {
          SQE_ASSIGN_OR_RETURN(Unit unit, ParseUnit(args[0].StringAt(i), is_date));
          // Units below a day count elapsed time (instants); days and longer count the
          // wall-clock calendar in the value's zone.
          const bool elapsed = !is_date && unit < Unit::kDay;
          int64_t a = 0;
          int64_t b = 0;
          if (is_date) {
            a = args[1].Value<int32_t>(i) * kSecondsPerDay;
            b = args[2].Value<int32_t>(i) * kSecondsPerDay;
          } else {
            a = args[1].Value<int64_t>(i);
            b = args[2].Value<int64_t>(i);
            if (!elapsed) {
              a = v.Local(a);
              b = v.Local(b);
            }
          }
          if (const int64_t months = MonthsOf(unit); months != 0) {
            *out = MonthsBetween(a, b, v.per_day()) / months;
          } else {
            *out = (b - a) / UnitTicks(unit, v.per_second);  // truncates toward zero
          }
          return Status::OK();
        });
  };
}

ScalarResolver UnitValueResolver(std::string name, bool with_amount, bool two_values,
                                 bool result_bigint, ScalarKernel k) {
  return [=](const std::vector<TypePtr>& types) -> Result<std::optional<ScalarFunction>> {
    const size_t n = 1 + (with_amount ? 1 : 0) + (two_values ? 2 : 1);
    if (types.size() != n) return std::optional<ScalarFunction>();
    TypePtr value = types.back();
    if (two_values) {
      auto super = CommonSuperType(types[n - 2], types[n - 1]);
      if (!super) return std::optional<ScalarFunction>();
      value = *super;
    }
    if (value == nullptr || (value->id() != TypeId::kDate32 && value->id() != TypeId::kTimestamp)) {
      return std::optional<ScalarFunction>();
    }
    std::vector<TypePtr> args = {columnar::String()};
    if (with_amount) args.push_back(columnar::Int64());
    args.push_back(value);
    if (two_values) args.push_back(value);
    return kernel::Instance(name, args, result_bigint ? columnar::Int64() : value, k);
  };
}

/// MySQL-style format (Trino's date_format): %Y %y %m %c %d %e %H %k %h %I %l %i %s %S %f
/// %p %M %b %W %a %j %%; other letters are copied.
Status FormatDateTime(std::string_view format, int64_t days, int64_t tod_micros, std::string* out) {
  static const char* kMonths[] = {"January",   "February", "March",    "April",
                                  "May",       "June",     "July",     "August",
                                  "September", "October",  "November", "December"};
  static const char* kDays[] = {"Monday", "Tuesday",  "Wednesday", "Thursday",
                                "Friday", "Saturday", "Sunday"};
  const columnar::CivilDate d = columnar::CivilFromDays(days);
  const int64_t hour = tod_micros / 3'600'000'000;
  const int64_t minute = tod_micros / 60'000'000 % 60;
  const int64_t second = tod_micros / 1'000'000 % 60;
  auto pad = [&](int64_t v, int width) {
    std::string t = std::to_string(v);
    if (static_cast<int>(t.size()) < width) out->append(width - t.size(), '0');
    out->append(t);
  };
  for (size_t k = 0; k < format.size(); ++k) {
    if (format[k] != '%' || k + 1 == format.size()) {
      out->push_back(format[k]);
      continue;
    }
    const char c = format[++k];
    const int64_t h12 = hour % 12 == 0 ? 12 : hour % 12;
    switch (c) {
      case 'Y':
        pad(d.year, 4);
        break;
      case 'y':
        pad(FloorMod(d.year, 100), 2);
        break;
      case 'm':
        pad(d.month, 2);
        break;
      case 'c':
        pad(d.month, 1);
        break;
      case 'd':
        pad(d.day, 2);
        break;
      case 'e':
        pad(d.day, 1);
        break;
      case 'H':
        pad(hour, 2);
        break;
      case 'k':
        pad(hour, 1);
        break;
      case 'h':
      case 'I':
        pad(h12, 2);
        break;
      case 'l':
        pad(h12, 1);
        break;
      case 'i':
        pad(minute, 2);
        break;
      case 's':
      case 'S':
        pad(second, 2);
        break;
      case 'f':
        pad(tod_micros % 1'000'000, 6);
        break;
      case 'p':
        out->append(hour < 12 ? "AM" : "PM");
        break;
      case 'M':
        out->append(kMonths[d.month - 1]);
        break;
      case 'b':
        out->append(std::string_view(kMonths[d.month - 1]).substr(0, 3));
        break;
      case 'W':
        out->append(kDays[DayOfWeek(days) - 1]);
        break;
      case 'a':
        out->append(std::string_view(kDays[DayOfWeek(days) - 1]).substr(0, 3));
        break;
      case 'j':
        pad(DayOfYear(days), 3);
        break;
      case '%':
        out->push_back('%');
        break;
      default:
        return Status::InvalidArgument(std::string("date_format: unsupported specifier %") + c);
    }
  }
  return Status::OK();
}

}  // namespace

void RegisterDatetimeFunctions(FunctionRegistry& r) {
  const struct {
    const char* name;
    Field field;
    bool date;
    const char* what;
  } kFields[] = {
      {"year", Field::kYear, true, "the year"},
      {"quarter", Field::kQuarter, true, "the quarter of the year (1-4)"},
      {"month", Field::kMonth, true, "the month (1-12)"},
      {"week", Field::kWeek, true, "the ISO week of the year (1-53)"},
      {"week_of_year", Field::kWeek, true, "the ISO week of the year (1-53)"},
      {"day", Field::kDay, true, "the day of the month"},
      {"day_of_month", Field::kDay, true, "the day of the month"},
      {"day_of_week", Field::kDayOfWeek, true, "the ISO day of the week (Monday = 1)"},
      {"dow", Field::kDayOfWeek, true, "the ISO day of the week (Monday = 1)"},
      {"day_of_year", Field::kDayOfYear, true, "the day of the year (1-366)"},
      {"doy", Field::kDayOfYear, true, "the day of the year (1-366)"},
      {"year_of_week", Field::kYearOfWeek, true, "the ISO week-numbering year"},
      {"yow", Field::kYearOfWeek, true, "the ISO week-numbering year"},
      {"hour", Field::kHour, false, "the hour of the day (0-23)"},
      {"minute", Field::kMinute, false, "the minute of the hour"},
      {"second", Field::kSecond, false, "the second of the minute"},
      {"millisecond", Field::kMillisecond, false, "the millisecond of the second"},
  };
  for (const auto& f : kFields) {
    FunctionInfo info{f.name, "bigint", f.date ? "date | timestamp" : "timestamp | time", "scalar",
                      f.what};
    r.AddScalar(f.name,
                TemporalResolver(
                    f.name, f.date, true, !f.date, [](const TypePtr&) { return columnar::Int64(); },
                    FieldKernel(f.field)),
                info);
  }
  // date_part('year', x): the EXTRACT spelling with the field as a string.
  {
    ScalarKernel k = [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
                        const EvalContext& ctx) -> Result<Column> {
      // The field is the same on every row in practice (a literal): resolve it once.
      if (rows == 0) return Column::MakeAllNull(fn.return_type, 0, ctx.tracker);
      std::string unit;
      for (int64_t i = 0; i < rows; ++i) {
        if (args[0].IsValid(i)) {
          unit = std::string(args[0].StringAt(i));
          break;
        }
      }
      for (char& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      static const std::pair<const char*, Field> kNames[] = {{"year", Field::kYear},
                                                             {"quarter", Field::kQuarter},
                                                             {"month", Field::kMonth},
                                                             {"week", Field::kWeek},
                                                             {"day", Field::kDay},
                                                             {"day_of_month", Field::kDay},
                                                             {"day_of_week", Field::kDayOfWeek},
                                                             {"dow", Field::kDayOfWeek},
                                                             {"day_of_year", Field::kDayOfYear},
                                                             {"doy", Field::kDayOfYear},
                                                             {"year_of_week", Field::kYearOfWeek},
                                                             {"yow", Field::kYearOfWeek},
                                                             {"hour", Field::kHour},
                                                             {"minute", Field::kMinute},
                                                             {"second", Field::kSecond},
                                                             {"millisecond", Field::kMillisecond}};
      for (const auto& [name, field] : kNames) {
        if (unit == name) {
          if (IsTimeField(field) && args[1].type_id() == TypeId::kDate32) break;
          return FieldKernel(field)({args[1]}, rows, fn, ctx);
        }
      }
      return Status::InvalidArgument("'" + unit + "' is not a valid field of " +
                                     args[1].type()->ToString());
    };
    FunctionInfo info{"date_part", "bigint", "varchar, date | timestamp", "scalar",
                      "a field of a date or timestamp: date_part('year', d)"};
    r.AddScalar(
        "date_part",
        [k](const std::vector<TypePtr>& types) -> Result<std::optional<ScalarFunction>> {
          if (types.size() != 2 || types[1] == nullptr ||
              (types[1]->id() != TypeId::kDate32 && types[1]->id() != TypeId::kTimestamp &&
               types[1]->id() != TypeId::kTime64)) {
            return std::optional<ScalarFunction>();
          }
          return kernel::Instance("date_part", {columnar::String(), types[1]}, columnar::Int64(),
                                  k);
        },
        info);
  }
  r.AddScalar("date_trunc", UnitValueResolver("date_trunc", false, false, false, DateTruncKernel()),
              {"date_trunc", "same as x", "varchar, date | timestamp", "scalar",
               "x truncated to the unit (second, minute, hour, day, week, month, quarter, year)"});
  r.AddScalar("date_add", UnitValueResolver("date_add", true, false, false, DateAddKernel()),
              {"date_add", "same as x", "varchar, bigint, date | timestamp", "scalar",
               "x plus n units (month-end days are clamped: 2024-01-31 + 1 month = 2024-02-29)"});
  r.AddScalar("date_diff", UnitValueResolver("date_diff", false, true, true, DateDiffKernel()),
              {"date_diff", "bigint", "varchar, T, T", "scalar",
               "whole units from the first date/timestamp to the second"});
  r.AddScalar(
      "last_day_of_month",
      TemporalResolver(
          "last_day_of_month", true, true, false, [](const TypePtr&) { return columnar::Date32(); },
          [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
             const EvalContext& ctx) -> Result<Column> {
            const TypePtr& type = args[0].type();
            const bool is_date = type->id() == TypeId::kDate32;
            const TsView v = is_date ? TsView{1, nullptr} : TsView::Of(type);
            return kernel::MapToFixed<int32_t>(
                args, rows, fn.return_type, ctx, [&](int64_t i, int32_t* out, bool*) {
                  const int64_t days =
                      is_date ? args[0].Value<int32_t>(i)
                              : FloorDiv(v.Local(args[0].Value<int64_t>(i)), v.per_day());
                  const auto d = columnar::CivilFromDays(days);
                  *out = static_cast<int32_t>(
                      columnar::DaysFromCivil(d.year, d.month, DaysInMonth(d.year, d.month)));
                  return Status::OK();
                });
          }),
      {"last_day_of_month", "date", "date | timestamp", "scalar", "the last day of the month"});
  kernel::AddFixed(
      r, "from_unixtime", {columnar::Float64()}, columnar::TimestampTz(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
         const EvalContext& ctx) {
        return kernel::MapToFixed<int64_t>(
            args, rows, fn.return_type, ctx, [&](int64_t i, int64_t* out, bool*) -> Status {
              const double s = args[0].Value<double>(i);
              const double micros = std::round(s * 1e6);
              if (!std::isfinite(micros) || std::fabs(micros) > 9.2e18) {
                return Status::InvalidArgument("from_unixtime: value out of range");
              }
              *out = static_cast<int64_t>(micros);
              return Status::OK();
            });
      },
      "the timestamp (UTC) of a unix time in seconds");
  r.AddScalar(
      "to_unixtime",
      TemporalResolver(
          "to_unixtime", false, true, false, [](const TypePtr&) { return columnar::Float64(); },
          [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
             const EvalContext& ctx) -> Result<Column> {
            const double per_second =
                static_cast<double>(columnar::TicksPerSecond(args[0].type()->unit()));
            return kernel::MapUnary<int64_t, double>(
                args[0], rows, fn.return_type, ctx,
                [per_second](int64_t t, double* o) {
                  *o = static_cast<double>(t) / per_second;
                  return true;
                },
                [](int64_t) { return Status::OK(); });
          }),
      {"to_unixtime", "double", "timestamp", "scalar", "seconds since 1970-01-01 UTC"});
  // Query-time constants (non-deterministic for folding: a cached plan must not keep them).
  auto micros_now = [](const EvalContext& ctx) { return ctx.query_start_micros; };
  kernel::AddFixed(
      r, "current_date", {}, columnar::Date32(),
      [micros_now](const std::vector<Column>&, int64_t rows, const ScalarFunction& fn,
                   const EvalContext& ctx) {
        const int64_t local = SessionLocalMicros(micros_now(ctx), ctx);
        const auto day = static_cast<int32_t>(FloorDiv(local, kSecondsPerDay * 1'000'000));
        return kernel::MapToFixed<int32_t>({}, rows, fn.return_type, ctx,
                                           [&](int64_t, int32_t* out, bool*) {
                                             *out = day;
                                             return Status::OK();
                                           });
      },
      "today's date in the session's zone", false);
  for (const char* name : {"current_timestamp", "now"}) {
    kernel::AddFixed(
        r, name, {}, columnar::TimestampTz(),
        [micros_now](const std::vector<Column>&, int64_t rows, const ScalarFunction& fn,
                     const EvalContext& ctx) {
          const int64_t now = micros_now(ctx);
          return kernel::MapToFixed<int64_t>({}, rows, fn.return_type, ctx,
                                             [&](int64_t, int64_t* out, bool*) {
                                               *out = now;
                                               return Status::OK();
                                             });
        },
        "the query's start time", false);
  }
  kernel::AddFixed(
      r, "localtimestamp", {}, columnar::Timestamp(),
      [micros_now](const std::vector<Column>&, int64_t rows, const ScalarFunction& fn,
                   const EvalContext& ctx) {
        const int64_t now = SessionLocalMicros(micros_now(ctx), ctx);
        return kernel::MapToFixed<int64_t>({}, rows, fn.return_type, ctx,
                                           [&](int64_t, int64_t* out, bool*) {
                                             *out = now;
                                             return Status::OK();
                                           });
      },
      "the query's start time in the session's zone, without zone", false);
  for (const char* name : {"current_time", "localtime"}) {
    kernel::AddFixed(
        r, name, {}, columnar::Time64(),
        [micros_now](const std::vector<Column>&, int64_t rows, const ScalarFunction& fn,
                     const EvalContext& ctx) {
          const int64_t per_day = kSecondsPerDay * 1'000'000;
          const int64_t local = SessionLocalMicros(micros_now(ctx), ctx);
          const int64_t tod = FloorMod(local, per_day);
          return kernel::MapToFixed<int64_t>({}, rows, fn.return_type, ctx,
                                             [&](int64_t, int64_t* out, bool*) {
                                               *out = tod;
                                               return Status::OK();
                                             });
        },
        "the query's start time of day in the session's zone (time without zone)", false);
  }
  kernel::AddFixed(
      r, "current_timezone", {}, columnar::String(),
      [](const std::vector<Column>&, int64_t rows, const ScalarFunction&, const EvalContext& ctx) {
        return kernel::MapToString({}, rows, ctx, [&](int64_t, std::string* out, bool*) {
          out->assign(ctx.time_zone);
          return Status::OK();
        });
      },
      "the session's time zone", false);
  r.AddScalar(
      "date_format",
      [](const std::vector<TypePtr>& types) -> Result<std::optional<ScalarFunction>> {
        if (types.size() != 2 || types[0] == nullptr ||
            (types[0]->id() != TypeId::kTimestamp && types[0]->id() != TypeId::kDate32)) {
          return std::optional<ScalarFunction>();
        }
        // A date formats as its midnight (Trino coerces date to timestamp here).
        TypePtr value = types[0]->id() == TypeId::kDate32 ? columnar::Timestamp() : types[0];
        return kernel::Instance(
            "date_format", {value, columnar::String()}, columnar::String(),
            [](const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
               const EvalContext& ctx) {
              const TsView v = TsView::Of(args[0].type());
              return kernel::MapToString(
                  args, rows, ctx, [&](int64_t i, std::string* out, bool*) -> Status {
                    const int64_t local = v.Local(args[0].Value<int64_t>(i));
                    const int64_t days = FloorDiv(local, v.per_day());
                    const int64_t tod = (local - days * v.per_day()) / (v.per_second / 1'000'000);
                    return FormatDateTime(args[1].StringAt(i), days, tod, out);
                  });
            });
      },
      {"date_format", "varchar", "timestamp, varchar", "scalar",
       "formats with MySQL specifiers: date_format(ts, '%Y-%m-%d %H:%i:%s')"});
  kernel::AddFixed(
      r, "date", {columnar::String()}, columnar::Date32(),
      [](const std::vector<Column>& args, int64_t, const ScalarFunction&, const EvalContext& ctx) {
        return CastColumn(args[0], columnar::Date32(), false, ctx);
      },
      "CAST(x AS date)");
  r.AddScalar("date",
              TemporalResolver(
                  "date", false, true, false, [](const TypePtr&) { return columnar::Date32(); },
                  [](const std::vector<Column>& args, int64_t, const ScalarFunction&,
                     const EvalContext& ctx) {
                    return CastColumn(args[0], columnar::Date32(), false, ctx);
                  }),
              {"date", "date", "timestamp", "scalar", "CAST(x AS date)"});
  RegisterDatetimeFormatFunctions(r);
}

}  // namespace sqe::exec
