#include "test_file.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

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

// Every checked-in .test file parses, and each query has as many values per expected row as
// it declares columns (catches a lost tab or a wrong type string before the engine runs).
TEST(TestFileTest, CheckedInFilesParse) {
  const char* source_dir = std::getenv("SQE_SOURCE_DIR");
  if (source_dir == nullptr) GTEST_SKIP() << "SQE_SOURCE_DIR not set (run through ctest)";
  int files = 0;
  int queries = 0;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(std::string(source_dir) + "/tests/sql")) {
    if (entry.path().extension() != ".test") continue;
    auto file = LoadTestFile(entry.path().string());
    ASSERT_TRUE(file.ok()) << file.status().ToString();
    EXPECT_FALSE(file->name.empty()) << entry.path() << " has no '# name:' header";
    ++files;
    for (const TestRecord& record : file->records) {
      if (record.kind != TestRecord::Kind::kQuery) continue;
      ++queries;
      for (const std::string& line : record.expected) {
        size_t values = 1 + std::count(line.begin(), line.end(), '\t');
        bool one_per_line = values == 1;
        EXPECT_TRUE(values == record.column_types.size() || one_per_line)
            << entry.path().string() << ":" << record.line << ": row '" << line << "' has "
            << values << " values for types '" << record.column_types << "'";
      }
    }
  }
  EXPECT_GT(files, 0);
  EXPECT_GT(queries, 0);
}

}  // namespace
}  // namespace sqe::sqltest
