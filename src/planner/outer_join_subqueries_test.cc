// Where an outer join's ON subqueries go, asserted on the optimized logical plan: a filter
// of the side that is not preserved, a mark column of a preserved side (never a filter of
// it), and for conjuncts over both sides numbered preserved rows (window) and, for FULL, a
// UNION ALL. Results are checked by tests/sql/subquery/outer_join_on_*.test.

#include <gtest/gtest.h>

#include <functional>

#include "planner/binder.h"
#include "planner/optimizer.h"
#include "planner/testing_catalog.h"
#include "sql/parser.h"

namespace sqe::planner {
namespace {

class OuterJoinCatalog : public testing::TestCatalog {
 public:
  OuterJoinCatalog() {
    const auto i64 = columnar::Int64();
    Add("orders", {{"o_orderkey", i64, 1000}, {"o_custkey", i64, 100}}, 1000);
    Add("customer", {{"c_custkey", i64, 100}, {"c_nationkey", i64, 25}}, 100);
    Add("nation", {{"n_nationkey", i64, 25}, {"n_regionkey", i64, 5}}, 25);
  }
};

LogicalPtr OptimizedPlan(const std::string& sql) {
  OuterJoinCatalog catalog;
  return testing::OptimizedPlanOver(catalog, sql);
}

void Visit(const LogicalNode& plan, const std::function<void(const LogicalNode&)>& fn) {
  fn(plan);
  for (const LogicalPtr& c : plan.children) Visit(*c, fn);
}

int Count(const LogicalNode& plan, const std::function<bool(const LogicalNode&)>& pred) {
  int n = 0;
  Visit(plan, [&](const LogicalNode& node) { n += pred(node) ? 1 : 0; });
  return n;
}

bool IsJoin(const LogicalNode& n, std::initializer_list<JoinType> types) {
  if (n.kind != LogicalKind::kJoin) return false;
  for (JoinType t : types) {
    if (n.join_type == t) return true;
  }
  return false;
}

/// Semi / anti joins (which drop rows), in either orientation.
int RowDroppingJoins(const LogicalNode& plan) {
  return Count(plan, [](const LogicalNode& n) {
    return IsJoin(n,
                  {JoinType::kSemi, JoinType::kAnti, JoinType::kRightSemi, JoinType::kRightAnti});
  });
}

int MarkJoins(const LogicalNode& plan) {
  return Count(plan, [](const LogicalNode& n) { return IsJoin(n, {JoinType::kMark}); });
}

/// The outermost join of `type`.
const LogicalNode* FindJoin(const LogicalNode& plan, JoinType type) {
  const LogicalNode* found = nullptr;
  Visit(plan, [&](const LogicalNode& n) {
    if (found == nullptr && IsJoin(n, {type})) found = &n;
  });
  return found;
}

TEST(OuterJoinSubqueriesTest, LeftJoinFiltersTheRightInput) {
  LogicalPtr plan = OptimizedPlan(
      "SELECT o_orderkey, c_custkey FROM orders LEFT JOIN customer ON o_custkey = c_custkey "
      "AND c_nationkey IN (SELECT n_nationkey FROM nation WHERE n_regionkey = 1)");
  ASSERT_NE(plan, nullptr);
  const LogicalNode* join = FindJoin(*plan, JoinType::kLeft);
  ASSERT_NE(join, nullptr);
  EXPECT_EQ(RowDroppingJoins(*join->children[0]), 0);
  EXPECT_EQ(RowDroppingJoins(*join->children[1]), 1);
}

TEST(OuterJoinSubqueriesTest, LeftJoinMarksTheLeftInputWithoutDroppingRows) {
  LogicalPtr plan = OptimizedPlan(
      "SELECT o_orderkey, c_custkey FROM orders LEFT JOIN customer ON o_custkey = c_custkey "
      "AND NOT EXISTS (SELECT 1 FROM customer c2 WHERE c2.c_custkey = o_custkey + 1)");
  ASSERT_NE(plan, nullptr);
  const LogicalNode* join = FindJoin(*plan, JoinType::kLeft);
  ASSERT_NE(join, nullptr);
  EXPECT_EQ(MarkJoins(*join->children[0]), 1);
  EXPECT_EQ(RowDroppingJoins(*plan), 0);
  EXPECT_EQ(Count(*join->children[0],
                  [](const LogicalNode& n) { return n.kind == LogicalKind::kFilter; }),
            0);
}

TEST(OuterJoinSubqueriesTest, RightJoinMirrorsLeft) {
  LogicalPtr plan = OptimizedPlan(
      "SELECT o_orderkey, c_custkey FROM orders RIGHT JOIN customer ON o_custkey = c_custkey "
      "AND o_orderkey IN (SELECT n_nationkey FROM nation) "
      "AND c_nationkey IN (SELECT n_nationkey FROM nation WHERE n_regionkey = 2)");
  ASSERT_NE(plan, nullptr);
  // The optimizer may flip the join; find the preserved customer side by its join type.
  const LogicalNode* join = FindJoin(*plan, JoinType::kRight);
  const bool flipped = join == nullptr;
  if (flipped) join = FindJoin(*plan, JoinType::kLeft);
  ASSERT_NE(join, nullptr);
  const LogicalNode& orders = *join->children[flipped ? 1 : 0];
  const LogicalNode& customer = *join->children[flipped ? 0 : 1];
  EXPECT_EQ(RowDroppingJoins(orders), 1);
  EXPECT_EQ(RowDroppingJoins(customer), 0);
  EXPECT_EQ(MarkJoins(customer), 1);
}

TEST(OuterJoinSubqueriesTest, FullJoinMarksBothInputs) {
  LogicalPtr plan = OptimizedPlan(
      "SELECT o_orderkey, c_custkey FROM orders FULL JOIN customer ON o_custkey = c_custkey "
      "AND o_orderkey IN (SELECT n_nationkey FROM nation) "
      "AND EXISTS (SELECT 1 FROM nation WHERE n_nationkey = c_nationkey)");
  ASSERT_NE(plan, nullptr);
  const LogicalNode* join = FindJoin(*plan, JoinType::kFull);
  ASSERT_NE(join, nullptr);
  EXPECT_EQ(RowDroppingJoins(*plan), 0);
  EXPECT_EQ(MarkJoins(*join->children[0]), 1);
  EXPECT_EQ(MarkJoins(*join->children[1]), 1);
}

TEST(OuterJoinSubqueriesTest, SpanningConjunctNumbersThePreservedRows) {
  LogicalPtr plan = OptimizedPlan(
      "SELECT o_orderkey, c_custkey FROM orders LEFT JOIN customer ON o_custkey = c_custkey "
      "AND EXISTS (SELECT 1 FROM nation WHERE n_nationkey = c_nationkey + o_orderkey)");
  ASSERT_NE(plan, nullptr);
  EXPECT_EQ(RowDroppingJoins(*plan), 0);
  // row_number() over orders, then count_if / row_number per numbered row.
  EXPECT_EQ(Count(*plan, [](const LogicalNode& n) { return n.kind == LogicalKind::kWindow; }), 2);
  EXPECT_EQ(Count(*plan, [](const LogicalNode& n) { return n.kind == LogicalKind::kUnionAll; }), 0);
  EXPECT_EQ(plan->output.size(), 2u);
}

TEST(OuterJoinSubqueriesTest, SpanningFullJoinIsAUnionOfBothSides) {
  LogicalPtr plan = OptimizedPlan(
      "SELECT o_orderkey, c_custkey FROM orders FULL JOIN customer ON o_custkey = c_custkey "
      "AND o_orderkey > ALL (SELECT n_nationkey FROM nation WHERE n_regionkey = c_nationkey)");
  ASSERT_NE(plan, nullptr);
  EXPECT_EQ(Count(*plan, [](const LogicalNode& n) { return n.kind == LogicalKind::kUnionAll; }), 1);
}

TEST(OuterJoinSubqueriesTest, LateralJoinOnSubqueryIsStillAnError) {
  const std::string sql =
      "SELECT o_orderkey FROM orders LEFT JOIN LATERAL (SELECT o_custkey AS k) s "
      "ON s.k IN (SELECT c_custkey FROM customer)";
  auto statement = sql::ParseStatement(sql);
  ASSERT_TRUE(statement.ok()) << statement.status().message();
  OuterJoinCatalog catalog;
  auto bound =
      BindQuery(*static_cast<const sql::ast::QueryStatement&>(**statement).query, catalog, sql);
  ASSERT_FALSE(bound.ok());
  EXPECT_NE(bound.status().message().find("not supported in JOIN ON"), std::string::npos);
}

}  // namespace
}  // namespace sqe::planner
