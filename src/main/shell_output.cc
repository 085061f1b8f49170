#include "main/shell_output.h"

#include <algorithm>
#include <vector>

#include "columnar/json_value_encoding.h"
#include "columnar/utf8.h"
#include "main/shell_nested_text.h"

namespace sqe::app {

Result<ShellFormat> ParseShellFormat(const std::string& name) {
  if (name == "table") return ShellFormat::kTable;
  if (name == "csv") return ShellFormat::kCsv;
  if (name == "tsv") return ShellFormat::kTsv;
  if (name == "jsonl") return ShellFormat::kJsonl;
  return Status::InvalidArgument("unknown --format '" + name + "' (use table, csv, tsv or jsonl)");
}

Result<std::string> CellText(const columnar::Column& column, int64_t row,
                             const std::string& null_text) {
  if (column.IsNull(row)) return null_text;
  switch (column.type_id()) {
    case columnar::TypeId::kString:
      return std::string(column.StringAt(row));
    case columnar::TypeId::kList:
    case columnar::TypeId::kMap:
    case columnar::TypeId::kStruct:
      return NestedCellText(column, row);  // as the Trino CLI: [1, 2], {k=v}, {x=1, y=a}
    default:
      break;
  }
  std::string json;
  SQE_RETURN_NOT_OK(columnar::AppendJsonValue(column, row, &json));
  // Scalars Trino encodes as JSON strings (decimals, dates, ...) print without quotes.
  if (json.size() >= 2 && json.front() == '"' && json.back() == '"' &&
      !column.type()->is_nested()) {
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

std::string TsvEscape(const std::string& s) {
  if (s.find_first_of("\t\n\r\\") == std::string::npos) return s;
  std::string out;
  for (char c : s) {
    switch (c) {
      case '\t':
        out += "\\t";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\\':
        out += "\\\\";
        break;
      default:
        out += c;
    }
  }
  return out;
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

std::string Pad(const std::string& s, size_t width, bool right) {
  std::string fill(width - std::min(width, Width(s)), ' ');
  return right ? fill + s : s + fill;
}

}  // namespace

ResultPrinter::ResultPrinter(ShellFormat format, columnar::SchemaPtr schema, std::ostream& out)
    : format_(format), schema_(std::move(schema)), out_(out) {}

bool ResultPrinter::HasColumns() const { return schema_ != nullptr && schema_->num_fields() > 0; }

Status ResultPrinter::Add(const columnar::Batch& batch) {
  if (!HasColumns() || batch.num_rows() == 0) return Status::OK();
  switch (format_) {
    case ShellFormat::kCsv:
    case ShellFormat::kTsv:
      return AddDelimited(batch);
    case ShellFormat::kJsonl:
      return AddJsonl(batch);
    case ShellFormat::kTable:
      return AddTable(batch);
  }
  return Status::OK();
}

Status ResultPrinter::Finish() {
  if (!HasColumns()) return Status::OK();
  if (format_ == ShellFormat::kCsv || format_ == ShellFormat::kTsv) WriteHeader();
  if (format_ == ShellFormat::kTable) {
    FlushPage();
    out_ << "(" << rows_ << (rows_ == 1 ? " row)\n" : " rows)\n");
  }
  out_.flush();
  return Status::OK();
}

Status ResultPrinter::AddJsonl(const columnar::Batch& batch) {
  text_.clear();
  for (int64_t r = 0; r < batch.num_rows(); ++r) {
    SQE_RETURN_NOT_OK(columnar::AppendJsonRowArray(batch, r, &text_));
    text_ += '\n';
  }
  out_ << text_;
  rows_ += batch.num_rows();
  return Status::OK();
}

Status ResultPrinter::AddDelimited(const columnar::Batch& batch) {
  WriteHeader();
  const int columns = schema_->num_fields();
  const bool csv = format_ == ShellFormat::kCsv;
  text_.clear();
  for (int64_t r = 0; r < batch.num_rows(); ++r) {
    for (int c = 0; c < columns; ++c) {
      SQE_ASSIGN_OR_RETURN(std::string cell, CellText(batch.column(c), r, ""));
      if (c > 0) text_ += csv ? ',' : '\t';
      text_ += csv ? CsvQuote(cell) : TsvEscape(cell);
    }
    text_ += '\n';
  }
  out_ << text_;
  rows_ += batch.num_rows();
  return Status::OK();
}

Status ResultPrinter::AddTable(const columnar::Batch& batch) {
  const int columns = schema_->num_fields();
  if (widths_.empty()) {
    widths_.resize(static_cast<size_t>(columns));
    for (int c = 0; c < columns; ++c) widths_[c] = Width(schema_->field(c).name());
  }
  for (int64_t r = 0; r < batch.num_rows(); ++r) {
    std::vector<std::string> row;
    row.reserve(static_cast<size_t>(columns));
    for (int c = 0; c < columns; ++c) {
      SQE_ASSIGN_OR_RETURN(std::string text, CellText(batch.column(c), r, "NULL"));
      widths_[c] = std::max(widths_[c], Width(text));
      row.push_back(std::move(text));
    }
    page_.push_back(std::move(row));
    ++rows_;
    if (static_cast<int64_t>(page_.size()) >= kTablePageRows) FlushPage();
  }
  return Status::OK();
}

void ResultPrinter::WriteHeader() {
  if (header_written_) return;
  header_written_ = true;
  const columnar::Schema& schema = *schema_;
  if (format_ == ShellFormat::kCsv || format_ == ShellFormat::kTsv) {
    const bool csv = format_ == ShellFormat::kCsv;
    for (int c = 0; c < schema.num_fields(); ++c) {
      const std::string& name = schema.field(c).name();
      out_ << (c ? (csv ? "," : "\t") : "") << (csv ? CsvQuote(name) : TsvEscape(name));
    }
    out_ << '\n';
    return;
  }
  // Aligned table, as the Trino CLI prints it.
  for (int c = 0; c < schema.num_fields(); ++c) {
    out_ << (c ? " | " : " ") << Pad(schema.field(c).name(), widths_[c], false);
  }
  out_ << '\n';
  for (int c = 0; c < schema.num_fields(); ++c) {
    out_ << (c ? "-+-" : "-") << std::string(widths_[c], '-');
  }
  out_ << "-\n";
}

void ResultPrinter::FlushPage() {
  if (widths_.empty()) {  // no rows at all: the header alone
    widths_.resize(static_cast<size_t>(schema_->num_fields()));
    for (int c = 0; c < schema_->num_fields(); ++c) widths_[c] = Width(schema_->field(c).name());
  }
  WriteHeader();
  text_.clear();
  for (const auto& row : page_) {
    for (size_t c = 0; c < row.size(); ++c) {
      text_ += c ? " | " : " ";
      text_ += Pad(row[c], widths_[c], IsNumeric(*schema_->field(static_cast<int>(c)).type()));
    }
    text_ += '\n';
  }
  out_ << text_;
  page_.clear();
}

}  // namespace sqe::app
