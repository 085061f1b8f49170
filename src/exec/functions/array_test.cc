#include <gtest/gtest.h>

#include "exec/functions/scalar_test_harness.h"

namespace sqe::exec {
namespace {

using columnar::testing::Int64Lists;
using columnar::testing::Int64s;
using columnar::testing::Strings;
using testing::Call;
using testing::Eval;
using testing::ResultType;

TEST(ArrayFunctions, ConstructorBuildsOneArrayPerRow) {
  auto r =
      Call("array_constructor", {Int64s({1, 2, std::nullopt}), Int64s({10, std::nullopt, 30})});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(columnar::testing::Json(*r), "[[1,10],[2,null],[null,30]]");
  EXPECT_EQ(ResultType("array_constructor", {columnar::Int32(), columnar::Int64()}),
            "array(bigint)");
  EXPECT_EQ(Eval("cardinality", {*r}), "2, 2, 2");
}

TEST(ArrayFunctions, Cardinality) {
  EXPECT_EQ(Eval("cardinality", {Int64Lists({{{1, 2, 3}}, {{}}, std::nullopt})}), "3, 0, NULL");
  EXPECT_EQ(ResultType("cardinality", {columnar::Int64()}).substr(0, 6), "error:");
}

TEST(ArrayFunctions, ElementAtIsNullOutOfRangeAndCountsNegativeIndicesFromTheEnd) {
  auto arrays = Int64Lists({{{1, 2, 3}}, {{4}}, std::nullopt, {{std::nullopt, 6}}});
  EXPECT_EQ(Eval("element_at", {arrays, Int64s({2, 2, 1, 1})}), "2, NULL, NULL, NULL");
  EXPECT_EQ(Eval("element_at", {arrays, Int64s({-1, -2, -1, -1})}), "3, NULL, NULL, 6");
  EXPECT_EQ(Eval("element_at", {arrays, Int64s({1, std::nullopt, 1, 2})}), "1, NULL, NULL, 6");
  EXPECT_EQ(Eval("element_at", {arrays, Int64s({0, 1, 1, 1})}),
            "error: SQL array indices start at 1");
}

TEST(ArrayFunctions, SubscriptFailsOutOfRangeLikeTrino) {
  auto arrays = Int64Lists({{{1, 2, 3}}, {{4}}});
  EXPECT_EQ(Eval("subscript", {arrays, Int64s({3, 1})}), "3, 4");
  EXPECT_EQ(Eval("subscript", {arrays, Int64s({1, 2})}),
            "error: Array subscript must be less than or equal to array length: 2 > 1");
  EXPECT_EQ(Eval("subscript", {arrays, Int64s({-1, 1})}), "error: Array subscript is negative: -1");
  EXPECT_EQ(Eval("subscript", {arrays, Int64s({0, 1})}), "error: SQL array indices start at 1");
}

TEST(ArrayFunctions, ContainsHasThreeValuedResults) {
  auto arrays = Int64Lists({{{1, 2}}, {{1, std::nullopt}}, {{}}, std::nullopt, {{5}}});
  EXPECT_EQ(Eval("contains", {arrays, Int64s({2, 2, 2, 2, std::nullopt})}),
            "true, NULL, false, NULL, NULL");
  EXPECT_EQ(Eval("contains", {arrays, Int64s({1, 1, 1, 1, 5})}), "true, true, false, NULL, true");
  EXPECT_EQ(ResultType("contains", {columnar::List(columnar::String()), columnar::String()}),
            "boolean");
  EXPECT_EQ(Eval("contains", {arrays, Strings({"a", "b", "c", "d", "e"})}).substr(0, 6), "error:");
}

}  // namespace
}  // namespace sqe::exec
