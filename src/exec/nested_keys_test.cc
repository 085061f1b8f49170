// Nested keys (arrays, maps, rows): the grouping-key images of RowKeyEncoder and
// HashKeyColumns, the join NULL mask, the order-preserving images of EncodeSortKeys, the
// nested comparison kernels, and a spilled GROUP BY on an array key.

#include <gtest/gtest.h>

#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "columnar/binary_builder.h"
#include "columnar/fixed_width_builder.h"
#include "columnar/map_builder.h"
#include "columnar/struct_builder.h"
#include "exec/breaker_testing.h"
#include "exec/functions/builtin_families.h"
#include "exec/functions/nested_comparison.h"
#include "exec/hash_aggregate.h"
#include "exec/hash_join.h"
#include "exec/row_key_encoder.h"
#include "exec/sort_key_encoder.h"
#include "exec/spill_testing.h"

namespace sqe::exec {
namespace {

using columnar::Column;
using columnar::Field;
using namespace columnar::testing;  // NOLINT
using namespace exec::testing;      // NOLINT

using IntList = std::optional<std::vector<std::optional<int64_t>>>;
IntList L(std::initializer_list<std::optional<int64_t>> values) {
  return std::vector<std::optional<int64_t>>(values);
}
using Entries = std::optional<std::vector<std::pair<int64_t, std::optional<std::string>>>>;

/// map(bigint, varchar) rows, entries in the given order.
Column Maps(const std::vector<Entries>& rows) {
  columnar::MapBuilder builder(columnar::Map(columnar::Int64(), columnar::String()),
                               std::make_unique<columnar::Int64Builder>(columnar::Int64()),
                               std::make_unique<columnar::BinaryBuilder>(columnar::String()));
  auto* keys = builder.key_builder_as<columnar::Int64Builder>();
  auto* items = static_cast<columnar::BinaryBuilder*>(builder.item_builder());
  for (const auto& row : rows) {
    if (!row) {
      DieIfError(builder.AppendNull());
      continue;
    }
    DieIfError(builder.Append());
    for (const auto& [k, v] : *row) {
      DieIfError(keys->Append(k));
      DieIfError(v ? items->Append(*v) : items->AppendNull());
    }
  }
  return ValueOrDie(builder.Finish());
}

/// row(a bigint, b varchar) rows (nullopt: a NULL row).
Column Rows2(
    const std::vector<std::optional<std::pair<std::optional<int64_t>, std::optional<std::string>>>>&
        rows) {
  std::vector<std::unique_ptr<columnar::ColumnBuilder>> fields;
  fields.push_back(std::make_unique<columnar::Int64Builder>(columnar::Int64()));
  fields.push_back(std::make_unique<columnar::BinaryBuilder>(columnar::String()));
  columnar::StructBuilder builder(
      columnar::Struct({Field("a", columnar::Int64()), Field("b", columnar::String())}),
      std::move(fields));
  auto* a = static_cast<columnar::Int64Builder*>(builder.field_builder(0));
  auto* b = static_cast<columnar::BinaryBuilder*>(builder.field_builder(1));
  for (const auto& row : rows) {
    if (!row) {
      DieIfError(builder.AppendNull());
      continue;
    }
    DieIfError(builder.Append());
    DieIfError(row->first ? a->Append(*row->first) : a->AppendNull());
    DieIfError(row->second ? b->Append(*row->second) : b->AppendNull());
  }
  return ValueOrDie(builder.Finish());
}

EncodedRows Encode(const std::vector<Column>& keys) {
  std::vector<columnar::TypePtr> types;
  for (const Column& c : keys) types.push_back(c.type());
  EncodedRows out;
  DieIfError(RowKeyEncoder(types).Encode(keys, keys[0].length(), &out));
  return out;
}

std::vector<uint64_t> Hashes(const std::vector<Column>& keys) {
  std::vector<uint64_t> hashes(static_cast<size_t>(keys[0].length()));
  HashKeyColumns(keys, keys[0].length(), hashes.data());
  return hashes;
}

TEST(NestedRowKeyTest, ArrayImagesAreEqualExactlyForNotDistinctValues) {
  // 0 and 1 equal; 2 and 3 equal (NULL elements equal each other); 4, 5, 6, 7 all differ.
  Column lists = Int64Lists({L({1, 2}), L({1, 2}), L({1, std::nullopt}), L({1, std::nullopt}),
                             L({1}), L({}), std::nullopt, L({2, 1})});
  Column scalars = Int64s({7, 7, 7, 7, 7, 7, 7, 7});
  EncodedRows rows = Encode({scalars, lists});
  std::vector<uint64_t> hashes = Hashes({scalars, lists});
  EXPECT_EQ(rows.row(0), rows.row(1));
  EXPECT_EQ(hashes[0], hashes[1]);
  EXPECT_EQ(rows.row(2), rows.row(3));
  EXPECT_EQ(hashes[2], hashes[3]);
  for (int i : {0, 2, 4, 5, 6, 7}) {
    for (int j : {0, 2, 4, 5, 6, 7}) {
      if (i != j) {
        EXPECT_NE(rows.row(i), rows.row(j)) << i << " " << j;
      }
    }
  }
}

TEST(NestedRowKeyTest, DecodeGivesTheKeysBack) {
  Column lists = Int64Lists({L({1, 2}), std::nullopt, L({}), L({std::nullopt})});
  Column maps = Maps(
      {Entries({{2, "b"}, {1, std::nullopt}}), Entries({}), std::nullopt, Entries({{5, "e"}})});
  Column rows2 = Rows2({std::make_pair(std::optional<int64_t>(1), std::optional<std::string>("x")),
                        std::nullopt, std::make_pair(std::optional<int64_t>(), std::nullopt),
                        std::make_pair(std::optional<int64_t>(4), std::optional<std::string>(""))});
  Column strings = Strings({"s", std::nullopt, "", "t"});
  const std::vector<Column> keys = {lists, strings, maps, rows2};
  EncodedRows encoded = Encode(keys);
  std::vector<std::string_view> views;
  for (int64_t i = 0; i < 4; ++i) views.push_back(encoded.row(i));
  std::vector<columnar::TypePtr> types;
  for (const Column& c : keys) types.push_back(c.type());
  SQE_ASSIGN_OR_FAIL(std::vector<Column> decoded, RowKeyEncoder(types).Decode(views, nullptr));
  ASSERT_EQ(decoded.size(), 4u);
  EXPECT_EQ(Json(decoded[0]), Json(lists));
  EXPECT_EQ(Json(decoded[1]), Json(strings));
  EXPECT_EQ(Json(decoded[3]), Json(rows2));
  // Map entries come back in key-image order; equal as maps.
  EXPECT_EQ(Encode({decoded[2]}).bytes, Encode({maps}).bytes);
  for (const Column& c : decoded) DieIfError(c.ValidateFull());
}

TEST(NestedRowKeyTest, MapsWithTheSameEntriesInAnotherOrderAreOneKey) {
  Column maps = Maps({Entries({{1, "a"}, {2, "b"}}), Entries({{2, "b"}, {1, "a"}}),
                      Entries({{1, "a"}, {2, "c"}}), Entries({{1, "a"}})});
  EncodedRows rows = Encode({maps});
  std::vector<uint64_t> hashes = Hashes({maps});
  EXPECT_EQ(rows.row(0), rows.row(1));
  EXPECT_EQ(hashes[0], hashes[1]);
  EXPECT_NE(rows.row(0), rows.row(2));
  EXPECT_NE(rows.row(0), rows.row(3));
}

TEST(NestedRowKeyTest, JoinNullMaskFlagsANullAnywhereInside) {
  Column lists = Int64Lists({L({1, 2}), L({1, std::nullopt}), std::nullopt, L({})});
  Column maps = Maps({Entries({{1, "a"}}), Entries({{1, "a"}}), Entries({{1, "a"}}),
                      Entries({{1, std::nullopt}})});
  std::vector<uint8_t> any_null;
  KeyNullMask({lists}, 4, &any_null);
  EXPECT_EQ(any_null, std::vector<uint8_t>({0, 1, 1, 0}));
  KeyNullMask({maps}, 4, &any_null);
  EXPECT_EQ(any_null, std::vector<uint8_t>({0, 0, 0, 1}));
}

std::vector<uint32_t> Order(const Column& c, bool ascending, bool nulls_first = false) {
  columnar::Batch batch =
      ValueOrDie(columnar::Batch::Make(columnar::Schema::Make({Field("x", c.type())}), {c}));
  return ValueOrDie(SortedRowOrder(batch, {SortKey{0, ascending, nulls_first}}));
}

TEST(NestedSortKeyTest, ArraysOrderLexicographicallyShorterPrefixFirst) {
  // [] < [1] < [1, 2] < [1, 3] < [2] ; NULL last.
  Column lists = Int64Lists({L({2}), L({1, 3}), std::nullopt, L({1}), L({}), L({1, 2})});
  EXPECT_EQ(Order(lists, true), std::vector<uint32_t>({4, 3, 5, 1, 0, 2}));
  EXPECT_EQ(Order(lists, false), std::vector<uint32_t>({0, 1, 5, 3, 4, 2}));
  EXPECT_EQ(Order(lists, true, true), std::vector<uint32_t>({2, 4, 3, 5, 1, 0}));
}

TEST(NestedSortKeyTest, NegativeNumbersAndNullElementsInsideArrays) {
  // NULL elements sort after the values (Trino would refuse to compare them).
  Column lists =
      Int64Lists({L({std::nullopt}), L({-5}), L({3}), L({-5, std::nullopt}), L({-5, -1})});
  EXPECT_EQ(Order(lists, true), std::vector<uint32_t>({1, 4, 3, 2, 0}));
}

TEST(NestedSortKeyTest, RowsOrderFieldByField) {
  using R = std::pair<std::optional<int64_t>, std::optional<std::string>>;
  Column rows2 = Rows2({R(2, "a"), R(1, "b"), R(1, "a"), std::nullopt, R(1, "ab")});
  EXPECT_EQ(Order(rows2, true), std::vector<uint32_t>({2, 4, 1, 0, 3}));
}

TEST(NestedSortKeyTest, MapsHaveNoOrder) {
  Column maps = Maps({Entries({{1, "a"}})});
  columnar::Batch batch =
      ValueOrDie(columnar::Batch::Make(columnar::Schema::Make({Field("m", maps.type())}), {maps}));
  EXPECT_FALSE(SortedRowOrder(batch, {SortKey{0}}).ok());
}

TEST(NestedSortKeyTest, GroupOnlyKeysTakeMapsAndKeepEqualMapsTogether) {
  Column maps = Maps({Entries({{1, "a"}, {2, "b"}}), Entries({{3, "c"}}),
                      Entries({{2, "b"}, {1, "a"}}), std::nullopt});
  columnar::Batch batch =
      ValueOrDie(columnar::Batch::Make(columnar::Schema::Make({Field("m", maps.type())}), {maps}));
  EncodedRows rows;
  SortKey key{0};
  key.group_only = true;
  DieIfError(EncodeSortKeys(batch, {key}, &rows));
  EXPECT_EQ(rows.row(0), rows.row(2));
  EXPECT_NE(rows.row(0), rows.row(1));
  EXPECT_NE(rows.row(0), rows.row(3));
}

std::vector<std::string> Truths(const Column& c) {
  std::vector<std::string> out;
  for (int64_t i = 0; i < c.length(); ++i) {
    out.push_back(c.IsNull(i) ? "null" : (c.BoolAt(i) ? "t" : "f"));
  }
  return out;
}

TEST(NestedComparisonTest, EqualityFollowsTrinosNullRules) {
  Column a = Int64Lists(
      {L({1, 2}), L({1, std::nullopt}), L({1, std::nullopt}), L({1}), std::nullopt, L({})});
  Column b =
      Int64Lists({L({1, 2}), L({1, std::nullopt}), L({2, std::nullopt}), L({1, 2}), L({1}), L({})});
  EvalContext ctx;
  SQE_ASSIGN_OR_FAIL(Column eq, CompareColumns(CompareOp::kEq, a, b, ctx));
  EXPECT_EQ(Truths(eq), std::vector<std::string>({"t", "null", "f", "f", "null", "t"}));
  SQE_ASSIGN_OR_FAIL(Column ne, CompareColumns(CompareOp::kNe, a, b, ctx));
  EXPECT_EQ(Truths(ne), std::vector<std::string>({"f", "null", "t", "t", "null", "f"}));
  SQE_ASSIGN_OR_FAIL(Column distinct, DistinctColumns(a, b, true, ctx));
  EXPECT_EQ(Truths(distinct), std::vector<std::string>({"f", "f", "t", "t", "t", "f"}));
}

TEST(NestedComparisonTest, OrderingErrsOnlyWhenANullElementDecides) {
  EvalContext ctx;
  Column a = Int64Lists({L({1, std::nullopt}), L({1, 2})});
  Column b = Int64Lists({L({2, std::nullopt}), L({1, 2, 0})});
  SQE_ASSIGN_OR_FAIL(Column lt, CompareColumns(CompareOp::kLt, a, b, ctx));
  EXPECT_EQ(Truths(lt), std::vector<std::string>({"t", "t"}));
  Column c = Int64Lists({L({1, std::nullopt})});
  Column d = Int64Lists({L({1, 5})});
  auto refused = CompareColumns(CompareOp::kLt, c, d, ctx);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("null elements"), std::string::npos);
}

TEST(NestedComparisonTest, MapsCompareByKeyWhateverTheEntryOrder) {
  Column a = Maps(
      {Entries({{1, "a"}, {2, "b"}}), Entries({{1, "a"}, {2, std::nullopt}}), Entries({{1, "a"}})});
  Column b = Maps(
      {Entries({{2, "b"}, {1, "a"}}), Entries({{2, std::nullopt}, {1, "a"}}), Entries({{3, "a"}})});
  EvalContext ctx;
  SQE_ASSIGN_OR_FAIL(Column eq, CompareColumns(CompareOp::kEq, a, b, ctx));
  EXPECT_EQ(Truths(eq), std::vector<std::string>({"t", "null", "f"}));
  EXPECT_FALSE(IsOrderableType(a.type()));
  EXPECT_TRUE(IsComparableType(a.type()));
}

TEST(NestedKeySpillTest, GroupByOnAnArrayKeySpillsAndMatchesInMemory) {
  std::vector<IntList> keys;
  std::vector<std::optional<int64_t>> values;
  for (int64_t i = 0; i < 60000; ++i) {
    const int64_t g = (i * 7919) % 20000;
    keys.push_back(g % 97 == 0 ? L({g, std::nullopt}) : L({g, g % 3}));
    values.push_back(i);
  }
  const std::vector<Column> input = {Int64Lists(keys), Int64s(values)};
  auto registry = std::make_unique<FunctionRegistry>();
  RegisterAggregateFunctions(*registry);
  auto plan = [&] {
    std::vector<AggregateCall> calls = {
        {ValueOrDie(registry->ResolveAggregate("count", {}, false)), {}},
        {ValueOrDie(registry->ResolveAggregate("sum", {columnar::Int64()}, false)), {1}}};
    return std::make_unique<HashAggregate>(
        Source(input, 1024), std::vector<int>{0}, std::move(calls),
        columnar::Schema::Make({Field("k", input[0].type()), Field("c", columnar::Int64()),
                                Field("s", columnar::Int64())}));
  };
  SQE_ASSIGN_OR_FAIL(SpillRun expected, RunPlanSpilling(plan(), 1, 0, ""));
  ASSERT_EQ(expected.rows.size(), 20000u);
  ScopedSpillDir dir;
  SQE_ASSIGN_OR_FAIL(SpillRun run, RunPlanSpilling(plan(), 2, 1 << 20, dir.path()));
  EXPECT_GT(run.spilled_bytes, 0);
  EXPECT_EQ(Sorted(run.rows), Sorted(expected.rows));
}

TEST(NestedKeySpillTest, JoinOnAnArrayKeySpillsAndMatchesInMemory) {
  // Keys [k, k % 3]; every 50th probe key holds a NULL element and so never matches.
  std::vector<IntList> probe_keys, build_keys;
  std::vector<std::optional<std::string>> probe_values, build_values;
  for (int64_t i = 0; i < 12000; ++i) {
    const int64_t k = (i * 7) % 9000;
    probe_keys.push_back(i % 50 == 0 ? L({k, std::nullopt}) : L({k, k % 3}));
    probe_values.push_back(std::to_string(i));
  }
  for (int64_t i = 0; i < 30000; ++i) {
    const int64_t k = (i * 13) % 15000;
    build_keys.push_back(L({k, k % 3}));
    build_values.push_back(std::to_string(100000 + i));
  }
  const std::vector<Column> probe = {Int64Lists(probe_keys), Strings(probe_values)};
  const std::vector<Column> build = {Int64Lists(build_keys), Strings(build_values)};
  auto plan = [&] {
    auto schema =
        columnar::Schema::Make({Field("pk", probe[0].type()), Field("pv", columnar::String()),
                                Field("bk", build[0].type()), Field("bv", columnar::String())});
    return std::make_unique<HashJoin>(Source(probe, 1000), Source(build, 1000), JoinType::kInner,
                                      std::vector<int>{0}, std::vector<int>{0}, nullptr, false,
                                      schema);
  };
  SQE_ASSIGN_OR_FAIL(SpillRun expected, RunPlanSpilling(plan(), 1, 0, ""));
  // (i * 13) % 15000 takes every value below 15000 twice over the 30000 build rows, so each
  // of the 12000 - 240 probe keys without a NULL element matches two build rows.
  EXPECT_EQ(expected.rows.size(), (12000u - 240u) * 2u);
  ScopedSpillDir dir;
  SQE_ASSIGN_OR_FAIL(SpillRun run, RunPlanSpilling(plan(), 2, 512 << 10, dir.path()));
  EXPECT_GT(run.spilled_bytes, 0);
  EXPECT_EQ(Sorted(run.rows), Sorted(expected.rows));
}

}  // namespace
}  // namespace sqe::exec
