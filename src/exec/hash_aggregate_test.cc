#include "exec/hash_aggregate.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "exec/breaker_testing.h"
#include "exec/functions/builtin_families.h"
#include "exec/spill_testing.h"

namespace sqe::exec {
namespace {

using columnar::Column;
using columnar::Field;
using namespace columnar::testing;  // NOLINT
using namespace exec::testing;      // NOLINT

const FunctionRegistry& Registry() {
  static FunctionRegistry* registry = [] {
    auto* r = new FunctionRegistry();
    RegisterAggregateFunctions(*r);
    return r;
  }();
  return *registry;
}

AggregateCall Call(const std::string& name, std::vector<columnar::TypePtr> types,
                   std::vector<int> args, bool distinct = false) {
  return {ValueOrDie(Registry().ResolveAggregate(name, types, distinct)), std::move(args)};
}

/// A HashAggregate over `columns` with an output schema made from the key and result types.
PhysicalOperatorPtr Aggregate(const std::vector<Column>& columns, std::vector<int> keys,
                              std::vector<AggregateCall> calls, int64_t batch_rows = 1000) {
  std::vector<Field> fields;
  for (int k : keys) fields.emplace_back("k" + std::to_string(k), columns[k].type());
  for (size_t a = 0; a < calls.size(); ++a) {
    fields.emplace_back("a" + std::to_string(a), calls[a].function->return_type);
  }
  return std::make_unique<HashAggregate>(Source(columns, batch_rows), std::move(keys),
                                         std::move(calls), columnar::Schema::Make(fields));
}

TEST(HashAggregateTest, GlobalAggregateOnEmptyInputGivesOneRow) {
  Column x = Int64s({});
  for (int threads : {1, 2}) {
    auto plan = Aggregate({x}, {},
                          {Call("count", {}, {}), Call("sum", {columnar::Int64()}, {0}),
                           Call("max", {columnar::Int64()}, {0})});
    SQE_ASSIGN_OR_FAIL(auto batches, RunPlan(std::move(plan), threads));
    EXPECT_EQ(Rows(batches), std::vector<std::string>({"0|null|null"}));
  }
}

TEST(HashAggregateTest, GlobalAggregateOverSeveralThreads) {
  std::vector<std::optional<int64_t>> values;
  for (int64_t i = 1; i <= 10000; ++i)
    values.push_back(i % 7 == 0 ? std::nullopt : std::optional(i));
  Column x = Int64s(values);
  auto plan = Aggregate({x}, {},
                        {Call("count", {}, {}), Call("count", {columnar::Int64()}, {0}),
                         Call("sum", {columnar::Int64()}, {0}),
                         Call("count", {columnar::Int64()}, {0}, /*distinct=*/true)},
                        100);
  SQE_ASSIGN_OR_FAIL(auto batches, RunPlan(std::move(plan), 2));
  int64_t sum = 0, count = 0;
  for (const auto& v : values) {
    if (v) sum += *v, ++count;
  }
  EXPECT_EQ(Rows(batches),
            std::vector<std::string>({"10000|" + std::to_string(count) + "|" + std::to_string(sum) +
                                      "|" + std::to_string(count)}));
}

TEST(HashAggregateTest, HundredThousandGroupsOnTwoThreads) {
  const int64_t n = 300000;
  std::vector<std::optional<int64_t>> keys, values;
  std::map<int64_t, std::pair<int64_t, int64_t>> expected;  // key -> (count, sum)
  std::map<int64_t, int64_t> minimum;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t k = (i * 7919) % 100000;
    keys.push_back(k);
    values.push_back(i);
    expected[k].first += 1;
    expected[k].second += i;
    if (!minimum.count(k)) minimum[k] = i;
  }
  for (int threads : {1, 2}) {
    auto plan = Aggregate({Int64s(keys), Int64s(values)}, {0},
                          {Call("count", {}, {}), Call("sum", {columnar::Int64()}, {1}),
                           Call("min", {columnar::Int64()}, {1})},
                          4096);
    SQE_ASSIGN_OR_FAIL(auto batches, RunPlan(std::move(plan), threads, nullptr, 5000));
    int64_t rows = 0;
    for (const auto& b : batches) {
      EXPECT_LE(b.num_rows(), 5000);
      for (int64_t r = 0; r < b.num_rows(); ++r) {
        const int64_t k = b.column(0).Value<int64_t>(r);
        ASSERT_EQ(b.column(1).Value<int64_t>(r), expected[k].first);
        ASSERT_EQ(b.column(2).Value<int64_t>(r), expected[k].second);
        ASSERT_EQ(b.column(3).Value<int64_t>(r), minimum[k]);
      }
      rows += b.num_rows();
    }
    EXPECT_EQ(rows, 100000) << threads;
  }
}

TEST(HashAggregateTest, StringAndNullKeys) {
  Column k = Strings({"b", "a", std::nullopt, "b", "", std::nullopt, "a", "b"});
  Column v = Int64s({1, 2, 3, 4, 5, 6, 7, std::nullopt});
  for (int threads : {1, 2}) {
    auto plan =
        Aggregate({k, v}, {0}, {Call("count", {}, {}), Call("sum", {columnar::Int64()}, {1})}, 3);
    SQE_ASSIGN_OR_FAIL(auto batches, RunPlan(std::move(plan), threads));
    EXPECT_EQ(Sorted(Rows(batches)),
              std::vector<std::string>({"\"\"|1|5", "\"a\"|2|9", "\"b\"|3|5", "null|2|9"}));
  }
}

TEST(HashAggregateTest, MultiColumnKeysWithNullsAndDoubles) {
  Column a = Int64s({1, 1, std::nullopt, 1, std::nullopt, 2});
  Column b = Strings({"x", "y", "x", "x", "x", std::nullopt});
  Column d = Float64s({0.0, -0.0, NAN, NAN, 1.0, 2.0});
  auto plan = Aggregate({a, b, d}, {0, 1}, {Call("count", {}, {})}, 2);
  SQE_ASSIGN_OR_FAIL(auto batches, RunPlan(std::move(plan), 2));
  EXPECT_EQ(Sorted(Rows(batches)),
            std::vector<std::string>({"1|\"x\"|2", "1|\"y\"|1", "2|null|1", "null|\"x\"|2"}));
  // Doubles: 0.0 groups with -0.0 and NaN with NaN.
  auto by_double = Aggregate({a, b, d}, {2}, {Call("count", {}, {})}, 2);
  SQE_ASSIGN_OR_FAIL(auto rows, RunPlan(std::move(by_double), 1));
  EXPECT_EQ(Sorted(Rows(rows)), std::vector<std::string>({"\"NaN\"|2", "0|2", "1|1", "2|1"}));
}

TEST(HashAggregateTest, DistinctPerGroupAndAvg) {
  Column k = Int64s({1, 1, 1, 2, 2, 2});
  Column v = Int64s({5, 5, 6, 7, 7, std::nullopt});
  auto plan = Aggregate(
      {k, v}, {0},
      {Call("count", {columnar::Int64()}, {1}, true), Call("avg", {columnar::Int64()}, {1})}, 2);
  SQE_ASSIGN_OR_FAIL(auto batches, RunPlan(std::move(plan), 2));
  EXPECT_EQ(Sorted(Rows(batches)), std::vector<std::string>({"1|2|5.333333333333333", "2|1|7"}));
}

TEST(HashAggregateTest, MemoryLimitGivesResourceExhausted) {
  std::vector<std::optional<int64_t>> keys;
  for (int64_t i = 0; i < 200000; ++i) keys.push_back(i);
  auto plan = Aggregate({Int64s(keys)}, {0}, {Call("count", {}, {})}, 8192);
  auto tracker = MemoryTracker::Create(
      MemoryTracker::Options{MemoryScope::kQuery, "q", 1 << 20, "query.max_query_memory"});
  auto result = RunPlan(std::move(plan), 1, tracker);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kResourceExhausted);
  EXPECT_NE(result.status().message().find("query.max_query_memory"), std::string::npos)
      << result.status().message();
}

