#include "main/shell_output.h"

#include <algorithm>
#include <vector>

#include "columnar/json_value_encoding.h"
#include "columnar/utf8.h"

namespace sqe::app {

Result<ShellFormat> ParseShellFormat(const std::string& name) {
  if (name == "table") return ShellFormat::kTable;
  if (name == "csv") return ShellFormat::kCsv;
  if (name == "jsonl") return ShellFormat::kJsonl;
  return Status::InvalidArgument("unknown --format '" + name + "' (use table, csv or jsonl)");
}

Result<std::string> CellText(const columnar::Column& column, int64_t row,
                             const std::string& null_text) {
  if (column.IsNull(row)) return null_text;
  switch (column.type_id()) {
    case columnar::TypeId::kString:
      return std::string(column.StringAt(row));
    default:
      break;
  }
  std::string json;
  SQE_RETURN_NOT_OK(columnar::AppendJsonValue(column, row, &json));
  // Scalars Trino encodes as JSON strings (decimals, dates, ...) print without quotes.
  if (json.size() >= 2 && json.front() == '"' && json.back() == '"' && !column.type()->is_nested()) {
    return json.substr(1, json.size() - 2);
  }
  return json;
}

namespace {

std::string CsvQuote(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

/// Display width in code points (close enough for alignment of most text).
size_t Width(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) {
    if ((c & 0xC0) != 0x80) ++n;
  }
  return n;
}

bool IsNumeric(const columnar::DataType& type) {
  return type.is_integer() || type.is_floating() || type.id() == columnar::TypeId::kDecimal128;
}

}  // namespace

Status PrintResult(const engine::QueryResult& result, ShellFormat format, std::ostream& out) {
  if (result.schema == nullptr || result.schema->num_fields() == 0) return Status::OK();
  const columnar::Schema& schema = *result.schema;
  int columns = schema.num_fields();
  if (format == ShellFormat::kJsonl) {
    std::string line;
    for (const columnar::Batch& batch : result.batches) {
      for (int64_t r = 0; r < batch.num_rows(); ++r) {
        line.clear();
        SQE_RETURN_NOT_OK(columnar::AppendJsonRowArray(batch, r, &line));
        out << line << '\n';
      }
    }
    return Status::OK();
  }
  if (format == ShellFormat::kCsv) {
    for (int c = 0; c < columns; ++c) out << (c ? "," : "") << CsvQuote(schema.field(c).name());
    out << '\n';
    for (const columnar::Batch& batch : result.batches) {
      for (int64_t r = 0; r < batch.num_rows(); ++r) {
        for (int c = 0; c < columns; ++c) {
          SQE_ASSIGN_OR_RETURN(std::string text, CellText(batch.column(c), r, ""));
          out << (c ? "," : "") << CsvQuote(text);
        }
        out << '\n';
      }
    }
    return Status::OK();
  }
  // Aligned table, as the Trino CLI prints it.
  std::vector<std::vector<std::string>> rows;
  std::vector<size_t> widths(columns);
  for (int c = 0; c < columns; ++c) widths[c] = Width(schema.field(c).name());
  for (const columnar::Batch& batch : result.batches) {
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      std::vector<std::string> row;
      for (int c = 0; c < columns; ++c) {
        SQE_ASSIGN_OR_RETURN(std::string text, CellText(batch.column(c), r, "NULL"));
        widths[c] = std::max(widths[c], Width(text));
        row.push_back(std::move(text));
      }
      rows.push_back(std::move(row));
    }
  }
  auto pad = [&](const std::string& s, size_t width, bool right) {
    std::string fill(width - std::min(width, Width(s)), ' ');
    return right ? fill + s : s + fill;
  };
  for (int c = 0; c < columns; ++c) {
    out << (c ? " | " : " ") << pad(schema.field(c).name(), widths[c], false);
  }
  out << '\n';
  for (int c = 0; c < columns; ++c) out << (c ? "-+-" : "-") << std::string(widths[c], '-');
  out << "-\n";
  for (const auto& row : rows) {
    for (int c = 0; c < columns; ++c) {
      out << (c ? " | " : " ") << pad(row[c], widths[c], IsNumeric(*schema.field(c).type()));
    }
    out << '\n';
  }
  out << "(" << rows.size() << (rows.size() == 1 ? " row)\n" : " rows)\n");
  return Status::OK();
}

}  // namespace sqe::app
