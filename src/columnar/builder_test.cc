#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "columnar/binary_builder.h"
#include "columnar/boolean_builder.h"
#include "columnar/column_builder.h"
#include "columnar/fixed_size_binary_builder.h"
#include "columnar/fixed_width_builder.h"
#include "columnar/list_builder.h"
#include "columnar/map_builder.h"
#include "columnar/struct_builder.h"
#include "columnar/test_columns.h"

namespace sqe::columnar {
namespace {

using testing::Json;

TEST(FixedWidthBuilderTest, EveryWidth) {
  Int8Builder i8(Int8());
  SQE_ASSERT_OK(i8.Append(-128));
  SQE_ASSERT_OK(i8.AppendNull());
  SQE_ASSERT_OK(i8.Append(127));
  SQE_ASSIGN_OR_FAIL(Column c8, i8.Finish());
  EXPECT_EQ(Json(c8), "[-128,null,127]");
  EXPECT_EQ(c8.buffers()[1]->size(), 3);

  Int16Builder i16(Int16());
  SQE_ASSERT_OK(i16.Append(-32768));
  SQE_ASSIGN_OR_FAIL(Column c16, i16.Finish());
  EXPECT_EQ(Json(c16), "[-32768]");

  Int32Builder i32(Int32());
  int32_t values[] = {1, 2, 3, 4};
  bool valid[] = {true, false, true, true};
  SQE_ASSERT_OK(i32.AppendValues(values, 4, valid));
  SQE_ASSERT_OK(i32.AppendValues(values, 2));
  SQE_ASSIGN_OR_FAIL(Column c32, i32.Finish());
  EXPECT_EQ(Json(c32), "[1,null,3,4,1,2]");
  EXPECT_EQ(c32.null_count(), 1);

  Int64Builder i64(Int64());
  SQE_ASSERT_OK(i64.Append(std::numeric_limits<int64_t>::min()));
  SQE_ASSERT_OK(i64.AppendNulls(2));
  EXPECT_EQ(i64.length(), 3);
  EXPECT_EQ(i64.null_count(), 2);
  EXPECT_EQ(i64.ValueAt(0), std::numeric_limits<int64_t>::min());
  SQE_ASSIGN_OR_FAIL(Column c64, i64.Finish());
  EXPECT_EQ(Json(c64), "[-9223372036854775808,null,null]");

  Float32Builder f32(Float32());
  SQE_ASSERT_OK(f32.Append(0.1f));
  SQE_ASSIGN_OR_FAIL(Column cf32, f32.Finish());
  EXPECT_EQ(Json(cf32), "[0.1]");

  Float64Builder f64(Float64());
  SQE_ASSERT_OK(f64.Append(2.5));
  SQE_ASSERT_OK(f64.AppendNull());
  SQE_ASSIGN_OR_FAIL(Column cf64, f64.Finish());
  EXPECT_EQ(Json(cf64), "[2.5,null]");
}

TEST(FixedWidthBuilderTest, DecimalDateTimeTimestamp) {
  Decimal128Builder dec(Decimal(38, 2));
  SQE_ASSERT_OK(dec.Append(Decimal128(-1)));
  SQE_ASSERT_OK(dec.Append(*Decimal128::FromString("123456789012345678901234567890123456.78", 2)));
  SQE_ASSERT_OK(dec.AppendNull());
  SQE_ASSIGN_OR_FAIL(Column d, dec.Finish());
  EXPECT_EQ(d.buffers()[1]->size(), 48);
  EXPECT_EQ(Json(d), R"(["-0.01","123456789012345678901234567890123456.78",null])");

  Date32Builder date(Date32());
  SQE_ASSERT_OK(date.Append(-1));
  SQE_ASSIGN_OR_FAIL(Column dt, date.Finish());
  EXPECT_EQ(Json(dt), R"(["1969-12-31"])");

  Time64Builder time(Time64());
  SQE_ASSERT_OK(time.Append(3'600'000'001));
  SQE_ASSIGN_OR_FAIL(Column t, time.Finish());
  EXPECT_EQ(Json(t), R"(["01:00:00.000001"])");

  TimestampBuilder ts(TimestampTz());
  SQE_ASSERT_OK(ts.Append(0));
  SQE_ASSIGN_OR_FAIL(Column tz, ts.Finish());
  EXPECT_EQ(Json(tz), R"(["1970-01-01 00:00:00.000000 UTC"])");
}

TEST(BooleanBuilderTest, NullsAndManyValues) {
  BooleanBuilder b;
  SQE_ASSERT_OK(b.Reserve(1000));
  for (int i = 0; i < 1000; ++i) {
    SQE_ASSERT_OK(i % 7 == 0 ? b.AppendNull() : b.Append(i % 2 == 0));
  }
  SQE_ASSERT_OK(b.AppendNulls(3));
  SQE_ASSIGN_OR_FAIL(Column c, b.Finish());
  EXPECT_EQ(c.length(), 1003);
  EXPECT_EQ(c.null_count(), 143 + 3);
  EXPECT_EQ(c.buffers()[1]->size(), 126);
  for (int i = 0; i < 1000; ++i) {
    ASSERT_EQ(c.IsNull(i), i % 7 == 0) << i;
    if (i % 7 != 0) {
      ASSERT_EQ(c.BoolAt(i), i % 2 == 0) << i;
    }
  }
}

TEST(BinaryBuilderTest, StringsAndBinary) {
  BinaryBuilder s;
  SQE_ASSERT_OK(s.Reserve(4));
  SQE_ASSERT_OK(s.ReserveData(100));
  SQE_ASSERT_OK(s.Append("héllo"));
  SQE_ASSERT_OK(s.AppendNull());
  SQE_ASSERT_OK(s.Append(""));
  SQE_ASSERT_OK(s.AppendNulls(2));
  EXPECT_EQ(s.data_length(), 6);
  SQE_ASSIGN_OR_FAIL(Column c, s.Finish());
  EXPECT_EQ(Json(c), R"(["héllo",null,"",null,null])");
  EXPECT_EQ(c.null_count(), 3);
  EXPECT_EQ(*c.type(), *String());

  BinaryBuilder b(Binary());
  SQE_ASSERT_OK(b.Append(std::string_view("\x00\xFF", 2)));
  SQE_ASSIGN_OR_FAIL(Column bin, b.Finish());
  EXPECT_EQ(Json(bin), R"(["AP8="])");

  BinaryBuilder empty;
  SQE_ASSIGN_OR_FAIL(Column none, empty.Finish());
  EXPECT_EQ(none.length(), 0);
  EXPECT_EQ(none.buffers()[1]->size(), 4);  // the leading 0 offset
  SQE_EXPECT_OK(none.ValidateFull());
}

TEST(BinaryBuilderTest, ReusableAfterFinish) {
  BinaryBuilder s;
  SQE_ASSERT_OK(s.Append("first"));
  SQE_ASSIGN_OR_FAIL(Column a, s.Finish());
  SQE_ASSERT_OK(s.Append("second"));
  SQE_ASSERT_OK(s.AppendNull());
  SQE_ASSIGN_OR_FAIL(Column b, s.Finish());
  EXPECT_EQ(Json(a), R"(["first"])");
  EXPECT_EQ(Json(b), R"(["second",null])");
}

TEST(FixedSizeBinaryBuilderTest, FixedAndUuid) {
  FixedSizeBinaryBuilder f(FixedSizeBinary(3));
  SQE_ASSERT_OK(f.Append("abc"));
  SQE_ASSERT_OK(f.AppendNull());
  SQE_ASSERT_OK(f.Append("xyz"));
  EXPECT_EQ(f.Append("toolong").message(), "fixed(3) value must have 3 bytes, got 7");
  EXPECT_EQ(f.length(), 3);
  SQE_ASSIGN_OR_FAIL(Column c, f.Finish());
  EXPECT_EQ(c.buffers()[1]->view(), std::string_view("abc\0\0\0xyz", 9));
  EXPECT_EQ(c.FixedSizeBinaryAt(2), "xyz");
  EXPECT_EQ(Json(c), R"(["YWJj",null,"eHl6"])");

  FixedSizeBinaryBuilder u(Uuid());
  const char bytes[16] = {0x12,       0x3e, 0x45, 0x67, char(0xe8), char(0x9b), 0x12, char(0xd3),
                          char(0xa4), 0x56, 0x42, 0x66, 0x14,       0x17,       0x40, 0x00};
  SQE_ASSERT_OK(u.Append(std::string_view(bytes, 16)));
  SQE_ASSIGN_OR_FAIL(Column uc, u.Finish());
  EXPECT_EQ(Json(uc), R"(["123e4567-e89b-12d3-a456-426614174000"])");
}

TEST(NestedBuilderTest, ListOfStructsWithNullsAtEveryLevel) {
  // array(row(x bigint, tags array(varchar)))
  auto inner = Struct({Field("x", Int64()), Field("tags", List(String()))});
  auto type = List(inner);
  SQE_ASSIGN_OR_FAIL(auto builder, MakeBuilder(type));
  auto* list = static_cast<ListBuilder*>(builder.get());
  auto* row = list->value_builder_as<StructBuilder>();
  auto* x = row->field_builder_as<Int64Builder>(0);
  auto* tags = row->field_builder_as<ListBuilder>(1);
  auto* tag = tags->value_builder_as<BinaryBuilder>();

  // Row 0: [ {x:1, tags:["a", null]}, null, {x:null, tags:null} ]
  SQE_ASSERT_OK(list->Append());
  SQE_ASSERT_OK(row->Append());
  SQE_ASSERT_OK(x->Append(1));
  SQE_ASSERT_OK(tags->Append());
  SQE_ASSERT_OK(tag->Append("a"));
  SQE_ASSERT_OK(tag->AppendNull());
  SQE_ASSERT_OK(row->AppendNull());
  SQE_ASSERT_OK(row->Append());
  SQE_ASSERT_OK(x->AppendNull());
  SQE_ASSERT_OK(tags->AppendNull());
  // Row 1: null
  SQE_ASSERT_OK(list->AppendNull());
  // Row 2: []
  SQE_ASSERT_OK(list->Append());
  // Row 3: [ {x:3, tags:[]} ]
  SQE_ASSERT_OK(list->Append());
  SQE_ASSERT_OK(row->Append());
  SQE_ASSERT_OK(x->Append(3));
  SQE_ASSERT_OK(tags->Append());

  SQE_ASSIGN_OR_FAIL(Column c, builder->Finish());
  SQE_EXPECT_OK(c.ValidateFull());
  EXPECT_EQ(c.length(), 4);
  EXPECT_EQ(c.null_count(), 1);
  EXPECT_EQ(c.ListValues().length(), 4);
  EXPECT_EQ(c.ListValues().null_count(), 1);
  EXPECT_EQ(Json(c), R"([[{"x":1,"tags":["a",null]},null,{"x":null,"tags":null}],null,[],)"
                     R"([{"x":3,"tags":[]}]])");
}

TEST(NestedBuilderTest, MapWithNullValuesAndNullRows) {
  auto type = Map(String(), List(Int32()));
  SQE_ASSIGN_OR_FAIL(auto builder, MakeBuilder(type));
  auto* map = static_cast<MapBuilder*>(builder.get());
  auto* keys = map->key_builder_as<BinaryBuilder>();
  auto* items = map->item_builder_as<ListBuilder>();
  auto* ints = items->value_builder_as<Int32Builder>();

  SQE_ASSERT_OK(map->Append());
  SQE_ASSERT_OK(keys->Append("a"));
  SQE_ASSERT_OK(items->Append());
  SQE_ASSERT_OK(ints->Append(1));
  SQE_ASSERT_OK(ints->AppendNull());
  SQE_ASSERT_OK(keys->Append("b"));
  SQE_ASSERT_OK(items->AppendNull());
  SQE_ASSERT_OK(map->AppendNull());
  SQE_ASSERT_OK(map->Append());

  SQE_ASSIGN_OR_FAIL(Column c, builder->Finish());
  SQE_EXPECT_OK(c.ValidateFull());
  EXPECT_EQ(Json(c), R"([{"a":[1,null],"b":null},null,{}])");
  // Arrow map layout: [validity, offsets] + entries struct<key, value> without nulls.
  ASSERT_EQ(c.buffers().size(), 2u);
  ASSERT_EQ(c.num_children(), 1);
  const Column& entries = c.ListValues();
  EXPECT_EQ(entries.type_id(), TypeId::kStruct);
  EXPECT_EQ(entries.validity(), nullptr);
  EXPECT_EQ(entries.length(), 2);
  EXPECT_EQ(c.MapKeys().StringAt(1), "b");
  EXPECT_TRUE(c.MapItems().IsNull(1));
}

TEST(NestedBuilderTest, MapRejectsNullKeysAndMisalignedEntries) {
  auto type = Map(Int64(), Int64());
  {
    SQE_ASSIGN_OR_FAIL(auto builder, MakeBuilder(type));
    auto* map = static_cast<MapBuilder*>(builder.get());
    SQE_ASSERT_OK(map->Append());
    SQE_ASSERT_OK(map->key_builder()->AppendNull());
    SQE_ASSERT_OK(map->item_builder()->AppendNull());
    EXPECT_EQ(builder->Finish().status().message(),
              "map(bigint, bigint) keys must not be null (1 null keys)");
  }
  {
    SQE_ASSIGN_OR_FAIL(auto builder, MakeBuilder(type));
    auto* map = static_cast<MapBuilder*>(builder.get());
    SQE_ASSERT_OK(map->Append());
    SQE_ASSERT_OK(map->key_builder_as<Int64Builder>()->Append(1));
    EXPECT_EQ(map->Append().message(),
              "map(bigint, bigint) row 0 has 1 keys but 0 values in total");
  }
}

TEST(NestedBuilderTest, StructNullAppendsPlaceholdersAndChecksAlignment) {
  auto type = Struct({Field("a", Int64()), Field("b", Map(String(), Boolean())),
                      Field("c", Struct({Field("d", Uuid())}))});
  SQE_ASSIGN_OR_FAIL(auto builder, MakeBuilder(type));
  auto* s = static_cast<StructBuilder*>(builder.get());
  SQE_ASSERT_OK(s->AppendNull());
  SQE_ASSERT_OK(s->AppendNulls(2));
  EXPECT_EQ(s->field_builder(0)->length(), 3);
  EXPECT_EQ(s->field_builder(2)->length(), 3);
  SQE_ASSERT_OK(s->Append());
  SQE_ASSERT_OK(s->field_builder_as<Int64Builder>(0)->Append(5));
  SQE_ASSERT_OK(s->field_builder_as<MapBuilder>(1)->Append());
  auto* c = s->field_builder_as<StructBuilder>(2);
  SQE_ASSERT_OK(c->Append());
  SQE_ASSERT_OK(c->field_builder(0)->AppendNull());
  SQE_ASSIGN_OR_FAIL(Column col, builder->Finish());
  SQE_EXPECT_OK(col.ValidateFull());
  EXPECT_EQ(Json(col), R"([null,null,null,{"a":5,"b":{},"c":{"d":null}}])");

  SQE_ASSERT_OK(s->Append());  // no field values appended
  EXPECT_EQ(builder->Finish().status().message(),
            "struct field 'a' has 0 values but the struct has 1 rows");
}

TEST(NestedBuilderTest, MakeBuilderCoversEveryType) {
  for (const TypePtr& type :
       {Boolean(), Int8(), Int16(), Int32(), Int64(), Float32(), Float64(), Decimal(10, 1),
        String(), Binary(), FixedSizeBinary(4), Uuid(), Date32(), Time64(TimeUnit::kNano),
        Timestamp(), TimestampTz(TimeUnit::kNano), List(Int8()), Struct({Field("a", Boolean())}),
        Map(Date32(), String())}) {
    SQE_ASSIGN_OR_FAIL(auto builder, MakeBuilder(type));
    EXPECT_EQ(*builder->type(), *type);
    SQE_ASSERT_OK(builder->Reserve(10));
    SQE_ASSERT_OK(builder->AppendNull());
    SQE_ASSERT_OK(builder->AppendNulls(2));
    SQE_ASSIGN_OR_FAIL(Column c, builder->Finish());
    EXPECT_EQ(*c.type(), *type);
    EXPECT_EQ(c.length(), 3);
    EXPECT_EQ(c.null_count(), 3);
    SQE_EXPECT_OK(c.ValidateFull());
  }
  EXPECT_FALSE(MakeBuilder(nullptr).ok());
}

TEST(BuilderMemoryTest, BuffersChargeTheTrackerAndReleaseOnDestruction) {
  auto query = MemoryTracker::Create(MemoryScope::kQuery, "q");
  auto op = query->CreateChild(MemoryScope::kOperator, "scan");
  {
    Column column;
    {
      SQE_ASSIGN_OR_FAIL(auto builder, MakeBuilder(List(String()), op));
      auto* list = static_cast<ListBuilder*>(builder.get());
      auto* strings = list->value_builder_as<BinaryBuilder>();
      for (int i = 0; i < 1000; ++i) {
        SQE_ASSERT_OK(list->Append());
        SQE_ASSERT_OK(strings->Append("value"));
        if (i % 10 == 0) SQE_ASSERT_OK(list->AppendNull());
      }
      EXPECT_GT(op->current(), 0);
      SQE_ASSIGN_OR_FAIL(column, builder->Finish());
    }
    int64_t held = 0;
    for (const auto& b : column.buffers()) held += b ? b->capacity() : 0;
    for (const auto& b : column.ListValues().buffers()) held += b ? b->capacity() : 0;
    EXPECT_EQ(op->current(), held);
    EXPECT_EQ(query->current(), held);
    Column slice = column.Slice(10, 10);
    column = Column();
    EXPECT_EQ(op->current(), held);  // the slice still shares every buffer
  }
  EXPECT_EQ(op->current(), 0);
  EXPECT_EQ(query->current(), 0);
  EXPECT_GT(query->peak(), 0);
}

TEST(BuilderMemoryTest, AppendFailsWithResourceExhaustedAndBuilderStaysConsistent) {
  auto op = MemoryTracker::Create(MemoryScope::kOperator, "hash_aggregate", 4096);
  Int64Builder builder(Int64(), op);
  Status st;
  int64_t appended = 0;
  while ((st = builder.Append(appended)).ok()) ++appended;
  EXPECT_EQ(st.code(), StatusCode::kResourceExhausted);
  EXPECT_NE(st.message().find("operator 'hash_aggregate' memory limit 4KB exceeded"),
            std::string::npos)
      << st.message();
  EXPECT_EQ(builder.length(), appended);
  SQE_ASSIGN_OR_FAIL(Column c, builder.Finish());
  EXPECT_EQ(c.length(), appended);
  EXPECT_EQ(c.Values<int64_t>()[appended - 1], appended - 1);
}

}  // namespace
}  // namespace sqe::columnar