/// Keys (i * 7919) % groups, values i (every 13th NULL), strings of the value.
std::vector<Column> SpillInput(int64_t rows, int64_t groups) {
  std::vector<std::optional<int64_t>> keys, values;
  std::vector<std::optional<std::string>> texts;
  for (int64_t i = 0; i < rows; ++i) {
    keys.push_back((i * 7919) % groups);
    values.push_back(i % 13 == 0 ? std::nullopt : std::optional<int64_t>(i % 1000));
    texts.push_back("text " + std::to_string(i % 777));
  }
  return {Int64s(keys), Int64s(values), Strings(texts)};
}

std::vector<AggregateCall> EveryKindOfAggregate() {
  return {Call("count", {}, {}),
          Call("count", {columnar::Int64()}, {1}),
          Call("sum", {columnar::Int64()}, {1}),
          Call("avg", {columnar::Int64()}, {1}),
          Call("min", {columnar::Int64()}, {1}),
          Call("max", {columnar::Int64()}, {1}),
          Call("min", {columnar::String()}, {2}),
          Call("max", {columnar::String()}, {2}),
          Call("count", {columnar::Int64()}, {1}, /*distinct=*/true),
          Call("sum", {columnar::Int64()}, {1}, /*distinct=*/true)};
}

TEST(HashAggregateSpillTest, EveryAggregateKindSpillsAndMatchesInMemory) {
  const std::vector<Column> input = SpillInput(120000, 40000);
  SQE_ASSIGN_OR_FAIL(
      SpillRun expected,
      RunPlanSpilling(Aggregate(input, {0}, EveryKindOfAggregate(), 1024), 2, 0, ""));
  ASSERT_EQ(expected.rows.size(), 40000u);
  for (int threads : {1, 2}) {
    ScopedSpillDir dir;
    SQE_ASSIGN_OR_FAIL(SpillRun run,
                       RunPlanSpilling(Aggregate(input, {0}, EveryKindOfAggregate(), 1024), threads,
                                       4 << 20, dir.path()));
    EXPECT_GT(run.spilled_bytes, 0) << threads;
    EXPECT_NE(run.explain.find("spilled="), std::string::npos) << run.explain;
    EXPECT_EQ(Sorted(run.rows), Sorted(expected.rows)) << threads;
  }
}

