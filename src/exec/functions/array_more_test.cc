#include <gtest/gtest.h>

#include "exec/functions/scalar_test_harness.h"

namespace sqe::exec {
namespace {

using columnar::testing::Int64Lists;
using columnar::testing::Int64s;
using columnar::testing::Json;
using columnar::testing::Strings;
using testing::Call;
using testing::Eval;
using testing::ResultType;

std::string JsonOf(const std::string& name, std::vector<columnar::Column> args) {
  auto r = Call(name, std::move(args));
  if (!r.ok()) return "error: " + r.status().message();
  return Json(*r);
}

TEST(ArrayMoreFunctions, DistinctKeepsFirstOccurrencesAndOneNull) {
  EXPECT_EQ(JsonOf("array_distinct",
                   {Int64Lists({{{3, 1, 3, std::nullopt, 1, std::nullopt}}, {{}}, std::nullopt})}),
            "[[3,1,null],[],null]");
}

/// A row(x bigint, y varchar) column.
columnar::Column Rows(const std::vector<std::optional<int64_t>>& x,
                      const std::vector<std::optional<std::string>>& y) {
  auto row =
      columnar::Column::Make(columnar::Struct({columnar::Field("x", columnar::Int64()),
                                               columnar::Field("y", columnar::String())}),
                             static_cast<int64_t>(x.size()), {nullptr}, {Int64s(x), Strings(y)});
  columnar::testing::DieIfError(row.status());
  return *row;
}

TEST(ArrayMoreFunctions, RowsSortFieldByFieldWithNullFieldsLast) {
  // One array per row of the inputs: [a[i], b[i], c[i]].
  auto arrays = Call("array_constructor", {Rows({2, 5}, {"a", "b"}), Rows({1, 5}, {"z", "a"}),
                                           Rows({2, 4}, {std::nullopt, "c"})});
  ASSERT_TRUE(arrays.ok()) << arrays.status().message();
  EXPECT_EQ(JsonOf("array_sort", {*arrays}),
            "[[{\"x\":1,\"y\":\"z\"},{\"x\":2,\"y\":\"a\"},{\"x\":2,\"y\":null}],"
            "[{\"x\":4,\"y\":\"c\"},{\"x\":5,\"y\":\"a\"},{\"x\":5,\"y\":\"b\"}]]");
  // A NULL field orders after every value (as ORDER BY does), so (2, NULL) is the max.
  EXPECT_EQ(JsonOf("array_max", {*arrays}), "[{\"x\":2,\"y\":null},{\"x\":5,\"y\":\"b\"}]");
  EXPECT_EQ(JsonOf("array_min", {*arrays}), "[{\"x\":1,\"y\":\"z\"},{\"x\":4,\"y\":\"c\"}]");
}

TEST(ArrayMoreFunctions, MapsAreDistinctByEntriesInAnyOrderButHaveNoOrder) {
  auto m1 = Call("map", {Int64Lists({{{1, 2}}}), Int64Lists({{{10, 20}}})});
  auto m2 = Call("map", {Int64Lists({{{2, 1}}}), Int64Lists({{{20, 10}}})});
  auto m3 = Call("map", {Int64Lists({{{1}}}), Int64Lists({{{10}}})});
  ASSERT_TRUE(m1.ok() && m2.ok() && m3.ok());
  auto arrays = Call("array_constructor", {*m1, *m2, *m3, *m2});
  ASSERT_TRUE(arrays.ok()) << arrays.status().message();
  auto distinct = Call("array_distinct", {*arrays});
  ASSERT_TRUE(distinct.ok()) << distinct.status().message();
  EXPECT_EQ(Eval("cardinality", {*distinct}), "2");
  EXPECT_EQ(Eval("array_position", {*arrays, *m2}), "1");
  EXPECT_EQ(ResultType("array_sort", {arrays->type()}).substr(0, 6), "error:");
  EXPECT_EQ(ResultType("array_max", {arrays->type()}).substr(0, 6), "error:");
  EXPECT_EQ(ResultType("array_distinct", {arrays->type()}), arrays->type()->ToString());
}

TEST(ArrayMoreFunctions, SortPutsNullsLast) {
  EXPECT_EQ(JsonOf("array_sort", {Int64Lists({{{3, std::nullopt, 1, 2}}, {{}}})}),
            "[[1,2,3,null],[]]");
}

TEST(ArrayMoreFunctions, MaxMinAreNullForEmptyArraysAndArraysWithNull) {
  auto a = Int64Lists({{{3, 7, 1}}, {{}}, {{1, std::nullopt}}, std::nullopt});
  EXPECT_EQ(Eval("array_max", {a}), "7, NULL, NULL, NULL");
  EXPECT_EQ(Eval("array_min", {a}), "1, NULL, NULL, NULL");
}

TEST(ArrayMoreFunctions, PositionIsOneBasedAndZeroWhenAbsent) {
  auto a = Int64Lists({{{5, std::nullopt, 6}}, {{5}}, {{5}}});
  EXPECT_EQ(Eval("array_position", {a, Int64s({6, 7, std::nullopt})}), "3, 0, NULL");
}

TEST(ArrayMoreFunctions, RemoveKeepsNullElements) {
  EXPECT_EQ(JsonOf("array_remove", {Int64Lists({{{1, std::nullopt, 2, 1}}}), Int64s({1})}),
            "[[null,2]]");
}

TEST(ArrayMoreFunctions, SetOperations) {
  auto a = Int64Lists({{{1, 2, 2, std::nullopt}}, std::nullopt});
  auto b = Int64Lists({{{2, 3, std::nullopt}}, {{1}}});
  EXPECT_EQ(JsonOf("array_union", {a, b}), "[[1,2,null,3],null]");
  EXPECT_EQ(JsonOf("array_intersect", {a, b}), "[[2,null],null]");
  EXPECT_EQ(JsonOf("array_except", {a, b}), "[[1],null]");
}

TEST(ArrayMoreFunctions, OverlapIsNullWhenOnlyNullsCouldMatch) {
  auto a = Int64Lists({{{1, 2}}, {{1, std::nullopt}}, {{1}}, {{}}});
  auto b = Int64Lists({{{2}}, {{3}}, {{3}}, {{std::nullopt}}});
  EXPECT_EQ(Eval("arrays_overlap", {a, b}), "true, NULL, false, NULL");
}

TEST(ArrayMoreFunctions, SliceCountsFromEitherEnd) {
  auto a = Int64Lists({{{1, 2, 3, 4}}, {{1, 2, 3, 4}}, {{1, 2}}});
  EXPECT_EQ(JsonOf("slice", {a, Int64s({2, -2, 5}), Int64s({2, 5, 1})}), "[[2,3],[3,4],[]]");
  EXPECT_EQ(JsonOf("slice", {a, Int64s({0, 1, 1}), Int64s({1, 1, 1})}),
            "error: SQL array indices start at 1");
}

TEST(ArrayMoreFunctions, SequenceStepsAndLimits) {
  EXPECT_EQ(JsonOf("sequence", {Int64s({1, 5}), Int64s({3, 1}), Int64s({1, -2})}),
            "[[1,2,3],[5,3,1]]");
  EXPECT_EQ(JsonOf("sequence", {Int64s({1}), Int64s({3}), Int64s({0})}),
            "error: step must not be zero");
  EXPECT_EQ(JsonOf("sequence", {Int64s({1}), Int64s({20000})}),
            "error: result of sequence function must not have more than 10000 entries");
}

TEST(ArrayMoreFunctions, ConcatFlattenReverseJoin) {
  auto a = Int64Lists({{{1, 2}}, std::nullopt});
  auto b = Int64Lists({{{3}}, {{4}}});
  EXPECT_EQ(JsonOf("concat", {a, b}), "[[1,2,3],null]");
  EXPECT_EQ(JsonOf("||", {b, Int64s({9, 8})}), "[[3,9],[4,8]]");
  EXPECT_EQ(JsonOf("reverse", {a}), "[[2,1],null]");
  EXPECT_EQ(Eval("array_join", {Int64Lists({{{1, std::nullopt, 3}}}), Strings({"-"})}), "1-3");
  EXPECT_EQ(Eval("array_join", {Int64Lists({{{1, std::nullopt}}}), Strings({","}), Strings({"x"})}),
            "1,x");
  EXPECT_EQ(ResultType("flatten", {columnar::List(columnar::List(columnar::Int64()))}),
            "array(bigint)");
}

}  // namespace
}  // namespace sqe::exec
