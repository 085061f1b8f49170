#include "columnar/ipc/ipc_sample.h"

#include "columnar/binary_builder.h"
#include "columnar/boolean_builder.h"
#include "columnar/fixed_size_binary_builder.h"
#include "columnar/fixed_width_builder.h"
#include "columnar/list_builder.h"
#include "columnar/map_builder.h"
#include "columnar/struct_builder.h"

namespace sqe::columnar::ipc {
namespace {

template <typename B, typename T>
Result<Column> Fixed(TypePtr type, T v0, T v2) {
  B builder(std::move(type));
  SQE_RETURN_NOT_OK(builder.Append(v0));
  SQE_RETURN_NOT_OK(builder.AppendNull());
  SQE_RETURN_NOT_OK(builder.Append(v2));
  return builder.Finish();
}

template <typename B>
Result<Column> Bytes(TypePtr type, std::string_view v0, std::string_view v2) {
  B builder(std::move(type));
  SQE_RETURN_NOT_OK(builder.Append(v0));
  SQE_RETURN_NOT_OK(builder.AppendNull());
  SQE_RETURN_NOT_OK(builder.Append(v2));
  return builder.Finish();
}

}  // namespace

Result<Batch> MakeSampleBatch() {
  std::vector<Field> fields;
  std::vector<Column> columns;
  auto add = [&](Field field, Result<Column> column) -> Status {
    if (!column.ok()) return column.status();
    fields.push_back(std::move(field));
    columns.push_back(std::move(column).value());
    return Status::OK();
  };
  {
    BooleanBuilder b;
    SQE_RETURN_NOT_OK(b.Append(true));
    SQE_RETURN_NOT_OK(b.AppendNull());
    SQE_RETURN_NOT_OK(b.Append(false));
    SQE_RETURN_NOT_OK(add(Field("bool", Boolean()), b.Finish()));
  }
  SQE_RETURN_NOT_OK(add(Field("i8", Int8()), Fixed<Int8Builder, int8_t>(Int8(), -128, 127)));
  SQE_RETURN_NOT_OK(add(Field("i16", Int16()), Fixed<Int16Builder, int16_t>(Int16(), -300, 300)));
  SQE_RETURN_NOT_OK(add(Field("i32", Int32(), true, 7, {{"comment", "has field id 7"}}),
                        Fixed<Int32Builder, int32_t>(Int32(), -70000, 70000)));
  {
    Int64Builder b(Int64());
    for (int64_t v : {int64_t{-9000000000}, int64_t{0}, int64_t{9000000000}}) {
      SQE_RETURN_NOT_OK(b.Append(v));
    }
    SQE_RETURN_NOT_OK(add(Field("i64", Int64(), false), b.Finish()));
  }
  SQE_RETURN_NOT_OK(
      add(Field("f32", Float32()), Fixed<Float32Builder, float>(Float32(), 1.5f, -2.25f)));
  SQE_RETURN_NOT_OK(
      add(Field("f64", Float64()), Fixed<Float64Builder, double>(Float64(), 3.25, -1e300)));
  SQE_RETURN_NOT_OK(
      add(Field("dec", Decimal(10, 2)),
          Fixed<Decimal128Builder, Decimal128>(Decimal(10, 2), Decimal128(12345), Decimal128(-5))));
  SQE_RETURN_NOT_OK(add(Field("str", String()), Bytes<BinaryBuilder>(String(), "héllo", "")));
  SQE_RETURN_NOT_OK(add(Field("bin", Binary()),
                        Bytes<BinaryBuilder>(Binary(), std::string_view("\x00\x01\xff", 3), "ab")));
  SQE_RETURN_NOT_OK(add(Field("fixed", FixedSizeBinary(3)),
                        Bytes<FixedSizeBinaryBuilder>(FixedSizeBinary(3), "abc", "xyz")));
  SQE_RETURN_NOT_OK(add(
      Field("uuid", Uuid()),
      Bytes<FixedSizeBinaryBuilder>(
          Uuid(),
          std::string_view("\x12\x3e\x45\x67\xe8\x9b\x12\xd3\xa4\x56\x42\x66\x14\x17\x40\x00", 16),
          std::string_view("\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01",
                           16))));
  SQE_RETURN_NOT_OK(
      add(Field("date", Date32()), Fixed<Date32Builder, int32_t>(Date32(), 19782, -1)));
  SQE_RETURN_NOT_OK(
      add(Field("time", Time64()), Fixed<Time64Builder, int64_t>(Time64(), 49500000000, 1)));
  SQE_RETURN_NOT_OK(add(Field("ts", Timestamp()),
                        Fixed<TimestampBuilder, int64_t>(Timestamp(), 1709214300000000, -1)));
  SQE_RETURN_NOT_OK(add(Field("tstz", TimestampTz()),
                        Fixed<TimestampBuilder, int64_t>(TimestampTz(), 1709214300000000, 0)));
  SQE_RETURN_NOT_OK(
      add(Field("tsns", Timestamp(TimeUnit::kNano)),
          Fixed<TimestampBuilder, int64_t>(Timestamp(TimeUnit::kNano), 1709214300123456789, 1)));
  {
    TypePtr type = List(Int32());
    auto list = ListBuilder(type, std::make_unique<Int32Builder>(Int32()));
    auto* values = list.value_builder_as<Int32Builder>();
    SQE_RETURN_NOT_OK(list.Append());
    SQE_RETURN_NOT_OK(values->Append(1));
    SQE_RETURN_NOT_OK(values->AppendNull());
    SQE_RETURN_NOT_OK(values->Append(3));
    SQE_RETURN_NOT_OK(list.AppendNull());
    SQE_RETURN_NOT_OK(list.Append());
    SQE_RETURN_NOT_OK(add(Field("list", type), list.Finish()));
  }
  {
    TypePtr type = Struct({Field("a", Int64()), Field("b", String())});
    std::vector<std::unique_ptr<ColumnBuilder>> children;
    children.push_back(std::make_unique<Int64Builder>(Int64()));
    children.push_back(std::make_unique<BinaryBuilder>(String()));
    StructBuilder st(type, std::move(children));
    SQE_RETURN_NOT_OK(st.Append());
    SQE_RETURN_NOT_OK(st.field_builder_as<Int64Builder>(0)->Append(1));
    SQE_RETURN_NOT_OK(st.field_builder_as<BinaryBuilder>(1)->Append("x"));
    SQE_RETURN_NOT_OK(st.AppendNull());
    SQE_RETURN_NOT_OK(st.Append());
    SQE_RETURN_NOT_OK(st.field_builder_as<Int64Builder>(0)->AppendNull());
    SQE_RETURN_NOT_OK(st.field_builder_as<BinaryBuilder>(1)->Append("z"));
    SQE_RETURN_NOT_OK(add(Field("struct", type), st.Finish()));
  }
  {
    TypePtr type = Map(String(), Int64());
    MapBuilder map(type, std::make_unique<BinaryBuilder>(String()),
                   std::make_unique<Int64Builder>(Int64()));
    auto* keys = map.key_builder_as<BinaryBuilder>();
    auto* items = map.item_builder_as<Int64Builder>();
    SQE_RETURN_NOT_OK(map.Append());
    SQE_RETURN_NOT_OK(keys->Append("k1"));
    SQE_RETURN_NOT_OK(items->Append(10));
    SQE_RETURN_NOT_OK(keys->Append("k2"));
    SQE_RETURN_NOT_OK(items->AppendNull());
    SQE_RETURN_NOT_OK(map.AppendNull());
    SQE_RETURN_NOT_OK(map.Append());
    SQE_RETURN_NOT_OK(add(Field("map", type), map.Finish()));
  }
  auto schema = Schema::Make(std::move(fields), {{"origin", "sqe"}});
  return Batch::Make(std::move(schema), std::move(columns));
}

}  // namespace sqe::columnar::ipc
