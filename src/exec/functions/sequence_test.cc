#include <gtest/gtest.h>

#include "exec/functions/scalar_test_harness.h"

namespace sqe::exec {
namespace {

using columnar::testing::Int64s;
using columnar::testing::Strings;
using testing::EvalJson;
using testing::ResultType;
using testing::Typed;

constexpr int64_t kDayMs = 86'400'000;

columnar::Column Dates(const std::vector<std::optional<std::string>>& text) {
  return Typed(columnar::Date32(), text);
}
columnar::Column Stamps(const std::vector<std::optional<std::string>>& text) {
  return Typed(columnar::Timestamp(), text);
}

TEST(Sequence, MonthStepsClampToTheMonthEndFromTheStart) {
  EXPECT_EQ(EvalJson("$sequence_interval", {Dates({"2020-01-31"}), Dates({"2020-04-30"}),
                                            Int64s({1}), Strings({"month"})}),
            R"([["2020-01-31","2020-02-29","2020-03-31","2020-04-30"]])");
  // Downwards, and a stop between steps.
  EXPECT_EQ(EvalJson("$sequence_interval", {Dates({"2021-03-15"}), Dates({"2020-12-01"}),
                                            Int64s({-2}), Strings({"month"})}),
            R"([["2021-03-15","2021-01-15"]])");
}

TEST(Sequence, DayStepsOnDatesAndTickStepsOnTimestamps) {
  EXPECT_EQ(EvalJson("$sequence_interval",
                     {Dates({"2020-01-01", std::nullopt}), Dates({"2020-01-05", "2020-01-05"}),
                      Int64s({2 * kDayMs, kDayMs}), Strings({"millisecond", "millisecond"})}),
            R"([["2020-01-01","2020-01-03","2020-01-05"],null])");
  EXPECT_EQ(EvalJson("$sequence_interval",
                     {Stamps({"2020-01-01 00:00:00"}), Stamps({"2020-01-01 01:00:00"}),
                      Int64s({45 * 60 * 1000}), Strings({"millisecond"})}),
            R"([["2020-01-01 00:00:00.000000","2020-01-01 00:45:00.000000"]])");
}

TEST(Sequence, RefusesWhatTrinoRefuses) {
  EXPECT_EQ(EvalJson("$sequence_interval", {Dates({"2020-01-01"}), Dates({"2020-01-02"}),
                                            Int64s({0}), Strings({"month"})}),
            "error: step must not be zero");
  EXPECT_EQ(EvalJson("$sequence_interval", {Dates({"2020-01-01"}), Dates({"2020-01-02"}),
                                            Int64s({kDayMs / 2}), Strings({"millisecond"})}),
            "error: sequence step must be a day interval if start and end values are dates");
  EXPECT_EQ(EvalJson("$sequence_interval", {Dates({"2020-01-02"}), Dates({"2020-01-01"}),
                                            Int64s({kDayMs}), Strings({"millisecond"})})
                .substr(0, 40),
            "error: sequence stop value should be gre");
  EXPECT_EQ(EvalJson("$sequence_interval", {Dates({"1990-01-01"}), Dates({"2020-01-01"}),
                                            Int64s({kDayMs}), Strings({"millisecond"})}),
            "error: result of sequence function must not have more than 10000 entries");
  EXPECT_EQ(ResultType("$sequence_interval", {columnar::Int64(), columnar::Int64(),
                                              columnar::Int64(), columnar::String()}),
            "error: sequence with an INTERVAL step takes two dates or two timestamps, got "
            "bigint, bigint");
  EXPECT_EQ(ResultType("$sequence_interval", {columnar::Date32(), columnar::Timestamp(),
                                              columnar::Int64(), columnar::String()}),
            "array(timestamp(6))");
}

}  // namespace
}  // namespace sqe::exec
