#pragma once
/// How sqe-shell prints results: an aligned table (the default on a terminal), CSV
/// (RFC 4180, header line first), TSV (header line first; tab, newline, carriage return and
/// backslash in a value written as \t, \n, \r, \\) or JSON lines (one JSON array of the row's
/// values per line, in Trino's JSON value encoding, columnar/json_value_encoding.h). Results
/// stream: ResultPrinter writes rows as the batches arrive, so a result of any size prints in
/// bounded memory.

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "columnar/batch.h"
#include "columnar/schema.h"
#include "common/result.h"

namespace sqe::app {

enum class ShellFormat { kTable, kCsv, kTsv, kJsonl };

/// "table", "csv", "tsv", "jsonl" -> the format; InvalidArgument otherwise.
Result<ShellFormat> ParseShellFormat(const std::string& name);

/// Prints one statement's result batch by batch. csv, tsv and jsonl write each batch as it
/// is added. The table, like the Trino CLI's aligned format, holds a page of up to
/// `kTablePageRows` rows to size its columns, prints the header with the first page and
/// then each page as it fills; a column never narrows, and widens for a later page only
/// when that page has a longer value. "(N rows)" closes the table. Memory: one page of
/// cell texts at most. Not thread-safe; one printer per result.
class ResultPrinter {
 public:
  static constexpr int64_t kTablePageRows = 10000;

  ResultPrinter(ShellFormat format, columnar::SchemaPtr schema, std::ostream& out);

  /// Writes (or, for the table, pages) the rows of `batch`, whose columns match the schema.
  Status Add(const columnar::Batch& batch);
  /// Writes what is still held and the table's row count. A result without columns
  /// (DDL, SET, ...) prints nothing at all.
  Status Finish();

 private:
  bool HasColumns() const;
  /// csv and tsv: the header once, then the rows, each value through `quote`.
  Status AddDelimited(const columnar::Batch& batch);
  Status AddJsonl(const columnar::Batch& batch);
  Status AddTable(const columnar::Batch& batch);
  void WriteHeader();
  void FlushPage();

  ShellFormat format_;
  columnar::SchemaPtr schema_;
  std::ostream& out_;
  bool header_written_ = false;
  int64_t rows_ = 0;
  std::string text_;                            // csv / tsv / jsonl: one batch's text
  std::vector<size_t> widths_;                  // table: column widths so far
  std::vector<std::vector<std::string>> page_;  // table: the rows not printed yet
};

/// The text of one value as the table and CSV formats show it (NULL: `null_text`).
Result<std::string> CellText(const columnar::Column& column, int64_t row,
                             const std::string& null_text);

}  // namespace sqe::app
