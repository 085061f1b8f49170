// Join planning asserted on the optimized logical plan: join order from column metrics
// (distinct-value bounds), the build side of outer, semi and anti joins, and semi joins
// moved below inner joins. Tables are scan sources with a schema, a row count and
// per-column distinct bounds only: nothing is read.

#include <gtest/gtest.h>

#include <functional>
#include <map>

#include "planner/binder.h"
#include "planner/optimizer.h"
#include "planner/testing_catalog.h"
#include "sql/parser.h"

namespace sqe::planner {
namespace {

using testing::TestColumn;

/// TPC-H-shaped tables at SF1 with the distinct bounds Iceberg column metrics give.
class JoinCatalog : public testing::TestCatalog {
 public:
  JoinCatalog() {
    const auto i64 = columnar::Int64();
    const auto text = columnar::String();
    Add("lineitem", {{"l_orderkey", i64, 6000000}, {"l_suppkey", i64, 10000}, {"l_quantity", i64}},
        6000000);
    Add("orders", {{"o_orderkey", i64, 6000000}, {"o_custkey", i64, 150000}, {"o_comment", text}},
        1500000);
    Add("customer", {{"c_custkey", i64, 150000}, {"c_nationkey", i64, 25}, {"c_name", text}},
        150000);
    Add("supplier", {{"s_suppkey", i64, 10000}, {"s_nationkey", i64, 25}, {"s_name", text}}, 10000);
    Add("nation", {{"n_nationkey", i64, 25}, {"n_name", text}, {"n_regionkey", i64, 5}}, 25);
    Add("region", {{"r_regionkey", i64, 5}, {"r_name", text}}, 5);
  }
};

LogicalPtr OptimizedPlan(const std::string& sql) {
  JoinCatalog catalog;
  return testing::OptimizedPlanOver(catalog, sql);
}

/// Every node of `plan`, depth first.
void Visit(const LogicalPtr& plan, const std::function<void(const LogicalNode&)>& fn) {
  fn(*plan);
  for (const LogicalPtr& c : plan->children) Visit(c, fn);
}

/// The table names a subtree scans ("tpch.orders", ...), in plan order.
std::vector<std::string> Tables(const LogicalPtr& plan) {
  std::vector<std::string> out;
  Visit(plan, [&](const LogicalNode& n) {
    if (n.kind == LogicalKind::kScan) out.push_back(n.source->display_name);
  });
  return out;
}

/// The joins of `plan`, outermost first.
std::vector<const LogicalNode*> Joins(const LogicalPtr& plan) {
  std::vector<const LogicalNode*> out;
  Visit(plan, [&](const LogicalNode& n) {
    if (n.kind == LogicalKind::kJoin) out.push_back(&n);
  });
  return out;
}

bool Contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// TPC-H Q5's shape: customer and supplier share only c_nationkey = s_nationkey, 25
// distinct values, so joining them first multiplies rows (150000 x 10000 / 25). With the
// distinct bounds the plan joins lineitem with orders and customer before supplier, and
// supplier never meets customer without lineitem.
TEST(JoinPlanningTest, LowCardinalityKeysAreNotJoinedFirst) {
  LogicalPtr plan = OptimizedPlan(
      "SELECT n_name, sum(l_quantity) FROM customer, orders, lineitem, supplier, nation, region "
      "WHERE c_custkey = o_custkey AND l_orderkey = o_orderkey AND l_suppkey = s_suppkey "
      "AND c_nationkey = s_nationkey AND s_nationkey = n_nationkey "
      "AND n_regionkey = r_regionkey AND r_name = 'ASIA' GROUP BY n_name");
  ASSERT_NE(plan, nullptr);
  for (const LogicalNode* join : Joins(plan)) {
    ASSERT_EQ(join->children.size(), 2u);
    std::vector<std::string> left = Tables(join->children[0]);
    std::vector<std::string> right = Tables(join->children[1]);
    std::vector<std::string> both = left;
    both.insert(both.end(), right.begin(), right.end());
    if (Contains(both, "tpch.customer") && Contains(both, "tpch.supplier")) {
      EXPECT_TRUE(Contains(both, "tpch.lineitem"))
          << "customer joined with supplier without lineitem:\n"
          << ExplainLogicalPlan(*plan);
    }
  }
}

// `customer LEFT JOIN orders`: the hash table goes on the smaller customer side, so the
// join runs as orders RIGHT JOIN customer.
TEST(JoinPlanningTest, LeftJoinBuildsOnTheSmallerPreservedSide) {
  LogicalPtr plan = OptimizedPlan(
      "SELECT c_custkey, count(o_orderkey) FROM customer LEFT JOIN orders "
      "ON c_custkey = o_custkey AND o_comment NOT LIKE '%special%' GROUP BY c_custkey");
  ASSERT_NE(plan, nullptr);
  std::vector<const LogicalNode*> joins = Joins(plan);
  ASSERT_EQ(joins.size(), 1u);
  EXPECT_EQ(joins[0]->join_type, JoinType::kRight) << ExplainLogicalPlan(*plan);
  EXPECT_EQ(Tables(joins[0]->children[1]), std::vector<std::string>{"tpch.customer"});
  // A small right side stays a LEFT join built on it.
  plan = OptimizedPlan("SELECT * FROM orders LEFT JOIN customer ON c_custkey = o_custkey");
  ASSERT_NE(plan, nullptr);
  joins = Joins(plan);
  ASSERT_EQ(joins.size(), 1u);
  EXPECT_EQ(joins[0]->join_type, JoinType::kLeft);
}

// EXISTS over a much larger table builds on the outer side (RIGHT SEMI / RIGHT ANTI); NOT
// IN's null-aware anti join never flips.
TEST(JoinPlanningTest, SemiAndAntiJoinsBuildOnTheSmallerSide) {
  LogicalPtr plan = OptimizedPlan(
      "SELECT c_name FROM customer WHERE EXISTS (SELECT * FROM orders WHERE o_custkey = "
      "c_custkey)");
  ASSERT_NE(plan, nullptr);
  std::vector<const LogicalNode*> joins = Joins(plan);
  ASSERT_EQ(joins.size(), 1u);
  EXPECT_EQ(joins[0]->join_type, JoinType::kRightSemi) << ExplainLogicalPlan(*plan);
  EXPECT_EQ(Tables(joins[0]->children[1]), std::vector<std::string>{"tpch.customer"});

  plan = OptimizedPlan(
      "SELECT c_name FROM customer WHERE NOT EXISTS "
      "(SELECT * FROM orders WHERE o_custkey = c_custkey)");
  ASSERT_NE(plan, nullptr);
  joins = Joins(plan);
  ASSERT_EQ(joins.size(), 1u);
  EXPECT_EQ(joins[0]->join_type, JoinType::kRightAnti);

  plan = OptimizedPlan(
      "SELECT c_name FROM customer WHERE c_custkey NOT IN (SELECT o_custkey FROM orders)");
  ASSERT_NE(plan, nullptr);
  joins = Joins(plan);
  ASSERT_EQ(joins.size(), 1u);
  EXPECT_EQ(joins[0]->join_type, JoinType::kAnti) << ExplainLogicalPlan(*plan);
}

// TPC-H Q18's shape: the IN filter tests only o_orderkey, so it moves onto orders below
// the joins with lineitem and customer.
TEST(JoinPlanningTest, SelectiveSemiJoinMovesBelowInnerJoins) {
  LogicalPtr plan = OptimizedPlan(
      "SELECT c_name, o_orderkey, sum(l_quantity) FROM customer, orders, lineitem "
      "WHERE o_orderkey IN (SELECT l_orderkey FROM lineitem GROUP BY l_orderkey "
      "HAVING sum(l_quantity) > 300) AND c_custkey = o_custkey AND o_orderkey = l_orderkey "
      "GROUP BY c_name, o_orderkey");
  ASSERT_NE(plan, nullptr);
  bool found = false;
  for (const LogicalNode* join : Joins(plan)) {
    if (join->join_type != JoinType::kSemi && join->join_type != JoinType::kRightSemi) continue;
    found = true;
    const LogicalPtr& filtered =
        join->join_type == JoinType::kSemi ? join->children[0] : join->children[1];
    EXPECT_EQ(Tables(filtered), std::vector<std::string>{"tpch.orders"})
        << ExplainLogicalPlan(*plan);
  }
  EXPECT_TRUE(found) << ExplainLogicalPlan(*plan);
}

}  // namespace
}  // namespace sqe::planner
