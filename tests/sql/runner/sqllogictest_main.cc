/// sqe_sqllogictest: runs SQL logic test files (tests/sql/**/*.test, DuckDB's format) through
/// the in-process engine API. Each file gets a fresh Engine over a fresh temporary
/// warehouse. Usage:
///
///   sqe_sqllogictest [--data-dir DIR] [--threads N] [--stop-on-failure] FILE.test...
///
/// `${SQE_TEST_DATA}` in SQL is replaced by the fixture directory (--data-dir, else the
/// SQE_TEST_DATA environment variable, else tests/sql/data of the source tree) and
/// `${TEST_DIR}` / `__TEST_DIR__` by the file's temporary directory, `${WAREHOUSE}` by its
/// embedded warehouse (table s.t is in ${WAREHOUSE}/s/t). Exit code 0 when every
/// record of every file passed, 1 otherwise, 2 on bad usage.

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "result_check.h"
#include "test_file.h"
#include "value_text.h"

#ifndef SQE_SQL_TEST_DATA_DIR
#define SQE_SQL_TEST_DATA_DIR "tests/sql/data"
#endif

namespace sqe::sqltest {
namespace {

struct RunnerOptions {
  std::string data_dir;
  int threads = 0;
  bool stop_on_failure = false;
  std::vector<std::string> files;
};

struct FileOutcome {
  int passed = 0;
  int failed = 0;
  int skipped = 0;
};

std::string ReplaceAll(std::string text, std::string_view from, std::string_view to) {
  size_t pos = 0;
  while ((pos = text.find(from, pos)) != std::string::npos) {
    text.replace(pos, from.size(), to);
    pos += to.size();
  }
  return text;
}

std::string MakeTempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "sqe-sqltest-XXXXXX").string();
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  if (mkdtemp(buf.data()) == nullptr) return "";
  return std::string(buf.data());
}

void ReportFailure(const TestFile& file, const TestRecord& record, const std::string& sql,
                   const std::string& what) {
  std::cerr << "\n"
            << file.path << ":" << record.line << ": FAILED\n"
            << "SQL:\n"
            << sql << "\n"
            << what << "\n"
            << "----------------------------------------\n";
}

ActualResult Render(const engine::QueryResult& result) {
  ActualResult actual;
  if (result.schema) {
    for (const auto& field : result.schema->fields()) {
      actual.floating_columns.push_back(field.type()->is_floating());
    }
  }
  for (const auto& batch : result.batches) {
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      std::vector<std::string> row;
      for (int c = 0; c < batch.num_columns(); ++c) row.push_back(ValueText(batch.column(c), r));
      actual.rows.push_back(std::move(row));
    }
  }
  return actual;
}

FileOutcome RunFile(const RunnerOptions& options, const std::string& path) {
  FileOutcome outcome;
  auto loaded = LoadTestFile(path);
  if (!loaded.ok()) {
    std::cerr << loaded.status().ToString() << "\n";
    outcome.failed = 1;
    return outcome;
  }
  const TestFile& file = *loaded;
  std::string temp_dir = MakeTempDir();
  if (temp_dir.empty()) {
    std::cerr << path << ": cannot create a temporary directory\n";
    outcome.failed = 1;
    return outcome;
  }
  engine::EngineOptions engine_options;
  engine_options.warehouse = temp_dir + "/warehouse";
  engine_options.threads = options.threads;
  std::filesystem::create_directories(engine_options.warehouse);
  auto engine = engine::Engine::Open(std::move(engine_options));
  if (!engine.ok()) {
    std::cerr << path << ": cannot open the engine: " << engine.status().ToString() << "\n";
    outcome.failed = 1;
    return outcome;
  }
  std::unique_ptr<engine::Session> session = (*engine)->NewSession();
  std::vector<std::pair<std::string, std::string>> vars = {{"SQE_TEST_DATA", options.data_dir},
                                                           {"TEST_DIR", temp_dir},
                                                           {"WAREHOUSE", temp_dir + "/warehouse"}};
  bool skipping = false;
  for (const TestRecord& record : file.records) {
    if (record.kind == TestRecord::Kind::kHalt) break;
    if (record.kind == TestRecord::Kind::kSkipOn || record.kind == TestRecord::Kind::kSkipOff) {
      skipping = record.kind == TestRecord::Kind::kSkipOn;
      continue;
    }
    if (skipping) {
      ++outcome.skipped;
      continue;
    }
    std::string sql = ReplaceAll(SubstituteVariables(record.sql, vars), "__TEST_DIR__", temp_dir);
    auto result = session->Execute(sql);
    std::string problem;
    switch (record.kind) {
      case TestRecord::Kind::kStatementOk:
        if (!result.ok()) problem = "statement failed: " + result.status().ToString();
        break;
      case TestRecord::Kind::kStatementError:
        if (result.ok()) {
          problem = "statement succeeded but an error was expected";
        } else if (!ErrorMatches(record.expected, result.status().message())) {
          problem = "error message does not match\nexpected: " + FormatRows({record.expected}) +
                    "actual:   " + result.status().message();
        }
        break;
      case TestRecord::Kind::kQuery:
        if (!result.ok()) {
          problem = "query failed: " + result.status().ToString();
        } else {
          problem = CheckQueryResult(record, Render(*result));
        }
        break;
      default:
        break;
    }
    if (problem.empty()) {
      ++outcome.passed;
    } else {
      ++outcome.failed;
      ReportFailure(file, record, sql, problem);
      if (options.stop_on_failure) break;
    }
  }
  session.reset();
  std::error_code ignored;
  std::filesystem::remove_all(temp_dir, ignored);
  return outcome;
}

int Main(int argc, char** argv) {
  RunnerOptions options;
  const char* env_data = std::getenv("SQE_TEST_DATA");
  options.data_dir = env_data != nullptr ? env_data : SQE_SQL_TEST_DATA_DIR;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--data-dir" && i + 1 < argc) {
      options.data_dir = argv[++i];
    } else if (arg == "--threads" && i + 1 < argc) {
      options.threads = std::atoi(argv[++i]);
    } else if (arg == "--stop-on-failure") {
      options.stop_on_failure = true;
    } else if (arg == "-h" || arg == "--help" || arg.starts_with("--")) {
      std::cerr << "usage: sqe_sqllogictest [--data-dir DIR] [--threads N] "
                   "[--stop-on-failure] FILE.test...\n";
      return 2;
    } else {
      options.files.push_back(arg);
    }
  }
  if (options.files.empty()) {
    std::cerr << "sqe_sqllogictest: no test files given\n";
    return 2;
  }
  int total_failed = 0;
  for (const std::string& path : options.files) {
    FileOutcome outcome = RunFile(options, path);
    std::cout << path << ": " << outcome.passed << " passed, " << outcome.failed << " failed, "
              << outcome.skipped << " skipped\n";
    total_failed += outcome.failed;
  }
  return total_failed == 0 ? 0 : 1;
}

}  // namespace
}  // namespace sqe::sqltest

int main(int argc, char** argv) { return sqe::sqltest::Main(argc, argv); }
