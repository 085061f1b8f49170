#include "exec/hash_join.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "exec/breaker_testing.h"
#include "exec/functions/builtin_families.h"
#include "exec/hash_aggregate.h"
#include "exec/projection.h"
#include "exec/spill_testing.h"

namespace sqe::exec {
namespace {

using columnar::Column;
using columnar::Field;
using namespace columnar::testing;  // NOLINT
using namespace exec::testing;      // NOLINT

// probe: (k, p) ; build: (k, b)
std::vector<Column> ProbeColumns() {
  return {Int64s({1, 2, 2, 3, std::nullopt, 5}), Strings({"p1", "p2a", "p2b", "p3", "pn", "p5"})};
}
std::vector<Column> BuildColumns() {
  return {Int64s({2, 2, 3, std::nullopt, 4}), Strings({"b2a", "b2b", "b3", "bn", "b4"})};
}

columnar::SchemaPtr OutputSchema(JoinType type, const std::vector<Column>& probe,
                                 const std::vector<Column>& build) {
  std::vector<Field> fields;
  for (size_t i = 0; i < probe.size(); ++i)
    fields.emplace_back("p" + std::to_string(i), probe[i].type());
  if (type == JoinType::kSemi || type == JoinType::kAnti) return columnar::Schema::Make(fields);
  if (type == JoinType::kRightSemi || type == JoinType::kRightAnti) {
    fields.clear();
    for (size_t i = 0; i < build.size(); ++i)
      fields.emplace_back("b" + std::to_string(i), build[i].type());
    return columnar::Schema::Make(fields);
  }
  if (type == JoinType::kMark) {
    fields.emplace_back("mark", columnar::Boolean());
    return columnar::Schema::Make(fields);
  }
  for (size_t i = 0; i < build.size(); ++i)
    fields.emplace_back("b" + std::to_string(i), build[i].type());
  return columnar::Schema::Make(fields);
}

std::vector<std::string> RunJoin(JoinType type, std::vector<Column> probe,
                                 std::vector<Column> build, std::vector<int> probe_keys = {0},
                                 std::vector<int> build_keys = {0}, ExprPtr residual = nullptr,
                                 bool null_aware = false, int threads = 2, int64_t batch_rows = 2) {
  auto schema = OutputSchema(type, probe, build);
  auto plan = std::make_unique<HashJoin>(Source(probe, batch_rows), Source(build, batch_rows), type,
                                         std::move(probe_keys), std::move(build_keys),
                                         std::move(residual), null_aware, schema);
  auto result = RunPlan(std::move(plan), threads, nullptr, 3);
  if (!result.ok()) return {"error: " + result.status().ToString()};
  return Sorted(Rows(*result));
}

TEST(HashJoinTest, InnerWithDuplicatesOnBothSides) {
  for (int threads : {1, 2}) {
    EXPECT_EQ(RunJoin(JoinType::kInner, ProbeColumns(), BuildColumns(), {0}, {0}, nullptr, false,
                      threads),
              std::vector<std::string>({"2|\"p2a\"|2|\"b2a\"", "2|\"p2a\"|2|\"b2b\"",
                                        "2|\"p2b\"|2|\"b2a\"", "2|\"p2b\"|2|\"b2b\"",
                                        "3|\"p3\"|3|\"b3\""}));
  }
}

TEST(HashJoinTest, LeftAndRightKeepUnmatchedRows) {
  EXPECT_EQ(
      RunJoin(JoinType::kLeft, ProbeColumns(), BuildColumns()),
      std::vector<std::string>({"1|\"p1\"|null|null", "2|\"p2a\"|2|\"b2a\"", "2|\"p2a\"|2|\"b2b\"",
                                "2|\"p2b\"|2|\"b2a\"", "2|\"p2b\"|2|\"b2b\"", "3|\"p3\"|3|\"b3\"",
                                "5|\"p5\"|null|null", "null|\"pn\"|null|null"}));
  EXPECT_EQ(
      RunJoin(JoinType::kRight, ProbeColumns(), BuildColumns()),
      std::vector<std::string>({"2|\"p2a\"|2|\"b2a\"", "2|\"p2a\"|2|\"b2b\"", "2|\"p2b\"|2|\"b2a\"",
                                "2|\"p2b\"|2|\"b2b\"", "3|\"p3\"|3|\"b3\"", "null|null|4|\"b4\"",
                                "null|null|null|\"bn\""}));
}

TEST(HashJoinTest, SemiAntiAndMark) {
  EXPECT_EQ(RunJoin(JoinType::kSemi, ProbeColumns(), BuildColumns()),
            std::vector<std::string>({"2|\"p2a\"", "2|\"p2b\"", "3|\"p3\""}));
  // NOT EXISTS semantics: unmatched rows incl. the NULL key.
  EXPECT_EQ(RunJoin(JoinType::kAnti, ProbeColumns(), BuildColumns()),
            std::vector<std::string>({"1|\"p1\"", "5|\"p5\"", "null|\"pn\""}));
  // NOT IN with a NULL on the build side: nothing is certainly not in.
  EXPECT_EQ(RunJoin(JoinType::kAnti, ProbeColumns(), BuildColumns(), {0}, {0}, nullptr, true),
            std::vector<std::string>({}));
  // IN as a mark: matches true, else NULL (the build side has a NULL key).
  EXPECT_EQ(RunJoin(JoinType::kMark, ProbeColumns(), BuildColumns(), {0}, {0}, nullptr, true),
            std::vector<std::string>({"1|\"p1\"|null", "2|\"p2a\"|true", "2|\"p2b\"|true",
                                      "3|\"p3\"|true", "5|\"p5\"|null", "null|\"pn\"|null"}));
  // Without a NULL build key: unmatched -> false, NULL probe key -> NULL.
  std::vector<Column> build = {Int64s({2, 3}), Strings({"x", "y"})};
  EXPECT_EQ(RunJoin(JoinType::kMark, ProbeColumns(), build, {0}, {0}, nullptr, true),
            std::vector<std::string>({"1|\"p1\"|false", "2|\"p2a\"|true", "2|\"p2b\"|true",
                                      "3|\"p3\"|true", "5|\"p5\"|false", "null|\"pn\"|null"}));
  EXPECT_EQ(RunJoin(JoinType::kAnti, ProbeColumns(), build, {0}, {0}, nullptr, true),
            std::vector<std::string>({"1|\"p1\"", "5|\"p5\""}));
  // EXISTS-style mark (not null-aware): only true / false.
  EXPECT_EQ(RunJoin(JoinType::kMark, ProbeColumns(), BuildColumns()),
            std::vector<std::string>({"1|\"p1\"|false", "2|\"p2a\"|true", "2|\"p2b\"|true",
                                      "3|\"p3\"|true", "5|\"p5\"|false", "null|\"pn\"|false"}));
}

// The flipped forms the optimizer picks when the kept side is the smaller one: the build
// side's rows come out, once each, with EXISTS / NOT EXISTS semantics.
TEST(HashJoinTest, RightSemiAndRightAntiKeepBuildRows) {
  for (int threads : {1, 2}) {
    EXPECT_EQ(RunJoin(JoinType::kRightSemi, ProbeColumns(), BuildColumns(), {0}, {0}, nullptr,
                      false, threads),
              std::vector<std::string>({"2|\"b2a\"", "2|\"b2b\"", "3|\"b3\""}));
    // The NULL-keyed build row never matches, so NOT EXISTS keeps it.
    EXPECT_EQ(RunJoin(JoinType::kRightAnti, ProbeColumns(), BuildColumns(), {0}, {0}, nullptr,
                      false, threads),
              std::vector<std::string>({"4|\"b4\"", "null|\"bn\""}));
  }
  // With a residual over probe ++ build columns: p <> 'p3' leaves key 3 without a match.
  ExprPtr residual =
      Expr::Make(ExprKind::kIsDistinctFrom,
                 {Expr::Column(1, columnar::String()), Expr::Literal(Value::Varchar("p3"))},
                 columnar::Boolean());
  EXPECT_EQ(RunJoin(JoinType::kRightSemi, ProbeColumns(), BuildColumns(), {0}, {0}, residual),
            std::vector<std::string>({"2|\"b2a\"", "2|\"b2b\""}));
  EXPECT_EQ(RunJoin(JoinType::kRightAnti, ProbeColumns(), BuildColumns(), {0}, {0}, residual),
            std::vector<std::string>({"3|\"b3\"", "4|\"b4\"", "null|\"bn\""}));
  // An empty probe side: nothing matched.
  std::vector<Column> empty = {Int64s({}), Strings({})};
  EXPECT_EQ(RunJoin(JoinType::kRightSemi, empty, BuildColumns()), std::vector<std::string>({}));
  EXPECT_EQ(RunJoin(JoinType::kRightAnti, empty, BuildColumns()).size(), 5u);
}

TEST(HashJoinTest, EmptyBuildSide) {
  std::vector<Column> empty = {Int64s({}), Strings({})};
  EXPECT_EQ(RunJoin(JoinType::kInner, ProbeColumns(), empty), std::vector<std::string>({}));
  EXPECT_EQ(RunJoin(JoinType::kLeft, ProbeColumns(), empty).size(), 6u);
  EXPECT_EQ(RunJoin(JoinType::kSemi, ProbeColumns(), empty), std::vector<std::string>({}));
  // NOT IN (empty) is true even for a NULL probe key.
  EXPECT_EQ(RunJoin(JoinType::kAnti, ProbeColumns(), empty, {0}, {0}, nullptr, true).size(), 6u);
  EXPECT_EQ(RunJoin(JoinType::kMark, ProbeColumns(), empty, {0}, {0}, nullptr, true),
            std::vector<std::string>({"1|\"p1\"|false", "2|\"p2a\"|false", "2|\"p2b\"|false",
                                      "3|\"p3\"|false", "5|\"p5\"|false", "null|\"pn\"|false"}));
}

TEST(HashJoinTest, ResidualPredicate) {
  // probe.p IS DISTINCT FROM 'p2a' over (k, p, k, b): column 1 is p.
  ExprPtr residual =
      Expr::Make(ExprKind::kIsDistinctFrom,
                 {Expr::Column(1, columnar::String()), Expr::Literal(Value::Varchar("p2a"))},
                 columnar::Boolean());
  EXPECT_EQ(RunJoin(JoinType::kInner, ProbeColumns(), BuildColumns(), {0}, {0}, residual),
            std::vector<std::string>(
                {"2|\"p2b\"|2|\"b2a\"", "2|\"p2b\"|2|\"b2b\"", "3|\"p3\"|3|\"b3\""}));
  EXPECT_EQ(
      RunJoin(JoinType::kLeft, ProbeColumns(), BuildColumns(), {0}, {0}, residual),
      std::vector<std::string>({"1|\"p1\"|null|null", "2|\"p2a\"|null|null", "2|\"p2b\"|2|\"b2a\"",
                                "2|\"p2b\"|2|\"b2b\"", "3|\"p3\"|3|\"b3\"", "5|\"p5\"|null|null",
                                "null|\"pn\"|null|null"}));
  EXPECT_EQ(RunJoin(JoinType::kAnti, ProbeColumns(), BuildColumns(), {0}, {0}, residual),
            std::vector<std::string>({"1|\"p1\"", "2|\"p2a\"", "5|\"p5\"", "null|\"pn\""}));
}

TEST(HashJoinTest, CrossJoinAndMultiColumnStringKeys) {
  std::vector<Column> left = {Int64s({1, 2}), Strings({"a", "b"})};
  std::vector<Column> right = {Strings({"x", "y", "z"})};
  EXPECT_EQ(RunJoin(JoinType::kInner, left, right, {}, {}).size(), 6u);
  std::vector<Column> probe = {Strings({"a", "a", "b", std::nullopt}), Int64s({1, 2, 1, 1})};
  std::vector<Column> build = {Int64s({1, 1, 2}), Strings({"a", "b", "a"})};
  EXPECT_EQ(RunJoin(JoinType::kInner, probe, build, {0, 1}, {1, 0}),
            std::vector<std::string>({"\"a\"|1|1|\"a\"", "\"a\"|2|2|\"a\"", "\"b\"|1|1|\"b\""}));
}

TEST(HashJoinTest, LargeJoinAgainstExpectedCounts) {
  std::vector<std::optional<int64_t>> pk, bk, pv, bv;
  for (int64_t i = 0; i < 50000; ++i) {
    pk.push_back(i % 1000);
    pv.push_back(i);
  }
  for (int64_t i = 0; i < 3000; ++i) {
    bk.push_back(i % 1500);  // keys 0..999 appear twice, 1000..1499 twice but unmatched
    bv.push_back(i);
  }
  auto schema = OutputSchema(JoinType::kInner, {Int64s(pk), Int64s(pv)}, {Int64s(bk), Int64s(bv)});
  auto plan = std::make_unique<HashJoin>(
      Source({Int64s(pk), Int64s(pv)}, 4096), Source({Int64s(bk), Int64s(bv)}, 1000),
      JoinType::kInner, std::vector<int>{0}, std::vector<int>{0}, nullptr, false, schema);
  SQE_ASSIGN_OR_FAIL(auto batches, RunPlan(std::move(plan), 2, nullptr, 8192));
  int64_t rows = 0;
  for (const auto& b : batches) {
    for (int64_t r = 0; r < b.num_rows(); ++r) {
      ASSERT_EQ(b.column(0).Value<int64_t>(r), b.column(2).Value<int64_t>(r));
    }
    rows += b.num_rows();
  }
  EXPECT_EQ(rows, 100000);
}

std::vector<std::string> SortedList(std::vector<std::string> rows) {
  return Sorted(std::move(rows));
}

TEST(HashJoinTest, FullKeepsUnmatchedRowsOfBothSides) {
  // Duplicates on both sides, a NULL key on each side (never matches: both appear
  // unmatched), an unmatched key on each side.
  const auto expected = SortedList(
      {"2|\"p2a\"|2|\"b2a\"", "2|\"p2a\"|2|\"b2b\"", "2|\"p2b\"|2|\"b2a\"", "2|\"p2b\"|2|\"b2b\"",
       "3|\"p3\"|3|\"b3\"", "1|\"p1\"|null|null", "5|\"p5\"|null|null", "null|\"pn\"|null|null",
       "null|null|4|\"b4\"", "null|null|null|\"bn\""});
  for (int threads : {1, 2, 4}) {
    for (int64_t batch_rows : {1, 2, 1000}) {
      EXPECT_EQ(RunJoin(JoinType::kFull, ProbeColumns(), BuildColumns(), {0}, {0}, nullptr, false,
                        threads, batch_rows),
                expected)
          << "threads=" << threads << " batch_rows=" << batch_rows;
    }
  }
}

TEST(HashJoinTest, FullWithEmptySides) {
  std::vector<Column> empty = {Int64s({}), Strings({})};
  EXPECT_EQ(RunJoin(JoinType::kFull, ProbeColumns(), empty),
            SortedList({"1|\"p1\"|null|null", "2|\"p2a\"|null|null", "2|\"p2b\"|null|null",
                        "3|\"p3\"|null|null", "5|\"p5\"|null|null", "null|\"pn\"|null|null"}));
  EXPECT_EQ(RunJoin(JoinType::kFull, empty, BuildColumns()),
            SortedList({"null|null|2|\"b2a\"", "null|null|2|\"b2b\"", "null|null|3|\"b3\"",
                        "null|null|null|\"bn\"", "null|null|4|\"b4\""}));
  EXPECT_EQ(RunJoin(JoinType::kFull, empty, empty), std::vector<std::string>({}));
}

TEST(HashJoinTest, FullWithResidual) {
  // build.b IS DISTINCT FROM 'b2b' over (k, p, k, b): b2b has key matches, none passes.
  ExprPtr residual =
      Expr::Make(ExprKind::kIsDistinctFrom,
                 {Expr::Column(3, columnar::String()), Expr::Literal(Value::Varchar("b2b"))},
                 columnar::Boolean());
  EXPECT_EQ(RunJoin(JoinType::kFull, ProbeColumns(), BuildColumns(), {0}, {0}, residual),
            SortedList({"2|\"p2a\"|2|\"b2a\"", "2|\"p2b\"|2|\"b2a\"", "3|\"p3\"|3|\"b3\"",
                        "1|\"p1\"|null|null", "5|\"p5\"|null|null", "null|\"pn\"|null|null",
                        "null|null|2|\"b2b\"", "null|null|4|\"b4\"", "null|null|null|\"bn\""}));
  // A cross join with a residual only (FULL JOIN ON p = 'p3').
  ExprPtr only =
      Expr::Make(ExprKind::kIsNotDistinctFrom,
                 {Expr::Column(1, columnar::String()), Expr::Literal(Value::Varchar("p3"))},
                 columnar::Boolean());
  std::vector<Column> probe = {Int64s({1, 3}), Strings({"p1", "p3"})};
  std::vector<Column> build = {Int64s({7, 8}), Strings({"x", "y"})};
  EXPECT_EQ(RunJoin(JoinType::kFull, probe, build, {}, {}, only),
            SortedList({"1|\"p1\"|null|null", "3|\"p3\"|7|\"x\"", "3|\"p3\"|8|\"y\""}));
}

TEST(HashJoinTest, FullOutputSchemaIsProbeThenBuild) {
  auto schema = OutputSchema(JoinType::kFull, ProbeColumns(), BuildColumns());
  auto plan = std::make_unique<HashJoin>(Source(ProbeColumns(), 2), Source(BuildColumns(), 2),
                                         JoinType::kFull, std::vector<int>{0}, std::vector<int>{0},
                                         nullptr, false, schema);
  EXPECT_NE(plan->Details().find("type=FULL"), std::string::npos);
  SQE_ASSIGN_OR_FAIL(auto batches, RunPlan(std::move(plan), 2, nullptr, 3));
  ASSERT_FALSE(batches.empty());
  for (const auto& b : batches) {
    ASSERT_EQ(b.schema()->num_fields(), 4);
    EXPECT_EQ(b.schema()->field(0).name(), "p0");
    EXPECT_EQ(b.schema()->field(1).name(), "p1");
    EXPECT_EQ(b.schema()->field(2).name(), "b0");
    EXPECT_EQ(b.schema()->field(3).name(), "b1");
    EXPECT_TRUE(b.column(0).type()->Equals(*columnar::Int64()));
    EXPECT_TRUE(b.column(3).type()->Equals(*columnar::String()));
  }
}

const FunctionRegistry& AggregateRegistry() {
  static FunctionRegistry* registry = [] {
    auto* r = new FunctionRegistry();
    RegisterAggregateFunctions(*r);
    return r;
  }();
  return *registry;
}

TEST(HashJoinTest, FullFeedsTheSameDownstreamSink) {
  // HashJoin FULL -> Projection(coalesce(p.k, b.k), b) -> HashAggregate(group by k:
  // count(*), count(b)): the unmatched build rows reach the aggregate too.
  for (int threads : {1, 2}) {
    auto schema = OutputSchema(JoinType::kFull, ProbeColumns(), BuildColumns());
    auto join = std::make_unique<HashJoin>(Source(ProbeColumns(), 1), Source(BuildColumns(), 1),
                                           JoinType::kFull, std::vector<int>{0},
                                           std::vector<int>{0}, nullptr, false, schema);
    std::vector<ExprPtr> exprs = {
        Expr::Make(ExprKind::kCoalesce,
                   {Expr::Column(0, columnar::Int64()), Expr::Column(2, columnar::Int64())},
                   columnar::Int64()),
        Expr::Column(3, columnar::String())};
    auto projected = std::make_unique<Projection>(
        std::move(join), std::move(exprs),
        columnar::Schema::Make({Field("k", columnar::Int64()), Field("b", columnar::String())}));
    std::vector<AggregateCall> calls = {
        {ValueOrDie(AggregateRegistry().ResolveAggregate("count", {}, false)), {}},
        {ValueOrDie(AggregateRegistry().ResolveAggregate("count", {columnar::String()}, false)),
         {1}}};
    auto aggregate = std::make_unique<HashAggregate>(
        std::move(projected), std::vector<int>{0}, std::move(calls),
        columnar::Schema::Make({Field("k", columnar::Int64()), Field("n", columnar::Int64()),
                                Field("nb", columnar::Int64())}));
    auto result = RunPlan(std::move(aggregate), threads, nullptr, 2);
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    // k=2: 4 pairs; 3: 1; 1, 5: probe only; 4: build only; NULL: pn and bn.
    EXPECT_EQ(Sorted(Rows(*result)),
              SortedList({"1|1|0", "2|4|4", "3|1|1", "4|1|1", "5|1|0", "null|2|1"}))
        << "threads=" << threads;
  }
}

TEST(HashJoinTest, FullLargeOnSeveralThreads) {
  std::vector<std::optional<int64_t>> pk, bk, pv, bv;
  for (int64_t i = 0; i < 50000; ++i) {
    pk.push_back(i % 1000);
    pv.push_back(i);
  }
  for (int64_t i = 0; i < 3000; ++i) {
    bk.push_back(i % 1500);  // keys 1000..1499 (1000 rows) never match
    bv.push_back(i);
  }
  bk.push_back(std::nullopt);
  bv.push_back(-1);
  auto schema = OutputSchema(JoinType::kFull, {Int64s(pk), Int64s(pv)}, {Int64s(bk), Int64s(bv)});
  auto plan = std::make_unique<HashJoin>(
      Source({Int64s(pk), Int64s(pv)}, 4096), Source({Int64s(bk), Int64s(bv)}, 1000),
      JoinType::kFull, std::vector<int>{0}, std::vector<int>{0}, nullptr, false, schema);
  SQE_ASSIGN_OR_FAIL(auto batches, RunPlan(std::move(plan), 2, nullptr, 1000));
  int64_t rows = 0, build_only = 0;
  std::vector<int> seen(3001, 0);
  for (const auto& b : batches) {
    for (int64_t r = 0; r < b.num_rows(); ++r) {
      if (b.column(0).IsNull(r)) {
        ++build_only;
        ASSERT_TRUE(b.column(1).IsNull(r));
        const int64_t v = b.column(3).Value<int64_t>(r);
        ++seen[v < 0 ? 3000 : v];
      } else {
        ASSERT_EQ(b.column(0).Value<int64_t>(r), b.column(2).Value<int64_t>(r));
      }
    }
    rows += b.num_rows();
  }
  EXPECT_EQ(rows, 100000 + 1001);
  EXPECT_EQ(build_only, 1001);
  for (int64_t i = 0; i < 3000; ++i) EXPECT_EQ(seen[i], i % 1500 >= 1000 ? 1 : 0) << i;
  EXPECT_EQ(seen[3000], 1);
}

// --- Spilling (grace hash join) ------------------------------------------------------

/// Runs joins under a small query memory limit with spilling to a per-test directory
/// (spill_testing.h checks the directory is empty afterwards).
class HashJoinSpillTest : public ::testing::Test {
 protected:
  struct Run {
    Status status;
    std::vector<std::string> rows;  ///< sorted
    std::string extra;              ///< the join's EXPLAIN ANALYZE line
  };

