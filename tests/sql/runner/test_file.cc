#include "test_file.h"

#include <fstream>
#include <sstream>

namespace sqe::sqltest {
namespace {

std::vector<std::string> SplitLines(std::string_view text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string line(text.substr(start, end - start));
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    if (end == text.size()) break;
    start = end + 1;
  }
  return lines;
}

std::vector<std::string> SplitWords(const std::string& line) {
  std::vector<std::string> words;
  std::istringstream in(line);
  std::string word;
  while (in >> word) words.push_back(word);
  return words;
}

bool IsBlank(const std::string& line) { return line.find_first_not_of(" \t") == std::string::npos; }

std::string_view TrimView(std::string_view s) {
  size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

}  // namespace

Result<TestFile> ParseTestFile(std::string_view text, std::string path) {
  TestFile file;
  file.path = path;
  std::vector<std::string> lines = SplitLines(text);
  auto error = [&](size_t index, const std::string& what) {
    return Status::InvalidArgument(path + ":" + std::to_string(index + 1) + ": " + what);
  };
  size_t i = 0;
  while (i < lines.size()) {
    const std::string& line = lines[i];
    if (IsBlank(line)) {
      ++i;
      continue;
    }
    if (line[0] == '#') {
      std::string_view rest = TrimView(std::string_view(line).substr(1));
      if (rest.starts_with("name:")) file.name = std::string(TrimView(rest.substr(5)));
      if (rest.starts_with("description:")) {
        file.description = std::string(TrimView(rest.substr(12)));
      }
      ++i;
      continue;
    }
    std::vector<std::string> words = SplitWords(line);
    TestRecord record;
    record.line = static_cast<int>(i + 1);
    const std::string& head = words[0];
    if (head == "mode" && words.size() >= 2 && (words[1] == "skip" || words[1] == "unskip")) {
      record.kind = words[1] == "skip" ? TestRecord::Kind::kSkipOn : TestRecord::Kind::kSkipOff;
      file.records.push_back(std::move(record));
      ++i;
      continue;
    }
    if (head == "halt") {
      record.kind = TestRecord::Kind::kHalt;
      file.records.push_back(std::move(record));
      ++i;
      continue;
    }
    if (head != "statement" && head != "query") {
      // require, load, loop, endloop, mode output_*, hash-threshold ...: not used by SQE.
      ++i;
      continue;
    }
    if (head == "statement") {
      if (words.size() < 2 || (words[1] != "ok" && words[1] != "error")) {
        return error(i, "expected 'statement ok' or 'statement error'");
      }
      record.kind =
          words[1] == "ok" ? TestRecord::Kind::kStatementOk : TestRecord::Kind::kStatementError;
    } else {
      record.kind = TestRecord::Kind::kQuery;
      if (words.size() < 2) return error(i, "query without column types");
      record.column_types = words[1];
      for (size_t w = 2; w < words.size(); ++w) {
        if (words[w] == "rowsort") {
          record.sort_mode = SortMode::kRowSort;
        } else if (words[w] == "valuesort") {
          record.sort_mode = SortMode::kValueSort;
        } else if (words[w] == "nosort") {
          record.sort_mode = SortMode::kNoSort;
        } else {
          return error(i, "unknown query option '" + words[w] + "'");
        }
      }
    }
    ++i;
    // The SQL runs to "----" or a blank line.
    std::string sql;
    while (i < lines.size() && !IsBlank(lines[i]) && lines[i] != "----") {
      if (!sql.empty()) sql += '\n';
      sql += lines[i];
      ++i;
    }
    if (sql.empty()) return error(record.line - 1, "record without SQL");
    record.sql = std::move(sql);
    if (i < lines.size() && lines[i] == "----") {
      if (record.kind == TestRecord::Kind::kStatementOk) {
        return error(i, "'statement ok' takes no result block");
      }
      ++i;
      // Expected lines run to a blank line (an empty result is just "----").
      while (i < lines.size() && !lines[i].empty()) {
        record.expected.push_back(lines[i]);
        ++i;
      }
    } else if (record.kind == TestRecord::Kind::kQuery) {
      return error(record.line - 1, "query without '----' result block");
    }
    file.records.push_back(std::move(record));
  }
  return file;
}

Result<TestFile> LoadTestFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::NotFound("cannot open test file '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return ParseTestFile(text.str(), path);
}

std::string SubstituteVariables(std::string_view text,
                                const std::vector<std::pair<std::string, std::string>>& vars) {
  std::string out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t start = text.find("${", pos);
    if (start == std::string_view::npos) break;
    size_t end = text.find('}', start + 2);
    if (end == std::string_view::npos) break;
    std::string_view name = text.substr(start + 2, end - start - 2);
    out.append(text.substr(pos, start - pos));
    bool found = false;
    for (const auto& [var, value] : vars) {
      if (var == name) {
        out += value;
        found = true;
        break;
      }
    }
    if (!found) out.append(text.substr(start, end + 1 - start));
    pos = end + 1;
  }
  out.append(text.substr(pos));
  return out;
}

}  // namespace sqe::sqltest
