#include "exec/functions/cast.h"

#include <gtest/gtest.h>

#include <cmath>

#include "exec/functions/scalar_test_harness.h"

namespace sqe::exec {
namespace {

using columnar::testing::Bools;
using columnar::testing::Float64s;
using columnar::testing::Int32s;
using columnar::testing::Int64s;
using columnar::testing::Strings;
using testing::TestContext;
using testing::Text;
using testing::Typed;

std::string Cast(const columnar::Column& c, const columnar::TypePtr& to, bool try_cast = false) {
  auto r = CastColumn(c, to, try_cast, TestContext());
  if (!r.ok()) return "error: " + r.status().message();
  EXPECT_TRUE(r->type()->Equals(*to));
  return Text(*r);
}

TEST(Cast, VarcharToIntegers) {
  EXPECT_EQ(Cast(Strings({" 42 ", "-7", "+3", std::nullopt}), columnar::Int32()),
            "42, -7, 3, NULL");
  EXPECT_EQ(Cast(Strings({"abc"}), columnar::Int32()), "error: Cannot cast 'abc' to INTEGER");
  EXPECT_EQ(Cast(Strings({"1.5"}), columnar::Int64()), "error: Cannot cast '1.5' to BIGINT");
  EXPECT_EQ(Cast(Strings({"300"}), columnar::Int8()), "error: Cannot cast '300' to TINYINT");
  EXPECT_EQ(Cast(Strings({"abc", "12", ""}), columnar::Int32(), /*try_cast=*/true),
            "NULL, 12, NULL");
}

TEST(Cast, IntegerNarrowingChecksRange) {
  EXPECT_EQ(Cast(Int64s({300}), columnar::Int8()), "error: Out of range for tinyint: 300");
  EXPECT_EQ(Cast(Int64s({300, 5}), columnar::Int8(), true), "NULL, 5");
  EXPECT_EQ(Cast(Int32s({-32768}), columnar::Int16()), "-32768");
}

TEST(Cast, DoubleToIntegerRoundsHalfAwayFromZero) {
  // Trino rounds half away from zero; DuckDB rounds half to even (2.5 -> 2, -2.5 -> -2).
  EXPECT_EQ(Cast(Float64s({2.5, -2.5, 2.4, -0.5}), columnar::Int64()), "3, -3, 2, -1");
  EXPECT_EQ(Cast(Float64s({1e20}), columnar::Int64()), "error: Out of range for bigint: 1.0E20");
  EXPECT_EQ(Cast(Float64s({std::nan("")}), columnar::Int32(), true), "NULL");
  EXPECT_EQ(Cast(Float64s({2147483647.4}), columnar::Int32()), "2147483647");
  EXPECT_EQ(Cast(Float64s({2147483647.5}), columnar::Int32(), true), "NULL");
}

TEST(Cast, FormatDoublePrintsLikeJava) {
  EXPECT_EQ(FormatDouble(1.5), "1.5");
  EXPECT_EQ(FormatDouble(1e10), "1.0E10");
  EXPECT_EQ(FormatDouble(0.0001), "1.0E-4");
  EXPECT_EQ(FormatDouble(1234567.0), "1234567.0");
  EXPECT_EQ(FormatDouble(12345678.0), "1.2345678E7");
  EXPECT_EQ(FormatDouble(-0.0), "-0.0");
  EXPECT_EQ(FormatDouble(0.001), "0.001");
  EXPECT_EQ(FormatDouble(1e-300), "1.0E-300");
  EXPECT_EQ(FormatReal(1.1f), "1.1");
}

TEST(Cast, DoubleToVarcharIsScientificLikeTrino) {
  EXPECT_EQ(Cast(Float64s({1.5, 1e10, 0.0001, 100.0, 1234567.0, -123.25, 0.1, std::nullopt}),
                 columnar::String()),
            "1.5E0, 1.0E10, 1.0E-4, 1.0E2, 1.234567E6, -1.2325E2, 1.0E-1, NULL");
  EXPECT_EQ(Cast(Float64s({0.0, -0.0, 1.0 / 0.0, -1.0 / 0.0, std::nan("")}), columnar::String()),
            "0E0, -0E0, Infinity, -Infinity, NaN");
  // The shortest digits that read back as the same double, all of them.
  EXPECT_EQ(Cast(Float64s({0.1 + 0.2, 1.0 / 3, 1.7976931348623157e308}), columnar::String()),
            "3.0000000000000004E-1, 3.333333333333333E-1, 1.7976931348623157E308");
  EXPECT_EQ(DoubleToVarchar(123456789012345680.0), "1.2345678901234568E17");
}

TEST(Cast, RealToVarcharKeepsSevenDigits) {
  EXPECT_EQ(RealToVarchar(1.5f), "1.5E0");
  EXPECT_EQ(RealToVarchar(1.1f), "1.1E0");  // not the double 1.100000023841858
  EXPECT_EQ(RealToVarchar(3.1415927f), "3.141593E0");
  EXPECT_EQ(RealToVarchar(std::nextafter(2.0f, 0.0f)), "2.0E0");  // 1.9999999 rounds up
  EXPECT_EQ(RealToVarchar(123456.78f), "1.234568E5");
  EXPECT_EQ(RealToVarchar(-2.5e-20f), "-2.5E-20");
  EXPECT_EQ(RealToVarchar(-0.0f), "-0E0");
  EXPECT_EQ(RealToVarchar(std::nanf("")), "NaN");
}

TEST(Cast, DecimalRescaleRoundsHalfUp) {
  using columnar::Decimal;
  EXPECT_EQ(Cast(Typed(Decimal(5, 3), {"1.235", "-1.235", "1.234"}), Decimal(4, 2)),
            "1.24, -1.24, 1.23");
  EXPECT_EQ(Cast(Typed(Decimal(5, 2), {"999.99"}), Decimal(4, 2)),
            "error: Cannot cast DECIMAL(5,2) '999.99' to DECIMAL(4,2)");
  EXPECT_EQ(Cast(Typed(Decimal(5, 2), {"999.99", "1.00"}), Decimal(4, 2), true), "NULL, 1.00");
  EXPECT_EQ(Cast(Typed(Decimal(5, 2), {"1.5", "-2.5"}), columnar::Int32()), "2, -3");
  EXPECT_EQ(Cast(Typed(Decimal(5, 2), {"1.25"}), columnar::Float64()), "1.25");
  EXPECT_EQ(Cast(Float64s({1.005, 2.5}), Decimal(3, 1)), "1.0, 2.5");
  EXPECT_EQ(Cast(Int64s({123}), Decimal(2, 0)), "error: Cannot cast BIGINT '123' to DECIMAL(2,0)");
  EXPECT_EQ(Cast(Strings({"1.005", " -2.5 ", "x"}), Decimal(3, 2), true), "1.01, -2.50, NULL");
}

TEST(Cast, Booleans) {
  EXPECT_EQ(Cast(Strings({"true", "FALSE", "t", "0", " true "}), columnar::Boolean()),
            "true, false, true, false, true");
  EXPECT_EQ(Cast(Strings({"yes"}), columnar::Boolean()), "error: Cannot cast 'yes' to BOOLEAN");
  EXPECT_EQ(Cast(Bools({true, false}), columnar::Int32()), "1, 0");
  EXPECT_EQ(Cast(Int64s({0, 5}), columnar::Boolean()), "false, true");
}

TEST(Cast, DatesAndTimestamps) {
  EXPECT_EQ(Cast(Strings({"2024-02-29", " 1969-12-31 ", "0001-01-01"}), columnar::Date32()),
            "2024-02-29, 1969-12-31, 0001-01-01");
  EXPECT_EQ(Cast(Strings({"2023-02-29"}), columnar::Date32()),
            "error: Value cannot be cast to date: 2023-02-29");
  EXPECT_EQ(Cast(Strings({"2023-02-29", "2024-13-01", "x"}), columnar::Date32(), true),
            "NULL, NULL, NULL");
  EXPECT_EQ(Cast(Strings({"2024-01-31 12:34:56.789", "2024-01-31", "1969-12-31T23:59:59"}),
                 columnar::Timestamp()),
            "2024-01-31 12:34:56.789000, 2024-01-31 00:00:00.000000, "
            "1969-12-31 23:59:59.000000");
  // Before 1970: the date of a timestamp floors.
  EXPECT_EQ(Cast(Typed(columnar::Timestamp(), {"1969-12-31 23:00:00"}), columnar::Date32()),
            "1969-12-31");
  EXPECT_EQ(Cast(Typed(columnar::Date32(), {"2024-03-01"}), columnar::Timestamp()),
            "2024-03-01 00:00:00.000000");
  EXPECT_EQ(Cast(Strings({"2024-01-31 12:00:00 +01:00"}), columnar::TimestampTz()),
            "2024-01-31 11:00:00.000000 UTC");
  EXPECT_EQ(
      Cast(Typed(columnar::Timestamp(columnar::TimeUnit::kNano), {"2024-01-31 00:00:00.123456789"}),
           columnar::Timestamp()),
      "2024-01-31 00:00:00.123457");
  EXPECT_EQ(Cast(Strings({"12:34:56.5"}), columnar::Time64()), "12:34:56.500000");
  // Past the nanosecond range (year 2262) and far dates: errors, not overflow.
  EXPECT_EQ(Cast(Typed(columnar::Timestamp(), {"3000-01-01 00:00:00"}),
                 columnar::Timestamp(columnar::TimeUnit::kNano)),
            "error: Value out of range for TIMESTAMP(9)");
  EXPECT_EQ(Cast(Typed(columnar::Date32(), {"3000-01-01"}),
                 columnar::Timestamp(columnar::TimeUnit::kNano), true),
            "NULL");
  EXPECT_EQ(Cast(Typed(columnar::Timestamp(), {"1969-12-31 23:59:59.5"}), columnar::Time64()),
            "23:59:59.500000");
}

/// A timestamp with time zone column in `zone` from a text value and a NULL.
columnar::Column Zoned(const std::string& zone, const std::string& text) {
  auto r = CastColumn(Strings({text, std::nullopt}),
                      columnar::Timestamp(columnar::TimeUnit::kMicro, zone), false, TestContext());
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? *r : Strings({});
}

TEST(Cast, TimestampWithTimeZoneWorksInItsZone) {
  // 2020-06-01 02:00 UTC is 2020-05-31 22:00 EDT.
  const columnar::Column ny = Zoned("America/New_York", "2020-06-01 02:00:00 UTC");
  EXPECT_EQ(Cast(ny, columnar::String()), "2020-05-31 22:00:00.000000 America/New_York, NULL");
  EXPECT_EQ(Cast(ny, columnar::Date32()), "2020-05-31, NULL");
  EXPECT_EQ(Cast(ny, columnar::Timestamp()), "2020-05-31 22:00:00.000000, NULL");
  EXPECT_EQ(Cast(ny, columnar::Time64()), "22:00:00.000000, NULL");
  // Between zones the instant stays.
  EXPECT_EQ(Cast(ny, columnar::Timestamp(columnar::TimeUnit::kMicro, "Asia/Tokyo")),
            "2020-06-01 11:00:00.000000 Asia/Tokyo, NULL");
  // A text naming an IANA zone; 02:30 in the spring-forward gap is 03:30 EDT.
  EXPECT_EQ(Cast(Strings({"2021-03-14 02:30:00 America/New_York"}), columnar::TimestampTz()),
            "2021-03-14 07:30:00.000000 UTC");
  EXPECT_NE(Cast(Strings({"2020-06-01 12:00:00 Mars/Olympus"}), columnar::TimestampTz())
                .find("Time zone not supported: Mars/Olympus"),
            std::string::npos);
  EXPECT_EQ(Cast(Strings({"2020-06-01 12:00:00 Mars/Olympus"}), columnar::TimestampTz(), true),
            "NULL");
  // A zone name is not accepted for a timestamp without time zone.
  EXPECT_EQ(Cast(Strings({"2020-06-01 12:00:00 America/New_York"}), columnar::Timestamp()),
            "error: Value cannot be cast to timestamp: 2020-06-01 12:00:00 America/New_York");
}

TEST(Cast, NumbersToVarchar) {
  EXPECT_EQ(Cast(Int64s({-5, std::nullopt}), columnar::String()), "-5, NULL");
  EXPECT_EQ(Cast(Typed(columnar::Decimal(5, 2), {"-0.05"}), columnar::String()), "-0.05");
  EXPECT_EQ(Cast(Strings({"1e3", "NaN", "-Infinity", " 2.5 "}), columnar::Float64()),
            "1000.0, NaN, -Infinity, 2.5");
}

TEST(Cast, Uuid) {
  EXPECT_EQ(Cast(Strings({"123e4567-e89b-12d3-a456-426614174000"}), columnar::Uuid()),
            "123e4567-e89b-12d3-a456-426614174000");
  EXPECT_EQ(Cast(Strings({"nope"}), columnar::Uuid(), true), "NULL");
}

TEST(Cast, UnsupportedPairs) {
  EXPECT_FALSE(CanCast(columnar::Date32(), columnar::Int32()));
  EXPECT_TRUE(CanCast(columnar::String(), columnar::Date32()));
  EXPECT_EQ(
      CastColumn(Typed(columnar::Date32(), {"2024-01-01"}), columnar::Int32(), false, TestContext())
          .status()
          .code(),
      StatusCode::kNotImplemented);
}

}  // namespace
}  // namespace sqe::exec
