// Subqueries inside aggregate arguments (and FILTER / ordered-aggregate ORDER BY): asserted on
// the bound logical plan, they join the rows below the Aggregate node (never dropping one),
// and the aggregate reads their value columns. Results are checked by
// tests/sql/subquery/aggregate_argument*.test. Also the ContainsSubquery overloads.

#include <gtest/gtest.h>

#include <functional>

#include "planner/binder.h"
#include "planner/binder_internal.h"
#include "planner/decorrelate.h"
#include "planner/testing_catalog.h"
#include "sql/parser.h"

namespace sqe::planner {
namespace {

class AggregateArgumentCatalog : public testing::TestCatalog {
 public:
  AggregateArgumentCatalog() {
    const auto i64 = columnar::Int64();
    const auto text = columnar::String();
    Add("lineitem",
        {{"l_orderkey", i64, 1000},
         {"l_partkey", i64, 200},
         {"l_quantity", i64, 50},
         {"l_flag", text, 3}},
        6000);
    Add("part", {{"p_partkey", i64, 200}, {"p_size", i64, 50}, {"p_brand", text, 25}}, 200);
    Add("orders", {{"o_orderkey", i64, 1000}, {"o_custkey", i64, 100}}, 1000);
  }
};

/// The bound (not optimized) plan of `sql`, or the binder's error.
Result<LogicalPtr> BoundPlan(const std::string& sql) {
  AggregateArgumentCatalog catalog;
  SQE_ASSIGN_OR_RETURN(sql::ast::StatementPtr statement, sql::ParseStatement(sql));
  auto& query = *static_cast<const sql::ast::QueryStatement&>(*statement).query;
  SQE_ASSIGN_OR_RETURN(BoundQuery bound, BindQuery(query, catalog, sql));
  return bound.plan;
}

LogicalPtr MustBind(const std::string& sql) {
  auto plan = BoundPlan(sql);
  EXPECT_TRUE(plan.ok()) << sql << ": " << plan.status().message();
  return plan.ok() ? *plan : nullptr;
}

void Visit(const LogicalNode& plan, const std::function<void(const LogicalNode&)>& fn) {
  fn(plan);
  for (const LogicalPtr& c : plan.children) Visit(*c, fn);
}

int CountJoins(const LogicalNode& plan, std::initializer_list<JoinType> types) {
  int n = 0;
  Visit(plan, [&](const LogicalNode& node) {
    if (node.kind != LogicalKind::kJoin) return;
    for (JoinType t : types) n += node.join_type == t ? 1 : 0;
  });
  return n;
}

/// The outermost Aggregate node.
const LogicalNode* TopAggregate(const LogicalNode& plan) {
  const LogicalNode* found = nullptr;
  Visit(plan, [&](const LogicalNode& n) {
    if (found == nullptr && n.kind == LogicalKind::kAggregate) found = &n;
  });
  return found;
}

/// A bound plan and its outermost Aggregate node (nullptr, with a test failure, when
/// binding fails or there is none).
struct BoundAggregate {
  LogicalPtr plan;
  const LogicalNode* agg = nullptr;
};

BoundAggregate BindAggregate(const std::string& sql) {
  BoundAggregate out;
  out.plan = MustBind(sql);
  if (out.plan != nullptr) out.agg = TopAggregate(*out.plan);
  EXPECT_NE(out.agg, nullptr) << sql;
  return out;
}

/// Semi / anti joins (which drop rows), in either orientation.
int RowDroppingJoins(const LogicalNode& plan) {
  return CountJoins(plan,
                    {JoinType::kSemi, JoinType::kAnti, JoinType::kRightSemi, JoinType::kRightAnti});
}

/// The column ids the aggregate calls of `agg` read.
std::vector<int32_t> ArgumentColumns(const LogicalNode& agg) {
  std::vector<int32_t> cols;
  for (const AggregateSpec& a : agg.aggregates) {
    for (const ExprPtr& e : a.args) exec::CollectColumns(*e, &cols);
    if (a.filter != nullptr) exec::CollectColumns(*a.filter, &cols);
  }
  return cols;
}

/// The column ids some table scan under `plan` produces.
std::vector<int32_t> ScanColumns(const LogicalNode& plan) {
  std::vector<int32_t> cols;
  Visit(plan, [&](const LogicalNode& n) {
    if (n.kind != LogicalKind::kScan) return;
    for (const ColumnInfo& c : n.output) cols.push_back(c.id);
  });
  return cols;
}

/// Whether the aggregate reads a column that no scan produces (a subquery's value or mark)
/// and every column it reads is an output of its input.
bool ReadsJoinedValue(const LogicalNode& agg) {
  const LogicalNode& input = *agg.children[0];
  const std::vector<int32_t> scans = ScanColumns(input);
  bool joined = false;
  for (int32_t id : ArgumentColumns(agg)) {
    if (input.IndexOf(id) < 0) return false;
    if (std::find(scans.begin(), scans.end(), id) == scans.end()) joined = true;
  }
  return joined;
}

TEST(AggregateArgumentSubqueryTest, CorrelatedScalarJoinsBelowTheAggregate) {
  BoundAggregate b = BindAggregate(
      "SELECT sum(l_quantity + (SELECT max(p_size) FROM part WHERE p_partkey = l_partkey)) "
      "FROM lineitem");
  ASSERT_NE(b.agg, nullptr);
  EXPECT_TRUE(b.agg->group_keys.empty());
  // The grouped subquery is LEFT JOINed to the lineitem rows, under the aggregate.
  EXPECT_EQ(CountJoins(*b.agg->children[0], {JoinType::kLeft}), 1);
  EXPECT_TRUE(ReadsJoinedValue(*b.agg));
  EXPECT_TRUE(Decorrelator::FreeColumns(*b.plan).empty());
}

TEST(AggregateArgumentSubqueryTest, InAndExistsAreMarkJoinsThatKeepEveryRow) {
  BoundAggregate b = BindAggregate(
      "SELECT l_orderkey, count_if(l_partkey IN (SELECT p_partkey FROM part WHERE p_brand = "
      "l_flag)), sum(CASE WHEN EXISTS (SELECT 1 FROM part WHERE p_partkey = l_partkey) THEN 1 "
      "END) FROM lineitem GROUP BY l_orderkey");
  ASSERT_NE(b.agg, nullptr);
  EXPECT_EQ(b.agg->group_keys.size(), 1u);
  EXPECT_GE(CountJoins(*b.agg->children[0], {JoinType::kMark}), 2);
  EXPECT_EQ(RowDroppingJoins(*b.agg->children[0]), 0);
  EXPECT_TRUE(ReadsJoinedValue(*b.agg));
}

TEST(AggregateArgumentSubqueryTest, FilterSubqueryIsAMarkNotASemiJoin) {
  BoundAggregate b = BindAggregate(
      "SELECT count(*) FILTER (WHERE EXISTS (SELECT 1 FROM part WHERE p_partkey = l_partkey "
      "AND p_size > l_quantity)), sum(l_quantity) FROM lineitem");
  ASSERT_NE(b.agg, nullptr);
  // sum(l_quantity) must still see every row: the EXISTS only marks them.
  EXPECT_EQ(RowDroppingJoins(*b.agg->children[0]), 0);
  EXPECT_EQ(CountJoins(*b.agg->children[0], {JoinType::kMark}), 1);
  EXPECT_TRUE(ReadsJoinedValue(*b.agg));
}

TEST(AggregateArgumentSubqueryTest, OrderedAggregateSortsBySubqueryValue) {
  BoundAggregate b = BindAggregate(
      "SELECT array_agg(l_partkey ORDER BY (SELECT max(p_size) FROM part WHERE p_partkey = "
      "l_partkey)) FROM lineitem");
  ASSERT_NE(b.agg, nullptr);
  ASSERT_EQ(b.agg->aggregates.size(), 1u);
  EXPECT_EQ(b.agg->aggregates[0].args.size(), 2u);  // the value, then the sort key
  EXPECT_TRUE(ReadsJoinedValue(*b.agg));
}

TEST(AggregateArgumentSubqueryTest, GroupingSetsAndDistinctReadTheSubqueryColumn) {
  for (const char* sql :
       {"SELECT l_orderkey, l_flag, sum((SELECT max(p_size) FROM part WHERE p_partkey = "
        "l_partkey)) FROM lineitem GROUP BY ROLLUP (l_orderkey, l_flag)",
        "SELECT count(DISTINCT (SELECT max(p_brand) FROM part WHERE p_partkey = l_partkey)) "
        "FROM lineitem"}) {
    BoundAggregate b = BindAggregate(sql);
    ASSERT_NE(b.agg, nullptr);
    // The subquery's join lies below the aggregate (under the grouping-sets expansion).
    EXPECT_EQ(CountJoins(*b.agg->children[0], {JoinType::kLeft}), 1) << sql;
    EXPECT_TRUE(Decorrelator::FreeColumns(*b.plan).empty()) << sql;
  }
}

TEST(AggregateArgumentSubqueryTest, CorrelationTwoLevelsUpIsDecorrelated) {
  for (const char* sql :
       {"SELECT o_orderkey, (SELECT sum(l_quantity + (SELECT max(p_size) FROM part WHERE "
        "p_partkey = l_partkey AND p_size > o_custkey)) FROM lineitem WHERE l_orderkey = "
        "o_orderkey) FROM orders",
        "SELECT o_orderkey FROM orders WHERE EXISTS (SELECT l_flag FROM lineitem WHERE "
        "l_orderkey = o_orderkey GROUP BY l_flag HAVING count_if(l_partkey IN (SELECT p_partkey "
        "FROM part WHERE p_size > o_custkey)) > 1)"}) {
    LogicalPtr plan = MustBind(sql);
    ASSERT_NE(plan, nullptr);
    EXPECT_TRUE(Decorrelator::FreeColumns(*plan).empty()) << sql;
  }
}

TEST(AggregateArgumentSubqueryTest, NestedAggregateIsStillAnError) {
  auto plan = BoundPlan("SELECT sum(l_quantity + max(l_partkey)) FROM lineitem");
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.status().message().find("Cannot nest aggregations"), std::string::npos);
}

TEST(AggregateArgumentSubqueryTest, ContainsSubqueryOverloads) {
  auto with = sql::ParseExpression("1 + coalesce(x, (SELECT 2))");
  auto in_case = sql::ParseExpression("CASE WHEN EXISTS (SELECT 1) THEN 1 END");
  auto without = sql::ParseExpression("1 + coalesce(x, 2)");
  ASSERT_TRUE(with.ok() && in_case.ok() && without.ok());
  EXPECT_TRUE(ContainsSubquery(**with));
  EXPECT_TRUE(ContainsSubquery(*with));
  EXPECT_TRUE(ContainsSubquery(**in_case));
  EXPECT_FALSE(ContainsSubquery(**without));
  EXPECT_FALSE(ContainsSubquery(sql::ast::ExprPtr()));
}

}  // namespace
}  // namespace sqe::planner
