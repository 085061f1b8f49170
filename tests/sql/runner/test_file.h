#pragma once
/// The sqllogictest file format SQE's SQL logic tests use (DuckDB's `.test` form): a parsed
/// file is a list of records (statement ok / statement error / query / control records),
/// each remembering its line so a failure can point at it. Parsing is pure: no SQL runs
/// here. Thread-safe (no shared state).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace sqe::sqltest {

/// How a query's rows are ordered before comparison.
enum class SortMode { kNoSort, kRowSort, kValueSort };

/// One record of a test file.
struct TestRecord {
  enum class Kind {
    kStatementOk,     ///< the SQL must succeed
    kStatementError,  ///< the SQL must fail; `expected` (one line) is a message substring
    kQuery,           ///< the SQL must return `expected`
    kSkipOn,          ///< `mode skip`: records up to `mode unskip` are not run
    kSkipOff,         ///< `mode unskip`
    kHalt,            ///< `halt`: stop running the file here
  };
  Kind kind = Kind::kStatementOk;
  /// 1-based line of the record's header ("query II", "statement ok").
  int line = 0;
  std::string sql;
  /// Query: one letter per column (I, R, T, B, ...), as written.
  std::string column_types;
  SortMode sort_mode = SortMode::kNoSort;
  /// Query: the expected rows, one string per line (values tab-separated).
  /// Statement error: the lines after `----` (the expected message), if any.
  std::vector<std::string> expected;
};

/// A parsed test file.
struct TestFile {
  std::string path;
  std::string name;         ///< from `# name:`
  std::string description;  ///< from `# description:`
  std::vector<TestRecord> records;
};

/// Parses the text of a test file. `path` only labels errors and the result. Unknown
/// directives (`require`, `load`, `loop` ...) are skipped; a malformed record is an
/// InvalidArgument naming path:line.
Result<TestFile> ParseTestFile(std::string_view text, std::string path);

/// Reads and parses the file at `path`.
Result<TestFile> LoadTestFile(const std::string& path);

/// Replaces every `${NAME}` in `text` by its value from `vars` (pairs of name, value);
/// unknown names are left as written.
std::string SubstituteVariables(std::string_view text,
                                const std::vector<std::pair<std::string, std::string>>& vars);

}  // namespace sqe::sqltest
