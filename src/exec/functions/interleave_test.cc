#include "exec/functions/interleave.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "columnar/test_columns.h"
#include "exec/functions/scalar_test_harness.h"

namespace sqe::exec {
namespace {

using columnar::Column;
using columnar::testing::Int64Lists;
using columnar::testing::Int64s;
using columnar::testing::Json;

Result<Column> Gathered(const std::vector<Column>& pieces, const std::vector<int32_t>& piece,
                        const std::vector<uint32_t>& row) {
  return Interleave(pieces[0].type(), pieces, piece.data(), row.data(),
                    static_cast<int64_t>(piece.size()), testing::TestContext());
}

TEST(Interleave, ArraysFromSeveralPiecesKeepElementsAndNulls) {
  Column a = Int64Lists({{{1, 2}}, std::nullopt, {{}}});
  Column b = Int64Lists({{{7, std::nullopt}}, {{8}}});
  // Row 3 has no piece (NULL); row 1 takes a NULL array.
  auto r = Gathered({a, b}, {1, 0, 0, -1, 1, 0}, {0, 1, 2, 0, 1, 0});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(Json(*r), "[[7,null],null,[],null,[8],[1,2]]");
  EXPECT_EQ(r->null_count(), 2);
}

TEST(Interleave, SlicedArrayPiecesReadTheirOwnRows) {
  Column a = Int64Lists({{{1}}, {{2, 3}}, {{4}}}).Slice(1, 2);
  Column b = Int64Lists({{{5}}});
  auto r = Gathered({a, b}, {0, 1, 0}, {1, 0, 0});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(Json(*r), "[[4],[5],[2,3]]");
}

TEST(Interleave, MapsFromSeveralPiecesKeepTheirEntries) {
  auto m1 = testing::Call("map", {Int64Lists({{{1, 2}}, {{3}}}), Int64Lists({{{10, 20}}, {{30}}})});
  auto m2 = testing::Call("map", {Int64Lists({{{4}}}), Int64Lists({{{40}}})});
  ASSERT_TRUE(m1.ok() && m2.ok());
  auto r = Gathered({*m1, *m2}, {0, 1, 0}, {1, 0, 0});
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->length(), 3);
  EXPECT_EQ(Json(r->MapKeys()), "[3,4,1,2]");
  EXPECT_EQ(Json(r->MapItems()), "[30,40,10,20]");
  EXPECT_EQ(r->ListLength(2), 2);
}

TEST(Interleave, ArraysOfArraysInterleaveOneLevelDown) {
  auto a = testing::Call("array_constructor", {Int64Lists({{{1}}, {{2, 3}}})});
  auto b = testing::Call("array_constructor", {Int64Lists({{{9}}})});
  ASSERT_TRUE(a.ok() && b.ok());
  auto r = Gathered({*a, *b}, {0, 1, 0}, {1, 0, 0});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(Json(*r), "[[[2,3]],[[9]],[[1]]]");
}

TEST(Interleave, ArraysFromOnePieceAndNullRows) {
  auto r = Gathered({Int64Lists({{{1}}, {{2, 3}}})}, {0, -1, 0}, {1, 0, 0});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(Json(*r), "[[2,3],null,[1]]");
}

TEST(Interleave, ScalarsStillTakeTheFlatPath) {
  auto r = Gathered({Int64s({1, 2}), Int64s({3})}, {1, 0, -1}, {0, 1, 0});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(Json(*r), "[3,2,null]");
}

}  // namespace
}  // namespace sqe::exec
