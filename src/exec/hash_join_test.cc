#include "exec/hash_join.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "exec/breaker_testing.h"

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

TEST(HashJoinTest, FullJoinIsNotImplementedYet) {
  auto rows = RunJoin(JoinType::kFull, ProbeColumns(), BuildColumns());
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_NE(rows[0].find("FULL OUTER JOIN"), std::string::npos);
}

}  // namespace
}  // namespace sqe::exec
