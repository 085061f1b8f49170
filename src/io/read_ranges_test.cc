#include "io/read_ranges.h"

#include <gtest/gtest.h>

#include "io/memory_file.h"

namespace sqe::io {
namespace {

TEST(CoalesceRangesTest, MergesWithinThresholdAndSorts) {
  auto merged = CoalesceRanges({{100, 10}, {0, 10}, {15, 5}, {50, 0}}, /*hole=*/5);
  EXPECT_EQ(merged, (std::vector<ByteRange>{{0, 20}, {100, 10}}));
}

TEST(CoalesceRangesTest, OverlappingRangesAlwaysMerge) {
  auto merged = CoalesceRanges({{0, 100}, {50, 100}}, 0, /*max=*/10);
  EXPECT_EQ(merged, (std::vector<ByteRange>{{0, 150}}));
}

TEST(CoalesceRangesTest, RespectsMaximumLength) {
  auto merged = CoalesceRanges({{0, 10}, {10, 10}, {20, 10}}, 100, /*max=*/20);
  EXPECT_EQ(merged, (std::vector<ByteRange>{{0, 20}, {20, 10}}));
}

TEST(ReadRangesTest, ServesEachRangeFromFewReads) {
  std::string data;
  for (int i = 0; i < 1000; ++i) data.push_back(static_cast<char>('a' + i % 26));
  MemoryFile file(data);
  std::vector<ByteRange> ranges = {{500, 10}, {0, 4}, {8, 4}, {900, 50}};
  auto out = ReadRanges(file, ranges, {.hole_threshold = 16, .max_merged_length = 0, .tracker = nullptr});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ASSERT_EQ(out->size(), 4u);
  for (size_t i = 0; i < ranges.size(); ++i) {
    EXPECT_EQ((*out)[i]->view(), data.substr(ranges[i].offset, ranges[i].length));
  }
  EXPECT_EQ(file.read_calls(), 3);  // [0,12) merged; 500 and 900 apart
  EXPECT_EQ(file.bytes_read(), 12 + 10 + 50);
}

TEST(ReadRangesTest, RangePastEndFails) {
  MemoryFile file("abc");
  auto out = ReadRanges(file, {{0, 10}});
  EXPECT_EQ(out.status().code(), StatusCode::kIOError);
}

}  // namespace
}  // namespace sqe::io
