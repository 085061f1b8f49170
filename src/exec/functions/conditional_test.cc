#include <gtest/gtest.h>

#include "exec/functions/scalar_test_harness.h"

namespace sqe::exec {
namespace {

using columnar::testing::Float64s;
using columnar::testing::Int32s;
using columnar::testing::Int64s;
using columnar::testing::Strings;
using testing::Eval;
using testing::ResultType;

TEST(Conditional, NullIf) {
  EXPECT_EQ(Eval("nullif", {Int64s({1, 2, std::nullopt, 4}), Int64s({1, 3, 1, std::nullopt})}),
            "NULL, 2, NULL, 4");
  EXPECT_EQ(Eval("nullif", {Strings({"a", "ä"}), Strings({"a", "a"})}), "NULL, ä");
}

TEST(Conditional, GreatestLeast) {
  EXPECT_EQ(Eval("greatest", {Int64s({1, 5, 3}), Int64s({4, 2, std::nullopt}), Int64s({3, 9, 1})}),
            "4, 9, NULL");
  EXPECT_EQ(Eval("least", {Int64s({1, 5, 3}), Int64s({4, 2, 0})}), "1, 2, 0");
  EXPECT_EQ(Eval("greatest", {Strings({"apple", "ä"}), Strings({"banana", "z"})}), "banana, ä");
  EXPECT_EQ(ResultType("greatest", {columnar::Int32(), columnar::Float64()}), "double");
  EXPECT_EQ(Eval("greatest", {Int32s({1}), Float64s({0.5})}), "1.0");
  EXPECT_EQ(ResultType("least", {columnar::Int32(), columnar::String()}).substr(0, 6), "error:");
}

}  // namespace
}  // namespace sqe::exec
