// Window binding, asserted on EXPLAIN text: one Window node with a column per distinct
// call, frames resolved (defaults, named windows, RANGE bound values), columns kept by
// pruning, and the physical Window operator with one spec per distinct key set.

#include <gtest/gtest.h>

#include <string>

#include "exec/physical_operator.h"
#include "exec/result_collector.h"
#include "planner/physical_planner.h"
#include "planner/testing_catalog.h"

namespace sqe::planner {
namespace {

class WindowCatalog : public testing::TestCatalog {
 public:
  WindowCatalog() {
    Add("t",
        {{"id", columnar::Int64()},
         {"g", columnar::String()},
         {"x", columnar::Int32()},
         {"d", columnar::Date32()},
         {"p", columnar::Decimal(5, 2)},
         {"unused", columnar::String()}},
        1000);
  }
};

std::string Logical(const std::string& sql) {
  WindowCatalog catalog;
  LogicalPtr plan = testing::OptimizedPlanOver(catalog, sql);
  return plan == nullptr ? "" : ExplainLogicalPlan(*plan);
}

std::string BindError(const std::string& sql) {
  WindowCatalog catalog;
  auto statement = sql::ParseStatement(sql);
  if (!statement.ok()) return statement.status().message();
  auto& query = *static_cast<const sql::ast::QueryStatement&>(**statement).query;
  auto bound = BindQuery(query, catalog, sql);
  return bound.ok() ? "" : bound.status().message();
}

TEST(BindWindowTest, ExplainShowsTheWindowNodeAndDefaultFrames) {
  const std::string plan = Logical(
      "SELECT id, row_number() OVER (PARTITION BY g ORDER BY x DESC), sum(x) OVER (PARTITION BY "
      "g) FROM t");
  EXPECT_NE(plan.find("Window [row_number() OVER (PARTITION BY g ORDER BY x DESC RANGE BETWEEN "
                      "UNBOUNDED PRECEDING AND CURRENT ROW)"),
            std::string::npos)
      << plan;
  EXPECT_NE(plan.find("sum(x) OVER (PARTITION BY g RANGE BETWEEN UNBOUNDED "
                      "PRECEDING AND CURRENT ROW)"),
            std::string::npos)
      << plan;
  // Pruning keeps what the window reads, drops the rest.
  EXPECT_NE(plan.find("columns=[id, g, x]"), std::string::npos) << plan;
}

TEST(BindWindowTest, RepeatedCallsShareOneColumn) {
  const std::string plan = Logical(
      "SELECT id, rank() OVER w FROM t WINDOW w AS (ORDER BY x) ORDER BY rank() OVER (ORDER "
      "BY x), id");
  const size_t first = plan.find("rank()");
  ASSERT_NE(first, std::string::npos) << plan;
  EXPECT_EQ(plan.find("rank()", first + 1), std::string::npos) << plan;
}

TEST(BindWindowTest, RangeOffsetsBecomeBoundValues) {
  const std::string plan = Logical(
      "SELECT count(*) OVER (ORDER BY x DESC RANGE BETWEEN 2 PRECEDING AND 1 FOLLOWING), "
      "count(*) OVER (ORDER BY d RANGE BETWEEN INTERVAL '3' DAY PRECEDING AND CURRENT ROW) FROM t");
  // DESC: 2 PRECEDING reaches key + 2, 1 FOLLOWING key - 1.
  EXPECT_NE(plan.find("RANGE BETWEEN (x + 2) PRECEDING AND (x - 1) FOLLOWING"), std::string::npos)
      << plan;
  EXPECT_NE(plan.find("RANGE BETWEEN date_add('day', BIGINT '-3', d) PRECEDING AND CURRENT ROW"),
            std::string::npos)
      << plan;
}

TEST(BindWindowTest, GroupsAndRowsOffsets) {
  const std::string plan = Logical(
      "SELECT sum(x) OVER (ORDER BY x GROUPS BETWEEN 1 PRECEDING AND 2 FOLLOWING), sum(x) "
      "OVER (ORDER BY id ROWS 3 PRECEDING) FROM t");
  EXPECT_NE(plan.find("GROUPS BETWEEN 1 PRECEDING AND 2 FOLLOWING"), std::string::npos) << plan;
  EXPECT_NE(plan.find("ROWS BETWEEN 3 PRECEDING AND CURRENT ROW"), std::string::npos) << plan;
}

TEST(BindWindowTest, WindowOverAggregation) {
  const std::string plan =
      Logical("SELECT g, sum(x), rank() OVER (ORDER BY sum(x) DESC) FROM t GROUP BY g");
  const size_t window = plan.find("Window");
  const size_t aggregate = plan.find("Aggregate");
  ASSERT_NE(window, std::string::npos) << plan;
  ASSERT_NE(aggregate, std::string::npos) << plan;
  EXPECT_LT(window, aggregate) << plan;  // the window is above the aggregation
}

TEST(BindWindowTest, FiltersOnCommonPartitionKeysGoBelowTheWindow) {
  const std::string plan = Logical(
      "SELECT * FROM (SELECT g, x, row_number() OVER (PARTITION BY g ORDER BY x) AS rn, sum(x) "
      "OVER "
      "(PARTITION BY g, id) AS s FROM t) q WHERE g = 'a' AND rn = 1 AND x > 3");
  // g partitions every function: into the scan. rn is the window's, x is not a key: above.
  EXPECT_NE(plan.find("filters=[(g = 'a')]"), std::string::npos) << plan;
  const size_t filter = plan.find("Filter");
  ASSERT_NE(filter, std::string::npos) << plan;
  EXPECT_LT(filter, plan.find("Window")) << plan;
  EXPECT_NE(plan.find("(x > 3)", filter), std::string::npos) << plan;
}

TEST(BindWindowTest, Errors) {
  EXPECT_NE(BindError("SELECT id FROM t WHERE rank() OVER (ORDER BY x) = 1")
                .find("WHERE clause cannot contain window functions"),
            std::string::npos);
  EXPECT_NE(BindError("SELECT lag(lead(x) OVER ()) OVER () FROM t").find("Cannot nest window"),
            std::string::npos);
  EXPECT_NE(BindError("SELECT sum(x) OVER (ORDER BY x ROWS BETWEEN CURRENT ROW AND 1 PRECEDING) "
                      "FROM t")
                .find("cannot end with PRECEDING"),
            std::string::npos);
  EXPECT_NE(BindError("SELECT sum(x) OVER (ORDER BY g RANGE 1 PRECEDING) FROM t")
                .find("numeric, datetime or interval (actual: varchar)"),
            std::string::npos);
  EXPECT_NE(BindError("SELECT sum(x) OVER w FROM t").find("Cannot resolve WINDOW name w"),
            std::string::npos);
}

TEST(BindWindowTest, LagLeadDefaultsCoerceOrWiden) {
  // An integer literal default of a decimal value takes the decimal type when it fits.
  EXPECT_EQ(BindError("SELECT lag(p, 1, 0) OVER (ORDER BY id) FROM t"), "");
  EXPECT_EQ(BindError("SELECT lead(p, 1, -2) OVER (ORDER BY id) FROM t"), "");
  EXPECT_NE(BindError("SELECT lag(p, 1, 1000) OVER (ORDER BY id) FROM t")
                .find("the default value of lag does not fit decimal(5,2)"),
            std::string::npos);
  // Other numeric pairs widen; non-numeric mismatches are refused.
  EXPECT_EQ(BindError("SELECT lag(x, 1, 2.5) OVER (ORDER BY id) FROM t"), "");
  EXPECT_EQ(BindError("SELECT lag(x, 1, id) OVER (ORDER BY id) FROM t"), "");
  EXPECT_NE(BindError("SELECT lag(x, 1, 'a') OVER (ORDER BY id) FROM t")
                .find("the default value of lag must be of type integer, got varchar"),
            std::string::npos);
  EXPECT_NE(BindError("SELECT lead(g, 1, 0) OVER (ORDER BY id) FROM t")
                .find("the default value of lead must be of type varchar, got integer"),
            std::string::npos);
}

TEST(BindWindowTest, PhysicalPlanHasOneWindowOperator) {
  WindowCatalog catalog;
  LogicalPtr plan = testing::OptimizedPlanOver(
      catalog,
      "SELECT row_number() OVER (PARTITION BY g ORDER BY x), sum(x) OVER (PARTITION BY g ORDER BY "
      "x), lag(id) OVER (ORDER BY id) FROM t");
  ASSERT_NE(plan, nullptr);
  auto physical = CreatePhysicalPlan(plan, PhysicalPlanOptions{});
  ASSERT_TRUE(physical.ok()) << physical.status().message();
  const std::string text = exec::ExplainPhysicalPlan(*physical->root, false);
  EXPECT_NE(text.find("Window functions=[row_number() OVER (PARTITION BY #1 ORDER BY #2 ASC NULLS "
                      "LAST"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("lag(#0) OVER (ORDER BY #0 ASC NULLS LAST"), std::string::npos) << text;
}

}  // namespace
}  // namespace sqe::planner
