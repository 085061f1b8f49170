#include "exec/sort.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "exec/breaker_testing.h"
#include "exec/spill_testing.h"
#include "exec/top_n.h"

namespace sqe::exec {
namespace {

using columnar::Column;
using namespace columnar::testing;  // NOLINT
using namespace exec::testing;      // NOLINT

struct Row {
  std::optional<int64_t> a;
  std::optional<std::string> b;
  std::optional<double> c;
  int64_t id;
};

/// Trino's order of one key: NULLs per nulls_first, NaN above every number.
template <typename T>
int Compare(const std::optional<T>& x, const std::optional<T>& y, const SortKey& key) {
  if (!x || !y) {
    if (!x && !y) return 0;
    return (!x ? -1 : 1) * (key.nulls_first ? 1 : -1);
  }
  int c;
  if constexpr (std::is_same_v<T, double>) {
    const bool xn = std::isnan(*x), yn = std::isnan(*y);
    c = xn || yn ? (xn && yn ? 0 : (xn ? 1 : -1)) : (*x < *y ? -1 : (*y < *x ? 1 : 0));
  } else {
    c = *x < *y ? -1 : (*y < *x ? 1 : 0);
  }
  return key.ascending ? c : -c;
}

std::vector<Row> RandomRows(int64_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<Row> rows;
  for (int64_t i = 0; i < n; ++i) {
    Row r;
    if (rng() % 10 != 0) r.a = static_cast<int64_t>(rng() % 1000) - 500;
    if (rng() % 10 != 0) {
      std::string s;
      const int len = rng() % 4;
      for (int k = 0; k < len; ++k) s.push_back(static_cast<char>("ab\0\xC3z"[rng() % 5]));
      r.b = s;
    }
    if (rng() % 10 != 0) {
      const int pick = rng() % 20;
      r.c = pick == 0 ? NAN : (pick == 1 ? -0.0 : static_cast<double>(rng() % 50) - 25.5);
    }
    r.id = i;
    rows.push_back(r);
  }
  return rows;
}

std::vector<Column> ToColumns(const std::vector<Row>& rows) {
  std::vector<std::optional<int64_t>> a, id;
  std::vector<std::optional<std::string>> b;
  std::vector<std::optional<double>> c;
  for (const Row& r : rows) {
    a.push_back(r.a);
    b.push_back(r.b);
    c.push_back(r.c);
    id.push_back(r.id);
  }
  return {Int64s(a), Strings(b, columnar::Binary()), Float64s(c), Int64s(id)};
}

/// The key columns of each result row, as text, compared with the expected order's.
std::vector<std::string> KeyText(const std::vector<columnar::Batch>& batches) {
  std::vector<std::string> rows;
  for (const auto& b : batches) {
    auto projected = ValueOrDie(b.Project({0, 1, 2}));
    for (auto& r : Rows({projected})) rows.push_back(std::move(r));
  }
  return rows;
}

std::vector<Row> Expected(std::vector<Row> rows, const std::vector<SortKey>& keys) {
  std::sort(rows.begin(), rows.end(), [&](const Row& x, const Row& y) {
    for (const SortKey& k : keys) {
      int c = k.column == 0   ? Compare(x.a, y.a, k)
              : k.column == 1 ? Compare(x.b, y.b, k)
              : k.column == 2
                  ? Compare(x.c, y.c, k)
                  : Compare(std::optional<int64_t>(x.id), std::optional<int64_t>(y.id), k);
      if (c != 0) return c < 0;
    }
    return false;
  });
  return rows;
}

std::vector<std::string> ExpectedText(const std::vector<Row>& rows) {
  auto columns = ToColumns(rows);
  columns.pop_back();
  columnar::SchemaPtr schema;
  return Rows(MakeBatches(columns, 1 << 30, &schema));
}

TEST(SortTest, HundredThousandRowsMatchStdSortForKeyOrders) {
  const std::vector<Row> rows = RandomRows(100000, 7);
  const std::vector<std::vector<SortKey>> orders = {
      {{0, true, false}, {1, true, false}, {2, true, false}},
      {{2, false, false}, {0, true, true}},
      {{1, false, true}, {2, true, true}, {0, false, false}},
  };
  for (auto keys : orders) {
    // The sort is not stable: the unique id as the last key makes the expected order the
    // only correct one (ties, and -0.0 against 0.0, would otherwise print either way).
    keys.push_back({3, true, false});
    for (int threads : {1, 2}) {
      auto plan = std::make_unique<Sort>(Source(ToColumns(rows), 3000), keys);
      SQE_ASSIGN_OR_FAIL(auto batches, RunPlan(std::move(plan), threads, nullptr, 4096));
      for (const auto& b : batches) EXPECT_LE(b.num_rows(), 4096);
      const auto got = KeyText(batches);
      const auto want = ExpectedText(Expected(rows, keys));
      ASSERT_EQ(got.size(), want.size());
      for (size_t i = 0; i < got.size(); ++i) {
        ASSERT_EQ(got[i], want[i]) << "row " << i << " threads " << threads;
      }
    }
  }
}

TEST(SortTest, EmptyInputAndSmallTypes) {
  auto plan = std::make_unique<Sort>(Source({Int64s({})}), std::vector<SortKey>{{0}});
  SQE_ASSIGN_OR_FAIL(auto batches, RunPlan(std::move(plan), 2));
  EXPECT_TRUE(Rows(batches).empty());
  Column flags = Bools({true, std::nullopt, false, true});
  Column dec = ValueOrDie([] {
    columnar::Decimal128Builder builder(columnar::Decimal(20, 2));
    for (int64_t v : {-5, 300, -700, 2}) DieIfError(builder.Append(columnar::Decimal128(v)));
    return builder.Finish();
  }());
  auto by_bool = std::make_unique<Sort>(Source({flags, dec}),
                                        std::vector<SortKey>{{0, false, true}, {1, true, false}});
  SQE_ASSIGN_OR_FAIL(auto sorted, RunPlan(std::move(by_bool), 1));
  EXPECT_EQ(Rows(sorted), std::vector<std::string>({"null|\"3.00\"", "true|\"-0.05\"",
                                                    "true|\"0.02\"", "false|\"-7.00\""}));
}

TEST(TopNTest, EqualsSortThenLimitAndOffset) {
  const std::vector<Row> rows = RandomRows(50000, 11);
  const std::vector<SortKey> keys = {
      {2, false, true}, {0, true, false}, {1, true, false}, {3, true, false}};
  const auto want = ExpectedText(Expected(rows, keys));
  for (auto [limit, offset] : std::vector<std::pair<int64_t, int64_t>>{
           {10, 0}, {1000, 0}, {25, 7}, {0, 0}, {100, 49990}, {10, 60000}}) {
    for (int threads : {1, 2}) {
      auto plan = std::make_unique<TopN>(Source(ToColumns(rows), 2000), keys, limit, offset);
      SQE_ASSIGN_OR_FAIL(auto batches, RunPlan(std::move(plan), threads, nullptr, 300));
      const auto got = KeyText(batches);
      const size_t begin = std::min<size_t>(want.size(), offset);
      const size_t end = std::min<size_t>(want.size(), offset + limit);
      ASSERT_EQ(got, std::vector<std::string>(want.begin() + begin, want.begin() + end))
          << limit << " " << offset << " " << threads;
    }
  }
}

TEST(SortTest, MemoryLimitGivesResourceExhausted) {
  std::vector<std::optional<int64_t>> values(300000, 1);
  auto plan = std::make_unique<Sort>(Source({Int64s(values)}, 10000), std::vector<SortKey>{{0}});
  auto tracker = MemoryTracker::Create(
      MemoryTracker::Options{MemoryScope::kQuery, "q", 1 << 20, "query.max_query_memory"});
  auto result = RunPlan(std::move(plan), 1, tracker);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kResourceExhausted);
}

/// Every column of `rows` as text, in order.
std::vector<std::string> AllText(const std::vector<Row>& rows) {
  return Rows(MakeBatches(ToColumns(rows), 1 << 30));
}

TEST(SortSpillTest, ExternalMergeMatchesStdSortForKeyOrders) {
  const std::vector<Row> rows = RandomRows(100000, 21);
  const std::vector<std::vector<SortKey>> orders = {
      {{0, true, false}, {1, true, false}, {2, true, false}, {3, true, false}},
      {{1, false, true}, {2, true, true}, {0, false, false}, {3, false, false}},
  };
  for (const auto& keys : orders) {
    const auto want = AllText(Expected(rows, keys));
    for (int threads : {1, 2}) {
      ScopedSpillDir dir;
      auto plan = std::make_unique<Sort>(Source(ToColumns(rows), 2000), keys);
      SQE_ASSIGN_OR_FAIL(SpillRun run,
                         RunPlanSpilling(std::move(plan), threads, 1 << 20, dir.path(), 3000));
      EXPECT_GT(run.spilled_bytes, 0);
      EXPECT_NE(run.explain.find("spilled="), std::string::npos) << run.explain;
      ASSERT_EQ(run.rows.size(), want.size());
      for (size_t i = 0; i < want.size(); ++i) {
        ASSERT_EQ(run.rows[i], want[i]) << "row " << i << " threads " << threads;
      }
    }
  }
}

TEST(SortSpillTest, MoreRunsThanOneMergeTakesMergeInPasses) {
  std::vector<std::optional<int64_t>> values;
  std::mt19937 rng(5);
  for (int i = 0; i < 300000; ++i) values.push_back(static_cast<int64_t>(rng() % 1000000));
  ScopedSpillDir dir;
  auto plan = std::make_unique<Sort>(Source({Int64s(values)}, 1000), std::vector<SortKey>{{0}});
  SQE_ASSIGN_OR_FAIL(SpillRun run, RunPlanSpilling(std::move(plan), 2, 96 << 10, dir.path()));
  const size_t runs_at = run.explain.find("runs=");
  ASSERT_NE(runs_at, std::string::npos) << run.explain;
  EXPECT_GT(std::atoi(run.explain.c_str() + runs_at + 5), static_cast<int>(Sort::kMaxMergeFanIn))
      << run.explain;
  std::sort(values.begin(), values.end());
  ASSERT_EQ(run.rows.size(), values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    ASSERT_EQ(run.rows[i], std::to_string(*values[i])) << i;
  }
}

TEST(SortSpillTest, NestedPayloadColumnsSpill) {
  std::vector<std::optional<int64_t>> keys;
  std::vector<std::optional<std::vector<std::optional<int64_t>>>> lists;
  for (int64_t i = 0; i < 40000; ++i) {
    keys.push_back((i * 7919) % 40000);
    if (i % 9 == 0) {
      lists.push_back(std::nullopt);
    } else {
      lists.push_back(std::vector<std::optional<int64_t>>{i, std::nullopt, -i});
    }
  }
  const std::vector<Column> columns = {Int64s(keys), Int64Lists(lists)};
  SQE_ASSIGN_OR_FAIL(
      SpillRun expected,
      RunPlanSpilling(std::make_unique<Sort>(Source(columns, 1000), std::vector<SortKey>{{0}}), 1,
                      0, ""));
  ScopedSpillDir dir;
  SQE_ASSIGN_OR_FAIL(
      SpillRun run,
      RunPlanSpilling(std::make_unique<Sort>(Source(columns, 1000), std::vector<SortKey>{{0}}), 2,
                      1 << 20, dir.path()));
  EXPECT_GT(run.spilled_bytes, 0);
  EXPECT_EQ(run.rows, expected.rows);
}

TEST(SortSpillTest, WithoutSpillDirTheErrorSaysSpillingIsOff) {
  std::vector<std::optional<int64_t>> values(300000, 1);
  auto plan = std::make_unique<Sort>(Source({Int64s(values)}, 10000), std::vector<SortKey>{{0}});
  auto result = RunPlanSpilling(std::move(plan), 2, 1 << 20, "");
  ExpectSpillOffError(result.status());
}

TEST(SortSpillTest, CancelMidSpillLeavesNoFiles) {
  std::vector<std::optional<int64_t>> values;
  for (int i = 0; i < 200000; ++i) values.push_back((i * 7919) % 200000);
  ScopedSpillDir dir;
  static TaskScheduler scheduler(2);
  {
    ExecContext ctx;
    ctx.tracker = MemoryTracker::Create(
        MemoryTracker::Options{MemoryScope::kQuery, "q", 256 << 10, "query.max_query_memory"});
    ctx.scheduler = &scheduler;
    ctx.threads = 2;
    ctx.batch_size = 1024;
    ctx.spill_dir = dir.path();
    // The deadline passes while the sort is spilling runs.
    ctx.SetTimeout(std::chrono::milliseconds(0));
    TextRowsSink sink(
        std::make_unique<Sort>(Source({Int64s(values)}, 1000), std::vector<SortKey>{{0}}));
    Status st = ExecutePlan(ctx, sink);
    EXPECT_EQ(st.code(), StatusCode::kDeadlineExceeded) << st.ToString();
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

}  // namespace
}  // namespace sqe::exec
