#include "result_check.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <regex>

namespace sqe::sqltest {
namespace {

using Rows = std::vector<std::vector<std::string>>;

std::vector<std::string> SplitTabs(const std::string& line) {
  std::vector<std::string> values;
  size_t start = 0;
  while (true) {
    size_t tab = line.find('\t', start);
    values.push_back(
        line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
    if (tab == std::string::npos) break;
    start = tab + 1;
  }
  return values;
}

bool ParseNumber(const std::string& text, double* value) {
  if (text == "NaN") {
    *value = std::nan("");
    return true;
  }
  if (text == "Infinity" || text == "-Infinity") {
    *value = text[0] == '-' ? -HUGE_VAL : HUGE_VAL;
    return true;
  }
  if (text.empty()) return false;
  char* end = nullptr;
  *value = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size();
}

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// The expected block as rows of `columns` values. DuckDB's runner also accepts one value
/// per line for multi-column results; that form is regrouped here.
Rows ExpectedRows(const TestRecord& record, size_t columns) {
  Rows rows;
  for (const std::string& line : record.expected) rows.push_back(SplitTabs(line));
  bool one_per_line =
      columns > 1 && !rows.empty() &&
      std::all_of(rows.begin(), rows.end(), [](const auto& row) { return row.size() == 1; }) &&
      rows.size() % columns == 0;
  if (!one_per_line) return rows;
  Rows grouped;
  for (size_t i = 0; i < rows.size(); i += columns) {
    std::vector<std::string> row;
    for (size_t c = 0; c < columns; ++c) row.push_back(rows[i + c][0]);
    grouped.push_back(std::move(row));
  }
  return grouped;
}

/// valuesort: every value on its own row, sorted.
Rows Flatten(const Rows& rows) {
  Rows out;
  for (const auto& row : rows) {
    for (const auto& value : row) out.push_back({value});
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

bool ValuesMatch(const std::string& expected, const std::string& actual, bool floating) {
  if (expected == actual) return true;
  if (!floating) return false;
  double e = 0;
  double a = 0;
  if (!ParseNumber(expected, &e) || !ParseNumber(actual, &a)) return false;
  if (std::isnan(e) || std::isnan(a)) return std::isnan(e) && std::isnan(a);
  if (std::isinf(e) || std::isinf(a)) return e == a;
  double diff = std::fabs(e - a);
  if (diff <= 1e-12) return true;
  return diff <= kFloatRelativeTolerance * std::max(std::fabs(e), std::fabs(a));
}

std::string FormatRows(const Rows& rows) {
  std::string out;
  for (const auto& row : rows) {
    for (size_t c = 0; c < row.size(); ++c) {
      if (c > 0) out += '\t';
      out += row[c];
    }
    out += '\n';
  }
  return out;
}

std::string CheckQueryResult(const TestRecord& record, const ActualResult& actual) {
  size_t columns = actual.floating_columns.size();
  if (record.column_types.size() != columns) {
    return "query declares " + std::to_string(record.column_types.size()) + " column(s) ('" +
           record.column_types + "') but returned " + std::to_string(columns) + "\nactual:\n" +
           FormatRows(actual.rows);
  }
  Rows expected = ExpectedRows(record, columns);
  Rows got = actual.rows;
  std::vector<bool> floating = actual.floating_columns;
  if (record.sort_mode == SortMode::kRowSort) {
    std::sort(expected.begin(), expected.end());
    std::sort(got.begin(), got.end());
  } else if (record.sort_mode == SortMode::kValueSort) {
    expected = Flatten(expected);
    got = Flatten(got);
    bool any = std::any_of(floating.begin(), floating.end(), [](bool f) { return f; });
    floating.assign(1, any);
  }
  std::string problem;
  if (expected.size() != got.size()) {
    problem = "expected " + std::to_string(expected.size()) + " row(s), got " +
              std::to_string(got.size());
  } else {
    for (size_t r = 0; r < expected.size() && problem.empty(); ++r) {
      if (expected[r].size() != got[r].size()) {
        problem = "row " + std::to_string(r + 1) + ": expected " +
                  std::to_string(expected[r].size()) + " value(s), got " +
                  std::to_string(got[r].size());
        break;
      }
      for (size_t c = 0; c < got[r].size(); ++c) {
        if (!ValuesMatch(expected[r][c], got[r][c], floating[c])) {
          problem = "row " + std::to_string(r + 1) + ", column " + std::to_string(c + 1) +
                    ": expected '" + expected[r][c] + "', got '" + got[r][c] + "'";
          break;
        }
      }
    }
  }
  if (problem.empty()) return "";
  return problem + "\nexpected:\n" + FormatRows(expected) + "actual:\n" + FormatRows(got);
}

bool ErrorMatches(const std::vector<std::string>& expected, const std::string& message) {
  if (expected.empty()) return true;
  std::string want;
  for (size_t i = 0; i < expected.size(); ++i) {
    if (i > 0) want += '\n';
    want += expected[i];
  }
  static constexpr std::string_view kRegex = "<REGEX>:";
  if (want.starts_with(kRegex)) {
    try {
      std::regex re(want.substr(kRegex.size()), std::regex::ECMAScript | std::regex::icase);
      return std::regex_search(message, re);
    } catch (const std::regex_error&) {
      return false;
    }
  }
  return Lower(message).find(Lower(want)) != std::string::npos;
}

}  // namespace sqe::sqltest
