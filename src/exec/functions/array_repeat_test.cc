#include <gtest/gtest.h>

#include "exec/functions/scalar_test_harness.h"

namespace sqe::exec {
namespace {

using columnar::testing::Int64s;
using columnar::testing::Strings;
using testing::EvalJson;

TEST(ArrayRepeat, CopiesNullsAndCounts) {
  EXPECT_EQ(
      EvalJson("repeat", {Strings({"a", std::nullopt, "b", "c"}), Int64s({2, 2, 0, std::nullopt})}),
      R"([["a","a"],[null,null],[],null])");
  EXPECT_EQ(EvalJson("repeat", {Int64s({7}), Int64s({3})}), "[[7,7,7]]");
  EXPECT_EQ(EvalJson("repeat", {Int64s({7}), Int64s({-1})}),
            "error: count argument of repeat function must be greater than or equal to 0");
  EXPECT_EQ(EvalJson("repeat", {Int64s({7}), Int64s({10001})}),
            "error: count argument of repeat function must be less than or equal to 10000");
}

}  // namespace
}  // namespace sqe::exec
