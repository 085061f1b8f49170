#include <gtest/gtest.h>

#include "exec/functions/scalar_test_harness.h"

namespace sqe::exec {
namespace {

using columnar::testing::Int64s;
using columnar::testing::Strings;
using testing::Eval;
using testing::EvalJson;

TEST(Regexp, ExtractWithGroup) {
  EXPECT_EQ(Eval("regexp_extract",
                 {Strings({"abc123", "xyz", std::nullopt}),
                  Strings({"([a-z]+)([0-9]+)", "([a-z]+)([0-9]+)", "(a)"}), Int64s({2, 1, 1})}),
            "123, NULL, NULL");
  EXPECT_EQ(Eval("regexp_extract", {Strings({"xyz"}), Strings({"(a)|(x)"}), Int64s({1})}), "NULL");
  EXPECT_EQ(Eval("regexp_extract", {Strings({"abc"}), Strings({"(a)"}), Int64s({2})}),
            "error: Pattern has 1 groups. Cannot access group 2");
  EXPECT_EQ(Eval("regexp_extract", {Strings({"abc"}), Strings({"(a"}), Int64s({0})})
                .rfind("error: invalid regular expression '(a'", 0),
            0u);
}

TEST(Regexp, ExtractAllAdvancesPastEmptyMatches) {
  EXPECT_EQ(EvalJson("regexp_extract_all",
                     {Strings({"a1b22c333", "abc", std::nullopt}), Strings({"[0-9]+", "x*", "a"})}),
            R"([["1","22","333"],["","","",""],null])");
  EXPECT_EQ(EvalJson("regexp_extract_all",
                     {Strings({"a1b22"}), Strings({"([a-z])([0-9]+)"}), Int64s({1})}),
            R"([["a","b"]])");
  EXPECT_EQ(EvalJson("regexp_extract_all", {Strings({"xa"}), Strings({"(y)?a|x"}), Int64s({1})}),
            R"([[null,null]])");
}

TEST(Regexp, SplitCountPosition) {
  EXPECT_EQ(EvalJson("regexp_split", {Strings({"1a 2b 14m"}), Strings({"\\s*[a-z]+\\s*"})}),
            R"([["1","2","14",""]])");
  EXPECT_EQ(Eval("regexp_count", {Strings({"a1b2c3", "abc", "abc"}), Strings({"[0-9]", "x", ""})}),
            "3, 0, 4");
  EXPECT_EQ(Eval("regexp_position",
                 {Strings({"I have 23 apples, 5 pears", "héllo"}), Strings({"\\d+", "l"})}),
            "8, 3");
  EXPECT_EQ(Eval("regexp_position", {Strings({"I have 23 apples, 5 pears"}), Strings({"\\d+"}),
                                     Int64s({5}), Int64s({2})}),
            "19");
  EXPECT_EQ(Eval("regexp_position", {Strings({"abc"}), Strings({"c"}), Int64s({0})}),
            "error: start position cannot be smaller than 1");
}

TEST(Regexp, TwoArgumentReplaceRemovesMatches) {
  EXPECT_EQ(Eval("regexp_replace", {Strings({"a1b22c", std::nullopt}), Strings({"[0-9]", "x"})}),
            "abc, NULL");
}

TEST(Regexp, PerRowPatterns) {
  EXPECT_EQ(Eval("regexp_count", {Strings({"aaa", "aaa", "bab"}), Strings({"a", "aa", "a"})}),
            "3, 1, 1");
}

}  // namespace
}  // namespace sqe::exec
