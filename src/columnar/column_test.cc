#include "columnar/column.h"

#include <gtest/gtest.h>

#include <cstring>

#include "columnar/list_builder.h"
#include "columnar/struct_builder.h"
#include "columnar/test_columns.h"

namespace sqe::columnar {
namespace {

using testing::Bools;
using testing::Int64s;
using testing::Json;
using testing::Strings;

TEST(ColumnTest, FixedWidthLayout) {
  Column c = Int64s({1, std::nullopt, 3});
  EXPECT_EQ(c.length(), 3);
  EXPECT_EQ(c.null_count(), 1);
  EXPECT_EQ(c.offset(), 0);
  ASSERT_EQ(c.buffers().size(), 2u);
  ASSERT_NE(c.validity(), nullptr);
  EXPECT_EQ(c.validity()->data()[0], 0b101);
  const int64_t* values = c.buffers()[1]->data_as<int64_t>();
  EXPECT_EQ(values[0], 1);
  EXPECT_EQ(values[1], 0);  // a null slot holds zero
  EXPECT_EQ(values[2], 3);
  EXPECT_EQ(c.Values<int64_t>()[2], 3);
  EXPECT_TRUE(c.IsNull(1));
  EXPECT_TRUE(c.IsValid(0));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(c.buffers()[1]->data()) % 64, 0u);
}

TEST(ColumnTest, NoValidityBufferWithoutNulls) {
  Column c = Int64s({1, 2});
  EXPECT_EQ(c.validity(), nullptr);
  EXPECT_EQ(c.null_count(), 0);
  EXPECT_FALSE(c.IsNull(0));
}

TEST(ColumnTest, BooleanValuesAreBitPacked) {
  Column c = Bools({true, false, std::nullopt, true, true, false, false, false, true});
  EXPECT_EQ(c.buffers()[1]->size(), 2);
  EXPECT_EQ(c.buffers()[1]->data()[0], 0b00011001);
  EXPECT_EQ(c.buffers()[1]->data()[1], 0b1);
  EXPECT_EQ(c.validity()->data()[0], 0b11111011);
  EXPECT_TRUE(c.BoolAt(0));
  EXPECT_FALSE(c.BoolAt(1));
  EXPECT_TRUE(c.BoolAt(8));
}

TEST(ColumnTest, StringOffsetsLayout) {
  Column c = Strings({"ab", std::nullopt, "", "cde"});
  ASSERT_EQ(c.buffers().size(), 3u);
  const int32_t* offsets = c.buffers()[1]->data_as<int32_t>();
  EXPECT_EQ(c.buffers()[1]->size(), 5 * 4);
  EXPECT_EQ(offsets[0], 0);
  EXPECT_EQ(offsets[1], 2);
  EXPECT_EQ(offsets[2], 2);  // a null occupies no bytes
  EXPECT_EQ(offsets[3], 2);
  EXPECT_EQ(offsets[4], 5);
  EXPECT_EQ(c.buffers()[2]->view(), "abcde");
  EXPECT_EQ(c.StringAt(3), "cde");
  EXPECT_EQ(c.StringAt(2), "");
}

TEST(ColumnTest, SliceSharesBuffersAndRecountsNulls) {
  Column c = Int64s({0, std::nullopt, 2, 3, std::nullopt, 5, 6, 7, 8, std::nullopt});
  Column s = c.Slice(2, 5);
  EXPECT_EQ(s.length(), 5);
  EXPECT_EQ(s.offset(), 2);
  EXPECT_EQ(s.null_count(), 1);
  EXPECT_EQ(s.buffers()[0].get(), c.buffers()[0].get());
  EXPECT_EQ(s.buffers()[1].get(), c.buffers()[1].get());
  EXPECT_EQ(s.Values<int64_t>()[0], 2);
  EXPECT_TRUE(s.IsNull(2));
  EXPECT_EQ(Json(s), "[2,3,null,5,6]");
  Column ss = s.Slice(3, 100);  // clamped
  EXPECT_EQ(ss.offset(), 5);
  EXPECT_EQ(ss.length(), 2);
  EXPECT_EQ(Json(ss), "[5,6]");
  EXPECT_EQ(c.Slice(20, 5).length(), 0);
  EXPECT_EQ(c.Slice(-3, 2).offset(), 0);
}

TEST(ColumnTest, SliceOfStringsAndBooleans) {
  Column s = Strings({"a", "bb", std::nullopt, "dddd"}).Slice(1, 3);
  EXPECT_EQ(s.StringAt(0), "bb");
  EXPECT_TRUE(s.IsNull(1));
  EXPECT_EQ(s.StringAt(2), "dddd");
  EXPECT_EQ(s.Offsets()[0], 1);
  Column b = Bools({true, false, false, true, true, false, false, false, false, true}).Slice(3, 7);
  EXPECT_EQ(Json(b), "[true,true,false,false,false,false,true]");
}

TEST(ColumnTest, StructSliceAppliesToChildren) {
  auto type = Struct({Field("a", Int64()), Field("b", String())});
  SQE_ASSIGN_OR_FAIL(auto builder, MakeBuilder(type));
  auto* sb = static_cast<StructBuilder*>(builder.get());
  for (int i = 0; i < 4; ++i) {
    SQE_ASSERT_OK(sb->Append());
    SQE_ASSERT_OK(sb->field_builder_as<Int64Builder>(0)->Append(i));
    SQE_ASSERT_OK(sb->field_builder_as<BinaryBuilder>(1)->Append(std::string(i, 'x')));
  }
  SQE_ASSIGN_OR_FAIL(Column c, builder->Finish());
  Column s = c.Slice(1, 2);
  EXPECT_EQ(s.child(0).length(), 4);  // raw children are not sliced
  Column a = s.StructField(0);
  EXPECT_EQ(a.length(), 2);
  EXPECT_EQ(a.Values<int64_t>()[0], 1);
  EXPECT_EQ(s.StructField(1).StringAt(1), "xx");
  EXPECT_EQ(a.buffers()[1].get(), c.child(0).buffers()[1].get());
  EXPECT_EQ(Json(s), R"([{"a":1,"b":"x"},{"a":2,"b":"xx"}])");
}

TEST(ColumnTest, MakeValidatesBuffers) {
  SQE_ASSIGN_OR_FAIL(std::shared_ptr<Buffer> values, Buffer::Allocate(16));
  values->mutable_data_as<int64_t>()[0] = 7;
  values->mutable_data_as<int64_t>()[1] = 9;
  SQE_ASSIGN_OR_FAIL(Column ok, Column::Make(Int64(), 2, {nullptr, values}));
  EXPECT_EQ(Json(ok), "[7,9]");
  SQE_ASSIGN_OR_FAIL(Column shifted, Column::Make(Int64(), 1, {nullptr, values}, {}, 0, 1));
  EXPECT_EQ(Json(shifted), "[9]");

  auto too_short = Column::Make(Int64(), 3, {nullptr, values});
  EXPECT_EQ(too_short.status().message(),
            "column of type bigint: values buffer has 16 bytes, needs 24 for 3 rows at offset 0");
  EXPECT_FALSE(Column::Make(Int64(), 2, {values}).ok());
  EXPECT_FALSE(Column::Make(Int64(), 2, {nullptr, nullptr}).ok());
  EXPECT_FALSE(Column::Make(Int64(), 2, {nullptr, values}, {}, 1).ok());  // nulls, no bitmap
  EXPECT_FALSE(Column::Make(nullptr, 0, {}).ok());

  // Validity counted when the null count is unknown.
  SQE_ASSIGN_OR_FAIL(std::shared_ptr<Buffer> validity, Buffer::Allocate(1));
  validity->mutable_data()[0] = 0b10;
  SQE_ASSIGN_OR_FAIL(Column with_null, Column::Make(Int64(), 2, {validity, values}));
  EXPECT_EQ(with_null.null_count(), 1);
  EXPECT_EQ(Json(with_null), "[null,9]");
}

TEST(ColumnTest, MakeValidatesOffsetsAndChildren) {
  SQE_ASSIGN_OR_FAIL(auto offsets, Buffer::Allocate(12));
  int32_t* o = offsets->mutable_data_as<int32_t>();
  o[0] = 0;
  o[1] = 2;
  o[2] = 5;
  SQE_ASSIGN_OR_FAIL(auto data, Buffer::CopyOf("abcd"));
  EXPECT_EQ(Column::Make(String(), 2, {nullptr, offsets, data}).status().message(),
            "column of type varchar: offsets [0, 5] outside the 4 data bytes");
  SQE_ASSIGN_OR_FAIL(auto data5, Buffer::CopyOf("abcde"));
  SQE_ASSIGN_OR_FAIL(Column strings, Column::Make(String(), 2, {nullptr, offsets, data5}));
  EXPECT_EQ(Json(strings), R"(["ab","cde"])");

  Column child = Int64s({1, 2, 3, 4, 5});
  SQE_ASSIGN_OR_FAIL(Column list, Column::Make(List(Int64()), 2, {nullptr, offsets}, {child}));
  EXPECT_EQ(Json(list), "[[1,2],[3,4,5]]");
  EXPECT_FALSE(Column::Make(List(Int32()), 2, {nullptr, offsets}, {child}).ok());
  EXPECT_FALSE(Column::Make(List(Int64()), 2, {nullptr, offsets}, {}).ok());
  EXPECT_FALSE(Column::Make(List(Int64()), 2, {nullptr, offsets}, {Int64s({1, 2, 3})}).ok());
  EXPECT_EQ(Column::Make(Struct({Field("a", Int64())}), 6, {nullptr}, {child}).status().message(),
            "column of type row(a bigint): field 'a' has 5 rows, needs 6");

  // An empty var-length column may come with an empty offsets buffer.
  SQE_ASSIGN_OR_FAIL(auto no_bytes, Buffer::Allocate(0));
  EXPECT_TRUE(Column::Make(Binary(), 0, {nullptr, no_bytes, no_bytes}).ok());
}

TEST(ColumnTest, ValidateFullChecksOffsetsUtf8AndNullCount) {
  SQE_ASSIGN_OR_FAIL(auto offsets, Buffer::Allocate(12));
  int32_t* o = offsets->mutable_data_as<int32_t>();
  o[0] = 0;
  o[1] = 3;
  o[2] = 2;
  SQE_ASSIGN_OR_FAIL(auto data, Buffer::CopyOf("abc"));
  SQE_ASSIGN_OR_FAIL(Column decreasing, Column::Make(Binary(), 2, {nullptr, offsets, data}));
  EXPECT_EQ(decreasing.ValidateFull().message(),
            "column of type varbinary: offsets decrease at row 1");

  o[2] = 3;
  SQE_ASSIGN_OR_FAIL(auto bad_utf8, Buffer::CopyOf("a\xC3("));
  SQE_ASSIGN_OR_FAIL(Column strings, Column::Make(String(), 2, {nullptr, offsets, bad_utf8}));
  EXPECT_EQ(strings.ValidateFull().message(), "column of type varchar: row 0 is not valid UTF-8");
  SQE_ASSIGN_OR_FAIL(Column binary, Column::Make(Binary(), 2, {nullptr, offsets, bad_utf8}));
  SQE_EXPECT_OK(binary.ValidateFull());

  SQE_ASSIGN_OR_FAIL(auto validity, Buffer::Allocate(1));
  validity->mutable_data()[0] = 0b01;
  SQE_ASSIGN_OR_FAIL(auto values, Buffer::Allocate(16));
  SQE_ASSIGN_OR_FAIL(Column wrong_count, Column::Make(Int64(), 2, {validity, values}, {}, 2));
  EXPECT_FALSE(wrong_count.ValidateFull().ok());
  SQE_EXPECT_OK(Strings({"ok", std::nullopt, "ünïcödé"}).ValidateFull());
}

TEST(ColumnTest, MakeAllNullForEveryLayout) {
  for (const TypePtr& type :
       {Boolean(), Int8(), Decimal(20, 4), String(), Binary(), FixedSizeBinary(5), Uuid(), Date32(),
        TimestampTz(), List(Int64()), Struct({Field("a", Int64()), Field("b", String())}),
        Map(String(), Int64())}) {
    SQE_ASSIGN_OR_FAIL(Column c, Column::MakeAllNull(type, 3));
    EXPECT_EQ(c.length(), 3) << type->ToString();
    EXPECT_EQ(c.null_count(), 3) << type->ToString();
    SQE_EXPECT_OK(c.ValidateFull());
    EXPECT_EQ(Json(c), "[null,null,null]") << type->ToString();
  }
}

TEST(ColumnTest, ListOffsetsIndexTheChild) {
  auto type = List(Int64());
  SQE_ASSIGN_OR_FAIL(auto builder, MakeBuilder(type));
  auto* lb = static_cast<ListBuilder*>(builder.get());
  auto* values = lb->value_builder_as<Int64Builder>();
  SQE_ASSERT_OK(lb->Append());
  SQE_ASSERT_OK(values->Append(1));
  SQE_ASSERT_OK(values->Append(2));
  SQE_ASSERT_OK(lb->AppendNull());
  SQE_ASSERT_OK(lb->Append());
  SQE_ASSERT_OK(lb->Append());
  SQE_ASSERT_OK(values->Append(3));
  SQE_ASSIGN_OR_FAIL(Column c, lb->Finish());
  ASSERT_EQ(c.buffers().size(), 2u);
  const int32_t* offsets = c.buffers()[1]->data_as<int32_t>();
  EXPECT_EQ(std::vector<int32_t>(offsets, offsets + 5), (std::vector<int32_t>{0, 2, 2, 2, 3}));
  EXPECT_EQ(c.ListValues().length(), 3);
  EXPECT_EQ(c.ListStart(3), 2);
  EXPECT_EQ(c.ListLength(0), 2);
  EXPECT_EQ(Json(c), "[[1,2],null,[],[3]]");
  Column tail = c.Slice(2, 2);
  EXPECT_EQ(tail.ListStart(1), 2);
  EXPECT_EQ(Json(tail), "[[],[3]]");
}

}  // namespace
}  // namespace sqe::columnar

namespace sqe::columnar {
namespace {

TEST(ColumnTest, HostileLengthsAreRejectedWithoutOverflow) {
  Column small = testing::Int64s({1, 2});
  for (auto [length, offset] :
       {std::pair<int64_t, int64_t>{INT64_MAX / 2, 0}, {INT64_MAX, 0}, {2, INT64_MAX - 1}}) {
    auto c = Column::Make(Int64(), length, small.buffers(), {}, 0, offset);
    ASSERT_FALSE(c.ok()) << length << " " << offset;
    EXPECT_EQ(c.status().code(), StatusCode::kInvalidArgument);
  }
}

}  // namespace
}  // namespace sqe::columnar
