#include "common/cron_expression.h"

#include <array>
#include <cctype>
#include <charconv>
#include <vector>

namespace sqe {
namespace {

using std::chrono::days;
using std::chrono::floor;
using std::chrono::hours;
using std::chrono::minutes;
using std::chrono::sys_days;

/// One of the five positions of a cron expression.
struct FieldSpec {
  const char* name;
  int min;
  int max;                                   // inclusive; day-of-week allows 7 (= Sunday) on input
  const std::array<const char*, 12>* names;  // names[i] has value names_base + i
  int names_base;
};

constexpr std::array<const char*, 12> kMonthNames = {"JAN", "FEB", "MAR", "APR", "MAY", "JUN",
                                                     "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"};
constexpr std::array<const char*, 12> kDayNames = {"SUN", "MON", "TUE", "WED", "THU", "FRI",
                                                   "SAT", "",    "",    "",    "",    ""};

const FieldSpec kFields[5] = {
    {"minute", 0, 59, nullptr, 0},        {"hour", 0, 23, nullptr, 0},
    {"day-of-month", 1, 31, nullptr, 0},  {"month", 1, 12, &kMonthNames, 1},
    {"day-of-week", 0, 7, &kDayNames, 0},
};

constexpr int kMaxDaysInMonth[13] = {0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

Status FieldError(std::string_view expression, const FieldSpec& field, std::string_view item,
                  std::string_view why) {
  return Status::InvalidArgument("invalid cron expression '" + std::string(expression) +
                                 "': " + field.name + " field '" + std::string(item) +
                                 "': " + std::string(why));
}

/// Parses one value (a number or, where the field has them, a name).
Result<int> ParseValue(std::string_view expression, const FieldSpec& field, std::string_view item,
                       std::string_view text) {
  if (text.empty()) return FieldError(expression, field, item, "missing value");
  if (std::isdigit(static_cast<unsigned char>(text.front()))) {
    int value = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || ptr != text.data() + text.size()) {
      return FieldError(expression, field, item, "'" + std::string(text) + "' is not a number");
    }
    if (value < field.min || value > field.max) {
      return FieldError(expression, field, item,
                        std::to_string(value) + " is outside " + std::to_string(field.min) + "-" +
                            std::to_string(field.max));
    }
    return value;
  }
  if (field.names != nullptr) {
    std::string upper = Upper(text);
    for (size_t i = 0; i < field.names->size(); ++i) {
      if (upper == (*field.names)[i]) return field.names_base + static_cast<int>(i);
    }
  }
  return FieldError(expression, field, item,
                    "unknown value '" + std::string(text) + "'" +
                        (field.names == &kMonthNames ? " (use 1-12 or JAN..DEC)"
                         : field.names == &kDayNames ? " (use 0-7 or SUN..SAT)"
                                                     : ""));
}

/// Parses a comma list of `*`, `a`, `a-b`, with optional `/step`, into `bits`.
template <size_t N>
Status ParseField(std::string_view expression, const FieldSpec& field, std::string_view text,
                  std::bitset<N>* bits) {
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    std::string_view item = text.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    if (item.empty()) return FieldError(expression, field, text, "empty list item");

    std::string_view range = item;
    int step = 1;
    bool has_step = false;
    if (size_t slash = item.find('/'); slash != std::string_view::npos) {
      range = item.substr(0, slash);
      std::string_view step_text = item.substr(slash + 1);
      auto [ptr, ec] = std::from_chars(step_text.data(), step_text.data() + step_text.size(), step);
      if (step_text.empty() || ec != std::errc() || ptr != step_text.data() + step_text.size() ||
          step < 1) {
        return FieldError(expression, field, item, "step must be a whole number >= 1");
      }
      has_step = true;
    }
    int lo = field.min;
    int hi = field.max;
    if (field.names == &kDayNames) hi = 6;  // '*' is 0-6; 7 only as an explicit Sunday
    if (range != "*") {
      size_t dash = range.find('-');
      SQE_ASSIGN_OR_RETURN(lo, ParseValue(expression, field, item, range.substr(0, dash)));
      if (dash != std::string_view::npos) {
        SQE_ASSIGN_OR_RETURN(hi, ParseValue(expression, field, item, range.substr(dash + 1)));
        if (hi < lo) {
          return FieldError(expression, field, item,
                            "range start is after its end (wrap-around ranges are not supported; "
                            "use a list such as 'FRI-SAT,SUN')");
        }
      } else if (!has_step) {
        hi = lo;
      }
      // "a/n" means a, a+n, ... up to the field's maximum.
    }
    if (step > field.max - field.min + 1 && field.max > field.min) {
      return FieldError(expression, field, item,
                        "step " + std::to_string(step) + " is larger than the field's range");
    }
    for (int v = lo; v <= hi; v += step) {
      int bit = (field.names == &kDayNames && v == 7) ? 0 : v;
      bits->set(static_cast<size_t>(bit));
    }
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return Status::OK();
}

std::string_view ExpandMacro(std::string_view text) {
  std::string upper = Upper(text);
  if (upper == "@YEARLY" || upper == "@ANNUALLY") return "0 0 1 1 *";
  if (upper == "@MONTHLY") return "0 0 1 * *";
  if (upper == "@WEEKLY") return "0 0 * * 0";
  if (upper == "@DAILY" || upper == "@MIDNIGHT") return "0 0 * * *";
  if (upper == "@HOURLY") return "0 * * * *";
  return {};
}

std::vector<std::string_view> SplitWhitespace(std::string_view text) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    size_t begin = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i > begin) out.push_back(text.substr(begin, i - begin));
  }
  return out;
}

}  // namespace

