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

TEST(Math, RoundHalfAwayFromZero) {
  EXPECT_EQ(Eval("round", {Float64s({2.5, -2.5, 0.49, std::nullopt})}), "3.0, -3.0, 0.0, NULL");
  EXPECT_EQ(Eval("round", {Float64s({1.25, -1.25, 123.456}), Int64s({1, 1, -1})}),
            "1.3, -1.3, 120.0");
  EXPECT_EQ(Eval("round", {Int64s({1234, -1250}), Int64s({-2, -2})}), "1200, -1300");
}

TEST(Math, DecimalRoundingKeepsDecimalTypes) {
  using columnar::Decimal;
  EXPECT_EQ(ResultType("round", {Decimal(5, 2)}), "decimal(4,0)");
  EXPECT_EQ(ResultType("round", {Decimal(5, 2), columnar::Int32()}), "decimal(6,2)");
  EXPECT_EQ(ResultType("truncate", {Decimal(5, 2)}), "decimal(3,0)");
  EXPECT_EQ(ResultType("ceil", {Decimal(5, 0)}), "decimal(5,0)");
  auto v = Typed(Decimal(5, 2), {"1.25", "-1.25", "2.50", "-2.50", "0.01"});
  EXPECT_EQ(Eval("round", {v}), "1, -1, 3, -3, 0");
  EXPECT_EQ(Eval("ceil", {v}), "2, -1, 3, -2, 1");
  EXPECT_EQ(Eval("floor", {v}), "1, -2, 2, -3, 0");
  EXPECT_EQ(Eval("truncate", {v}), "1, -1, 2, -2, 0");
  EXPECT_EQ(Eval("round", {Typed(Decimal(5, 2), {"1.25", "-1.25", "123.45"}), Int32s({1, 1, -1})}),
            "1.30, -1.30, 120.00");
}

TEST(Math, AbsSignMod) {
  EXPECT_EQ(Eval("abs", {Int64s({-5, 5, std::nullopt})}), "5, 5, NULL");
  EXPECT_EQ(Eval("abs", {Int64s({INT64_MIN})}),
            "error: Value -9223372036854775808 is out of range for abs(bigint)");
  EXPECT_EQ(Eval("abs", {Typed(columnar::Decimal(5, 2), {"-1.50"})}), "1.50");
  EXPECT_EQ(Eval("sign", {Float64s({-2.0, 0.0, 3.0})}), "-1.0, 0.0, 1.0");
  EXPECT_EQ(Eval("sign", {Int32s({-7})}), "-1");
  EXPECT_EQ(Eval("mod", {Int64s({-7, 7}), Int64s({3, 0})}).substr(0, 5), "error");
  EXPECT_EQ(Eval("mod", {Int64s({-7}), Int64s({3})}), "-1");
  EXPECT_EQ(ResultType("mod", {columnar::Int32(), columnar::Int32()}), "integer");
}

TEST(Math, DoubleFunctions) {
  EXPECT_EQ(Eval("sqrt", {Float64s({16.0, -1.0})}), "4.0, NaN");
  EXPECT_EQ(Eval("power", {Int64s({2}), Int64s({10})}), "1024.0");
  EXPECT_EQ(Eval("cbrt", {Float64s({27.0})}), "3.0");
  EXPECT_EQ(Eval("ln", {Float64s({1.0})}), "0.0");
  EXPECT_EQ(Eval("log10", {Float64s({1000.0})}), "3.0");
  EXPECT_EQ(Eval("log2", {Float64s({8.0})}), "3.0");
  EXPECT_EQ(Eval("exp", {Float64s({0.0})}), "1.0");
  EXPECT_EQ(Eval("floor", {Float64s({-1.5})}), "-2.0");
  EXPECT_EQ(Eval("ceiling", {Float64s({-1.5})}), "-1.0");
  EXPECT_EQ(Eval("pi", {}), "3.141592653589793");
  auto r = testing::Call("random", {}, 1000);
  ASSERT_TRUE(r.ok());
  for (int64_t i = 0; i < r->length(); ++i) {
    ASSERT_GE(r->Value<double>(i), 0.0);
    ASSERT_LT(r->Value<double>(i), 1.0);
  }
  EXPECT_FALSE(testing::ScalarRegistry().ResolveScalar("rand", {}).value()->deterministic);
}

}  // namespace
}  // namespace sqe::exec
