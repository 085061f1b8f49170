// The optimizer's work, asserted on EXPLAIN (TYPE LOGICAL) text: pushed-down filters and
// pruned columns in scans, decorrelated subqueries as joins, and the join order chosen
// for a TPC-H-shaped query from table sizes. The tables are scan sources with schemas
// and row counts only: nothing is read.

#include <gtest/gtest.h>

#include <map>

#include "planner/binder.h"
#include "planner/decorrelate.h"
#include "planner/optimizer.h"
#include "planner/testing_catalog.h"
#include "sql/parser.h"

namespace sqe::planner {
namespace {

using columnar::Field;

class FakeCatalog : public testing::TestCatalog {
 public:
  FakeCatalog() {
    Add("lineitem", {{"l_orderkey", columnar::Int64()}, {"l_partkey", columnar::Int64()},
                     {"l_suppkey", columnar::Int64()}, {"l_quantity", columnar::Decimal(15, 2)},
                     {"l_extendedprice", columnar::Decimal(15, 2)},
                     {"l_discount", columnar::Decimal(15, 2)}, {"l_shipdate", columnar::Date32()},
                     {"l_comment", columnar::String()}},
        6000000);
    Add("orders", {{"o_orderkey", columnar::Int64()}, {"o_custkey", columnar::Int64()},
                   {"o_orderdate", columnar::Date32()}, {"o_totalprice", columnar::Decimal(15, 2)},
                   {"o_comment", columnar::String()}},
        1500000);
    Add("customer", {{"c_custkey", columnar::Int64()}, {"c_nationkey", columnar::Int64()},
                     {"c_mktsegment", columnar::String()}, {"c_name", columnar::String()}},
        150000);
    Add("nation", {{"n_nationkey", columnar::Int64()}, {"n_name", columnar::String()},
                   {"n_regionkey", columnar::Int64()}},
        25);
    Add("region", {{"r_regionkey", columnar::Int64()}, {"r_name", columnar::String()}}, 5);
  }
};

/// The optimized plan of `sql`, or nullptr (with a test failure).
LogicalPtr OptimizedPlan(const std::string& sql) {
  FakeCatalog catalog;
  return testing::OptimizedPlanOver(catalog, sql);
}

/// EXPLAIN (TYPE LOGICAL) text of the optimized plan of `sql`.
std::string Plan(const std::string& sql) {
  LogicalPtr plan = OptimizedPlan(sql);
  return plan != nullptr ? ExplainLogicalPlan(*plan) : "";
}

std::string BindError(const std::string& sql) {
  FakeCatalog catalog;
  auto statement = sql::ParseStatement(sql);
  if (!statement.ok()) return statement.status().message();
  auto& query = *static_cast<const sql::ast::QueryStatement&>(**statement).query;
  auto bound = BindQuery(query, catalog, sql);
  return bound.ok() ? "" : bound.status().message();
}

TEST(OptimizerTest, FiltersAndColumnsReachTheScan) {
  std::string plan = Plan(
      "SELECT l_orderkey, l_quantity FROM lineitem WHERE l_shipdate >= DATE '1994-01-01' AND "
      "l_quantity < 24");
  // Both conjuncts sit in the scan; no Filter node above it; only 3 columns read.
  EXPECT_NE(plan.find("Scan tpch.lineitem columns=[l_orderkey, l_quantity, l_shipdate] filters=["),
            std::string::npos)
      << plan;
  EXPECT_EQ(plan.find("Filter"), std::string::npos) << plan;
}

TEST(OptimizerTest, FiltersPushThroughJoinsToTheirSide) {
  std::string plan = Plan(
      "SELECT o_orderkey FROM orders, customer WHERE o_custkey = c_custkey AND "
      "c_mktsegment = 'BUILDING' AND o_orderdate < DATE '1995-03-15'");
  EXPECT_NE(plan.find("Join INNER on"), std::string::npos) << plan;
  EXPECT_EQ(plan.find("CROSS"), std::string::npos) << plan;
  EXPECT_NE(plan.find("Scan tpch.customer columns=[c_custkey, c_mktsegment] filters=["),
            std::string::npos)
      << plan;
  EXPECT_NE(plan.find("Scan tpch.orders columns=[o_orderkey, o_custkey, o_orderdate] filters=["),
            std::string::npos)
      << plan;
}

TEST(OptimizerTest, JoinOrderBuildsTheSmallSidesAndProbesWithTheLargest) {
  // TPC-H Q5-shaped: six relations written in an unhelpful order.
  std::string plan = Plan(
      "SELECT n_name, sum(l_extendedprice) FROM region, nation, customer, orders, lineitem "
      "WHERE c_custkey = o_custkey AND l_orderkey = o_orderkey AND c_nationkey = n_nationkey "
      "AND n_regionkey = r_regionkey AND r_name = 'ASIA' AND o_orderdate >= DATE '1994-01-01' "
      "GROUP BY n_name");
  // The largest table (lineitem) is the probe side of the topmost join: the first
  // scan printed under it. No cross joins.
  size_t first_join = plan.find("Join INNER");
  ASSERT_NE(first_join, std::string::npos) << plan;
  size_t first_scan = plan.find("Scan ", first_join);
  EXPECT_EQ(plan.compare(first_scan, 19, "Scan tpch.lineitem "), 0) << plan;
  EXPECT_EQ(plan.find("CROSS"), std::string::npos) << plan;
}

TEST(OptimizerTest, CorrelatedSubqueriesBecomeJoins) {
  std::string exists = Plan(
      "SELECT o_orderkey FROM orders WHERE EXISTS (SELECT * FROM lineitem WHERE l_orderkey = "
      "o_orderkey AND l_quantity > 10)");
  EXPECT_NE(exists.find("Join SEMI on"), std::string::npos) << exists;
  std::string not_exists = Plan(
      "SELECT c_custkey FROM customer WHERE NOT EXISTS (SELECT * FROM orders WHERE o_custkey = "
      "c_custkey)");
  EXPECT_NE(not_exists.find("ANTI on"), std::string::npos) << not_exists;
  std::string not_in = Plan(
      "SELECT c_custkey FROM customer WHERE c_nationkey NOT IN (SELECT n_nationkey FROM nation)");
  EXPECT_NE(not_in.find("Join ANTI on"), std::string::npos) << not_in;
  std::string scalar = Plan(
      "SELECT l_orderkey FROM lineitem WHERE l_quantity < (SELECT avg(l2.l_quantity) FROM "
      "lineitem l2 WHERE l2.l_partkey = lineitem.l_partkey)");
  EXPECT_NE(scalar.find("Join LEFT on"), std::string::npos) << scalar;
  EXPECT_NE(scalar.find("Aggregate keys=["), std::string::npos) << scalar;
}

/// Asserts that `sql` plans to a tree without outer references whose text holds each of
/// `expected`, and returns the text.
std::string ExpectDecorrelated(const std::string& sql, const std::vector<std::string>& expected) {
  LogicalPtr plan = OptimizedPlan(sql);
  if (plan == nullptr) return "";
  std::string text = ExplainLogicalPlan(*plan);
  EXPECT_TRUE(Decorrelator::FreeColumns(*plan).empty()) << sql << "\n" << text;
  for (const std::string& e : expected) EXPECT_NE(text.find(e), std::string::npos) << e << "\n" << text;
  return text;
}

TEST(DecorrelationTest, NonEqualityExistsIsASemiJoinWithTheCorrelationAsCondition) {
  std::string plan = ExpectDecorrelated(
      "SELECT o_orderkey FROM orders WHERE EXISTS (SELECT * FROM lineitem WHERE l_orderkey < "
      "o_orderkey)",
      {"SEMI on"});
  EXPECT_EQ(plan.find("Distinct"), std::string::npos) << plan;  // no domain needed
}

TEST(DecorrelationTest, NonEqualityScalarAggregateRunsOverTheDomainOfOuterValues) {
  // The distinct outer values (domain), joined to the subquery's input, grouped by them,
  // joined back null-safely.
  ExpectDecorrelated(
      "SELECT c_custkey, (SELECT max(o_totalprice) FROM orders WHERE o_custkey < c_custkey) "
      "FROM customer",
      {"Distinct", "IS NOT DISTINCT FROM", "Aggregate keys=["});
}

TEST(DecorrelationTest, NonAggregatedScalarChecksForOneRowPerOuterValue) {
  ExpectDecorrelated(
      "SELECT c_custkey, (SELECT n_name FROM nation WHERE n_nationkey = c_nationkey) FROM "
      "customer",
      {"IS NOT DISTINCT FROM", "$single_row_check", "arbitrary"});
}

TEST(DecorrelationTest, OuterReferencesInTheSelectListAndHaving) {
  ExpectDecorrelated(
      "SELECT c_custkey, (SELECT max(o_totalprice) + c_custkey FROM orders WHERE o_custkey = "
      "c_custkey) FROM customer",
      {"IS NOT DISTINCT FROM", "Distinct"});
  ExpectDecorrelated(
      "SELECT c_custkey, (SELECT count(*) FROM orders HAVING count(*) > c_custkey) FROM customer",
      {"IS NOT DISTINCT FROM", "Distinct"});
}

TEST(DecorrelationTest, NestedSubqueryCorrelatedToTheOutermostQuery) {
  ExpectDecorrelated(
      "SELECT c_custkey FROM customer WHERE EXISTS (SELECT 1 FROM orders WHERE o_custkey = "
      "c_custkey AND EXISTS (SELECT 1 FROM nation WHERE n_nationkey = c_nationkey AND "
      "n_regionkey < o_orderkey))",
      {"SEMI on", "IS NOT DISTINCT FROM"});
}

TEST(DecorrelationTest, NestedNotInTwoLevelsUpJoinsOnTheValueNotOnNullTests) {
  // The NOT IN's left side is the outermost query's column and its subquery is correlated
  // to the middle one by a non-equality: every join keeps an equality (the IN's x = y or
  // the domain's), and the NULL answer comes from per-value counts, never from a join on
  // `x = y OR y IS NULL OR x IS NULL`.
  std::string plan = ExpectDecorrelated(
      "SELECT count(*) FROM customer WHERE c_custkey IN (SELECT o_custkey FROM orders WHERE "
      "c_nationkey NOT IN (SELECT l_suppkey FROM lineitem WHERE l_suppkey <> o_orderkey))",
      {"ANTI on (c_nationkey = l_suppkey)", "$rows", "$non_null", "IS NOT DISTINCT FROM"});
  EXPECT_EQ(plan.find("IS NULL) OR"), std::string::npos) << plan;
}

TEST(DecorrelationTest, InAsAValueOverASubqueryDecorrelatedBefore) {
  // The IN's counts decorrelate a subquery that already holds a copy of the outer plan (its
  // domain): the outer column is still an outer reference above that copy.
  ExpectDecorrelated(
      "SELECT c_custkey FROM customer WHERE EXISTS (SELECT 1 FROM nation WHERE n_nationkey = "
      "c_nationkey AND (n_regionkey = 1 OR c_custkey IN (SELECT o_custkey FROM orders WHERE "
      "o_orderkey IN (SELECT l_orderkey FROM lineitem WHERE l_suppkey <> n_regionkey))))",
      {"MARK on (c_custkey = o_custkey)", "$rows", "IS NOT DISTINCT FROM"});
}

TEST(DecorrelationTest, QuantifiedComparisonsAggregateTheSubquery) {
  ExpectDecorrelated(
      "SELECT c_custkey FROM customer WHERE c_nationkey > ALL (SELECT n_nationkey FROM nation "
      "WHERE n_regionkey = c_custkey)",
      {"IS NOT DISTINCT FROM", "count()", "max("});
}

TEST(DecorrelationTest, LateralBecomesAJoin) {
  ExpectDecorrelated(
      "SELECT c_custkey, l.n FROM customer, LATERAL (SELECT n_name AS n FROM nation WHERE "
      "n_nationkey < c_nationkey) l",
      {"Join INNER on", "IS NOT DISTINCT FROM"});
  ExpectDecorrelated(
      "SELECT c_custkey, l.n FROM customer LEFT JOIN LATERAL (SELECT count(*) AS n FROM orders "
      "WHERE o_custkey = c_custkey) l ON true",
      {"IS NOT DISTINCT FROM", "count()"});
}

TEST(DecorrelationTest, UnsupportedConstructsAreNamed) {
  EXPECT_NE(BindError("SELECT c_custkey, (SELECT o_orderkey FROM orders WHERE o_custkey < "
                      "c_custkey ORDER BY o_orderkey LIMIT 1) FROM customer")
                .find("LIMIT, OFFSET or FETCH FIRST in a correlated subquery"),
            std::string::npos);
}

TEST(OptimizerTest, SortWithLimitIsTopN) {
  std::string plan = Plan("SELECT o_orderkey FROM orders ORDER BY o_totalprice DESC LIMIT 10");
  EXPECT_NE(plan.find("TopN ["), std::string::npos) << plan;
  EXPECT_EQ(plan.find("Sort ["), std::string::npos) << plan;
}

TEST(OptimizerTest, ContradictionsEmptyTheSubtree) {
  std::string plan = Plan("SELECT o_orderkey FROM orders WHERE 1 = 0");
  EXPECT_EQ(plan.find("Scan"), std::string::npos) << plan;
  EXPECT_NE(plan.find("Values"), std::string::npos) << plan;
}

TEST(BinderTest, ErrorsNameTheProblemAndPointAtIt) {
  EXPECT_NE(BindError("SELECT nope FROM orders").find("line 1:8: Column 'nope' cannot be resolved"),
            std::string::npos);
  EXPECT_NE(BindError("SELECT * FROM missing").find("Table 'iceberg.tpch.missing' does not exist"),
            std::string::npos);
  EXPECT_NE(BindError("SELECT o_custkey, count(*) FROM orders GROUP BY o_orderkey")
                .find("'o_custkey' must be an aggregate expression or appear in GROUP BY"),
            std::string::npos);
  EXPECT_NE(BindError("SELECT o_orderkey FROM orders, lineitem l WHERE o_orderkey = l_orderkey "
                      "AND sum(l_quantity) > 1")
                .find("WHERE clause cannot contain aggregations"),
            std::string::npos);
  EXPECT_NE(BindError("SELECT n_nationkey FROM nation, region WHERE n_regionkey = r_regionkey "
                      "AND name = 1")
                .find("Column 'name' cannot be resolved"),
            std::string::npos);
}

}  // namespace
}  // namespace sqe::planner
