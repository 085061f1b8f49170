#include "common/cron_expression.h"

#include <gtest/gtest.h>

namespace sqe {
namespace {

using std::chrono::sys_days;
using namespace std::chrono_literals;

CronExpression::WallTime At(int y, unsigned mo, unsigned d, int h = 0, int mi = 0, int s = 0) {
  return CronExpression::WallTime(sys_days(std::chrono::year(y) / mo / d)) + std::chrono::hours(h) +
         std::chrono::minutes(mi) + std::chrono::seconds(s);
}

CronExpression Cron(std::string_view text) {
  auto r = CronExpression::Parse(text);
  EXPECT_TRUE(r.ok()) << text << ": " << r.status().ToString();
  return std::move(r).value();
}

TEST(CronExpressionTest, DailyAtTwoFiresAtTwoUtc) {
  CronExpression cron = Cron("0 2 * * *");
  EXPECT_EQ(cron.NextFireAfter(At(2026, 12, 2, 1, 59, 59)), At(2026, 12, 2, 2, 0));
  // Strictly after: at exactly 02:00 the next one is tomorrow.
  EXPECT_EQ(cron.NextFireAfter(At(2026, 12, 2, 2, 0)), At(2026, 12, 3, 2, 0));
  EXPECT_EQ(cron.NextFireAfter(At(2026, 12, 31, 3, 0)), At(2027, 1, 1, 2, 0));
}

TEST(CronExpressionTest, StepsListsAndRanges) {
  CronExpression every15 = Cron("*/15 * * * *");
  EXPECT_EQ(every15.NextFireAfter(At(2026, 1, 1, 10, 1)), At(2026, 1, 1, 10, 15));
  EXPECT_EQ(every15.NextFireAfter(At(2026, 1, 1, 10, 45)), At(2026, 1, 1, 11, 0));

  CronExpression list = Cron("5,35 8-10 * * *");
  EXPECT_EQ(list.NextFireAfter(At(2026, 1, 1, 8, 5)), At(2026, 1, 1, 8, 35));
  EXPECT_EQ(list.NextFireAfter(At(2026, 1, 1, 10, 35)), At(2026, 1, 2, 8, 5));

  CronExpression ranged_step = Cron("10-30/10 * * * *");
  EXPECT_EQ(ranged_step.NextFireAfter(At(2026, 1, 1, 0, 30)), At(2026, 1, 1, 1, 10));

  CronExpression start_step = Cron("50/5 * * * *");  // 50, 55
  EXPECT_EQ(start_step.NextFireAfter(At(2026, 1, 1, 0, 51)), At(2026, 1, 1, 0, 55));
  EXPECT_EQ(start_step.NextFireAfter(At(2026, 1, 1, 0, 55)), At(2026, 1, 1, 1, 50));
}

TEST(CronExpressionTest, NamesForMonthsAndDays) {
  CronExpression weekdays = Cron("0 9 * * MON-FRI");
  // 2026-12-05 is a Saturday.
  EXPECT_EQ(weekdays.NextFireAfter(At(2026, 12, 5, 12, 0)), At(2026, 12, 7, 9, 0));
  CronExpression jan = Cron("0 0 1 jan *");
  EXPECT_EQ(jan.NextFireAfter(At(2026, 6, 1)), At(2027, 1, 1));
  CronExpression mixed = Cron("0 0 * Jun,DEC sun");
  EXPECT_EQ(mixed.NextFireAfter(At(2026, 12, 1)), At(2026, 12, 6));
}

TEST(CronExpressionTest, SevenIsSunday) {
  EXPECT_EQ(Cron("0 0 * * 7").NextFireAfter(At(2026, 12, 1)), At(2026, 12, 6));
  EXPECT_EQ(Cron("0 0 * * 0").NextFireAfter(At(2026, 12, 1)), At(2026, 12, 6));
}

TEST(CronExpressionTest, DayOfMonthOrDayOfWeekWhenBothRestricted) {
  // The 15th, or any Monday.
  CronExpression cron = Cron("0 0 15 * MON");
  EXPECT_EQ(cron.NextFireAfter(At(2026, 12, 1)), At(2026, 12, 7));    // Monday
  EXPECT_EQ(cron.NextFireAfter(At(2026, 12, 14)), At(2026, 12, 15));  // the 15th (Tuesday)
  // With day-of-week '*', only the day of month counts.
  EXPECT_EQ(Cron("0 0 15 * *").NextFireAfter(At(2026, 12, 1)), At(2026, 12, 15));
}

TEST(CronExpressionTest, LeapDayWaitsForALeapYear) {
  CronExpression cron = Cron("0 0 29 2 *");
  EXPECT_EQ(cron.NextFireAfter(At(2026, 3, 1)), At(2028, 2, 29));
}

TEST(CronExpressionTest, Macros) {
  EXPECT_EQ(Cron("@daily").NextFireAfter(At(2026, 1, 1, 5)), At(2026, 1, 2));
  EXPECT_EQ(Cron("@hourly").NextFireAfter(At(2026, 1, 1, 5, 1)), At(2026, 1, 1, 6));
  EXPECT_EQ(Cron("@weekly").NextFireAfter(At(2026, 12, 1)), At(2026, 12, 6));
  EXPECT_EQ(Cron("@MONTHLY").NextFireAfter(At(2026, 12, 1)), At(2027, 1, 1));
  EXPECT_EQ(Cron("@yearly").NextFireAfter(At(2026, 12, 1)), At(2027, 1, 1));
}

TEST(CronExpressionTest, MatchesTheMinute) {
  CronExpression cron = Cron("30 4 * * *");
  EXPECT_TRUE(cron.Matches(At(2026, 5, 5, 4, 30, 59)));
  EXPECT_FALSE(cron.Matches(At(2026, 5, 5, 4, 31)));
  EXPECT_EQ(cron.text(), "30 4 * * *");
}

TEST(CronExpressionTest, ExtraWhitespaceIsFine) {
  EXPECT_EQ(Cron("  0   2 *\t* *  ").NextFireAfter(At(2026, 1, 1)), At(2026, 1, 1, 2));
}

TEST(CronExpressionTest, RejectsBadExpressionsNamingTheField) {
  struct Case {
    const char* text;
    const char* expect;
  };
  const Case cases[] = {
      {"", "expected 5 fields"},
      {"0 2 * *", "expected 5 fields"},
      {"0 2 * * * *", "expected 5 fields"},
      {"60 * * * *", "minute field"},
      {"* 24 * * *", "hour field"},
      {"* * 0 * *", "day-of-month field"},
      {"* * 32 * *", "day-of-month field"},
      {"* * * 13 *", "month field"},
      {"* * * FOO *", "JAN..DEC"},
      {"* * * * 8", "day-of-week field"},
      {"* * * * FUNDAY", "SUN..SAT"},
      {"*/0 * * * *", "step must be"},
      {"*/x * * * *", "step must be"},
      {"30-10 * * * *", "range start is after its end"},
      {"1,,2 * * * *", "empty list item"},
      {"5- * * * *", "missing value"},
      {"a * * * *", "minute field"},
      {"0 0 30 2 *", "never fires"},
      {"0 0 31 4,6,9,11 *", "never fires"},
      {"@sometimes", "unknown macro"},
  };
  for (const Case& c : cases) {
    auto r = CronExpression::Parse(c.text);
    ASSERT_FALSE(r.ok()) << c.text;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(r.status().message().find(c.expect), std::string::npos)
        << c.text << " -> " << r.status().message();
    EXPECT_NE(r.status().message().find(std::string("'") + c.text + "'"), std::string::npos)
        << r.status().message();
  }
}

TEST(CronExpressionTest, FebruaryThirtyWithWeekdayStillFires) {
  // Both restricted: OR semantics, so Mondays in February make it satisfiable.
  CronExpression cron = Cron("0 0 30 2 MON");
  EXPECT_EQ(cron.NextFireAfter(At(2027, 1, 31)), At(2027, 2, 1));
}

}  // namespace
}  // namespace sqe
