#include <gtest/gtest.h>

#include "exec/functions/scalar_test_harness.h"

namespace sqe::exec {
namespace {

using columnar::testing::Float64s;
using columnar::testing::Int64s;
using columnar::testing::Strings;
using testing::Eval;

TEST(MathMore, WidthBucket) {
  EXPECT_EQ(Eval("width_bucket",
                 {Float64s({5.35, -1, 10, 0, std::nullopt}), Float64s({0.024, 0, 0, 0, 0}),
                  Float64s({10.06, 10, 10, 10, 10}), Int64s({5, 5, 5, 5, 5})}),
            "3, 0, 6, 1, NULL");
  EXPECT_EQ(Eval("width_bucket", {Float64s({8, 11, 0}), Float64s({10, 10, 10}), Float64s({0, 0, 0}),
                                  Int64s({5, 5, 5})}),
            "2, 0, 6");
  EXPECT_EQ(Eval("width_bucket", {Float64s({1}), Float64s({5}), Float64s({5}), Int64s({3})}),
            "error: bounds cannot equal each other");
}

TEST(MathMore, Bases) {
  EXPECT_EQ(Eval("from_base", {Strings({"ff", "-101", "7fffffffffffffff", "-8000000000000000"}),
                               Int64s({16, 2, 16, 16})}),
            "255, -5, 9223372036854775807, -9223372036854775808");
  EXPECT_EQ(Eval("from_base", {Strings({"8000000000000000"}), Int64s({16})}),
            "error: Not a valid base-16 number: 8000000000000000");
  EXPECT_EQ(Eval("to_base", {Int64s({255, -5, 0, INT64_MIN}), Int64s({16, 2, 7, 16})}),
            "ff, -101, 0, -8000000000000000");
  EXPECT_EQ(Eval("to_base", {Int64s({1}), Int64s({37})}), "error: Radix must be between 2 and 36");
}

TEST(MathMore, Bitwise) {
  EXPECT_EQ(Eval("bitwise_and", {Int64s({12, -1}), Int64s({10, 255})}), "8, 255");
  EXPECT_EQ(Eval("bitwise_xor", {Int64s({12, std::nullopt}), Int64s({10, 1})}), "6, NULL");
  EXPECT_EQ(Eval("bitwise_not", {Int64s({0, -1})}), "-1, 0");
  EXPECT_EQ(Eval("bitwise_right_shift", {Int64s({-8, 1024}), Int64s({60, 3})}), "15, 128");
  EXPECT_EQ(Eval("bitwise_right_shift_arithmetic", {Int64s({-8, -8}), Int64s({1, 70})}), "-4, -1");
  EXPECT_EQ(Eval("bitwise_left_shift", {Int64s({1, 1}), Int64s({63, 64})}),
            "-9223372036854775808, 0");
  EXPECT_EQ(Eval("bit_count", {Int64s({9, -7, -1}), Int64s({64, 8, 64})}), "2, 6, 64");
  EXPECT_EQ(Eval("bit_count", {Int64s({300}), Int64s({8})}),
            "error: Number must be representable with the bits specified. 300 cannot be "
            "represented with 8 bits");
}

TEST(MathMore, Hyperbolic) {
  EXPECT_EQ(Eval("sinh", {Float64s({0, std::nullopt})}), "0.0, NULL");
  EXPECT_EQ(Eval("tanh", {Float64s({100})}), "1.0");
  EXPECT_EQ(Eval("normal_cdf", {Float64s({0}), Float64s({1}), Float64s({0})}), "0.5");
}

}  // namespace
}  // namespace sqe::exec
