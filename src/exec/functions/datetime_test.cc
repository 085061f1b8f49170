#include <gtest/gtest.h>

#include "exec/functions/scalar_test_harness.h"

namespace sqe::exec {
namespace {

using columnar::testing::Float64s;
using columnar::testing::Int64s;
using columnar::testing::Strings;
using testing::Eval;
using testing::ResultType;
using testing::Typed;

columnar::Column Dates(const std::vector<std::optional<std::string>>& text) {
  return Typed(columnar::Date32(), text);
}
columnar::Column Timestamps(const std::vector<std::optional<std::string>>& text) {
  return Typed(columnar::Timestamp(), text);
}

TEST(Datetime, DateAddClampsToMonthEnd) {
  EXPECT_EQ(Eval("date_add", {Strings({"month", "month", "month", "year", "day", "week"}),
                              Int64s({1, 1, -1, 1, -1, 2}),
                              Dates({"2024-01-31", "2023-01-31", "2024-03-31", "2024-02-29",
                                     "1970-01-01", "2024-12-25"})}),
            "2024-02-29, 2023-02-28, 2024-02-29, 2025-02-28, 1969-12-31, 2025-01-08");
  EXPECT_EQ(Eval("date_add", {Strings({"quarter"}), Int64s({1}), Dates({"2024-11-30"})}),
            "2025-02-28");
  EXPECT_EQ(Eval("date_add", {Strings({"hour"}), Int64s({1}), Dates({"2024-11-30"})}),
            "error: 'hour' is not a valid DATE field");
  EXPECT_EQ(Eval("date_add", {Strings({"hour", "month"}), Int64s({25, 1}),
                              Timestamps({"2024-02-28 12:00:00", "2024-01-31 08:30:00"})}),
            "2024-02-29 13:00:00.000000, 2024-02-29 08:30:00.000000");
  EXPECT_EQ(Eval("date_add", {Strings({"day"}), Int64s({std::nullopt}), Dates({"2024-01-01"})}),
            "NULL");
  EXPECT_EQ(Eval("date_add", {Strings({"month"}), Int64s({INT64_MIN}), Dates({"2024-01-01"})}),
            "error: date_add overflow");
  EXPECT_EQ(Eval("date_add",
                 {Strings({"year"}), Int64s({9'000'000}), Timestamps({"2024-01-01 00:00:00"})}),
            "error: date_add overflow");
  EXPECT_EQ(Eval("date_add",
                 {Strings({"second"}), Int64s({INT64_MAX}), Timestamps({"2024-01-01 00:00:00"})}),
            "error: date_add overflow");
  EXPECT_EQ(ResultType("date_add", {columnar::String(), columnar::Int32(), columnar::Date32()}),
            "date");
}

TEST(Datetime, DateDiffCountsWholeUnits) {
  // Trino counts whole units (Joda): 2024-01-31 -> 2024-02-28 is 0 months. DuckDB counts
  // month boundaries crossed and returns 1 there.
  EXPECT_EQ(Eval("date_diff", {Strings({"month", "month", "day", "day", "year", "week"}),
                               Dates({"2024-01-31", "2024-01-31", "2024-03-01", "2024-03-01",
                                      "2020-02-29", "2024-01-01"}),
                               Dates({"2024-02-29", "2024-02-28", "2024-02-28", "2023-03-01",
                                      "2021-02-28", "2024-01-14"})}),
            "1, 0, -2, -366, 1, 1");  // Joda's rule (Trino): 2020-02-29 + 1 year = 2021-02-28
  EXPECT_EQ(Eval("date_diff", {Strings({"hour", "second"}),
                               Timestamps({"2024-01-01 00:00:00", "1969-12-31 23:59:59"}),
                               Timestamps({"2024-01-01 05:59:59", "1970-01-01 00:00:01"})}),
            "5, 2");
}

TEST(Datetime, FieldsIncludingBefore1970AndLeapYears) {
  auto d = Dates({"2024-12-31", "1969-12-31", "1970-01-01", "2021-01-03", "2000-02-29"});
  EXPECT_EQ(Eval("year", {d}), "2024, 1969, 1970, 2021, 2000");
  EXPECT_EQ(Eval("month", {d}), "12, 12, 1, 1, 2");
  EXPECT_EQ(Eval("day", {d}), "31, 31, 1, 3, 29");
  EXPECT_EQ(Eval("day_of_year", {d}), "366, 365, 1, 3, 60");
  EXPECT_EQ(Eval("quarter", {d}), "4, 4, 1, 1, 1");
  // ISO: Monday = 1; 1970-01-01 was a Thursday; 2021-01-03 (a Sunday) is in 2020's week 53.
  EXPECT_EQ(Eval("day_of_week", {d}), "2, 3, 4, 7, 2");
  EXPECT_EQ(Eval("dow", {d}), "2, 3, 4, 7, 2");
  EXPECT_EQ(Eval("week", {d}), "1, 1, 1, 53, 9");
  EXPECT_EQ(Eval("year_of_week", {d}), "2025, 1970, 1970, 2020, 2000");
  auto t = Timestamps({"1969-12-31 23:59:59.123", "2024-02-29 13:45:30.5"});
  EXPECT_EQ(Eval("hour", {t}), "23, 13");
  EXPECT_EQ(Eval("minute", {t}), "59, 45");
  EXPECT_EQ(Eval("second", {t}), "59, 30");
  EXPECT_EQ(Eval("millisecond", {t}), "123, 500");
  EXPECT_EQ(Eval("year", {t}), "1969, 2024");
  EXPECT_EQ(Eval("date_part", {Strings({"doy", "doy"}), t}), "365, 60");
}

TEST(Datetime, DateTrunc) {
  auto t = Timestamps({"2024-02-29 13:45:30.5", "1969-12-31 23:59:59"});
  EXPECT_EQ(Eval("date_trunc", {Strings({"month", "hour"}), t}),
            "2024-02-01 00:00:00.000000, 1969-12-31 23:00:00.000000");
  EXPECT_EQ(Eval("date_trunc", {Strings({"week", "year"}), t}),
            "2024-02-26 00:00:00.000000, 1969-01-01 00:00:00.000000");
  EXPECT_EQ(Eval("date_trunc", {Strings({"quarter", "day"}), Dates({"2024-05-17", "2024-05-17"})}),
            "2024-04-01, 2024-05-17");
  EXPECT_EQ(Eval("date_trunc", {Strings({"fortnight"}), Dates({"2024-05-17"})}),
            "error: 'fortnight' is not a valid DATE field");
}

TEST(Datetime, UnixTimeAndMonthEnds) {
  EXPECT_EQ(Eval("from_unixtime", {Float64s({0.0, 1706700000.5, -1.0})}),
            "1970-01-01 00:00:00.000000 UTC, 2024-01-31 11:20:00.500000 UTC, "
            "1969-12-31 23:59:59.000000 UTC");
  EXPECT_EQ(Eval("to_unixtime", {Timestamps({"1970-01-02 00:00:00", "1969-12-31 23:59:59.5"})}),
            "86400.0, -0.5");
  EXPECT_EQ(Eval("last_day_of_month", {Dates({"2024-02-10", "2023-02-10", "1900-02-01"})}),
            "2024-02-29, 2023-02-28, 1900-02-28");
}

TEST(Datetime, DateFormat) {
  EXPECT_EQ(Eval("date_format", {Timestamps({"2024-02-09 13:05:07.25", "1969-12-31 00:00:00"}),
                                 Strings({"%Y-%m-%d %H:%i:%s.%f %p", "%W %e %M %y, %j %%"})}),
            "2024-02-09 13:05:07.250000 PM, Wednesday 31 December 69, 365 %");
  EXPECT_EQ(Eval("date_format", {Dates({"2024-02-09"}), Strings({"%a %b %c %h %I %l %k"})}),
            "Fri Feb 2 12 12 12 0");
  EXPECT_EQ(Eval("date_format", {Dates({"2024-02-09"}), Strings({"%Q"})}),
            "error: date_format: unsupported specifier %Q");
}

TEST(Datetime, QueryTimeConstants) {
  // The harness's query start: 2024-01-31 11:20:00 UTC.
  EXPECT_EQ(Eval("current_date", {}), "2024-01-31");
  EXPECT_EQ(Eval("now", {}), "2024-01-31 11:20:00.000000 UTC");
  EXPECT_FALSE(testing::ScalarRegistry().ResolveScalar("now", {}).value()->deterministic);
}

}  // namespace
}  // namespace sqe::exec
