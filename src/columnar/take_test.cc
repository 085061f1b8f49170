#include "columnar/take.h"

#include <gtest/gtest.h>

#include "columnar/fixed_size_binary_builder.h"
#include "columnar/list_builder.h"
#include "columnar/map_builder.h"
#include "columnar/struct_builder.h"
#include "columnar/test_columns.h"

namespace sqe::columnar {
namespace {

using testing::Bools;
using testing::Float64s;
using testing::Int32s;
using testing::Int64s;
using testing::Json;
using testing::Strings;

TEST(SelectionVectorTest, RangeAndMask) {
  EXPECT_EQ(SelectionVector::Range(2, 5), (SelectionVector{2, 3, 4}));
  EXPECT_TRUE(SelectionVector::Range(5, 2).empty());
  SQE_ASSIGN_OR_FAIL(SelectionVector sel,
                     SelectionVector::FromMask(Bools({true, false, std::nullopt, true})));
  EXPECT_EQ(sel, (SelectionVector{0, 3}));
  SQE_ASSIGN_OR_FAIL(SelectionVector sliced,
                     SelectionVector::FromMask(Bools({true, false, true, true}).Slice(1, 3)));
  EXPECT_EQ(sliced, (SelectionVector{1, 2}));
  EXPECT_EQ(SelectionVector::FromMask(Int64s({1})).status().message(),
            "a filter mask must be boolean, got bigint");
}

TEST(TakeTest, FixedWidthBooleanAndStrings) {
  SelectionVector sel{3, 0, 0, 2};
  SQE_ASSIGN_OR_FAIL(Column i, Take(Int64s({10, std::nullopt, 30, 40}), sel));
  EXPECT_EQ(Json(i), "[40,10,10,30]");
  EXPECT_EQ(i.null_count(), 0);
  EXPECT_EQ(i.validity(), nullptr);  // no selected row is null
  SQE_ASSIGN_OR_FAIL(Column b, Take(Bools({true, false, std::nullopt, false}), sel));
  EXPECT_EQ(Json(b), "[false,true,true,null]");
  EXPECT_EQ(b.null_count(), 1);
  SQE_ASSIGN_OR_FAIL(Column s, Take(Strings({"a", "bb", std::nullopt, "dddd"}), sel));
  EXPECT_EQ(Json(s), R"(["dddd","a","a",null])");
  EXPECT_EQ(s.buffers()[2]->view(), "ddddaa");
  SQE_EXPECT_OK(s.ValidateFull());
  SQE_ASSIGN_OR_FAIL(Column f, Take(Float64s({1.5, 2.5}), SelectionVector{1}));
  EXPECT_EQ(Json(f), "[2.5]");
  SQE_ASSIGN_OR_FAIL(Column none, Take(Strings({"x"}), SelectionVector{}));
  EXPECT_EQ(none.length(), 0);
  SQE_EXPECT_OK(none.ValidateFull());
}

TEST(TakeTest, RespectsSliceOffsets) {
  Column sliced = Int32s({0, 1, 2, 3, std::nullopt, 5}).Slice(2, 4);
  SQE_ASSIGN_OR_FAIL(Column t, Take(sliced, SelectionVector{3, 2, 0}));
  EXPECT_EQ(Json(t), "[5,null,2]");
  Column strings = Strings({"zero", "one", "two", "three"}).Slice(1, 3);
  SQE_ASSIGN_OR_FAIL(Column ts, Take(strings, SelectionVector{2, 0}));
  EXPECT_EQ(Json(ts), R"(["three","one"])");
}

TEST(TakeTest, SlicedBooleansAndMaps) {
  Column bools = Bools({false, false, false, true, std::nullopt, true, false, false, false, true});
  SQE_ASSIGN_OR_FAIL(Column tb, Take(bools.Slice(3, 7), SelectionVector{6, 1, 0, 2}));
  EXPECT_EQ(Json(tb), "[true,null,true,true]");

  SQE_ASSIGN_OR_FAIL(auto builder, MakeBuilder(Map(Int32(), String())));
  auto* map = static_cast<MapBuilder*>(builder.get());
  for (int row = 0; row < 4; ++row) {
    SQE_ASSERT_OK(map->Append());
    for (int e = 0; e < row; ++e) {
      SQE_ASSERT_OK(map->key_builder_as<Int32Builder>()->Append(e));
      SQE_ASSERT_OK(map->item_builder_as<BinaryBuilder>()->Append(std::string(row, 'a' + e)));
    }
  }
  SQE_ASSIGN_OR_FAIL(Column maps, builder->Finish());
  Column sliced = maps.Slice(2, 2);
  EXPECT_EQ(Json(sliced), R"([{"0":"aa","1":"bb"},{"0":"aaa","1":"bbb","2":"ccc"}])");
  SQE_ASSIGN_OR_FAIL(Column tm, Take(sliced, SelectionVector{1, 1, 0}));
  SQE_EXPECT_OK(tm.ValidateFull());
  EXPECT_EQ(tm.ListValues().length(), 8);
  EXPECT_EQ(Json(tm), R"([{"0":"aaa","1":"bbb","2":"ccc"},{"0":"aaa","1":"bbb","2":"ccc"},)"
                      R"({"0":"aa","1":"bb"}])");
}

TEST(TakeTest, DecimalAndFixedSizeBinary) {
  Decimal128Builder dec(Decimal(20, 3));
  SQE_ASSERT_OK(dec.Append(Decimal128(1)));
  SQE_ASSERT_OK(dec.AppendNull());
  SQE_ASSERT_OK(dec.Append(Decimal128(-123456)));
  SQE_ASSIGN_OR_FAIL(Column d, dec.Finish());
  SQE_ASSIGN_OR_FAIL(Column td, Take(d, SelectionVector{2, 1, 0}));
  EXPECT_EQ(Json(td), R"(["-123.456",null,"0.001"])");

  FixedSizeBinaryBuilder fb(FixedSizeBinary(3));
  SQE_ASSERT_OK(fb.Append("abc"));
  SQE_ASSERT_OK(fb.Append("def"));
  SQE_ASSIGN_OR_FAIL(Column f, fb.Finish());
  SQE_ASSIGN_OR_FAIL(Column tf, Take(f.Slice(1, 1), SelectionVector{0, 0}));
  EXPECT_EQ(tf.buffers()[1]->view(), "defdef");
}

TEST(TakeTest, OutOfRangeIndex) {
  EXPECT_EQ(Take(Int64s({1, 2}), SelectionVector{0, 2}).status().message(),
            "selection index 2 out of range for 2 rows");
}

Column NestedColumn() {
  // row(id bigint, items array(map(varchar, bigint)))
  auto type = Struct({Field("id", Int64()), Field("items", List(Map(String(), Int64())))});
  auto builder = testing::ValueOrDie(MakeBuilder(type));
  auto* row = static_cast<StructBuilder*>(builder.get());
  auto* id = row->field_builder_as<Int64Builder>(0);
  auto* items = row->field_builder_as<ListBuilder>(1);
  auto* map = items->value_builder_as<MapBuilder>();
  auto* key = map->key_builder_as<BinaryBuilder>();
  auto* value = map->item_builder_as<Int64Builder>();
  using testing::DieIfError;
  // 0: {id:0, items:[{"a":1}, null]}
  DieIfError(row->Append());
  DieIfError(id->Append(0));
  DieIfError(items->Append());
  DieIfError(map->Append());
  DieIfError(key->Append("a"));
  DieIfError(value->Append(1));
  DieIfError(map->AppendNull());
  // 1: null
  DieIfError(row->AppendNull());
  // 2: {id:2, items:null}
  DieIfError(row->Append());
  DieIfError(id->Append(2));
  DieIfError(items->AppendNull());
  // 3: {id:null, items:[{"b":null,"c":3}]}
  DieIfError(row->Append());
  DieIfError(id->AppendNull());
  DieIfError(items->Append());
  DieIfError(map->Append());
  DieIfError(key->Append("b"));
  DieIfError(value->AppendNull());
  DieIfError(key->Append("c"));
  DieIfError(value->Append(3));
  return testing::ValueOrDie(builder->Finish());
}

TEST(TakeTest, NestedStructListMap) {
  Column c = NestedColumn();
  EXPECT_EQ(Json(c), R"([{"id":0,"items":[{"a":1},null]},null,{"id":2,"items":null},)"
                     R"({"id":null,"items":[{"b":null,"c":3}]}])");
  SQE_ASSIGN_OR_FAIL(Column t, Take(c, SelectionVector{3, 1, 0, 3, 2}));
  SQE_EXPECT_OK(t.ValidateFull());
  EXPECT_EQ(Json(t),
            R"([{"id":null,"items":[{"b":null,"c":3}]},null,{"id":0,"items":[{"a":1},null]},)"
            R"({"id":null,"items":[{"b":null,"c":3}]},{"id":2,"items":null}])");
  // Taking from a slice of the nested column.
  SQE_ASSIGN_OR_FAIL(Column ts, Take(c.Slice(2, 2), SelectionVector{1, 0}));
  SQE_EXPECT_OK(ts.ValidateFull());
  EXPECT_EQ(Json(ts), R"([{"id":null,"items":[{"b":null,"c":3}]},{"id":2,"items":null}])");
  // The gathered list child holds only the selected rows' elements.
  EXPECT_EQ(ts.StructField(1).ListValues().length(), 1);
}

TEST(TakeTest, NullListRowsComeOutEmpty) {
  SQE_ASSIGN_OR_FAIL(auto builder, MakeBuilder(List(Int64())));
  auto* list = static_cast<ListBuilder*>(builder.get());
  SQE_ASSERT_OK(list->AppendNull());
  SQE_ASSERT_OK(list->Append());
  SQE_ASSERT_OK(list->value_builder_as<Int64Builder>()->Append(9));
  SQE_ASSIGN_OR_FAIL(Column c, builder->Finish());
  SQE_ASSIGN_OR_FAIL(Column t, Take(c, SelectionVector{0, 1, 0}));
  EXPECT_EQ(Json(t), "[null,[9],null]");
  const int32_t* offsets = t.Offsets();
  EXPECT_EQ(std::vector<int32_t>(offsets, offsets + 4), (std::vector<int32_t>{0, 0, 1, 1}));
}

TEST(FilterTest, ColumnsAndBatches) {
  Column mask = Bools({true, false, std::nullopt, true});
  SQE_ASSIGN_OR_FAIL(Column f, Filter(Strings({"a", "b", "c", "d"}), mask));
  EXPECT_EQ(Json(f), R"(["a","d"])");
  EXPECT_EQ(Filter(Int64s({1}), mask).status().message(),
            "filter mask has 4 rows but the column has 1");

  auto schema = Schema::Make({Field("n", Int64()), Field("nested", NestedColumn().type())});
  SQE_ASSIGN_OR_FAIL(Batch batch, Batch::Make(schema, {Int64s({1, 2, 3, 4}), NestedColumn()}));
  SQE_ASSIGN_OR_FAIL(Batch filtered, Filter(batch, Bools({false, true, false, true})));
  EXPECT_EQ(filtered.num_rows(), 2);
  EXPECT_EQ(Json(filtered.column(0)), "[2,4]");
  EXPECT_EQ(Json(filtered.column(1)), R"([null,{"id":null,"items":[{"b":null,"c":3}]}])");
  SQE_ASSIGN_OR_FAIL(Batch taken, Take(batch, SelectionVector{0}));
  EXPECT_EQ(Json(taken.column(0)), "[1]");
  EXPECT_FALSE(Take(batch, SelectionVector{4}).ok());
}

TEST(TakeTest, OutputIsChargedToTracker) {
  auto tracker = MemoryTracker::Create(MemoryScope::kOperator, "filter");
  Column input = NestedColumn();
  {
    SQE_ASSIGN_OR_FAIL(Column t, Take(input, SelectionVector{0, 3}, tracker));
    EXPECT_GT(tracker->current(), 0);
  }
  EXPECT_EQ(tracker->current(), 0);
  auto tiny = MemoryTracker::Create(MemoryScope::kOperator, "filter", 64);
  EXPECT_EQ(Take(input, SelectionVector{0, 3}, tiny).status().code(),
            StatusCode::kResourceExhausted);
  EXPECT_EQ(tiny->current(), 0);
}

}  // namespace
}  // namespace sqe::columnar