TEST(HashAggregateSpillTest, EachAggregateAloneSpills) {
  const std::vector<Column> input = SpillInput(60000, 30000);
  for (const AggregateCall& call : EveryKindOfAggregate()) {
    SCOPED_TRACE(call.function->name + (call.function->distinct ? " distinct" : ""));
    SQE_ASSIGN_OR_FAIL(SpillRun expected,
                       RunPlanSpilling(Aggregate(input, {0}, {call}, 1024), 1, 0, ""));
    ScopedSpillDir dir;
    SQE_ASSIGN_OR_FAIL(
        SpillRun run, RunPlanSpilling(Aggregate(input, {0}, {call}, 1024), 2, 1 << 20, dir.path()));
    EXPECT_GT(run.spilled_bytes, 0);
    EXPECT_EQ(Sorted(run.rows), Sorted(expected.rows));
  }
}

TEST(HashAggregateSpillTest, PartitionsThatStillDoNotFitSplitAgain) {
  // 200,000 groups under 1 MiB: a level-0 partition (1/16) does not fit either.
  const std::vector<Column> input = SpillInput(200000, 200000);
  std::vector<AggregateCall> calls = {Call("count", {}, {}), Call("sum", {columnar::Int64()}, {1})};
  SQE_ASSIGN_OR_FAIL(SpillRun expected,
                     RunPlanSpilling(Aggregate(input, {0}, calls, 2048), 1, 0, ""));
  ScopedSpillDir dir;
  SQE_ASSIGN_OR_FAIL(SpillRun run,
                     RunPlanSpilling(Aggregate(input, {0}, calls, 2048), 2, 1 << 20, dir.path()));
  EXPECT_EQ(Sorted(run.rows), Sorted(expected.rows));
  // Spilled more than the input once: some rows were written at a second level.
  EXPECT_GT(run.spilled_bytes, 0);
}

