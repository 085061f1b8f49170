#include "columnar/json_value_encoding.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "columnar/fixed_size_binary_builder.h"
#include "columnar/list_builder.h"
#include "columnar/map_builder.h"
#include "columnar/struct_builder.h"
#include "columnar/test_columns.h"
#include "columnar/utf8.h"

namespace sqe::columnar {
namespace {

using testing::BuildFixed;
using testing::Json;
using testing::Strings;

std::string JsonString(std::string_view s) {
  std::string out;
  AppendJsonString(s, &out);
  return out;
}

TEST(JsonValueEncodingTest, IntegersAndBooleans) {
  EXPECT_EQ(Json(BuildFixed<Int8Builder, int8_t>(Int8(), {-128, 0, 127})), "[-128,0,127]");
  EXPECT_EQ(Json(BuildFixed<Int16Builder, int16_t>(Int16(), {-32768, std::nullopt})),
            "[-32768,null]");
  EXPECT_EQ(Json(testing::Int32s({2147483647, -2147483647 - 1})), "[2147483647,-2147483648]");
  EXPECT_EQ(Json(testing::Int64s({9223372036854775807, std::nullopt})),
            "[9223372036854775807,null]");
  EXPECT_EQ(Json(testing::Bools({true, false, std::nullopt})), "[true,false,null]");
}

TEST(JsonValueEncodingTest, FloatsShortestRoundTripAndSpecialValues) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(Json(testing::Float64s({0.1, 1.0, -0.0, 1e20, 1.5e-300, 123456789.125, std::nan(""),
                                    inf, -inf, std::nullopt})),
            R"([0.1,1,-0,1e+20,1.5e-300,123456789.125,"NaN","Infinity","-Infinity",null])");
  EXPECT_EQ(Json(testing::Float64s(
                {std::numeric_limits<double>::max(), std::numeric_limits<double>::denorm_min()})),
            "[1.7976931348623157e+308,5e-324]");
  const float finf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(Json(BuildFixed<Float32Builder, float>(
                Float32(), {0.1f, 3.4028235e38f, -0.0f, std::nanf(""), -finf, 16777216.0f})),
            R"([0.1,3.4028235e+38,-0,"NaN","-Infinity",16777216])");
}

TEST(JsonValueEncodingTest, DecimalsAsStringsWithScale) {
  Decimal128Builder b(Decimal(38, 2));
  SQE_ASSERT_OK(b.Append(Decimal128(1230)));
  SQE_ASSERT_OK(b.Append(Decimal128(-5)));
  SQE_ASSERT_OK(b.Append(Decimal128(0)));
  SQE_ASSERT_OK(b.Append(*Decimal128::FromString("-999999999999999999999999999999999999.99", 2)));
  SQE_ASSERT_OK(b.AppendNull());
  SQE_ASSIGN_OR_FAIL(Column c, b.Finish());
  EXPECT_EQ(Json(c), R"(["12.30","-0.05","0.00","-999999999999999999999999999999999999.99",null])");
  Decimal128Builder whole(Decimal(38, 0));
  SQE_ASSERT_OK(whole.Append(*Decimal128::FromString("99999999999999999999999999999999999999", 0)));
  SQE_ASSIGN_OR_FAIL(Column w, whole.Finish());
  EXPECT_EQ(Json(w), R"(["99999999999999999999999999999999999999"])");
  Decimal128Builder fraction(Decimal(38, 38));
  SQE_ASSERT_OK(fraction.Append(Decimal128(-1)));
  SQE_ASSIGN_OR_FAIL(Column f, fraction.Finish());
  EXPECT_EQ(Json(f), R"(["-0.00000000000000000000000000000000000001"])");
}

TEST(JsonValueEncodingTest, StringsEscapedUnicodePassesThrough) {
  EXPECT_EQ(JsonString("plain"), R"("plain")");
  EXPECT_EQ(JsonString("quote\" back\\ slash/"), R"("quote\" back\\ slash/")");
  EXPECT_EQ(JsonString("\n\r\t\b\f"), R"("\n\r\t\b\f")");
  EXPECT_EQ(JsonString(std::string_view("\x00\x01\x1f\x7f", 4)), "\"\\u0000\\u0001\\u001f\x7f\"");
  EXPECT_EQ(JsonString("ünïcödé 日本語 🎉"), "\"ünïcödé 日本語 🎉\"");
  // Invalid UTF-8 (a lone continuation, a truncated sequence, an overlong '/', a
  // surrogate) becomes U+FFFD so the output is always valid JSON.
  EXPECT_EQ(JsonString("a\x80"
                       "b"),
            "\"a\xEF\xBF\xBD"
            "b\"");
  EXPECT_EQ(JsonString("\xE6\x97"), "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");
  EXPECT_EQ(JsonString("\xC0\xAF"), "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");
  EXPECT_EQ(JsonString("\xED\xA0\x80"), "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"");
  EXPECT_EQ(Json(Strings({"x\"y", std::nullopt, ""})), R"(["x\"y",null,""])");
}

TEST(JsonValueEncodingTest, BinaryAsBase64) {
  Column c = Strings({"", "f", "fo", "foo", "foob", "fooba", "foobar", std::nullopt}, Binary());
  EXPECT_EQ(Json(c), R"(["","Zg==","Zm8=","Zm9v","Zm9vYg==","Zm9vYmE=","Zm9vYmFy",null])");
  Column high = Strings({std::string("\xFF\xFE\xFD", 3)}, Binary());
  EXPECT_EQ(Json(high), R"(["//79"])");
}

TEST(JsonValueEncodingTest, UuidCanonicalLowercase) {
  FixedSizeBinaryBuilder b(Uuid());
  std::string bytes;
  for (int i = 0; i < 16; ++i) bytes.push_back(static_cast<char>(0xF0 + i));
  SQE_ASSERT_OK(b.Append(bytes));
  SQE_ASSERT_OK(b.Append(std::string(16, '\0')));
  SQE_ASSERT_OK(b.AppendNull());
  SQE_ASSIGN_OR_FAIL(Column c, b.Finish());
  EXPECT_EQ(
      Json(c),
      R"(["f0f1f2f3-f4f5-f6f7-f8f9-fafbfcfdfeff","00000000-0000-0000-0000-000000000000",null])");
}

TEST(JsonValueEncodingTest, DatesTimesTimestamps) {
  EXPECT_EQ(Json(BuildFixed<Date32Builder, int32_t>(Date32(), {0, 19782, -1, -719529, 2932897})),
            R"(["1970-01-01","2024-02-29","1969-12-31","-0001-12-31","+10000-01-01"])");
  EXPECT_EQ(Json(BuildFixed<Time64Builder, int64_t>(Time64(), {0, 49'500'123'456})),
            R"(["00:00:00.000000","13:45:00.123456"])");
  EXPECT_EQ(Json(BuildFixed<Time64Builder, int64_t>(Time64(TimeUnit::kNano), {1})),
            R"(["00:00:00.000000001"])");
  EXPECT_EQ(Json(BuildFixed<TimestampBuilder, int64_t>(
                Timestamp(), {1'709'214'300'123'456, -1, -2'208'988'800'000'000, std::nullopt})),
            R"(["2024-02-29 13:45:00.123456","1969-12-31 23:59:59.999999",)"
            R"("1900-01-01 00:00:00.000000",null])");
  EXPECT_EQ(Json(BuildFixed<TimestampBuilder, int64_t>(TimestampTz(), {0, -1})),
            R"(["1970-01-01 00:00:00.000000 UTC","1969-12-31 23:59:59.999999 UTC"])");
  EXPECT_EQ(Json(BuildFixed<TimestampBuilder, int64_t>(Timestamp(TimeUnit::kNano),
                                                       {1'709'214'300'123'456'789, -1})),
            R"(["2024-02-29 13:45:00.123456789","1969-12-31 23:59:59.999999999"])");
  EXPECT_EQ(Json(BuildFixed<TimestampBuilder, int64_t>(TimestampTz(TimeUnit::kNano), {5})),
            R"(["1970-01-01 00:00:00.000000005 UTC"])");
  // A zone other than UTC: the wall-clock time there (EDT in June, EST in December).
  EXPECT_EQ(Json(BuildFixed<TimestampBuilder, int64_t>(
                Timestamp(TimeUnit::kMicro, "America/New_York"),
                {1'591'012'800'000'000, 1'606'824'000'000'000, std::nullopt})),
            R"(["2020-06-01 08:00:00.000000 America/New_York",)"
            R"("2020-12-01 07:00:00.000000 America/New_York",null])");
  // Year 1 and far future microsecond timestamps.
  EXPECT_EQ(Json(BuildFixed<TimestampBuilder, int64_t>(
                Timestamp(), {-62'135'596'800'000'000, 253'402'300'799'999'999})),
            R"(["0001-01-01 00:00:00.000000","9999-12-31 23:59:59.999999"])");
}

TEST(JsonValueEncodingTest, MapKeysAreStringified) {
  auto build = [](TypePtr key_type, auto append_keys) {
    auto builder = testing::ValueOrDie(MakeBuilder(Map(key_type, Int64())));
    auto* map = static_cast<MapBuilder*>(builder.get());
    testing::DieIfError(map->Append());
    int n = append_keys(map->key_builder());
    for (int i = 0; i < n; ++i) {
      testing::DieIfError(map->item_builder_as<Int64Builder>()->Append(i));
    }
    return testing::ValueOrDie(builder->Finish());
  };
  Column ints = build(Int64(), [](ColumnBuilder* keys) {
    auto* k = static_cast<Int64Builder*>(keys);
    testing::DieIfError(k->Append(-1));
    testing::DieIfError(k->Append(20));
    return 2;
  });
  EXPECT_EQ(Json(ints), R"([{"-1":0,"20":1}])");
  Column decimals = build(Decimal(5, 2), [](ColumnBuilder* keys) {
    testing::DieIfError(static_cast<Decimal128Builder*>(keys)->Append(Decimal128(150)));
    return 1;
  });
  EXPECT_EQ(Json(decimals), R"([{"1.50":0}])");
  Column bools = build(Boolean(), [](ColumnBuilder* keys) {
    testing::DieIfError(static_cast<BooleanBuilder*>(keys)->Append(true));
    return 1;
  });
  EXPECT_EQ(Json(bools), R"([{"true":0}])");
  Column dates = build(Date32(), [](ColumnBuilder* keys) {
    testing::DieIfError(static_cast<Date32Builder*>(keys)->Append(0));
    return 1;
  });
  EXPECT_EQ(Json(dates), R"([{"1970-01-01":0}])");
  Column strings = build(String(), [](ColumnBuilder* keys) {
    testing::DieIfError(static_cast<BinaryBuilder*>(keys)->Append("k\"ey"));
    return 1;
  });
  EXPECT_EQ(Json(strings), R"([{"k\"ey":0}])");
  Column doubles = build(Float64(), [](ColumnBuilder* keys) {
    testing::DieIfError(static_cast<Float64Builder*>(keys)->Append(0.5));
    testing::DieIfError(static_cast<Float64Builder*>(keys)->Append(std::nan("")));
    return 2;
  });
  EXPECT_EQ(Json(doubles), R"([{"0.5":0,"NaN":1}])");
}

TEST(JsonValueEncodingTest, NullMapKeyIsAnError) {
  // Assembled by hand: builders refuse null keys, but IPC input could carry them.
  Column keys = testing::Int64s({std::nullopt});
  Column values = testing::Int64s({1});
  TypePtr type = Map(Int64(), Int64());
  SQE_ASSIGN_OR_FAIL(Column entries,
                     Column::Make(type->value_field().type(), 1, {nullptr}, {keys, values}, 0));
  SQE_ASSIGN_OR_FAIL(auto offsets, Buffer::Allocate(8));
  offsets->mutable_data_as<int32_t>()[1] = 1;
  SQE_ASSIGN_OR_FAIL(Column map, Column::Make(type, 1, {nullptr, offsets}, {entries}));
  std::string out;
  EXPECT_EQ(AppendJsonValue(map, 0, &out).message(),
            "map key 0 is null; map keys must not be null");
  EXPECT_FALSE(map.ValidateFull().ok());
}

TEST(JsonValueEncodingTest, NestedValuesAndSlices) {
  auto type = Struct({Field("name", String()), Field("scores", List(Float64())),
                      Field("attrs", Map(String(), Struct({Field("v", Decimal(4, 1))}))),
                      Field("when", TimestampTz())});
  SQE_ASSIGN_OR_FAIL(auto builder, MakeBuilder(type));
  auto* row = static_cast<StructBuilder*>(builder.get());
  auto* name = row->field_builder_as<BinaryBuilder>(0);
  auto* scores = row->field_builder_as<ListBuilder>(1);
  auto* score = scores->value_builder_as<Float64Builder>();
  auto* attrs = row->field_builder_as<MapBuilder>(2);
  auto* attr_key = attrs->key_builder_as<BinaryBuilder>();
  auto* attr_value = attrs->item_builder_as<StructBuilder>();
  auto* v = attr_value->field_builder_as<Decimal128Builder>(0);
  auto* when = row->field_builder_as<TimestampBuilder>(3);

  SQE_ASSERT_OK(row->Append());
  SQE_ASSERT_OK(name->Append("Zoë"));
  SQE_ASSERT_OK(scores->Append());
  SQE_ASSERT_OK(score->Append(1.5));
  SQE_ASSERT_OK(score->Append(std::numeric_limits<double>::infinity()));
  SQE_ASSERT_OK(score->AppendNull());
  SQE_ASSERT_OK(attrs->Append());
  SQE_ASSERT_OK(attr_key->Append("x"));
  SQE_ASSERT_OK(attr_value->Append());
  SQE_ASSERT_OK(v->Append(Decimal128(-5)));
  SQE_ASSERT_OK(attr_key->Append("y"));
  SQE_ASSERT_OK(attr_value->AppendNull());
  SQE_ASSERT_OK(when->Append(-1));
  SQE_ASSERT_OK(row->AppendNull());
  SQE_ASSERT_OK(row->Append());
  SQE_ASSERT_OK(name->AppendNull());
  SQE_ASSERT_OK(scores->Append());
  SQE_ASSERT_OK(attrs->AppendNull());
  SQE_ASSERT_OK(when->AppendNull());
  SQE_ASSIGN_OR_FAIL(Column c, builder->Finish());

  EXPECT_EQ(Json(c),
            R"([{"name":"Zoë","scores":[1.5,"Infinity",null],"attrs":{"x":{"v":"-0.5"},"y":null},)"
            R"("when":"1969-12-31 23:59:59.999999 UTC"},null,)"
            R"({"name":null,"scores":[],"attrs":null,"when":null}])");
  EXPECT_EQ(Json(c.Slice(1, 2)), R"([null,{"name":null,"scores":[],"attrs":null,"when":null}])");
  std::string out;
  EXPECT_EQ(AppendJsonValue(c, 3, &out).message(), "row 3 out of range for 3 rows");

  // Trino's protocol sends rows (also inside maps) as arrays of their field values.
  SQE_ASSIGN_OR_FAIL(Batch batch, Batch::Make(Schema::Make({Field("r", type)}), {c}));
  std::string trino;
  SQE_ASSERT_OK(AppendTrinoRowArray(batch, 0, &trino));
  EXPECT_EQ(trino,
            R"([["Zoë",[1.5,"Infinity",null],{"x":["-0.5"],"y":null},)"
            R"("1969-12-31 23:59:59.999999 UTC"]])");
  trino.clear();
  SQE_ASSERT_OK(AppendTrinoRowArray(batch.Slice(1, 2), 1, &trino));
  EXPECT_EQ(trino, "[[null,[],null,null]]");
}

TEST(JsonValueEncodingTest, RowsAsArraysObjectsAndJsonLines) {
  auto schema = Schema::Make(
      {Field("id", Int64()), Field("label \"x\"", String()), Field("tags", List(String()))});
  SQE_ASSIGN_OR_FAIL(auto tags_builder, MakeBuilder(List(String())));
  auto* tags = static_cast<ListBuilder*>(tags_builder.get());
  SQE_ASSERT_OK(tags->Append());
  SQE_ASSERT_OK(tags->value_builder_as<BinaryBuilder>()->Append("t"));
  SQE_ASSERT_OK(tags->AppendNull());
  SQE_ASSIGN_OR_FAIL(Column tag_column, tags_builder->Finish());
  SQE_ASSIGN_OR_FAIL(Batch batch, Batch::Make(schema, {testing::Int64s({1, std::nullopt}),
                                                       Strings({"a", "b\nc"}), tag_column}));
  std::string array;
  SQE_ASSERT_OK(AppendJsonRowArray(batch, 0, &array));
  EXPECT_EQ(array, R"([1,"a",["t"]])");
  std::string object;
  SQE_ASSERT_OK(AppendJsonRowObject(batch, 1, &object));
  EXPECT_EQ(object, R"({"id":null,"label \"x\"":"b\nc","tags":null})");
  std::string lines;
  SQE_ASSERT_OK(AppendJsonLines(batch, &lines));
  EXPECT_EQ(lines,
            "{\"id\":1,\"label \\\"x\\\"\":\"a\",\"tags\":[\"t\"]}\n"
            "{\"id\":null,\"label \\\"x\\\"\":\"b\\nc\",\"tags\":null}\n");
  std::string sliced;
  SQE_ASSERT_OK(AppendJsonLines(batch.Slice(1, 1), &sliced));
  EXPECT_EQ(sliced, "{\"id\":null,\"label \\\"x\\\"\":\"b\\nc\",\"tags\":null}\n");
  EXPECT_FALSE(AppendJsonRowArray(batch, 2, &array).ok());
}

TEST(Utf8Test, Validation) {
  EXPECT_TRUE(IsValidUtf8(""));
  EXPECT_TRUE(IsValidUtf8("ascii"));
  EXPECT_TRUE(IsValidUtf8("\xC2\x80"));
  EXPECT_TRUE(IsValidUtf8("\xEF\xBF\xBF"));
  EXPECT_TRUE(IsValidUtf8("\xF4\x8F\xBF\xBF"));   // U+10FFFF
  EXPECT_FALSE(IsValidUtf8("\xF4\x90\x80\x80"));  // above U+10FFFF
  EXPECT_FALSE(IsValidUtf8("\xC1\xBF"));          // overlong
  EXPECT_FALSE(IsValidUtf8("\xE0\x9F\xBF"));      // overlong
  EXPECT_FALSE(IsValidUtf8("\xF0\x8F\xBF\xBF"));  // overlong
  EXPECT_FALSE(IsValidUtf8("\xED\xBF\xBF"));      // surrogate
  EXPECT_FALSE(IsValidUtf8("\xE2\x82"));          // truncated
  EXPECT_FALSE(IsValidUtf8("\xFF"));
  EXPECT_EQ(ValidUtf8SequenceLength("\xF0\x9F\x8E\x89!"), 4u);
}

}  // namespace
}  // namespace sqe::columnar
