#include "exec/unnest.h"

#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "columnar/binary_builder.h"
#include "columnar/bit_util.h"
#include "columnar/fixed_width_builder.h"
#include "columnar/map_builder.h"
#include "exec/breaker_testing.h"

namespace sqe::exec {
namespace {

using columnar::Column;
using columnar::testing::Int64Lists;
using columnar::testing::Int64s;
using columnar::testing::ValueOrDie;
using testing::Rows;
using testing::RunPlan;
using testing::Source;

/// The schema of Unnest over `input` columns: c0.. then one field per unnested column.
columnar::SchemaPtr OutputSchema(const std::vector<Column>& input,
                                 const std::vector<columnar::TypePtr>& unnested) {
  std::vector<columnar::Field> fields;
  for (size_t i = 0; i < input.size(); ++i) {
    fields.emplace_back("c" + std::to_string(i), input[i].type());
  }
  for (size_t i = 0; i < unnested.size(); ++i) {
    fields.emplace_back("u" + std::to_string(i), unnested[i]);
  }
  return columnar::Schema::Make(std::move(fields));
}

ExprPtr Col(int index, const Column& column) { return Expr::Column(index, column.type()); }

TEST(UnnestTest, ExpandsEachRowAndRepeatsTheInputColumns) {
  std::vector<Column> input = {Int64s({1, 2, 3, 4}),
                               Int64Lists({{{10, 11}}, {{}}, std::nullopt, {{40, std::nullopt}}})};
  auto op = std::make_unique<Unnest>(Source(input), std::vector<ExprPtr>{Col(1, input[1])},
                                     /*with_ordinality=*/false, /*outer=*/false,
                                     OutputSchema(input, {columnar::Int64()}));
  auto batches = ValueOrDie(RunPlan(std::move(op)));
  EXPECT_EQ(Rows(batches), (std::vector<std::string>{"1|[10,11]|10", "1|[10,11]|11",
                                                     "4|[40,null]|40", "4|[40,null]|null"}));
}

TEST(UnnestTest, ZipsArraysPaddingTheShorterWithNullsAndCountsOrdinality) {
  std::vector<Column> input = {Int64s({1, 2}), Int64Lists({{{1, 2, 3}}, {{7}}}),
                               Int64Lists({{{10}}, std::nullopt})};
  auto op = std::make_unique<Unnest>(
      Source(input), std::vector<ExprPtr>{Col(1, input[1]), Col(2, input[2])},
      /*with_ordinality=*/true, /*outer=*/false,
      OutputSchema(input, {columnar::Int64(), columnar::Int64(), columnar::Int64()}));
  auto batches = ValueOrDie(RunPlan(std::move(op)));
  EXPECT_EQ(Rows(batches),
            (std::vector<std::string>{"1|[1,2,3]|[10]|1|10|1", "1|[1,2,3]|[10]|2|null|2",
                                      "1|[1,2,3]|[10]|3|null|3", "2|[7]|null|7|null|1"}));
}

/// A list<struct<a bigint, b bigint>> column [{1,10}, NULL, {3,NULL}], NULL, [{5,50}] whose
/// NULL row still has field values underneath (as a projection may leave them).
Column RowLists() {
  const columnar::TypePtr row = columnar::Struct(
      {columnar::Field("a", columnar::Int64()), columnar::Field("b", columnar::Int64())});
  auto row_validity = ValueOrDie(columnar::Buffer::Allocate(1));
  for (int i : {0, 2, 3}) columnar::SetBit(row_validity->mutable_data(), i);
  Column rows = ValueOrDie(Column::Make(
      row, 4, {row_validity}, {Int64s({1, 2, 3, 5}), Int64s({10, 20, std::nullopt, 50})}));
  auto validity = ValueOrDie(columnar::Buffer::Allocate(1));
  for (int i : {0, 2}) columnar::SetBit(validity->mutable_data(), i);
  auto offsets = ValueOrDie(columnar::Buffer::Allocate(4 * sizeof(int32_t)));
  const int32_t bounds[] = {0, 3, 3, 4};
  std::copy(bounds, bounds + 4, offsets->mutable_data_as<int32_t>());
  return ValueOrDie(Column::Make(columnar::List(row), 3, {validity, offsets}, {rows}));
}

TEST(UnnestTest, ArrayOfRowsGivesOneColumnPerFieldAndNullFieldsForANullRow) {
  std::vector<Column> input = {Int64s({1, 2, 3}), RowLists(), Int64Lists({{{7}}, {{8}}, {}})};
  auto op = std::make_unique<Unnest>(
      Source(input), std::vector<ExprPtr>{Col(1, input[1]), Col(2, input[2])},
      /*with_ordinality=*/true, /*outer=*/false,
      OutputSchema(input,
                   {columnar::Int64(), columnar::Int64(), columnar::Int64(), columnar::Int64()}));
  auto batches = ValueOrDie(RunPlan(std::move(op)));
  std::vector<std::string> rows = Rows(batches);
  ASSERT_EQ(rows.size(), 5u);
  // Past the input's three columns: a, b, the plain array's element, the ordinal.
  auto tail = [](const std::string& row) {
    size_t at = row.size();
    for (int bars = 0; bars < 4; ++bars) at = row.rfind('|', at - 1);
    return row.substr(at + 1);
  };
  EXPECT_EQ(tail(rows[0]), "1|10|7|1");
  EXPECT_EQ(tail(rows[1]), "null|null|null|2");
  EXPECT_EQ(tail(rows[2]), "3|null|null|3");
  EXPECT_EQ(tail(rows[3]), "null|null|8|1");
  EXPECT_EQ(tail(rows[4]), "5|50|null|1");
}

TEST(UnnestTest, OuterKeepsRowsWithoutElementsWithNulls) {
  std::vector<Column> input = {Int64s({1, 2, 3}), Int64Lists({{{5}}, {{}}, std::nullopt})};
  auto op = std::make_unique<Unnest>(Source(input), std::vector<ExprPtr>{Col(1, input[1])},
                                     /*with_ordinality=*/true, /*outer=*/true,
                                     OutputSchema(input, {columnar::Int64(), columnar::Int64()}));
  auto batches = ValueOrDie(RunPlan(std::move(op)));
  EXPECT_EQ(Rows(batches),
            (std::vector<std::string>{"1|[5]|5|1", "2|[]|null|null", "3|null|null|null"}));
}

TEST(UnnestTest, HugeArrayComesOutInBatchesOfAtMostTheBatchSize) {
  std::vector<std::optional<int64_t>> big;
  for (int64_t i = 0; i < 1000; ++i) big.push_back(i);
  std::vector<Column> input = {Int64s({7, 8}), Int64Lists({{big}, {{-1}}})};
  auto op = std::make_unique<Unnest>(Source(input), std::vector<ExprPtr>{Col(1, input[1])},
                                     /*with_ordinality=*/true, /*outer=*/false,
                                     OutputSchema(input, {columnar::Int64(), columnar::Int64()}));
  auto batches = ValueOrDie(RunPlan(std::move(op), 1, nullptr, /*batch_size=*/64));
  int64_t total = 0;
  int64_t sum = 0;
  for (const columnar::Batch& b : batches) {
    EXPECT_LE(b.num_rows(), 64);
    for (int64_t r = 0; r < b.num_rows(); ++r) {
      if (b.column(0).Value<int64_t>(r) == 7) {
        EXPECT_EQ(b.column(2).Value<int64_t>(r) + 1, b.column(3).Value<int64_t>(r));
        sum += b.column(2).Value<int64_t>(r);
      }
    }
    total += b.num_rows();
  }
  EXPECT_EQ(total, 1001);
  EXPECT_EQ(sum, 999 * 1000 / 2);
  EXPECT_GE(batches.size(), 16u);
}

TEST(UnnestTest, MapGivesKeyAndValueColumns) {
  auto type = columnar::Map(columnar::String(), columnar::Int64());
  columnar::MapBuilder builder(type, std::make_unique<columnar::BinaryBuilder>(columnar::String()),
                               std::make_unique<columnar::Int64Builder>(columnar::Int64()));
  auto* keys = builder.key_builder_as<columnar::BinaryBuilder>();
  auto* items = builder.item_builder_as<columnar::Int64Builder>();
  columnar::testing::DieIfError(builder.Append());
  columnar::testing::DieIfError(keys->Append("a"));
  columnar::testing::DieIfError(items->Append(1));
  columnar::testing::DieIfError(keys->Append("b"));
  columnar::testing::DieIfError(items->AppendNull());
  columnar::testing::DieIfError(builder.AppendNull());
  std::vector<Column> input = {Int64s({1, 2}), ValueOrDie(builder.Finish())};
  auto op = std::make_unique<Unnest>(Source(input), std::vector<ExprPtr>{Col(1, input[1])},
                                     /*with_ordinality=*/false, /*outer=*/false,
                                     OutputSchema(input, {columnar::String(), columnar::Int64()}));
  auto batches = ValueOrDie(RunPlan(std::move(op)));
  ASSERT_EQ(Rows(batches).size(), 2u);
  EXPECT_EQ(batches[0].column(2).StringAt(0), "a");
  EXPECT_EQ(batches[0].column(3).Value<int64_t>(0), 1);
  EXPECT_EQ(batches[0].column(2).StringAt(1), "b");
  EXPECT_TRUE(batches[0].column(3).IsNull(1));
}

TEST(UnnestTest, NonArrayInputIsAnError) {
  std::vector<Column> input = {Int64s({1})};
  auto op = std::make_unique<Unnest>(Source(input), std::vector<ExprPtr>{Col(0, input[0])},
                                     /*with_ordinality=*/false, /*outer=*/false,
                                     OutputSchema(input, {columnar::Int64()}));
  auto result = RunPlan(std::move(op));
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("Cannot unnest"), std::string::npos);
}

TEST(UnnestTest, ChargesAndReleasesTheQueryTracker) {
  auto tracker = MemoryTracker::Create(MemoryScope::kQuery, "test");
  {
    std::vector<Column> input = {Int64s({1, 2}), Int64Lists({{{1, 2, 3}}, {{4}}})};
    auto op = std::make_unique<Unnest>(Source(input), std::vector<ExprPtr>{Col(1, input[1])},
                                       /*with_ordinality=*/false, /*outer=*/false,
                                       OutputSchema(input, {columnar::Int64()}));
    auto batches = ValueOrDie(RunPlan(std::move(op), 2, tracker));
    EXPECT_EQ(Rows(batches).size(), 4u);
    EXPECT_GT(tracker->peak(), 0);
  }
  EXPECT_EQ(tracker->current(), 0);
}

}  // namespace
}  // namespace sqe::exec
