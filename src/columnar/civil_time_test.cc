#include "columnar/civil_time.h"

#include <gtest/gtest.h>

namespace sqe::columnar {
namespace {

TEST(CivilTimeTest, KnownDates) {
  EXPECT_EQ(FormatDate(0), "1970-01-01");
  EXPECT_EQ(FormatDate(-1), "1969-12-31");
  EXPECT_EQ(FormatDate(19782), "2024-02-29");
  EXPECT_EQ(FormatDate(11016), "2000-02-29");
  EXPECT_EQ(FormatDate(-719162), "0001-01-01");
  EXPECT_EQ(FormatDate(-719163), "0000-12-31");
  EXPECT_EQ(FormatDate(-719529), "-0001-12-31");
  EXPECT_EQ(FormatDate(2932896), "9999-12-31");
  EXPECT_EQ(FormatDate(2932897), "+10000-01-01");
  EXPECT_EQ(FormatDate(-141427), "1582-10-15");  // Gregorian reform day, proleptic
  EXPECT_EQ(FormatDate(INT32_MAX), "+5881580-07-11");
  EXPECT_EQ(FormatDate(INT32_MIN), "-5877641-06-23");
}

TEST(CivilTimeTest, DaysFromCivilRoundTrips) {
  EXPECT_EQ(DaysFromCivil(1970, 1, 1), 0);
  EXPECT_EQ(DaysFromCivil(2024, 2, 29), 19782);
  EXPECT_EQ(DaysFromCivil(1900, 3, 1), -25508);
  for (int64_t days = -800000; days <= 3000000; days += 997) {
    CivilDate d = CivilFromDays(days);
    ASSERT_EQ(DaysFromCivil(d.year, d.month, d.day), days) << days;
    ASSERT_GE(d.month, 1);
    ASSERT_LE(d.month, 12);
    ASSERT_GE(d.day, 1);
    ASSERT_LE(d.day, 31);
  }
  // Consecutive days advance the calendar by one day across month and year ends.
  CivilDate prev = CivilFromDays(-3000);
  for (int64_t days = -2999; days < 3000; ++days) {
    CivilDate cur = CivilFromDays(days);
    const bool next_day =
        cur.year == prev.year && cur.month == prev.month && cur.day == prev.day + 1;
    const bool next_month = cur.year == prev.year && cur.month == prev.month + 1 && cur.day == 1;
    const bool next_year = cur.year == prev.year + 1 && cur.month == 1 && cur.day == 1 &&
                           prev.month == 12 && prev.day == 31;
    ASSERT_TRUE(next_day || next_month || next_year) << days;
    prev = cur;
  }
}

TEST(CivilTimeTest, TimesOfDay) {
  EXPECT_EQ(FormatTimeOfDay(0, TimeUnit::kMicro), "00:00:00.000000");
  EXPECT_EQ(FormatTimeOfDay(49'500'000'001, TimeUnit::kMicro), "13:45:00.000001");
  EXPECT_EQ(FormatTimeOfDay(86'399'999'999, TimeUnit::kMicro), "23:59:59.999999");
  EXPECT_EQ(FormatTimeOfDay(1'000'000'123, TimeUnit::kNano), "00:00:01.000000123");
  EXPECT_EQ(FormatTimeOfDay(-1, TimeUnit::kMicro), "23:59:59.999999");  // wrapped
}

TEST(CivilTimeTest, Timestamps) {
  EXPECT_EQ(FormatTimestamp(0, TimeUnit::kMicro), "1970-01-01 00:00:00.000000");
  EXPECT_EQ(FormatTimestamp(-1, TimeUnit::kMicro), "1969-12-31 23:59:59.999999");
  EXPECT_EQ(FormatTimestamp(-86'400'000'000, TimeUnit::kMicro), "1969-12-31 00:00:00.000000");
  EXPECT_EQ(FormatTimestamp(1'709'214'300'123'456, TimeUnit::kMicro), "2024-02-29 13:45:00.123456");
  EXPECT_EQ(FormatTimestamp(1'709'214'300'123'456'789, TimeUnit::kNano),
            "2024-02-29 13:45:00.123456789");
  EXPECT_EQ(FormatTimestamp(-1, TimeUnit::kNano), "1969-12-31 23:59:59.999999999");
  // 1900-01-01 00:00:00.5 and the far ends of the int64 microsecond range.
  EXPECT_EQ(FormatTimestamp(-2'208'988'799'500'000, TimeUnit::kMicro),
            "1900-01-01 00:00:00.500000");
  EXPECT_EQ(FormatTimestamp(INT64_MAX, TimeUnit::kMicro), "+294247-01-10 04:00:54.775807");
  EXPECT_EQ(FormatTimestamp(INT64_MIN, TimeUnit::kMicro), "-290308-12-21 19:59:05.224192");
  EXPECT_EQ(FormatTimestamp(INT64_MIN, TimeUnit::kNano), "1677-09-21 00:12:43.145224192");
}

}  // namespace
}  // namespace sqe::columnar
