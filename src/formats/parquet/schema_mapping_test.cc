#include "formats/parquet/schema_mapping.h"

#include <gtest/gtest.h>

#include "columnar/data_type.h"

namespace sqe::parquet {
namespace {

namespace col = sqe::columnar;
using Kind = LogicalType::Kind;
using R = FieldRepetitionType;

SchemaElement Group(std::string name, std::optional<R> rep, int children,
                    std::optional<LogicalType> lt = std::nullopt,
                    std::optional<ConvertedType> ct = std::nullopt) {
  SchemaElement e;
  e.name = std::move(name);
  e.repetition_type = rep;
  e.num_children = children;
  e.logical_type = lt;
  e.converted_type = ct;
  return e;
}

SchemaElement Leaf(std::string name, R rep, PhysicalType t,
                   std::optional<LogicalType> lt = std::nullopt,
                   std::optional<ConvertedType> ct = std::nullopt,
                   std::optional<int32_t> field_id = std::nullopt) {
  SchemaElement e;
  e.name = std::move(name);
  e.repetition_type = rep;
  e.type = t;
  e.logical_type = lt;
  e.converted_type = ct;
  e.field_id = field_id;
  return e;
}

TEST(SchemaMapping, NestedSchemaLevelsAndPaths) {
  // message schema {
  //   required int64 id = 1;
  //   optional group tags (LIST) { repeated group list { optional binary element (STRING); } }
  //   optional group attrs (MAP) { repeated group key_value {
  //       required binary key (STRING); optional int32 value; } }
  //   optional group point { required double x; optional double y; }
  // }
  std::vector<SchemaElement> s = {
      Group("schema", std::nullopt, 4),
      Leaf("id", R::kRequired, PhysicalType::kInt64, std::nullopt, std::nullopt, 1),
      Group("tags", R::kOptional, 1, LogicalType::Of(Kind::kList), ConvertedType::kList),
      Group("list", R::kRepeated, 1),
      Leaf("element", R::kOptional, PhysicalType::kByteArray, LogicalType::Of(Kind::kString)),
      Group("attrs", R::kOptional, 1, LogicalType::Of(Kind::kMap)),
      Group("key_value", R::kRepeated, 2),
      Leaf("key", R::kRequired, PhysicalType::kByteArray, std::nullopt, ConvertedType::kUtf8),
      Leaf("value", R::kOptional, PhysicalType::kInt32),
      Group("point", R::kOptional, 2),
      Leaf("x", R::kRequired, PhysicalType::kDouble),
      Leaf("y", R::kOptional, PhysicalType::kDouble),
  };
  s[2].field_id = 2;
  auto ps = FromParquetSchema(s);
  ASSERT_TRUE(ps.ok()) << ps.status().ToString();
  EXPECT_EQ(ps->schema->ToString(),
            "id bigint not null, tags array(varchar), attrs map(varchar, integer), "
            "point row(x double, y double)");
  EXPECT_FALSE(ps->schema->field(3).type()->field(0).nullable());
  EXPECT_TRUE(ps->schema->field(3).type()->field(1).nullable());
  EXPECT_EQ(ps->schema->field(0).field_id(), 1);
  EXPECT_EQ(ps->schema->field(1).field_id(), 2);
  ASSERT_EQ(ps->columns.size(), 6u);
  struct Want {
    std::vector<std::string> path;
    int def, rep;
  };
  std::vector<Want> want = {{{"id"}, 0, 0},
                            {{"tags", "list", "element"}, 3, 1},
                            {{"attrs", "key_value", "key"}, 2, 1},
                            {{"attrs", "key_value", "value"}, 3, 1},
                            {{"point", "x"}, 1, 0},
                            {{"point", "y"}, 2, 0}};
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(ps->columns[i].path, want[i].path) << i;
    EXPECT_EQ(ps->columns[i].max_definition_level, want[i].def) << i;
    EXPECT_EQ(ps->columns[i].max_repetition_level, want[i].rep) << i;
  }
  EXPECT_EQ(ps->columns[0].schema_index, 1);
  EXPECT_EQ(ps->columns[5].schema_index, 11);
}

TEST(SchemaMapping, LegacyListForms) {
  // 2-level: repeated primitive inside LIST; "array" and "_tuple" groups are elements;
  // a bare repeated field is a list of required elements.
  std::vector<SchemaElement> s = {
      Group("schema", std::nullopt, 4),
      Group("a", R::kOptional, 1, std::nullopt, ConvertedType::kList),
      Leaf("array", R::kRepeated, PhysicalType::kInt32),
      Group("b", R::kOptional, 1, std::nullopt, ConvertedType::kList),
      Group("array", R::kRepeated, 1),
      Leaf("str", R::kRequired, PhysicalType::kByteArray, std::nullopt, ConvertedType::kUtf8),
      Group("c", R::kRequired, 1, std::nullopt, ConvertedType::kList),
      Group("c_tuple", R::kRepeated, 1),
      Leaf("v", R::kOptional, PhysicalType::kInt64),
      Leaf("d", R::kRepeated, PhysicalType::kInt32),
  };
  auto ps = FromParquetSchema(s);
  ASSERT_TRUE(ps.ok()) << ps.status().ToString();
  EXPECT_EQ(ps->schema->ToString(),
            "a array(integer), b array(row(str varchar)), "
            "c array(row(v bigint)) not null, d array(integer) not null");
  EXPECT_FALSE(ps->schema->field(0).type()->value_field().nullable());
  ASSERT_EQ(ps->columns.size(), 4u);
  EXPECT_EQ(ps->columns[0].max_definition_level, 2);
  EXPECT_EQ(ps->columns[0].max_repetition_level, 1);
  EXPECT_EQ(ps->columns[1].path, (std::vector<std::string>{"b", "array", "str"}));
  EXPECT_EQ(ps->columns[2].max_definition_level, 2);  // c required, c_tuple +1, v +1
  EXPECT_EQ(ps->columns[3].max_definition_level, 1);
  EXPECT_EQ(ps->columns[3].max_repetition_level, 1);
}

TEST(SchemaMapping, LeafTypes) {
  std::vector<SchemaElement> s = {Group("schema", std::nullopt, 0)};
  auto add = [&](SchemaElement e) {
    s.push_back(std::move(e));
    ++*s[0].num_children;
  };
  add(Leaf("i8", R::kRequired, PhysicalType::kInt32, LogicalType::Integer(8, true)));
  add(Leaf("u16", R::kRequired, PhysicalType::kInt32, std::nullopt, ConvertedType::kUint16));
  add(Leaf("d", R::kRequired, PhysicalType::kInt32, LogicalType::Of(Kind::kDate)));
  add(Leaf("tm", R::kRequired, PhysicalType::kInt32,
           LogicalType::Time(false, LogicalTimeUnit::kMillis)));
  add(Leaf("tn", R::kRequired, PhysicalType::kInt64,
           LogicalType::Time(false, LogicalTimeUnit::kNanos)));
  add(Leaf("tsm", R::kRequired, PhysicalType::kInt64,
           LogicalType::Timestamp(true, LogicalTimeUnit::kMillis)));
  add(Leaf("tsn", R::kRequired, PhysicalType::kInt64,
           LogicalType::Timestamp(false, LogicalTimeUnit::kNanos)));
  add(Leaf("tsc", R::kRequired, PhysicalType::kInt64, std::nullopt,
           ConvertedType::kTimestampMicros));
  add(Leaf("i96", R::kRequired, PhysicalType::kInt96));
  SchemaElement dec = Leaf("dec", R::kRequired, PhysicalType::kFixedLenByteArray, std::nullopt,
                           ConvertedType::kDecimal);
  dec.type_length = 16;
  dec.precision = 38;
  dec.scale = 4;
  add(dec);
  add(Leaf("d64", R::kRequired, PhysicalType::kInt64, LogicalType::Decimal(18, 2)));
  add(Leaf("dba", R::kRequired, PhysicalType::kByteArray, LogicalType::Decimal(10, 0)));
  SchemaElement uuid =
      Leaf("u", R::kRequired, PhysicalType::kFixedLenByteArray, LogicalType::Of(Kind::kUuid));
  uuid.type_length = 16;
  add(uuid);
  add(Leaf("j", R::kRequired, PhysicalType::kByteArray, LogicalType::Of(Kind::kJson)));
  add(Leaf("e", R::kRequired, PhysicalType::kByteArray, std::nullopt, ConvertedType::kEnum));
  add(Leaf("bin", R::kRequired, PhysicalType::kByteArray));
  add(Leaf("b", R::kRequired, PhysicalType::kBoolean));
  auto ps = FromParquetSchema(s);
  ASSERT_TRUE(ps.ok()) << ps.status().ToString();
  std::vector<std::string> types;
  for (const auto& f : ps->schema->fields()) types.push_back(f.type()->ToString());
  EXPECT_EQ(types, (std::vector<std::string>{
                       "tinyint", "integer", "date", "time(6)", "time(9)",
                       "timestamp(6) with time zone", "timestamp(9)", "timestamp(6) with time zone",
                       "timestamp(9) with time zone", "decimal(38,4)", "decimal(18,2)",
                       "decimal(10,0)", "uuid", "varchar", "varchar", "varbinary", "boolean"}));
  EXPECT_EQ(ps->columns[0].conversion, LeafConversion::kInt32ToInt8);
  EXPECT_EQ(ps->columns[1].conversion, LeafConversion::kUint32ToWider);
  EXPECT_EQ(ps->columns[3].conversion, LeafConversion::kMillisToMicros);
  EXPECT_EQ(ps->columns[5].conversion, LeafConversion::kMillisToMicros);
  EXPECT_EQ(ps->columns[8].conversion, LeafConversion::kInt96ToNanos);
  EXPECT_EQ(ps->columns[9].conversion, LeafConversion::kDecimalFromBytes);
  EXPECT_EQ(ps->columns[10].conversion, LeafConversion::kDecimalFromInt64);
}

TEST(SchemaMapping, MalformedTreesAreCorruption) {
  std::vector<SchemaElement> too_many = {Group("schema", std::nullopt, 3),
                                         Leaf("a", R::kRequired, PhysicalType::kInt32)};
  EXPECT_EQ(FromParquetSchema(too_many).status().code(), StatusCode::kCorruption);
  std::vector<SchemaElement> extra = {Group("schema", std::nullopt, 1),
                                      Leaf("a", R::kRequired, PhysicalType::kInt32),
                                      Leaf("b", R::kRequired, PhysicalType::kInt32)};
  EXPECT_EQ(FromParquetSchema(extra).status().code(), StatusCode::kCorruption);
  SchemaElement untyped;
  untyped.name = "x";
  untyped.repetition_type = R::kRequired;
  EXPECT_EQ(FromParquetSchema({Group("schema", std::nullopt, 1), untyped}).status().code(),
            StatusCode::kCorruption);
  EXPECT_EQ(FromParquetSchema({}).status().code(), StatusCode::kCorruption);
  // Deep nesting.
  std::vector<SchemaElement> deep;
  for (int i = 0; i < 1000; ++i) deep.push_back(Group("g", R::kRequired, 1));
  deep.push_back(Leaf("leaf", R::kRequired, PhysicalType::kInt32));
  EXPECT_EQ(FromParquetSchema(deep).status().code(), StatusCode::kCorruption);
  // A LIST without a repeated child.
  std::vector<SchemaElement> bad_list = {Group("schema", std::nullopt, 1),
                                         Group("l", R::kOptional, 1, LogicalType::Of(Kind::kList)),
                                         Leaf("x", R::kOptional, PhysicalType::kInt32)};
  EXPECT_EQ(FromParquetSchema(bad_list).status().code(), StatusCode::kCorruption);
  std::vector<SchemaElement> u64 = {
      Group("schema", std::nullopt, 1),
      Leaf("x", R::kOptional, PhysicalType::kInt64, LogicalType::Integer(64, false))};
  EXPECT_EQ(FromParquetSchema(u64).status().code(), StatusCode::kNotImplemented);
}

TEST(SchemaMapping, ColumnarSchemaRoundTripsThroughParquet) {
  auto schema = col::Schema::Make({
      col::Field("id", col::Int64(), false, 1),
      col::Field("name", col::String(), true, 2),
      col::Field("price", col::Decimal(25, 3), true, 3),
      col::Field("small", col::Decimal(5, 1), true, 4),
      col::Field("u", col::Uuid(), true, 5),
      col::Field("day", col::Date32(), true, 6),
      col::Field("t", col::Time64(), true, 7),
      col::Field("ts", col::Timestamp(), true, 8),
      col::Field("tstz", col::TimestampTz(col::TimeUnit::kNano), true, 9),
      col::Field("tags", col::List(col::Field("element", col::String(), false, 11)), true, 10),
      col::Field("m",
                 col::Map(col::Field("key", col::String(), false, 13),
                          col::Field("value", col::Float64(), true, 14)),
                 true, 12),
      col::Field("s",
                 col::Struct({col::Field("a", col::Int16(), true, 16),
                              col::Field("b", col::FixedSizeBinary(3), false, 17),
                              col::Field("c", col::Boolean(), true, 18)}),
                 false, 15),
  });
  auto elements = ToParquetSchema(*schema);
  ASSERT_TRUE(elements.ok()) << elements.status().ToString();
  EXPECT_EQ((*elements)[0].num_children, 12);
  // The elements survive thrift too.
  FileMetaData md;
  md.schema = *elements;
  auto decoded = DecodeThrift<FileMetaData>(EncodeThrift(md));
  ASSERT_TRUE(decoded.ok());
  auto back = FromParquetSchema(decoded->schema);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE(back->schema->Equals(*schema)) << back->schema->ToString() << "\n"
                                             << schema->ToString();
  for (int i = 0; i < schema->num_fields(); ++i) {
    EXPECT_EQ(back->schema->field(i).field_id(), schema->field(i).field_id());
  }
  EXPECT_EQ(back->schema->field(9).type()->value_field().field_id(), 11);
  EXPECT_EQ(back->schema->field(10).type()->item_field().field_id(), 14);
  // Decimal(25,3) needs 11 bytes of two's complement.
  for (const auto& c : back->columns) {
    if (c.path == std::vector<std::string>{"price"}) {
      EXPECT_EQ(c.physical_type, PhysicalType::kFixedLenByteArray);
      EXPECT_EQ(c.type_length, 11);
    }
    if (c.path == std::vector<std::string>{"small"}) {
      EXPECT_EQ(c.physical_type, PhysicalType::kInt32);
    }
  }
  EXPECT_EQ(back->columns.size(), 15u);
}

}  // namespace
}  // namespace sqe::parquet
