#include "formats/parquet/row_ranges.h"

#include <gtest/gtest.h>

namespace sqe::parquet {
namespace {

TEST(RowRangesTest, FromRangesNormalizes) {
  RowRanges r = RowRanges::FromRanges({{10, 20}, {0, 5}, {5, 8}, {15, 25}, {30, 30}});
  EXPECT_EQ(r.ranges(), (std::vector<RowRange>{{0, 8}, {10, 25}}));
  EXPECT_EQ(r.row_count(), 23);
}

TEST(RowRangesTest, AllAndEmpty) {
  EXPECT_EQ(RowRanges::All(7).ranges(), (std::vector<RowRange>{{0, 7}}));
  EXPECT_TRUE(RowRanges::All(0).empty());
}

TEST(RowRangesTest, Overlaps) {
  RowRanges r = RowRanges::FromRanges({{10, 20}, {40, 50}});
  EXPECT_TRUE(r.Overlaps(15, 16));
  EXPECT_TRUE(r.Overlaps(0, 11));
  EXPECT_FALSE(r.Overlaps(0, 10));
  EXPECT_FALSE(r.Overlaps(20, 40));
  EXPECT_TRUE(r.Overlaps(49, 100));
  EXPECT_FALSE(r.Overlaps(50, 100));
}

TEST(RowRangesTest, IntersectAndUnion) {
  RowRanges a = RowRanges::FromRanges({{0, 10}, {20, 30}});
  RowRanges b = RowRanges::FromRanges({{5, 25}});
  EXPECT_EQ(a.Intersect(b).ranges(), (std::vector<RowRange>{{5, 10}, {20, 25}}));
  EXPECT_EQ(a.Union(b).ranges(), (std::vector<RowRange>{{0, 30}}));
  EXPECT_TRUE(a.Intersect(RowRanges()).empty());
}

}  // namespace
}  // namespace sqe::parquet
