#include "result_check.h"

#include <gtest/gtest.h>

namespace sqe::sqltest {
namespace {

TestRecord Query(std::string types, SortMode mode, std::vector<std::string> expected) {
  TestRecord record;
  record.kind = TestRecord::Kind::kQuery;
  record.column_types = std::move(types);
  record.sort_mode = mode;
  record.expected = std::move(expected);
  return record;
}

TEST(ResultCheckTest, ExactRowsInOrder) {
  ActualResult actual{{{"1", "a"}, {"2", "b"}}, {false, false}};
  EXPECT_EQ(CheckQueryResult(Query("IT", SortMode::kNoSort, {"1\ta", "2\tb"}), actual), "");
  std::string problem = CheckQueryResult(Query("IT", SortMode::kNoSort, {"2\tb", "1\ta"}), actual);
  EXPECT_NE(problem.find("row 1, column 1: expected '2', got '1'"), std::string::npos) << problem;
  EXPECT_EQ(CheckQueryResult(Query("IT", SortMode::kRowSort, {"2\tb", "1\ta"}), actual), "");
}

TEST(ResultCheckTest, ValueSortAndOneValuePerLine) {
  ActualResult actual{{{"3", "1"}, {"2", "4"}}, {false, false}};
  EXPECT_EQ(CheckQueryResult(Query("II", SortMode::kValueSort, {"1", "2", "3", "4"}), actual), "");
  EXPECT_EQ(CheckQueryResult(Query("II", SortMode::kNoSort, {"3", "1", "2", "4"}), actual), "");
}

TEST(ResultCheckTest, CountsAndColumnMismatches) {
  ActualResult actual{{{"1"}}, {false}};
  EXPECT_NE(CheckQueryResult(Query("I", SortMode::kNoSort, {}), actual), "");
  EXPECT_NE(CheckQueryResult(Query("II", SortMode::kNoSort, {"1"}), actual), "");
  ActualResult empty{{}, {false}};
  EXPECT_EQ(CheckQueryResult(Query("I", SortMode::kNoSort, {}), empty), "");
}

TEST(ResultCheckTest, FloatToleranceOnlyForFloatingColumns) {
  EXPECT_TRUE(ValuesMatch("0.30000000000000004", "0.3", true));
  EXPECT_TRUE(ValuesMatch("NaN", "NaN", true));
  EXPECT_FALSE(ValuesMatch("0.3", "0.31", true));
  EXPECT_FALSE(ValuesMatch("12.3", "12.30", false));
  EXPECT_FALSE(ValuesMatch("NULL", "0", true));
  EXPECT_TRUE(ValuesMatch("1e-15", "0.0", true));
}

TEST(ResultCheckTest, ErrorMessages) {
  EXPECT_TRUE(ErrorMatches({}, "anything"));
  EXPECT_TRUE(ErrorMatches({"division by zero"}, "Division by zero"));
  EXPECT_FALSE(ErrorMatches({"overflow"}, "Division by zero"));
  EXPECT_TRUE(ErrorMatches({"<REGEX>:line 1:\\d+: .*(does not exist|not found)"},
                           "line 1:15: Table 'iceberg.s.nope' does not exist"));
  EXPECT_FALSE(ErrorMatches({"<REGEX>:line 2:"}, "line 1:15: x"));
}

}  // namespace
}  // namespace sqe::sqltest
