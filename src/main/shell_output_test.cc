#include "main/shell_output.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "columnar/binary_builder.h"
#include "columnar/fixed_width_builder.h"
#include "columnar/list_builder.h"
#include "columnar/map_builder.h"
#include "columnar/struct_builder.h"

namespace sqe::app {
namespace {

using columnar::Batch;
using columnar::Field;
using columnar::Schema;
using columnar::SchemaPtr;

SchemaPtr NumberAndText() {
  return Schema::Make({Field("n", columnar::Int64()), Field("s", columnar::String())});
}

/// Rows first..first+count-1: n = the row, s = "v<row>" (NULL where the row is odd when
/// `nulls`).
Batch Rows(const SchemaPtr& schema, int64_t first, int64_t count, bool nulls = false) {
  columnar::FixedWidthBuilder<int64_t> numbers(columnar::Int64());
  columnar::BinaryBuilder texts(columnar::String());
  for (int64_t i = first; i < first + count; ++i) {
    EXPECT_TRUE(numbers.Append(i).ok());
    EXPECT_TRUE(
        (nulls && i % 2 == 1 ? texts.AppendNull() : texts.Append("v" + std::to_string(i))).ok());
  }
  return Batch::Make(schema, {numbers.Finish().value(), texts.Finish().value()}).value();
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(ResultPrinterTest, CsvWritesEachBatchWhenItIsAdded) {
  const SchemaPtr schema = NumberAndText();
  std::ostringstream out;
  ResultPrinter printer(ShellFormat::kCsv, schema, out);
  ASSERT_TRUE(printer.Add(Rows(schema, 0, 2, /*nulls=*/true)).ok());
  EXPECT_EQ(out.str(), "n,s\n0,v0\n1,\n");  // written before the result ends
  ASSERT_TRUE(printer.Add(Rows(schema, 2, 1)).ok());
  ASSERT_TRUE(printer.Finish().ok());
  EXPECT_EQ(out.str(), "n,s\n0,v0\n1,\n2,v2\n");
}

TEST(ResultPrinterTest, TsvEscapesTabsNewlinesAndBackslashes) {
  const SchemaPtr schema = Schema::Make({Field("a\tb", columnar::String())});
  columnar::BinaryBuilder texts(columnar::String());
  ASSERT_TRUE(texts.Append("x\ty\nz\\").ok());
  ASSERT_TRUE(texts.AppendNull().ok());
  ASSERT_TRUE(texts.Append("plain, \"quoted\"").ok());
  std::ostringstream out;
  ResultPrinter printer(ShellFormat::kTsv, schema, out);
  ASSERT_TRUE(printer.Add(Batch::Make(schema, {texts.Finish().value()}).value()).ok());
  ASSERT_TRUE(printer.Finish().ok());
  EXPECT_EQ(out.str(), "a\\tb\nx\\ty\\nz\\\\\n\nplain, \"quoted\"\n");
}

TEST(ResultPrinterTest, CsvOfNoRowsIsTheHeader) {
  std::ostringstream out;
  ResultPrinter printer(ShellFormat::kCsv, NumberAndText(), out);
  ASSERT_TRUE(printer.Finish().ok());
  EXPECT_EQ(out.str(), "n,s\n");
}

TEST(ResultPrinterTest, JsonLinesWriteEachBatchWhenItIsAdded) {
  const SchemaPtr schema = NumberAndText();
  std::ostringstream out;
  ResultPrinter printer(ShellFormat::kJsonl, schema, out);
  ASSERT_TRUE(printer.Add(Rows(schema, 0, 2, /*nulls=*/true)).ok());
  EXPECT_EQ(out.str(), "[0,\"v0\"]\n[1,null]\n");
  ASSERT_TRUE(printer.Finish().ok());
  EXPECT_EQ(out.str(), "[0,\"v0\"]\n[1,null]\n");
}

TEST(ResultPrinterTest, TablePrintsFullPagesAndTheRestAtTheEnd) {
  const SchemaPtr schema = NumberAndText();
  std::ostringstream out;
  ResultPrinter printer(ShellFormat::kTable, schema, out);
  const int64_t page = ResultPrinter::kTablePageRows;
  ASSERT_TRUE(printer.Add(Rows(schema, 0, page - 1)).ok());
  EXPECT_EQ(out.str(), "");  // the first page is still sizing the columns
  ASSERT_TRUE(printer.Add(Rows(schema, page - 1, 3)).ok());
  std::vector<std::string> lines = Lines(out.str());
  ASSERT_EQ(lines.size(), static_cast<size_t>(page + 2));  // header, rule, one page
  EXPECT_EQ(lines[0], " n    | s    ");
  EXPECT_EQ(lines[1], "------+-------");
  EXPECT_EQ(lines[2], "    0 | v0   ");
  ASSERT_TRUE(printer.Finish().ok());
  lines = Lines(out.str());
  ASSERT_EQ(lines.size(), static_cast<size_t>(page + 5));
  EXPECT_EQ(lines[page + 3], " 10001 | v10001");  // wider than the first page: widened
  EXPECT_EQ(lines.back(), "(10002 rows)");
}

TEST(ResultPrinterTest, TableOfNoRowsIsTheHeaderAndTheCount) {
  std::ostringstream out;
  ResultPrinter printer(ShellFormat::kTable, NumberAndText(), out);
  ASSERT_TRUE(printer.Finish().ok());
  EXPECT_EQ(out.str(), " n | s\n---+---\n(0 rows)\n");
}

TEST(ResultPrinterTest, AResultWithoutColumnsPrintsNothing) {
  std::ostringstream out;
  ResultPrinter printer(ShellFormat::kTable, Schema::Make({}), out);
  ASSERT_TRUE(printer.Finish().ok());
  ResultPrinter none(ShellFormat::kCsv, nullptr, out);
  ASSERT_TRUE(none.Finish().ok());
  EXPECT_EQ(out.str(), "");
}

TEST(ShellOutput, NestedValuesAsTheTrinoCliPrintsThem) {
  // row(x bigint, <anonymous> array(varchar), m map(varchar, bigint)), as the Trino CLI
  // prints it: {x=1, [a, NULL], m={k=2}}.
  auto type = columnar::Struct({Field("x", columnar::Int64()),
                                Field("", columnar::List(columnar::String())),
                                Field("m", columnar::Map(columnar::String(), columnar::Int64()))});
  auto builder = columnar::MakeBuilder(type).value();
  auto* row = static_cast<columnar::StructBuilder*>(builder.get());
  auto* x = row->field_builder_as<columnar::FixedWidthBuilder<int64_t>>(0);
  auto* list = row->field_builder_as<columnar::ListBuilder>(1);
  auto* item = list->value_builder_as<columnar::BinaryBuilder>();
  auto* map = row->field_builder_as<columnar::MapBuilder>(2);
  ASSERT_TRUE(row->Append().ok());
  ASSERT_TRUE(x->Append(1).ok());
  ASSERT_TRUE(list->Append().ok());
  ASSERT_TRUE(item->Append("a").ok());
  ASSERT_TRUE(item->AppendNull().ok());
  ASSERT_TRUE(map->Append().ok());
  ASSERT_TRUE(map->key_builder_as<columnar::BinaryBuilder>()->Append("k").ok());
  ASSERT_TRUE(map->item_builder_as<columnar::FixedWidthBuilder<int64_t>>()->Append(2).ok());
  ASSERT_TRUE(row->AppendNull().ok());
  columnar::Column c = builder->Finish().value();
  EXPECT_EQ(CellText(c, 0, "").value(), "{x=1, [a, NULL], m={k=2}}");
  EXPECT_EQ(CellText(c, 1, "").value(), "");
  std::ostringstream out;
  ResultPrinter csv(ShellFormat::kCsv, Schema::Make({Field("r", type)}), out);
  ASSERT_TRUE(csv.Add(Batch::Make(Schema::Make({Field("r", type)}), {c}).value()).ok());
  ASSERT_TRUE(csv.Finish().ok());
  EXPECT_EQ(Lines(out.str())[1], "\"{x=1, [a, NULL], m={k=2}}\"");
}

}  // namespace
}  // namespace sqe::app
