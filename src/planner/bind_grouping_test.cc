#include "planner/bind_grouping.h"

#include <gtest/gtest.h>

namespace sqe::planner {
namespace {

using sql::ast::GroupingKind;

GroupingElementKeys Element(GroupingKind kind, std::vector<std::vector<size_t>> parts) {
  GroupingElementKeys e;
  e.kind = kind;
  e.parts = std::move(parts);
  return e;
}

TEST(ExpandGroupingSets, RollupGivesPrefixesLongestFirst) {
  auto sets = ExpandGroupingSets({Element(GroupingKind::kRollup, {{0}, {1}, {2}})}, false);
  ASSERT_TRUE(sets.ok()) << sets.status().ToString();
  EXPECT_EQ(*sets, (std::vector<uint64_t>{0b111, 0b011, 0b001, 0b000}));
}

TEST(ExpandGroupingSets, RollupOfCompositePartsMovesTogether) {
  auto sets = ExpandGroupingSets({Element(GroupingKind::kRollup, {{0, 1}, {2}})}, false);
  ASSERT_TRUE(sets.ok());
  EXPECT_EQ(*sets, (std::vector<uint64_t>{0b111, 0b011, 0b000}));
}

TEST(ExpandGroupingSets, CubeGivesEverySubset) {
  auto sets = ExpandGroupingSets({Element(GroupingKind::kCube, {{0}, {1}})}, false);
  ASSERT_TRUE(sets.ok());
  // (a, b), (a), (b), (): the first part varies slowest.
  EXPECT_EQ(*sets, (std::vector<uint64_t>{0b11, 0b01, 0b10, 0b00}));
}

TEST(ExpandGroupingSets, ElementsCombineAsCrossProduct) {
  // GROUP BY a, ROLLUP(b, c): a is in every set.
  auto sets = ExpandGroupingSets(
      {Element(GroupingKind::kSimple, {{0}}), Element(GroupingKind::kRollup, {{1}, {2}})}, false);
  ASSERT_TRUE(sets.ok());
  EXPECT_EQ(*sets, (std::vector<uint64_t>{0b111, 0b011, 0b001}));
}

TEST(ExpandGroupingSets, DuplicatesStayUnlessDistinct) {
  // GROUP BY a, ROLLUP(a, b) = GROUPING SETS ((a, b), (a), (a)).
  std::vector<GroupingElementKeys> elements = {Element(GroupingKind::kSimple, {{0}}),
                                               Element(GroupingKind::kRollup, {{0}, {1}})};
  auto all = ExpandGroupingSets(elements, false);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(*all, (std::vector<uint64_t>{0b11, 0b01, 0b01}));
  auto distinct = ExpandGroupingSets(elements, true);
  ASSERT_TRUE(distinct.ok());
  EXPECT_EQ(*distinct, (std::vector<uint64_t>{0b11, 0b01}));
}

TEST(ExpandGroupingSets, GroupingSetsListedAsGiven) {
  auto sets = ExpandGroupingSets({Element(GroupingKind::kGroupingSets, {{1}, {0, 1}, {}})}, false);
  ASSERT_TRUE(sets.ok());
  EXPECT_EQ(*sets, (std::vector<uint64_t>{0b10, 0b11, 0b00}));
}

TEST(ExpandGroupingSets, LimitsAreErrors) {
  EXPECT_FALSE(ExpandGroupingSets({Element(GroupingKind::kRollup, {{70}})}, false).ok());
  std::vector<std::vector<size_t>> thirteen;
  for (size_t i = 0; i < 13; ++i) thirteen.push_back({i});
  EXPECT_FALSE(ExpandGroupingSets({Element(GroupingKind::kCube, thirteen)}, false).ok());
  std::vector<std::vector<size_t>> ten(thirteen.begin(), thirteen.begin() + 10);
  // 1024 * 1024 sets exceed kMaxGroupingSets.
  EXPECT_FALSE(ExpandGroupingSets(
                   {Element(GroupingKind::kCube, ten), Element(GroupingKind::kCube, ten)}, false)
                   .ok());
}

TEST(IsPlainGroupBy, OnlySimpleElements) {
  EXPECT_TRUE(IsPlainGroupBy({Element(GroupingKind::kSimple, {{0, 1}})}));
  EXPECT_FALSE(
      IsPlainGroupBy({Element(GroupingKind::kSimple, {{0}}), Element(GroupingKind::kCube, {{1}})}));
}

TEST(GroupingValue, FirstArgumentIsTheMostSignificantBit) {
  // Set groups key 0 only: key 1 and key 2 are aggregated away.
  EXPECT_EQ(GroupingValue(0b001, {0}), 0);
  EXPECT_EQ(GroupingValue(0b001, {1}), 1);
  EXPECT_EQ(GroupingValue(0b001, {0, 1}), 0b01);
  EXPECT_EQ(GroupingValue(0b001, {1, 0}), 0b10);
  EXPECT_EQ(GroupingValue(0b001, {2, 1, 0}), 0b110);
  EXPECT_EQ(GroupingValue(0b000, {0, 1, 2}), 0b111);
}

}  // namespace
}  // namespace sqe::planner
