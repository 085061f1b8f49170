#pragma once
/// Compares a query's actual rows (already rendered by ValueText) with the expected block
/// of a test record: sort mode, the one-value-per-line form, and a relative tolerance for
/// floating-point columns. Pure functions: thread-safe.

#include <string>
#include <vector>

#include "test_file.h"

namespace sqe::sqltest {

/// Relative tolerance for values of real/double result columns: |a - b| <= 1e-9 * max(|a|,
/// |b|) (or both within 1e-12 of zero). Decimal, integer and text values must match exactly.
inline constexpr double kFloatRelativeTolerance = 1e-9;

/// The rendered result of one query.
struct ActualResult {
  std::vector<std::vector<std::string>> rows;
  /// One flag per column: whether its type is real or double (compared with tolerance).
  std::vector<bool> floating_columns;
};

/// Whether two rendered values are equal: the same text, or, when `floating`, two numbers
/// within kFloatRelativeTolerance (NaN equals NaN).
bool ValuesMatch(const std::string& expected, const std::string& actual, bool floating);

/// Checks `actual` against `record` (a query). Returns "" when they match, otherwise a
/// readable explanation with the expected and actual rows.
std::string CheckQueryResult(const TestRecord& record, const ActualResult& actual);

/// Whether an error message satisfies a `statement error` expectation: any error when
/// `expected` is empty; otherwise the lines joined by '\n' must occur in the message
/// (case-insensitive), or, when they start with "<REGEX>:", the rest must match somewhere
/// in it as an ECMAScript regular expression (case-insensitive).
bool ErrorMatches(const std::vector<std::string>& expected, const std::string& message);

/// Rows as the expected block would show them (values tab-separated, one row per line).
std::string FormatRows(const std::vector<std::vector<std::string>>& rows);

}  // namespace sqe::sqltest
