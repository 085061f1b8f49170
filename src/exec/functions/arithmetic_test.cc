#include <gtest/gtest.h>

#include "exec/functions/scalar_test_harness.h"

namespace sqe::exec {
namespace {

using columnar::testing::Float64s;
using columnar::testing::Int32s;
using columnar::testing::Int64s;
using testing::Eval;
using testing::ResultType;
using testing::Typed;

TEST(Arithmetic, IntegerOperatorsPropagateNulls) {
  EXPECT_EQ(Eval("+", {Int64s({1, std::nullopt, 3}), Int64s({10, 20, std::nullopt})}),
            "11, NULL, NULL");
  EXPECT_EQ(Eval("*", {Int32s({6, -7}), Int32s({7, 6})}), "42, -42");
  EXPECT_EQ(Eval("-", {Int64s({5}), Int64s({8})}), "-3");
}

TEST(Arithmetic, IntegerDivisionTruncatesTowardZero) {
  // Trino truncates: -7 / 2 = -3 and -7 % 2 = -1. (DuckDB's `/` returns the double -3.5 and
  // its `//` floors to -4; its % agrees: -1.)
  EXPECT_EQ(Eval("/", {Int64s({7, -7, 7, -7}), Int64s({2, 2, -2, -2})}), "3, -3, -3, 3");
  EXPECT_EQ(Eval("%", {Int64s({7, -7, 7, -7}), Int64s({2, 2, -2, -2})}), "1, -1, 1, -1");
  EXPECT_EQ(Eval("%", {Int64s({INT64_MIN}), Int64s({-1})}), "0");
}

TEST(Arithmetic, OverflowIsAnError) {
  EXPECT_EQ(Eval("+", {Int64s({INT64_MAX}), Int64s({1})}),
            "error: bigint addition overflow: 9223372036854775807 + 1");
  EXPECT_EQ(Eval("+", {Int32s({INT32_MAX}), Int32s({1})}),
            "error: integer addition overflow: 2147483647 + 1");
  EXPECT_EQ(Eval("*", {Int64s({INT64_MAX / 2 + 1}), Int64s({2})}),
            "error: bigint multiplication overflow: 4611686018427387904 * 2");
  EXPECT_EQ(Eval("/", {Int64s({INT64_MIN}), Int64s({-1})}),
            "error: bigint division overflow: -9223372036854775808 / -1");
  EXPECT_EQ(Eval("negate", {Int64s({INT64_MIN})}),
            "error: bigint negation overflow: -9223372036854775808");
  EXPECT_EQ(Eval("+", {Typed(columnar::Int8(), {"100"}), Typed(columnar::Int8(), {"100"})}),
            "error: tinyint addition overflow: 100 + 100");
}

TEST(Arithmetic, DivisionByZero) {
  EXPECT_EQ(Eval("/", {Int64s({1}), Int64s({0})}), "error: Division by zero");
  EXPECT_EQ(Eval("%", {Int32s({1}), Int32s({0})}), "error: Division by zero");
  // A NULL row's zero divisor is not looked at.
  EXPECT_EQ(Eval("/", {Int64s({std::nullopt, 6}), Int64s({0, 3})}), "NULL, 2");
  auto dec = columnar::Decimal(5, 2);
  EXPECT_EQ(Eval("/", {Typed(dec, {"1.00"}), Typed(dec, {"0.00"})}), "error: Division by zero");
}

TEST(Arithmetic, DoubleFollowsIeee) {
  EXPECT_EQ(Eval("/", {Float64s({1.0, -1.0, 0.0}), Float64s({0.0, 0.0, 0.0})}),
            "Infinity, -Infinity, NaN");
  EXPECT_EQ(Eval("+", {Float64s({0.5}), Float64s({1.0})}), "1.5");
  EXPECT_EQ(Eval("%", {Float64s({5.5}), Float64s({2.0})}), "1.5");
}

TEST(Arithmetic, MixedIntegerTypesWidenToTheLarger) {
  EXPECT_EQ(ResultType("+", {columnar::Int32(), columnar::Int64()}), "bigint");
  EXPECT_EQ(ResultType("+", {columnar::Int16(), columnar::Int8()}), "smallint");
  EXPECT_EQ(ResultType("+", {columnar::Int64(), columnar::Float64()}), "double");
  EXPECT_EQ(ResultType("+", {columnar::Int32(), columnar::Float32()}), "real");
  EXPECT_EQ(Eval("+", {Int32s({2}), Int64s({40})}), "42");
}

TEST(Arithmetic, DecimalResultTypes) {
  using columnar::Decimal;
  // Trino: add p = min(38, max(p1-s1, p2-s2) + max(s1, s2) + 1), s = max(s1, s2).
  EXPECT_EQ(ResultType("+", {Decimal(5, 2), Decimal(7, 3)}), "decimal(8,3)");
  EXPECT_EQ(ResultType("-", {Decimal(38, 2), Decimal(38, 2)}), "decimal(38,2)");
  EXPECT_EQ(ResultType("*", {Decimal(5, 2), Decimal(7, 3)}), "decimal(12,5)");
  EXPECT_EQ(ResultType("/", {Decimal(5, 2), Decimal(7, 3)}), "decimal(9,3)");
  EXPECT_EQ(ResultType("%", {Decimal(5, 2), Decimal(7, 3)}), "decimal(6,3)");
  // integer -> decimal(10,0).
  EXPECT_EQ(ResultType("+", {columnar::Int32(), Decimal(5, 2)}), "decimal(13,2)");
  EXPECT_EQ(ResultType("*", {columnar::Int64(), Decimal(3, 1)}), "decimal(22,1)");
  // decimal and double -> double.
  EXPECT_EQ(ResultType("+", {Decimal(5, 2), columnar::Float64()}), "double");
}

TEST(Arithmetic, DecimalValuesAndRounding) {
  using columnar::Decimal;
  EXPECT_EQ(Eval("+", {Typed(Decimal(5, 2), {"1.25", "-1.25", std::nullopt}),
                       Typed(Decimal(7, 3), {"0.001", "0.001", "1"})}),
            "1.251, -1.249, NULL");
  EXPECT_EQ(Eval("*", {Typed(Decimal(5, 2), {"1.25"}), Typed(Decimal(3, 1), {"-0.5"})}), "-0.625");
  // HALF_UP: 2/3 = 0.667, -2/3 = -0.667, 1/8 at scale 2 = 0.13 (Trino keeps scale
  // max(s1, s2); DuckDB widens the scale and returns 0.125).
  EXPECT_EQ(Eval("/", {Typed(Decimal(5, 2), {"1.00", "2.00", "-2.00"}),
                       Typed(Decimal(5, 3), {"3.000", "3.000", "3.000"})}),
            "0.333, 0.667, -0.667");
  EXPECT_EQ(Eval("/", {Typed(Decimal(5, 2), {"1.00"}), Typed(Decimal(5, 2), {"8.00"})}), "0.13");
  EXPECT_EQ(Eval("%", {Typed(Decimal(5, 2), {"-7.50"}), Typed(Decimal(5, 2), {"2.00"})}), "-1.50");
  EXPECT_EQ(Eval("negate", {Typed(Decimal(5, 2), {"1.50"})}), "-1.50");
}

TEST(Arithmetic, DecimalOverflowPast38Digits) {
  using columnar::Decimal;
  const std::string nines(38, '9');
  EXPECT_EQ(Eval("+", {Typed(Decimal(38, 0), {nines}), Typed(Decimal(38, 0), {"1"})}),
            "error: Decimal overflow");
  EXPECT_EQ(Eval("*", {Typed(Decimal(38, 0), {nines}), Typed(Decimal(38, 0), {"10"})}),
            "error: Decimal overflow");
}

}  // namespace
}  // namespace sqe::exec
