#include <gtest/gtest.h>

#include "exec/functions/scalar_test_harness.h"

namespace sqe::exec {
namespace {

using columnar::testing::Int64Lists;
using testing::EvalJson;
using testing::ResultType;

TEST(Zip, PadsShorterArraysWithNull) {
  EXPECT_EQ(EvalJson("zip", {Int64Lists({{{1, 2, 3}}, {{}}, std::nullopt}),
                             Int64Lists({{{10}}, {{}}, {{5}}})}),
            R"([[{"":1,"":10},{"":2,"":null},)"
            R"({"":3,"":null}],[],null])");
}

TEST(Zip, KeepsNullElementsAndTakesUpToFiveArrays) {
  EXPECT_EQ(EvalJson("zip", {Int64Lists({{{std::nullopt, 5}}}), Int64Lists({{{7}}}),
                             Int64Lists({{{8, 9}}})}),
            R"([[{"":null,"":7,"":8},{"":5,"":null,"":9}]])");
  const columnar::TypePtr a = columnar::List(columnar::Int64());
  EXPECT_EQ(ResultType("zip", {a, columnar::List(columnar::String())}),
            "array(row(bigint, varchar))");
  EXPECT_EQ(ResultType("zip", {a, a, a, a, a, a}).substr(0, 7), "error: ");
  EXPECT_EQ(ResultType("zip", {a}).substr(0, 7), "error: ");
  EXPECT_EQ(ResultType("zip", {a, columnar::Int64()}).substr(0, 7), "error: ");
}

}  // namespace
}  // namespace sqe::exec