  /// Runs the join with a query memory limit of `limit` bytes (0 = none), spilling when
  /// `spill`.
  Run RunLimited(JoinType type, const std::vector<Column>& probe, const std::vector<Column>& build,
                 std::vector<int> probe_keys, std::vector<int> build_keys, ExprPtr residual,
                 bool null_aware, int threads, int64_t limit, bool spill,
                 std::vector<bool> null_safe = {}) {
    auto join = std::make_unique<HashJoin>(
        Source(probe, 1000), Source(build, 1000), type, std::move(probe_keys),
        std::move(build_keys), std::move(residual), null_aware, OutputSchema(type, probe, build));
    if (!null_safe.empty()) join->SetNullSafeKeys(std::move(null_safe));
    Result<SpillRun> result =
        RunPlanSpilling(std::move(join), threads, limit, spill ? dir_.path() : "");
    Run run;
    run.status = result.status();
    if (!result.ok()) return run;
    run.rows = Sorted(std::move(result->rows));
    for (std::string_view rest = result->explain; !rest.empty();) {
      const size_t end = std::min(rest.find('\n'), rest.size());
      if (rest.substr(0, end).find("HashJoin") != std::string_view::npos) {
        run.extra = std::string(rest.substr(0, end));
      }
      rest.remove_prefix(std::min(end + 1, rest.size()));
    }
    return run;
  }

