// WITH RECURSIVE in the plans: the logical RecursiveCte over its anchor and a step that
// reads the WorkingTable, the optimizer pushing the step's filter onto the working table,
// the physical RecursiveCte with a WorkingTableScan, and a recursive query that never
// references itself planned as an ordinary one.

#include <gtest/gtest.h>

#include "exec/physical_operator.h"
#include "planner/physical_planner.h"
#include "planner/testing_catalog.h"

namespace sqe::planner {
namespace {

std::string LogicalText(const std::string& sql) {
  testing::TestCatalog catalog;
  LogicalPtr plan = testing::OptimizedPlanOver(catalog, sql);
  return plan != nullptr ? ExplainLogicalPlan(*plan) : "";
}

std::string PhysicalText(const std::string& sql) {
  testing::TestCatalog catalog;
  LogicalPtr plan = testing::OptimizedPlanOver(catalog, sql);
  if (plan == nullptr) return "";
  auto physical = CreatePhysicalPlan(plan, PhysicalPlanOptions{});
  EXPECT_TRUE(physical.ok()) << physical.status().message();
  return physical.ok() ? exec::ExplainPhysicalPlan(*physical->root, false) : "";
}

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

constexpr char kCounting[] =
    "WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 3) "
    "SELECT n FROM t";

TEST(RecursiveCtePlanTest, LogicalPlanReadsTheWorkingTable) {
  const std::string plan = LogicalText(kCounting);
  EXPECT_TRUE(Has(plan, "RecursiveCte t UNION ALL")) << plan;
  EXPECT_TRUE(Has(plan, "WorkingTable t")) << plan;
  // The step's WHERE stays directly over the working table.
  const size_t filter = plan.find("Filter");
  const size_t working = plan.find("WorkingTable t");
  ASSERT_NE(filter, std::string::npos) << plan;
  EXPECT_LT(filter, working) << plan;
}

TEST(RecursiveCtePlanTest, UnionDistinctIsMarked) {
  const std::string plan =
      LogicalText("WITH RECURSIVE t(n) AS (SELECT 1 UNION SELECT n FROM t) SELECT n FROM t");
  EXPECT_TRUE(Has(plan, "RecursiveCte t UNION\n") || Has(plan, "RecursiveCte t UNION est")) << plan;
  EXPECT_FALSE(Has(plan, "UNION ALL")) << plan;
}

TEST(RecursiveCtePlanTest, PhysicalPlanHasTheIterationOperators) {
  const std::string plan = PhysicalText(kCounting);
  EXPECT_TRUE(Has(plan, "RecursiveCte t UNION ALL")) << plan;
  EXPECT_TRUE(Has(plan, "WorkingTableScan t")) << plan;
}

TEST(RecursiveCtePlanTest, WithoutSelfReferenceItIsAnOrdinaryQuery) {
  const std::string plan =
      LogicalText("WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT 2) SELECT n FROM t");
  EXPECT_FALSE(Has(plan, "RecursiveCte")) << plan;
  EXPECT_TRUE(Has(plan, "UnionAll")) << plan;
}

}  // namespace
}  // namespace sqe::planner
