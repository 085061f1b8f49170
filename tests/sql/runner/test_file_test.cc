#include "test_file.h"

#include <gtest/gtest.h>

namespace sqe::sqltest {
namespace {

TEST(TestFileTest, ParsesHeaderAndRecords) {
  const char* text =
      "# name: test/sql/basic.test\n"
      "# description: a description\n"
      "\n"
      "statement ok\n"
      "CREATE TABLE t AS\n"
      "SELECT 1 AS a\n"
      "\n"
      "query IT rowsort\n"
      "SELECT a, 'x' FROM t\n"
      "----\n"
      "1\tx\n"
      "2\ty\n"
      "\n"
      "statement error\n"
      "SELECT nope\n"
      "----\n"
      "cannot be resolved\n"
      "\n"
      "query I\n"
      "SELECT 1 WHERE false\n"
      "----\n";
  auto file = ParseTestFile(text, "basic.test");
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  EXPECT_EQ(file->name, "test/sql/basic.test");
  EXPECT_EQ(file->description, "a description");
  ASSERT_EQ(file->records.size(), 4u);
  EXPECT_EQ(file->records[0].kind, TestRecord::Kind::kStatementOk);
  EXPECT_EQ(file->records[0].sql, "CREATE TABLE t AS\nSELECT 1 AS a");
  EXPECT_EQ(file->records[0].line, 4);
  const TestRecord& query = file->records[1];
  EXPECT_EQ(query.kind, TestRecord::Kind::kQuery);
  EXPECT_EQ(query.column_types, "IT");
  EXPECT_EQ(query.sort_mode, SortMode::kRowSort);
  EXPECT_EQ(query.expected, (std::vector<std::string>{"1\tx", "2\ty"}));
  EXPECT_EQ(query.line, 8);
  EXPECT_EQ(file->records[2].kind, TestRecord::Kind::kStatementError);
  EXPECT_EQ(file->records[2].expected, std::vector<std::string>{"cannot be resolved"});
  EXPECT_TRUE(file->records[3].expected.empty());
}

TEST(TestFileTest, ModeSkipHaltAndIgnoredDirectives) {
  auto file = ParseTestFile(
      "require parquet\n\nmode skip\n\nstatement ok\nSELECT 1\n\nmode unskip\n\nhalt\n", "x");
  ASSERT_TRUE(file.ok());
  ASSERT_EQ(file->records.size(), 4u);
  EXPECT_EQ(file->records[0].kind, TestRecord::Kind::kSkipOn);
  EXPECT_EQ(file->records[2].kind, TestRecord::Kind::kSkipOff);
  EXPECT_EQ(file->records[3].kind, TestRecord::Kind::kHalt);
}

TEST(TestFileTest, RejectsMalformedRecords) {
  EXPECT_FALSE(ParseTestFile("query I\nSELECT 1\n", "f").ok());  // no ----
  EXPECT_FALSE(ParseTestFile("statement maybe\nSELECT 1\n", "f").ok());
  EXPECT_FALSE(ParseTestFile("query I wobble\nSELECT 1\n----\n1\n", "f").ok());
  auto bad = ParseTestFile("\n\nstatement ok\n\n", "dir/f.test");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("dir/f.test:3"), std::string::npos);
}

TEST(TestFileTest, SubstitutesKnownVariablesOnly) {
  EXPECT_EQ(SubstituteVariables("read_parquet('${SQE_TEST_DATA}/a.parquet') ${OTHER}",
                                {{"SQE_TEST_DATA", "/data"}}),
            "read_parquet('/data/a.parquet') ${OTHER}");
  EXPECT_EQ(SubstituteVariables("no vars", {}), "no vars");
}

}  // namespace
}  // namespace sqe::sqltest