  ScopedSpillDir dir_;
};

/// probe (k, p): keys with duplicates, some NULL; build (k, b): keys with duplicates, some
/// NULL, some never probed. Large enough that a 512 KB query limit makes the build spill.
void SpillData(std::vector<Column>* probe, std::vector<Column>* build, bool build_nulls = true) {
  std::vector<std::optional<int64_t>> pk, bk;
  std::vector<std::optional<std::string>> pv, bv;
  for (int64_t i = 0; i < 12000; ++i) {
    pk.push_back(i % 97 == 0 ? std::nullopt : std::optional<int64_t>((i * 7) % 9000));
    pv.push_back("p" + std::to_string(i));
  }
  for (int64_t i = 0; i < 30000; ++i) {
    bk.push_back(build_nulls && i % 101 == 0 ? std::nullopt
                                             : std::optional<int64_t>((i * 13) % 15000));
    bv.push_back("build row " + std::to_string(i));
  }
  *probe = {Int64s(pk), Strings(pv)};
  *build = {Int64s(bk), Strings(bv)};
}

constexpr int64_t kSmallLimit = 512 << 10;

TEST_F(HashJoinSpillTest, EveryJoinTypeMatchesTheInMemoryResult) {
  std::vector<Column> probe, build;
  SpillData(&probe, &build);
  struct Case {
    JoinType type;
    bool null_aware;
  };
  const std::vector<Case> cases = {
      {JoinType::kInner, false},     {JoinType::kLeft, false},      {JoinType::kRight, false},
      {JoinType::kFull, false},      {JoinType::kSemi, false},      {JoinType::kAnti, false},
      {JoinType::kAnti, true},       {JoinType::kMark, false},      {JoinType::kMark, true},
      {JoinType::kRightSemi, false}, {JoinType::kRightAnti, false},
  };
  for (const Case& c : cases) {
    const Run expected = RunLimited(c.type, probe, build, {0}, {0}, nullptr, c.null_aware, 2, 0,
                                    /*spill=*/false);
    ASSERT_TRUE(expected.status.ok()) << expected.status.ToString();
    EXPECT_EQ(expected.extra.find("spilled="), std::string::npos);  // no limit, no spilling
    for (int threads : {1, 2}) {
      const Run spilled = RunLimited(c.type, probe, build, {0}, {0}, nullptr, c.null_aware, threads,
                                     kSmallLimit, /*spill=*/true);
      ASSERT_TRUE(spilled.status.ok()) << JoinTypeName(c.type) << ": " << spilled.status.ToString();
      EXPECT_EQ(spilled.rows.size(), expected.rows.size()) << JoinTypeName(c.type);
      EXPECT_TRUE(spilled.rows == expected.rows)
          << JoinTypeName(c.type) << " null_aware=" << c.null_aware << " threads=" << threads;
      EXPECT_NE(spilled.extra.find("spilled="), std::string::npos) << spilled.extra;
    }
  }
}

TEST_F(HashJoinSpillTest, NullAwareWithoutBuildNullsAndResiduals) {
  std::vector<Column> probe, build;
  SpillData(&probe, &build, /*build_nulls=*/false);
  // p IS DISTINCT FROM 'p7' over (k, p, k, b), and a residual reading a build column.
  ExprPtr on_probe =
      Expr::Make(ExprKind::kIsDistinctFrom,
                 {Expr::Column(1, columnar::String()), Expr::Literal(Value::Varchar("p7"))},
                 columnar::Boolean());
  ExprPtr on_build = Expr::Make(
      ExprKind::kIsDistinctFrom,
      {Expr::Column(3, columnar::String()), Expr::Literal(Value::Varchar("build row 0"))},
      columnar::Boolean());
  struct Case {
    JoinType type;
    bool null_aware;
    ExprPtr residual;
  };
  const std::vector<Case> cases = {
      {JoinType::kAnti, true, nullptr},        {JoinType::kMark, true, nullptr},
      {JoinType::kInner, false, on_build},     {JoinType::kLeft, false, on_build},
      {JoinType::kFull, false, on_build},      {JoinType::kSemi, false, on_probe},
      {JoinType::kAnti, false, on_probe},      {JoinType::kRightSemi, false, on_probe},
      {JoinType::kRightAnti, false, on_build},
  };
  for (const Case& c : cases) {
    const Run expected =
        RunLimited(c.type, probe, build, {0}, {0}, c.residual, c.null_aware, 2, 0, false);
    ASSERT_TRUE(expected.status.ok()) << expected.status.ToString();
    const Run spilled =
        RunLimited(c.type, probe, build, {0}, {0}, c.residual, c.null_aware, 2, kSmallLimit, true);
    ASSERT_TRUE(spilled.status.ok()) << JoinTypeName(c.type) << ": " << spilled.status.ToString();
    EXPECT_TRUE(spilled.rows == expected.rows)
        << JoinTypeName(c.type) << " rows " << spilled.rows.size() << " vs "
        << expected.rows.size();
  }
}

TEST_F(HashJoinSpillTest, NullSafeKeysMatchNullsAfterSpilling) {
  std::vector<Column> probe, build;
  SpillData(&probe, &build);
  for (JoinType type : {JoinType::kInner, JoinType::kFull}) {
    const Run expected =
        RunLimited(type, probe, build, {0}, {0}, nullptr, false, 2, 0, false, {true});
    const Run spilled =
        RunLimited(type, probe, build, {0}, {0}, nullptr, false, 2, kSmallLimit, true, {true});
    ASSERT_TRUE(spilled.status.ok()) << spilled.status.ToString();
    EXPECT_TRUE(spilled.rows == expected.rows) << JoinTypeName(type);
    // NULL = NULL pairs exist: 124 NULL probe keys x 298 NULL build keys.
    int64_t null_pairs = 0;
    for (const std::string& row : spilled.rows) null_pairs += row.rfind("null|\"p", 0) == 0;
    EXPECT_GE(null_pairs, 124 * 298) << JoinTypeName(type);
  }
}

TEST_F(HashJoinSpillTest, MultiColumnStringKeys) {
  // probe (name, n), build (n, name, payload): joined on (name, n) = (build.name, build.n).
  std::vector<std::optional<std::string>> pname, bname, payload;
  std::vector<std::optional<int64_t>> pn, bn;
  for (int64_t i = 0; i < 12000; ++i) {
    pname.push_back(i % 50 == 0 ? std::nullopt
                                : std::optional<std::string>("name-" + std::to_string(i % 900)));
    pn.push_back(i % 7);
  }
  for (int64_t i = 0; i < 30000; ++i) {
    bname.push_back("name-" + std::to_string(i % 1200));
    bn.push_back(i % 5);
    payload.push_back("payload " + std::to_string(i));
  }
  std::vector<Column> probe = {Strings(pname), Int64s(pn)};
  std::vector<Column> build = {Int64s(bn), Strings(bname), Strings(payload)};
  for (JoinType type : {JoinType::kInner, JoinType::kLeft, JoinType::kRightAnti}) {
    const Run expected =
        RunLimited(type, probe, build, {0, 1}, {1, 0}, nullptr, false, 2, 0, false);
    ASSERT_TRUE(expected.status.ok()) << expected.status.ToString();
    const Run spilled =
        RunLimited(type, probe, build, {0, 1}, {1, 0}, nullptr, false, 2, kSmallLimit, true);
    ASSERT_TRUE(spilled.status.ok()) << spilled.status.ToString();
    EXPECT_NE(spilled.extra.find("spilled="), std::string::npos) << spilled.extra;
    EXPECT_TRUE(spilled.rows == expected.rows)
        << JoinTypeName(type) << " rows " << spilled.rows.size() << " vs " << expected.rows.size();
  }
}

TEST_F(HashJoinSpillTest, BigPartitionsAreSplitAgain) {
  // 160K build rows (2.5 MB): a first-level partition's table does not fit in what a
  // 256 KB limit leaves, so partitions are split on the next hash bits.
  std::vector<std::optional<int64_t>> pk, bk, bv;
  for (int64_t i = 0; i < 8000; ++i) pk.push_back(i * 20);
  for (int64_t i = 0; i < 160000; ++i) {
    bk.push_back(i);
    bv.push_back(i * 2);
  }
  std::vector<Column> probe = {Int64s(pk), Int64s(pk)};
  std::vector<Column> build = {Int64s(bk), Int64s(bv)};
  for (JoinType type : {JoinType::kInner, JoinType::kRightAnti}) {
    const Run spilled =
        RunLimited(type, probe, build, {0}, {0}, nullptr, false, 2, 256 << 10, true);
    ASSERT_TRUE(spilled.status.ok()) << spilled.status.ToString();
    EXPECT_NE(spilled.extra.find("spill_splits="), std::string::npos) << spilled.extra;
    if (type == JoinType::kInner) {
      ASSERT_EQ(spilled.rows.size(), 8000u);
      for (const std::string& row : spilled.rows) {
        const int64_t k = std::stoll(row.substr(0, row.find('|')));
        EXPECT_EQ(row, std::to_string(k) + "|" + std::to_string(k) + "|" + std::to_string(k) + "|" +
                           std::to_string(k * 2));
      }
    } else {
      // Every build row whose key is not a multiple of 20.
      ASSERT_EQ(spilled.rows.size(), 152000u);
      for (const std::string& row : spilled.rows) {
        EXPECT_NE(std::stoll(row.substr(0, row.find('|'))) % 20, 0) << row;
      }
    }
  }
}

TEST_F(HashJoinSpillTest, OneHugeKeyFailsClearly) {
  // Every build row has the same key: no split can make it fit.
  std::vector<std::optional<int64_t>> pk = {1, 2}, bk, bv;
  for (int64_t i = 0; i < 200000; ++i) {
    bk.push_back(1);
    bv.push_back(i);
  }
  const Run run = RunLimited(JoinType::kInner, {Int64s(pk), Int64s(pk)}, {Int64s(bk), Int64s(bv)},
                             {0}, {0}, nullptr, false, 2, kSmallLimit, true);
  ASSERT_FALSE(run.status.ok());
  EXPECT_EQ(run.status.code(), StatusCode::kResourceExhausted);
  EXPECT_NE(run.status.message().find("does not fit after splitting"), std::string::npos)
      << run.status.ToString();
}

TEST_F(HashJoinSpillTest, WithoutSpillingTheLimitFailsTheQuery) {
  std::vector<Column> probe, build;
  SpillData(&probe, &build);
  const Run run =
      RunLimited(JoinType::kInner, probe, build, {0}, {0}, nullptr, false, 2, kSmallLimit, false);
  ASSERT_FALSE(run.status.ok());
  EXPECT_EQ(run.status.code(), StatusCode::kResourceExhausted);
  EXPECT_NE(run.status.message().find("query.max_query_memory"), std::string::npos)
      << run.status.ToString();
  EXPECT_NE(run.status.message().find("worker.spill_to_disk"), std::string::npos)
      << run.status.ToString();
  // A cross join cannot be partitioned: it fails even with spilling on.
  const Run cross =
      RunLimited(JoinType::kInner, probe, build, {}, {}, nullptr, false, 2, kSmallLimit, true);
  ASSERT_FALSE(cross.status.ok());
  EXPECT_EQ(cross.status.code(), StatusCode::kResourceExhausted);
  EXPECT_NE(cross.status.message().find("cross join"), std::string::npos)
      << cross.status.ToString();
}

}  // namespace
}  // namespace sqe::exec