TEST(HashAggregateSpillTest, MultiColumnAndNullKeysSpill) {
  std::vector<std::optional<int64_t>> a;
  std::vector<std::optional<std::string>> b;
  std::vector<std::optional<int64_t>> v;
  for (int64_t i = 0; i < 80000; ++i) {
    a.push_back(i % 17 == 0 ? std::nullopt : std::optional<int64_t>(i % 9000));
    b.push_back(i % 5 == 0 ? std::nullopt : std::optional<std::string>(std::to_string(i % 7)));
    v.push_back(i);
  }
  const std::vector<Column> input = {Int64s(a), Strings(b), Int64s(v)};
  std::vector<AggregateCall> calls = {Call("count", {}, {}), Call("max", {columnar::Int64()}, {2})};
  SQE_ASSIGN_OR_FAIL(SpillRun expected,
                     RunPlanSpilling(Aggregate(input, {0, 1}, calls, 1000), 1, 0, ""));
  ScopedSpillDir dir;
  SQE_ASSIGN_OR_FAIL(
      SpillRun run, RunPlanSpilling(Aggregate(input, {0, 1}, calls, 1000), 2, 1 << 20, dir.path()));
  EXPECT_GT(run.spilled_bytes, 0);
  EXPECT_EQ(Sorted(run.rows), Sorted(expected.rows));
}

TEST(HashAggregateSpillTest, OnlyTheColumnsReadAreSpilled) {
  // The key is the last column and the middle one is read by nothing.
  std::vector<Column> input = SpillInput(60000, 30000);
  std::swap(input[0], input[2]);  // texts, values, keys
  std::vector<AggregateCall> calls = {Call("sum", {columnar::Int64()}, {1}), Call("count", {}, {})};
  SQE_ASSIGN_OR_FAIL(SpillRun expected,
                     RunPlanSpilling(Aggregate(input, {2}, calls, 1024), 1, 0, ""));
  ScopedSpillDir dir;
  SQE_ASSIGN_OR_FAIL(SpillRun run,
                     RunPlanSpilling(Aggregate(input, {2}, calls, 1024), 2, 1 << 20, dir.path()));
  EXPECT_GT(run.spilled_bytes, 0);
  EXPECT_EQ(Sorted(run.rows), Sorted(expected.rows));
}

TEST(HashAggregateSpillTest, WithoutSpillDirTheErrorSaysSpillingIsOff) {
  const std::vector<Column> input = SpillInput(100000, 100000);
  auto result =
      RunPlanSpilling(Aggregate(input, {0}, {Call("count", {}, {})}, 4096), 2, 1 << 20, "");
  ExpectSpillOffError(result.status());
}

TEST(HashAggregateSpillTest, ProcessLimitAlsoTriggersSpilling) {
  // The query has no limit of its own; the process (worker.memory_limit) is what is short.
  const std::vector<Column> input = SpillInput(100000, 50000);
  std::vector<AggregateCall> calls = {Call("count", {}, {}), Call("sum", {columnar::Int64()}, {1})};
  SQE_ASSIGN_OR_FAIL(SpillRun expected,
                     RunPlanSpilling(Aggregate(input, {0}, calls, 1024), 1, 0, ""));
  static TaskScheduler scheduler(2);
  auto process = MemoryTracker::Create(
      MemoryTracker::Options{MemoryScope::kProcess, "process", 1 << 20, "worker.memory_limit"});
  for (const bool spill : {true, false}) {
    ScopedSpillDir dir;
    ExecContext ctx;
    ctx.tracker = process->CreateChild(MemoryScope::kQuery, "q");
    ctx.scheduler = &scheduler;
    ctx.threads = 2;
    ctx.batch_size = 1024;
    if (spill) ctx.spill_dir = dir.path();
    TextRowsSink sink(Aggregate(input, {0}, calls, 1024));
    Status st = ExecutePlan(ctx, sink);
    if (spill) {
      SQE_ASSERT_OK(st);
      EXPECT_EQ(Sorted(sink.TakeRows()), Sorted(expected.rows));
    } else {
      ExpectSpillOffError(st, "worker.memory_limit");
    }
  }
  EXPECT_EQ(process->current(), 0);
}

}  // namespace
}  // namespace sqe::exec
