#include "value_text.h"

#include <gtest/gtest.h>

#include <cmath>

#include "columnar/fixed_width_builder.h"
#include "columnar/test_columns.h"

namespace sqe::sqltest {
namespace {

using namespace columnar::testing;  // NOLINT

TEST(ValueTextTest, DoublesLikePythonRepr) {
  EXPECT_EQ(DoubleText(1.5), "1.5");
  EXPECT_EQ(DoubleText(3.0), "3.0");
  EXPECT_EQ(DoubleText(-0.0), "-0.0");
  EXPECT_EQ(DoubleText(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(DoubleText(1e15), "1000000000000000.0");
  EXPECT_EQ(DoubleText(1e16), "1e+16");
  EXPECT_EQ(DoubleText(1.25e20), "1.25e+20");
  EXPECT_EQ(DoubleText(0.0001), "0.0001");
  EXPECT_EQ(DoubleText(0.00001), "1e-05");
  EXPECT_EQ(DoubleText(-1.5e-7), "-1.5e-07");
  EXPECT_EQ(DoubleText(123456.789), "123456.789");
  EXPECT_EQ(DoubleText(std::nan("")), "NaN");
  EXPECT_EQ(DoubleText(-HUGE_VAL), "-Infinity");
  EXPECT_EQ(FloatText(0.1f), "0.1");
}

TEST(ValueTextTest, ScalarColumns) {
  auto ints = Int64s({42, std::nullopt, -7});
  EXPECT_EQ(ValueText(ints, 0), "42");
  EXPECT_EQ(ValueText(ints, 1), "NULL");
  EXPECT_EQ(ValueText(ints, 2), "-7");
  auto bools = Bools({true, false});
  EXPECT_EQ(ValueText(bools, 0), "true");
  EXPECT_EQ(ValueText(bools, 1), "false");
  auto strings = Strings({"abc", "", std::nullopt});
  EXPECT_EQ(ValueText(strings, 0), "abc");
  EXPECT_EQ(ValueText(strings, 1), "(empty)");
  EXPECT_EQ(ValueText(strings, 2), "NULL");
}

TEST(ValueTextTest, DecimalsKeepTheirScale) {
  auto decimals =
      BuildFixed<columnar::FixedWidthBuilder<columnar::Decimal128>, columnar::Decimal128>(
          columnar::Decimal(10, 2), {columnar::Decimal128(1230), columnar::Decimal128(-5)});
  EXPECT_EQ(ValueText(decimals, 0), "12.30");
  EXPECT_EQ(ValueText(decimals, 1), "-0.05");
}

TEST(ValueTextTest, DatesAndTimestamps) {
  auto dates =
      BuildFixed<columnar::FixedWidthBuilder<int32_t>, int32_t>(columnar::Date32(), {19753, 0});
  EXPECT_EQ(ValueText(dates, 0), "2024-01-31");
  EXPECT_EQ(ValueText(dates, 1), "1970-01-01");
  auto ts = BuildFixed<columnar::FixedWidthBuilder<int64_t>, int64_t>(
      columnar::Timestamp(), {int64_t{86400} * 1000000 + 500000, 0});
  EXPECT_EQ(ValueText(ts, 0), "1970-01-02 00:00:00.5");
  EXPECT_EQ(ValueText(ts, 1), "1970-01-01 00:00:00");
  auto tstz =
      BuildFixed<columnar::FixedWidthBuilder<int64_t>, int64_t>(columnar::TimestampTz(), {0});
  EXPECT_EQ(ValueText(tstz, 0), "1970-01-01 00:00:00 UTC");
  // Another zone: the wall-clock time there and the zone's name (Tokyo is UTC+9).
  auto tokyo = BuildFixed<columnar::FixedWidthBuilder<int64_t>, int64_t>(
      columnar::Timestamp(columnar::TimeUnit::kMicro, "Asia/Tokyo"), {0});
  EXPECT_EQ(ValueText(tokyo, 0), "1970-01-01 09:00:00 Asia/Tokyo");
}

}  // namespace
}  // namespace sqe::sqltest
