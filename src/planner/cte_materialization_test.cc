// WITH queries in the plans: a query referenced more than once that is not cheap to
// recompute becomes materialized CteRef nodes (one shared CteScan result in the physical
// plan, the plan shown once); one referenced once, or cheap, is inlined and filters reach
// into it.

#include <gtest/gtest.h>

#include "exec/physical_operator.h"
#include "planner/physical_planner.h"
#include "planner/testing_catalog.h"

namespace sqe::planner {
namespace {

LogicalPtr Optimized(const std::string& sql) {
  static testing::TestCatalog catalog;
  return testing::OptimizedPlanOver(catalog, sql);
}

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

size_t Count(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

constexpr char kTwice[] =
    "WITH a AS (SELECT x % 3 AS k, count(*) AS c FROM (VALUES (1), (2), (3)) v(x) GROUP BY 1) "
    "SELECT a.k, b.c FROM a JOIN a b ON a.k = b.k";

TEST(CteMaterializationTest, SharedAggregationIsComputedOnce) {
  LogicalPtr plan = Optimized(kTwice);
  ASSERT_NE(plan, nullptr);
  const std::string logical = ExplainLogicalPlan(*plan);
  EXPECT_EQ(Count(logical, "CteRef a materialized"), 2u) << logical;
  auto physical = CreatePhysicalPlan(plan, PhysicalPlanOptions{});
  ASSERT_TRUE(physical.ok()) << physical.status().message();
  const std::string text = exec::ExplainPhysicalPlan(*physical->root, false);
  EXPECT_TRUE(Has(text, "CteScan a materialized, references=2")) << text;
  EXPECT_TRUE(Has(text, "CteScan a (shared result)")) << text;
  EXPECT_EQ(Count(text, "HashAggregate"), 1u) << text;
}

TEST(CteMaterializationTest, SingleOrCheapReferencesAreInlined) {
  LogicalPtr once = Optimized(
      "WITH a AS (SELECT x % 3 AS k, count(*) AS c FROM (VALUES (1), (2)) v(x) GROUP BY 1) "
      "SELECT k FROM a WHERE k = 1");
  ASSERT_NE(once, nullptr);
  const std::string text = ExplainLogicalPlan(*once);
  EXPECT_FALSE(Has(text, "materialized")) << text;
  // The filter moved through the reference below the aggregation.
  EXPECT_LT(text.find("Aggregate"), text.find("Filter")) << text;
  LogicalPtr cheap = Optimized(
      "WITH a AS (SELECT x FROM (VALUES (1), (2)) v(x) WHERE x > 1) "
      "SELECT * FROM a JOIN a b ON a.x = b.x");
  ASSERT_NE(cheap, nullptr);
  EXPECT_FALSE(Has(ExplainLogicalPlan(*cheap), "materialized")) << ExplainLogicalPlan(*cheap);
}

}  // namespace
}  // namespace sqe::planner
