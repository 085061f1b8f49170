// Record assembly on hand-written level streams: nulls at every level, maps, legacy
// list forms (through the schema mapping), and inconsistent levels.
#include "formats/parquet/record_assembly.h"

#include <gtest/gtest.h>

#include <cstring>

#include "columnar/data_type.h"
#include "columnar/json_value_encoding.h"

namespace sqe::parquet {
namespace {

using columnar::Column;
using columnar::Field;

Column Int32Values(const std::vector<int32_t>& v) {
  auto buf = *columnar::Buffer::CopyOf(
      std::string_view(reinterpret_cast<const char*>(v.data()), v.size() * 4));
  return *Column::Make(columnar::Int32(), static_cast<int64_t>(v.size()), {nullptr, buf}, {}, 0);
}

Column StringValues(const std::vector<std::string>& v) {
  std::vector<int32_t> offsets = {0};
  std::string data;
  for (const std::string& s : v) {
    data += s;
    offsets.push_back(static_cast<int32_t>(data.size()));
  }
  auto o = *columnar::Buffer::CopyOf(
      std::string_view(reinterpret_cast<const char*>(offsets.data()), offsets.size() * 4));
  auto d = *columnar::Buffer::CopyOf(data);
  return *Column::Make(columnar::String(), static_cast<int64_t>(v.size()), {nullptr, o, d}, {}, 0);
}

LeafData Leaf(std::vector<int16_t> def, std::vector<int16_t> rep, Column values) {
  LeafData l;
  l.num_levels = static_cast<int64_t>(!def.empty()   ? def.size()
                                      : !rep.empty() ? rep.size()
                                                     : static_cast<size_t>(values.length()));
  l.def_levels = std::move(def);
  l.rep_levels = std::move(rep);
  l.values = std::move(values);
  return l;
}

ColumnDescriptor Desc(int16_t def, int16_t rep, columnar::TypePtr type) {
  ColumnDescriptor d;
  d.path = {"x"};
  d.max_definition_level = def;
  d.max_repetition_level = rep;
  d.type = std::move(type);
  return d;
}

std::vector<std::string> Rows(const Column& c) {
  std::vector<std::string> out;
  for (int64_t i = 0; i < c.length(); ++i) {
    std::string s;
    EXPECT_TRUE(columnar::AppendJsonValue(c, i, &s).ok());
    out.push_back(s);
  }
  return out;
}

template <typename... L>
std::vector<LeafData> Vec(L&&... leaves) {
  std::vector<LeafData> v;
  (v.push_back(std::move(leaves)), ...);
  return v;
}

Result<Column> Assemble(const Field& f, const std::vector<ColumnDescriptor>& descs,
                        const std::vector<LeafData>& leaves, int64_t rows) {
  std::vector<const ColumnDescriptor*> ptrs;
  for (const ColumnDescriptor& d : descs) ptrs.push_back(&d);
  return AssembleColumn(f, ptrs, leaves, rows);
}

TEST(RecordAssembly, NullStructVersusNullField) {
  Field f("s", columnar::Struct({Field("a", columnar::Int32())}));
  auto c =
      Assemble(f, {Desc(2, 0, columnar::Int32())}, Vec(Leaf({2, 0, 1}, {}, Int32Values({1}))), 3);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  ASSERT_TRUE(c->ValidateFull().ok());
  EXPECT_EQ(Rows(*c), (std::vector<std::string>{"{\"a\":1}", "null", "{\"a\":null}"}));
}

TEST(RecordAssembly, NullListEmptyListNullElement) {
  Field f("l", columnar::List(columnar::Int32()));
  auto c = Assemble(f, {Desc(3, 1, columnar::Int32())},
                    Vec(Leaf({0, 1, 2, 3, 3}, {0, 0, 0, 0, 1}, Int32Values({1, 2}))), 4);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  ASSERT_TRUE(c->ValidateFull().ok());
  EXPECT_EQ(Rows(*c), (std::vector<std::string>{"null", "[]", "[null]", "[1,2]"}));
}

TEST(RecordAssembly, ListOfStructsOfLists) {
  // list<struct<a: list<int32>>>: def levels: list 1, elem 2 (repeated), struct 3,
  // a 4, a's repeated 5, a's element 6; rep: 1 for the outer, 2 for the inner list.
  Field f("l", columnar::List(columnar::Struct({Field("a", columnar::List(columnar::Int32()))})));
  // Rows: [{a:[1,2]}, {a:null}], [null], [{a:[]}]
  auto c = Assemble(f, {Desc(6, 2, columnar::Int32())},
                    Vec(Leaf({6, 6, 3, 2, 4}, {0, 2, 1, 0, 0}, Int32Values({1, 2}))), 3);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  ASSERT_TRUE(c->ValidateFull().ok());
  EXPECT_EQ(Rows(*c),
            (std::vector<std::string>{"[{\"a\":[1,2]},{\"a\":null}]", "[null]", "[{\"a\":[]}]"}));
}

TEST(RecordAssembly, MapWithNullValuesNullAndEmptyMaps) {
  Field f("m", columnar::Map(columnar::String(), columnar::Int32()));
  auto c = Assemble(f, {Desc(2, 1, columnar::String()), Desc(3, 1, columnar::Int32())},
                    Vec(Leaf({2, 2, 0, 1}, {0, 1, 0, 0}, StringValues({"a", "b"})),
                        Leaf({3, 2, 0, 1}, {0, 1, 0, 0}, Int32Values({1}))),
                    3);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  ASSERT_TRUE(c->ValidateFull().ok());
  EXPECT_EQ(Rows(*c), (std::vector<std::string>{"{\"a\":1,\"b\":null}", "null", "{}"}));
}

SchemaElement Element(std::string name, FieldRepetitionType rep, std::optional<PhysicalType> type,
                      std::optional<int32_t> children = std::nullopt) {
  SchemaElement e;
  e.name = std::move(name);
  e.repetition_type = rep;
  e.type = type;
  e.num_children = children;
  return e;
}

TEST(RecordAssembly, LegacyTwoLevelListAndBareRepeatedField) {
  using R = FieldRepetitionType;
  std::vector<SchemaElement> elements = {
      Element("schema", R::kRequired, std::nullopt, 2),
      Element("l", R::kOptional, std::nullopt, 1),
      Element("element", R::kRepeated, PhysicalType::kInt32),
      Element("r", R::kRepeated, PhysicalType::kInt32),
  };
  elements[1].converted_type = ConvertedType::kList;
  auto schema = FromParquetSchema(elements);
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  ASSERT_EQ(schema->columns.size(), 2u);
  const ColumnDescriptor& l = schema->columns[0];
  const ColumnDescriptor& r = schema->columns[1];
  EXPECT_EQ(l.max_definition_level, 2);
  EXPECT_EQ(r.max_definition_level, 1);

  auto lc = Assemble(schema->schema->field(0), {l},
                     Vec(Leaf({2, 2, 1, 0}, {0, 1, 0, 0}, Int32Values({1, 2}))), 3);
  ASSERT_TRUE(lc.ok()) << lc.status().ToString();
  EXPECT_EQ(Rows(*lc), (std::vector<std::string>{"[1,2]", "[]", "null"}));

  auto rc = Assemble(schema->schema->field(1), {r},
                     Vec(Leaf({1, 0, 1}, {0, 0, 0}, Int32Values({5, 6}))), 3);
  ASSERT_TRUE(rc.ok()) << rc.status().ToString();
  EXPECT_EQ(Rows(*rc), (std::vector<std::string>{"[5]", "[]", "[6]"}));
}

TEST(RecordAssembly, RequiredLeafSharesItsValues) {
  Field f("x", columnar::Int32(), false);
  Column values = Int32Values({4, 5, 6});
  auto c = Assemble(f, {Desc(0, 0, columnar::Int32())}, Vec(Leaf({}, {}, values)), 3);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->buffers()[1].get(), values.buffers()[1].get());
}

TEST(RecordAssembly, InconsistentLevelsAreCorruption) {
  // Struct leaves disagreeing on the slot count.
  Field s("s", columnar::Struct({Field("a", columnar::Int32()), Field("b", columnar::Int32())}));
  auto c1 =
      Assemble(s, {Desc(2, 0, columnar::Int32()), Desc(2, 0, columnar::Int32())},
               Vec(Leaf({2, 2}, {}, Int32Values({1, 2})), Leaf({2}, {}, Int32Values({3}))), 2);
  EXPECT_EQ(c1.status().code(), StatusCode::kCorruption) << c1.status().ToString();
  // Fewer values than defined slots.
  Field f("x", columnar::Int32());
  auto c2 =
      Assemble(f, {Desc(1, 0, columnar::Int32())}, Vec(Leaf({1, 1}, {}, Int32Values({1}))), 2);
  EXPECT_EQ(c2.status().code(), StatusCode::kCorruption);
  // An element repeated inside a null list.
  Field l("l", columnar::List(columnar::Int32()));
  auto c3 =
      Assemble(l, {Desc(3, 1, columnar::Int32())}, Vec(Leaf({0, 0}, {0, 1}, Int32Values({}))), 1);
  EXPECT_EQ(c3.status().code(), StatusCode::kCorruption);
  // The row count disagrees with the row group's.
  auto c4 =
      Assemble(f, {Desc(1, 0, columnar::Int32())}, Vec(Leaf({1, 0}, {}, Int32Values({1}))), 3);
  EXPECT_EQ(c4.status().code(), StatusCode::kCorruption);
  // Levels that do not fit the field's shape.
  auto c5 = Assemble(f, {Desc(3, 1, columnar::Int32())}, Vec(Leaf({1}, {0}, Int32Values({}))), 1);
  EXPECT_EQ(c5.status().code(), StatusCode::kNotImplemented);
}

}  // namespace
}  // namespace sqe::parquet
