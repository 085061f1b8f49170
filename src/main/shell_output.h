#pragma once
/// How sqe-shell prints results: an aligned table (the default on a terminal), CSV
/// (RFC 4180, header line first) or JSON lines (one JSON array of the row's values per
/// line, in Trino's JSON value encoding, columnar/json_value_encoding.h).

#include <ostream>
#include <string>

#include "common/result.h"
#include "engine/engine.h"

namespace sqe::app {

enum class ShellFormat { kTable, kCsv, kJsonl };

/// "table", "csv", "jsonl" -> the format; InvalidArgument otherwise.
Result<ShellFormat> ParseShellFormat(const std::string& name);

/// Writes `result`'s rows (statements without a result schema print nothing).
Status PrintResult(const engine::QueryResult& result, ShellFormat format, std::ostream& out);

/// The text of one value as the table and CSV formats show it (NULL: `null_text`).
Result<std::string> CellText(const columnar::Column& column, int64_t row,
                             const std::string& null_text);

}  // namespace sqe::app
