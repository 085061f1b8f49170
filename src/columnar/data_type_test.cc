#include "columnar/data_type.h"

#include <gtest/gtest.h>

#include "columnar/schema.h"

namespace sqe::columnar {
namespace {

TEST(DataTypeTest, TrinoSpellings) {
  EXPECT_EQ(Boolean()->ToString(), "boolean");
  EXPECT_EQ(Int8()->ToString(), "tinyint");
  EXPECT_EQ(Int16()->ToString(), "smallint");
  EXPECT_EQ(Int32()->ToString(), "integer");
  EXPECT_EQ(Int64()->ToString(), "bigint");
  EXPECT_EQ(Float32()->ToString(), "real");
  EXPECT_EQ(Float64()->ToString(), "double");
  EXPECT_EQ(Decimal(15, 2)->ToString(), "decimal(15,2)");
  EXPECT_EQ(String()->ToString(), "varchar");
  EXPECT_EQ(Binary()->ToString(), "varbinary");
  EXPECT_EQ(FixedSizeBinary(12)->ToString(), "fixed(12)");
  EXPECT_EQ(Uuid()->ToString(), "uuid");
  EXPECT_EQ(Date32()->ToString(), "date");
  EXPECT_EQ(Time64()->ToString(), "time(6)");
  EXPECT_EQ(Timestamp()->ToString(), "timestamp(6)");
  EXPECT_EQ(TimestampTz()->ToString(), "timestamp(6) with time zone");
  EXPECT_EQ(Timestamp(TimeUnit::kNano)->ToString(), "timestamp(9)");
  EXPECT_EQ(TimestampTz(TimeUnit::kNano)->ToString(), "timestamp(9) with time zone");
  EXPECT_EQ(List(Int64())->ToString(), "array(bigint)");
  EXPECT_EQ(Struct({Field("a", Int64())})->ToString(), "row(a bigint)");
  EXPECT_EQ(Map(String(), Int64())->ToString(), "map(varchar, bigint)");
  EXPECT_EQ(Struct({Field("a", List(Map(String(), Decimal(38, 10)))),
                    Field("my field", Struct({Field("x\"y", Boolean())}))})
                ->ToString(),
            "row(a array(map(varchar, decimal(38,10))), \"my field\" row(\"x\"\"y\" boolean))");
}

TEST(DataTypeTest, LayoutsAndWidths) {
  EXPECT_EQ(Boolean()->layout(), Layout::kBitmap);
  EXPECT_EQ(Int8()->byte_width(), 1);
  EXPECT_EQ(Int16()->byte_width(), 2);
  EXPECT_EQ(Int32()->byte_width(), 4);
  EXPECT_EQ(Date32()->byte_width(), 4);
  EXPECT_EQ(Float32()->byte_width(), 4);
  EXPECT_EQ(Int64()->byte_width(), 8);
  EXPECT_EQ(Float64()->byte_width(), 8);
  EXPECT_EQ(Time64()->byte_width(), 8);
  EXPECT_EQ(Timestamp()->byte_width(), 8);
  EXPECT_EQ(Decimal(9, 2)->byte_width(), 16);
  EXPECT_EQ(Uuid()->byte_width(), 16);
  EXPECT_EQ(FixedSizeBinary(3)->byte_width(), 3);
  EXPECT_EQ(FixedSizeBinary(3)->layout(), Layout::kFixedWidth);
  EXPECT_EQ(String()->layout(), Layout::kVarBinary);
  EXPECT_EQ(Binary()->layout(), Layout::kVarBinary);
  EXPECT_EQ(String()->byte_width(), 0);
  EXPECT_EQ(List(Int32())->layout(), Layout::kList);
  EXPECT_EQ(Map(Int32(), Int32())->layout(), Layout::kList);
  EXPECT_EQ(Struct({})->layout(), Layout::kStruct);
  EXPECT_TRUE(Int16()->is_integer());
  EXPECT_FALSE(Float32()->is_integer());
  EXPECT_TRUE(Float32()->is_floating());
  EXPECT_TRUE(Map(Int32(), Int32())->is_nested());
  EXPECT_FALSE(Uuid()->is_nested());
}

TEST(DataTypeTest, MapHasArrowEntriesLayout) {
  TypePtr map = Map(String(), Int64());
  ASSERT_EQ(map->num_fields(), 1);
  const Field& entries = map->value_field();
  EXPECT_EQ(entries.name(), "entries");
  EXPECT_FALSE(entries.nullable());
  ASSERT_EQ(entries.type()->id(), TypeId::kStruct);
  EXPECT_EQ(map->key_field().name(), "key");
  EXPECT_FALSE(map->key_field().nullable());
  EXPECT_EQ(map->item_field().name(), "value");
  EXPECT_TRUE(map->item_field().nullable());
  EXPECT_EQ(*map->key_field().type(), *String());
  // A nullable key field is forced to non-nullable, as Arrow requires.
  TypePtr with_ids = Map(Field("k", Int32(), true, 7), Field("v", Int32(), false, 8));
  EXPECT_FALSE(with_ids->key_field().nullable());
  EXPECT_EQ(with_ids->key_field().field_id(), 7);
  EXPECT_EQ(with_ids->item_field().field_id(), 8);
}

TEST(DataTypeTest, Equality) {
  EXPECT_EQ(*Int64(), *Int64());
  EXPECT_NE(*Int64(), *Int32());
  EXPECT_EQ(*Decimal(10, 2), *Decimal(10, 2));
  EXPECT_NE(*Decimal(10, 2), *Decimal(10, 3));
  EXPECT_NE(*Decimal(10, 2), *Decimal(11, 2));
  EXPECT_EQ(*FixedSizeBinary(4), *FixedSizeBinary(4));
  EXPECT_NE(*FixedSizeBinary(4), *FixedSizeBinary(5));
  EXPECT_NE(*FixedSizeBinary(16), *Uuid());
  EXPECT_NE(*Time64(TimeUnit::kMicro), *Time64(TimeUnit::kNano));
  EXPECT_EQ(*Timestamp(), *Timestamp());
  EXPECT_NE(*Timestamp(), *TimestampTz());
  EXPECT_NE(*Timestamp(TimeUnit::kMicro), *Timestamp(TimeUnit::kNano));
  EXPECT_NE(*Timestamp(TimeUnit::kMicro, "UTC"), *Timestamp(TimeUnit::kMicro, "Europe/Paris"));
  EXPECT_NE(*String(), *Binary());
  // Child names of lists do not matter, element types and nullability do.
  EXPECT_EQ(*List(Field("item", Int64())), *List(Field("element", Int64())));
  EXPECT_NE(*List(Int64(), true), *List(Int64(), false));
  EXPECT_NE(*List(Int64()), *List(Int32()));
  // Struct field names matter; field ids do not.
  EXPECT_EQ(*Struct({Field("a", Int64(), true, 1)}), *Struct({Field("a", Int64(), true, 2)}));
  EXPECT_NE(*Struct({Field("a", Int64())}), *Struct({Field("b", Int64())}));
  EXPECT_NE(*Struct({Field("a", Int64())}), *Struct({Field("a", Int64()), Field("b", Int64())}));
  EXPECT_EQ(*Map(String(), Int64()), *Map(String(), Int64()));
  EXPECT_NE(*Map(String(), Int64()), *Map(String(), Int32()));
  EXPECT_NE(*Map(String(), Int64(), true), *Map(String(), Int64(), false));
  EXPECT_NE(*Map(Field("key", String()), Field("value", Int64()), true),
            *Map(Field("key", String()), Field("value", Int64()), false));
}

TEST(DataTypeTest, ValidatedFactories) {
  EXPECT_TRUE(MakeDecimal(38, 38).ok());
  EXPECT_TRUE(MakeDecimal(1, 0).ok());
  EXPECT_EQ(MakeDecimal(39, 2).status().message(),
            "decimal precision must be between 1 and 38, got 39");
  EXPECT_EQ(MakeDecimal(0, 0).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(MakeDecimal(10, 11).status().message(),
            "decimal scale must be between 0 and the precision (10), got 11");
  EXPECT_FALSE(MakeDecimal(10, -1).ok());
  EXPECT_FALSE(MakeFixedSizeBinary(-1).ok());
  EXPECT_TRUE(MakeFixedSizeBinary(0).ok());
}

TEST(DataTypeTest, TypeIdNames) {
  EXPECT_EQ(TypeIdName(TypeId::kInt64), "int64");
  EXPECT_EQ(TypeIdName(TypeId::kTimestamp), "timestamp");
  EXPECT_EQ(TypeIdName(TypeId::kMap), "map");
  EXPECT_EQ(TypeIdName(TypeId::kFixedSizeBinary), "fixed_size_binary");
}

TEST(FieldTest, AccessorsAndEquality) {
  Field f("price", Decimal(15, 2), false, 3, {{"comment", "net"}});
  EXPECT_EQ(f.name(), "price");
  EXPECT_EQ(*f.type(), *Decimal(15, 2));
  EXPECT_FALSE(f.nullable());
  EXPECT_EQ(f.field_id(), 3);
  EXPECT_EQ(f.metadata().Get("comment"), "net");
  EXPECT_EQ(f.ToString(), "price decimal(15,2) not null");
  EXPECT_EQ(Field("x", Int64()).ToString(), "x bigint");
  EXPECT_EQ(f, f.WithName("price"));
  EXPECT_NE(f, f.WithName("cost"));
  EXPECT_NE(f, f.WithNullable(true));
  EXPECT_NE(f, f.WithFieldId(std::nullopt));
  EXPECT_NE(f, f.WithType(Decimal(15, 3)));
  EXPECT_NE(f, f.WithMetadata({}));
  EXPECT_TRUE(f.Equals(f.WithMetadata({}), /*check_metadata=*/false));
}

TEST(KeyValueMetadataTest, SetGetEraseAndOrderInsensitiveEquality) {
  KeyValueMetadata m;
  EXPECT_TRUE(m.empty());
  m.Set("a", "1");
  m.Set("b", "2");
  m.Set("a", "3");
  EXPECT_EQ(m.size(), 2u);
  EXPECT_EQ(m.Get("a"), "3");
  EXPECT_FALSE(m.Get("c").has_value());
  EXPECT_EQ(m.pairs()[0].first, "a");
  KeyValueMetadata other{{"b", "2"}, {"a", "3"}};
  EXPECT_EQ(m, other);
  EXPECT_TRUE(m.Erase("a"));
  EXPECT_FALSE(m.Erase("a"));
  EXPECT_FALSE(m == other);
}

TEST(SchemaTest, LookupProjectAndPrint) {
  auto schema = Schema::Make({Field("id", Int64(), false, 1), Field("name", String(), true, 2),
                              Field("tags", List(String()), true, 3)},
                             {{"iceberg.schema-id", "0"}});
  EXPECT_EQ(schema->num_fields(), 3);
  EXPECT_EQ(schema->FieldIndex("name"), 1);
  EXPECT_EQ(schema->FieldIndex("missing"), -1);
  EXPECT_EQ(*schema->FindField("tags"), 2);
  EXPECT_EQ(schema->FindField("nope").status().message(),
            "column 'nope' not found (columns: id, name, tags)");
  EXPECT_EQ(schema->ToString(), "id bigint not null, name varchar, tags array(varchar)");
  auto projected = schema->Project({2, 0});
  ASSERT_TRUE(projected.ok());
  EXPECT_EQ((*projected)->ToString(), "tags array(varchar), id bigint not null");
  EXPECT_EQ((*projected)->metadata().Get("iceberg.schema-id"), "0");
  EXPECT_FALSE(schema->Project({3}).ok());
  EXPECT_TRUE(schema->Equals(*schema));
  Schema without_metadata(schema->fields());
  EXPECT_FALSE(schema->Equals(without_metadata));
  EXPECT_TRUE(schema->Equals(without_metadata, /*check_metadata=*/false));
}

}  // namespace
}  // namespace sqe::columnar