Result<CronExpression> CronExpression::Parse(std::string_view text) {
  CronExpression cron;
  cron.text_ = std::string(text);
  std::vector<std::string_view> parts = SplitWhitespace(text);
  if (parts.size() == 1 && !parts[0].empty() && parts[0].front() == '@') {
    std::string_view expanded = ExpandMacro(parts[0]);
    if (expanded.empty()) {
      return Status::InvalidArgument(
          "invalid cron expression '" + std::string(text) +
          "': unknown macro (accepted: @yearly, @annually, @monthly, @weekly, @daily, "
          "@midnight, @hourly)");
    }
    parts = SplitWhitespace(expanded);
  }
  if (parts.size() != 5) {
    return Status::InvalidArgument("invalid cron expression '" + std::string(text) +
                                   "': expected 5 fields (minute hour day-of-month month "
                                   "day-of-week), got " +
                                   std::to_string(parts.size()));
  }
  SQE_RETURN_NOT_OK(ParseField(text, kFields[0], parts[0], &cron.minutes_));
  SQE_RETURN_NOT_OK(ParseField(text, kFields[1], parts[1], &cron.hours_));
  SQE_RETURN_NOT_OK(ParseField(text, kFields[2], parts[2], &cron.days_of_month_));
  SQE_RETURN_NOT_OK(ParseField(text, kFields[3], parts[3], &cron.months_));
  SQE_RETURN_NOT_OK(ParseField(text, kFields[4], parts[4], &cron.days_of_week_));
  cron.day_of_month_star_ = parts[2].front() == '*';
  cron.day_of_week_star_ = parts[4].front() == '*';

  // With day-of-week unrestricted, the selected days of month must exist in some selected
  // month (February counts 29 days), or the schedule would never fire.
  if (cron.day_of_week_star_ && !cron.day_of_month_star_) {
    bool possible = false;
    for (int m = 1; m <= 12 && !possible; ++m) {
      if (!cron.months_.test(static_cast<size_t>(m))) continue;
      for (int d = 1; d <= kMaxDaysInMonth[m] && !possible; ++d) {
        possible = cron.days_of_month_.test(static_cast<size_t>(d));
      }
    }
    if (!possible) {
      return Status::InvalidArgument("invalid cron expression '" + std::string(text) +
                                     "': it never fires (the selected days of month do not "
                                     "exist in the selected months)");
    }
  }
  return cron;
}

bool CronExpression::DayMatches(sys_days day) const {
  std::chrono::year_month_day ymd(day);
  if (!months_.test(static_cast<unsigned>(ymd.month()))) return false;
  bool dom = days_of_month_.test(static_cast<unsigned>(ymd.day()));
  bool dow = days_of_week_.test(std::chrono::weekday(day).c_encoding());
  if (day_of_month_star_ || day_of_week_star_) return dom && dow;
  return dom || dow;
}

bool CronExpression::Matches(WallTime t) const {
  auto minute = floor<minutes>(t);
  sys_days day = floor<days>(minute);
  auto since_midnight = minute - day;
  auto h = static_cast<size_t>(floor<hours>(since_midnight).count());
  auto m = static_cast<size_t>((since_midnight - floor<hours>(since_midnight)).count());
  return DayMatches(day) && hours_.test(h) && minutes_.test(m);
}

std::optional<CronExpression::WallTime> CronExpression::NextFireAfter(WallTime after) const {
  auto start = floor<minutes>(after) + minutes(1);
  sys_days day = floor<days>(start);
  auto first = start - day;
  int first_hour = static_cast<int>(floor<hours>(first).count());
  int first_minute = static_cast<int>((first - floor<hours>(first)).count());
  // The Gregorian calendar repeats every 400 years, but weekdays with a fixed date repeat
  // within 28 years between century exceptions, so that bounds any satisfiable schedule.
  constexpr int kMaxDays = 366 * 28;
  for (int i = 0; i < kMaxDays; ++i, ++day) {
    if (!DayMatches(day)) continue;
    int h0 = i == 0 ? first_hour : 0;
    for (int h = h0; h < 24; ++h) {
      if (!hours_.test(static_cast<size_t>(h))) continue;
      int m0 = (i == 0 && h == first_hour) ? first_minute : 0;
      for (int m = m0; m < 60; ++m) {
        if (minutes_.test(static_cast<size_t>(m))) {
          return WallTime(day) + hours(h) + minutes(m);
        }
      }
    }
  }
  return std::nullopt;
}

}  // namespace sqe
