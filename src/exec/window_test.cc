#include "exec/window.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "exec/breaker_testing.h"

namespace sqe::exec {
namespace {

using columnar::Column;
using namespace columnar::testing;  // NOLINT
using namespace exec::testing;      // NOLINT

const FunctionRegistry& Registry() { return FunctionRegistry::Global(); }

/// Input columns: 0 id (unique), 1 partition key, 2 order key (ties, NULLs), 3 value.
struct Input {
  std::vector<std::optional<int64_t>> id, part, key, value;
};

Input RandomInput(int64_t n, int partitions, uint32_t seed) {
  std::mt19937 rng(seed);
  Input in;
  for (int64_t i = 0; i < n; ++i) {
    in.id.push_back(i);
    in.part.push_back(rng() % 13 == 0 ? std::nullopt : std::optional<int64_t>(rng() % partitions));
    in.key.push_back(rng() % 9 == 0 ? std::nullopt : std::optional<int64_t>(rng() % 40));
    in.value.push_back(rng() % 5 == 0 ? std::nullopt
                                      : std::optional<int64_t>(static_cast<int64_t>(rng() % 100)));
  }
  return in;
}

WindowCall Aggregate(const std::string& name, std::vector<int> args, WindowFrame frame) {
  std::vector<columnar::TypePtr> types(args.size(), columnar::Int64());
  WindowCall call;
  call.kind = WindowFunctionKind::kAggregate;
  call.aggregate = ValueOrDie(Registry().ResolveAggregate(name, types, false));
  call.args = std::move(args);
  call.partition_by = {1};
  call.order_by = {SortKey{2, true, false}};
  call.frame = frame;
  call.type = call.aggregate->return_type;
  return call;
}

/// Runs a Window over `in` with `calls`; per id, the text of the result columns.
std::map<int64_t, std::string> RunWindow(const Input& in, std::vector<WindowCall> calls,
                                         int threads = 1) {
  std::vector<Column> columns{Int64s(in.id), Int64s(in.part), Int64s(in.key), Int64s(in.value)};
  auto source = Source(columns, 97);
  std::vector<columnar::Field> fields;
  for (int i = 0; i < source->schema()->num_fields(); ++i) {
    fields.push_back(source->schema()->field(i));
  }
  for (size_t i = 0; i < calls.size(); ++i)
    fields.emplace_back("w" + std::to_string(i), calls[i].type);
  auto plan =
      std::make_unique<Window>(std::move(source), std::move(calls), columnar::Schema::Make(fields));
  auto batches = ValueOrDie(RunPlan(std::move(plan), threads, nullptr, 64));
  std::map<int64_t, std::string> out;
  for (const std::string& row : Rows(batches)) {
    // id|part|key|value|results...
    const size_t bar = row.find('|');
    std::string rest = row;
    for (int skip = 0; skip < 4; ++skip) rest = rest.substr(rest.find('|') + 1);
    out[std::stoll(row.substr(0, bar))] = rest;
  }
  return out;
}

std::string Text(std::optional<int64_t> v) { return v ? std::to_string(*v) : "null"; }

/// The brute-force sum and count of `value` over each row's RANGE / GROUPS frame (ASC
/// NULLS LAST order on `key` within `part`).
std::map<int64_t, std::string> Reference(const Input& in, WindowFrameUnit unit,
                                         std::optional<int64_t> preceding,
                                         std::optional<int64_t> following) {
  const size_t n = in.id.size();
  std::map<int64_t, std::string> out;
  for (size_t r = 0; r < n; ++r) {
    // Distinct keys of the partition in order (NULL last), for GROUPS.
    std::vector<std::optional<int64_t>> keys;
    for (size_t j = 0; j < n; ++j) {
      if (in.part[j] == in.part[r]) keys.push_back(in.key[j]);
    }
    auto less = [](const std::optional<int64_t>& a, const std::optional<int64_t>& b) {
      if (!a || !b) return a.has_value() && !b.has_value();
      return *a < *b;
    };
    std::sort(keys.begin(), keys.end(), less);
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    const int64_t my_group =
        std::lower_bound(keys.begin(), keys.end(), in.key[r], less) - keys.begin();
    std::optional<int64_t> sum;
    int64_t count = 0;
    for (size_t j = 0; j < n; ++j) {
      if (in.part[j] != in.part[r]) continue;
      bool inside;
      if (unit == WindowFrameUnit::kGroups) {
        const int64_t g =
            std::lower_bound(keys.begin(), keys.end(), in.key[j], less) - keys.begin();
        inside = (!preceding || g >= my_group - *preceding) &&
                 (!following || g <= my_group + *following);
      } else if (!in.key[r]) {
        // A NULL key's offset bounds stop at its peers (the NULL keys), which sort last.
        inside = !in.key[j] || !preceding;
      } else if (!in.key[j]) {
        inside = !following;
      } else {
        inside = (!preceding || *in.key[j] >= *in.key[r] - *preceding) &&
                 (!following || *in.key[j] <= *in.key[r] + *following);
      }
      if (!inside) continue;
      ++count;
      if (in.value[j]) sum = sum.value_or(0) + *in.value[j];
    }
    out[*in.id[r]] = Text(sum) + "|" + std::to_string(count);
  }
  return out;
}

WindowFrame Frame(WindowFrameUnit unit, std::optional<int64_t> preceding,
                  std::optional<int64_t> following) {
  WindowFrame frame;
  frame.unit = unit;
  frame.start = preceding ? WindowBound{WindowBoundType::kPreceding, *preceding, -1}
                          : WindowBound{WindowBoundType::kUnboundedPreceding, 0, -1};
  frame.end = following ? WindowBound{WindowBoundType::kFollowing, *following, -1}
                        : WindowBound{WindowBoundType::kUnboundedFollowing, 0, -1};
  return frame;
}

TEST(WindowTest, GroupsFramesMatchBruteForce) {
  // Few large partitions (the incremental paths) and many small ones (per-row groups).
  for (int partitions : {2, 60}) {
    const Input in = RandomInput(600, partitions, 7 + partitions);
    for (auto [preceding, following] :
         std::vector<std::pair<std::optional<int64_t>, std::optional<int64_t>>>{
             {std::nullopt, 0}, {0, std::nullopt}, {1, 1}, {std::nullopt, std::nullopt}, {3, 0}}) {
      WindowFrame frame = Frame(WindowFrameUnit::kGroups, preceding, following);
      auto got = RunWindow(in, {Aggregate("sum", {3}, frame), Aggregate("count", {}, frame)}, 2);
      EXPECT_EQ(got, Reference(in, WindowFrameUnit::kGroups, preceding, following))
          << partitions << " partitions, " << (preceding ? *preceding : -1) << " preceding, "
          << (following ? *following : -1) << " following";
    }
  }
}

TEST(WindowTest, RangeOffsetFramesMatchBruteForce) {
  const Input in = RandomInput(500, 3, 11);
  for (auto [preceding, following] :
       std::vector<std::pair<std::optional<int64_t>, std::optional<int64_t>>>{
           {5, 5}, {0, 0}, {std::nullopt, 2}, {10, std::nullopt}}) {
    WindowFrame frame = Frame(WindowFrameUnit::kRange, preceding, following);
    // The bound values key - preceding and key + following as columns 4 and 5 (what the
    // physical planner projects).
    std::vector<std::optional<int64_t>> low, high;
    for (const auto& k : in.key) {
      low.push_back(k && preceding ? std::optional<int64_t>(*k - *preceding) : k);
      high.push_back(k && following ? std::optional<int64_t>(*k + *following) : k);
    }
    std::vector<Column> columns{Int64s(in.id),    Int64s(in.part), Int64s(in.key),
                                Int64s(in.value), Int64s(low),     Int64s(high)};
    auto source = Source(columns, 50);
    if (preceding) frame.start.range_value = 4;
    if (following) frame.end.range_value = 5;
    frame.range_key = 2;
    std::vector<WindowCall> calls{Aggregate("sum", {3}, frame), Aggregate("count", {}, frame)};
    std::vector<columnar::Field> fields;
    for (int i = 0; i < source->schema()->num_fields(); ++i) {
      fields.push_back(source->schema()->field(i));
    }
    fields.emplace_back("s", calls[0].type);
    fields.emplace_back("c", calls[1].type);
    auto plan = std::make_unique<Window>(std::move(source), std::move(calls),
                                         columnar::Schema::Make(fields));
    auto batches = ValueOrDie(RunPlan(std::move(plan), 2));
    std::map<int64_t, std::string> got;
    for (const std::string& row : Rows(batches)) {
      std::string rest = row;
      for (int skip = 0; skip < 6; ++skip) rest = rest.substr(rest.find('|') + 1);
      got[std::stoll(row.substr(0, row.find('|')))] = rest;
    }
    EXPECT_EQ(got, Reference(in, WindowFrameUnit::kRange, preceding, following))
        << (preceding ? *preceding : -1) << " preceding, " << (following ? *following : -1)
        << " following";
  }
}

TEST(WindowTest, RankingAndLag) {
  Input in;
  in.id = {0, 1, 2, 3, 4, 5};
  in.part = {1, 1, 1, 1, 2, 2};
  in.key = {10, 20, 20, std::nullopt, 5, 5};
  in.value = {100, 200, 300, 400, 500, std::nullopt};
  auto make = [](WindowFunctionKind kind, std::vector<int> args, columnar::TypePtr type) {
    WindowCall call;
    call.kind = kind;
    call.args = std::move(args);
    call.partition_by = {1};
    call.order_by = {SortKey{2, true, false}};
    call.type = std::move(type);
    return call;
  };
  auto got = RunWindow(in, {make(WindowFunctionKind::kRank, {}, columnar::Int64()),
                            make(WindowFunctionKind::kDenseRank, {}, columnar::Int64()),
                            make(WindowFunctionKind::kCumeDist, {}, columnar::Float64()),
                            make(WindowFunctionKind::kFirstValue, {3}, columnar::Int64())});
  EXPECT_EQ(got[0], "1|1|0.25|100");
  EXPECT_EQ(got[1], "2|2|0.75|100");
  EXPECT_EQ(got[2], "2|2|0.75|100");
  EXPECT_EQ(got[3], "4|3|1|100");  // the NULL key sorts last, a peer group of its own
  // Partition 2: two peers, so equal ranks; first_value is either peer's value.
  EXPECT_EQ(got[4].substr(0, 6), "1|1|1|");
  EXPECT_EQ(got[5].substr(0, 6), "1|1|1|");
}

TEST(WindowTest, EmptyInputGivesNoRows) {
  Input in;
  auto got = RunWindow(in, {Aggregate("sum", {3}, WindowFrame{})});
  EXPECT_TRUE(got.empty());
}

TEST(WindowTest, MemoryLimitGivesResourceExhausted) {
  std::vector<std::optional<int64_t>> values(300000, 1);
  WindowCall call = Aggregate("count", {}, WindowFrame{});
  call.partition_by = {0};
  call.order_by = {};
  auto plan =
      std::make_unique<Window>(Source({Int64s(values)}, 10000), std::vector<WindowCall>{call},
                               columnar::Schema::Make({columnar::Field("c0", columnar::Int64()),
                                                       columnar::Field("w", columnar::Int64())}));
  auto tracker = MemoryTracker::Create(
      MemoryTracker::Options{MemoryScope::kQuery, "q", 1 << 20, "query.max_query_memory"});
  auto result = RunPlan(std::move(plan), 1, tracker);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kResourceExhausted);
}

}  // namespace
}  // namespace sqe::exec
