// HashAggregate micro-benchmark: GROUP BY a bigint key with count(*), sum(decimal) and
// max(bigint) over 4M in-memory rows (8192-row batches), for 10 to 1M groups (from a
// cache-resident table to one far larger than the caches), on 1 and 2 threads. Reports
// input rows/s.
//
//   build/release/src/exec/hash_aggregate_benchmark [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include "exec/benchmark_plan.h"
#include "exec/functions/registry.h"
#include "exec/hash_aggregate.h"

namespace sqe::exec {
namespace {

using columnar::benchmarking::OrDie;

constexpr int64_t kRows = 4 << 20;

const AggregateFunction* Aggregate(const char* name, std::vector<columnar::TypePtr> args) {
  return OrDie(FunctionRegistry::Global().ResolveAggregate(name, args, false));
}

void BM_HashAggregate(benchmark::State& state) {
  const int64_t groups = state.range(0);
  const int threads = static_cast<int>(state.range(1));
  columnar::SchemaPtr schema;
  const auto batches = columnar::benchmarking::CutIntoBatches(
      {columnar::benchmarking::RandomInt64Column(kRows, groups, 1),
       columnar::benchmarking::RandomDecimalColumn(kRows, 90000, 10495000, 2),
       columnar::benchmarking::RandomInt64Column(kRows, 1 << 30, 3)},
      8192, &schema);
  std::vector<AggregateCall> calls = {{Aggregate("count", {}), {}},
                                      {Aggregate("sum", {schema->field(1).type()}), {1}},
                                      {Aggregate("max", {columnar::Int64()}), {2}}};
  std::vector<columnar::Field> out = {{"k", columnar::Int64()},
                                      {"count", calls[0].function->return_type},
                                      {"sum", calls[1].function->return_type},
                                      {"max", calls[2].function->return_type}};
  const auto output = columnar::Schema::Make(out);
  int64_t result_rows = 0;
  for (auto _ : state) {
    auto plan = std::make_unique<HashAggregate>(benchmarking::Source(schema, batches),
                                                std::vector<int>{0}, calls, output);
    result_rows = benchmarking::RunPlan(std::move(plan), threads);
  }
  state.counters["groups_out"] = static_cast<double>(result_rows);
  state.counters["rows_per_s"] =
      benchmark::Counter(static_cast<double>(kRows), benchmark::Counter::kIsIterationInvariantRate);
}

BENCHMARK(BM_HashAggregate)
    ->ArgNames({"groups", "threads"})
    ->ArgsProduct({{10, 10000, 1000000}, {1, 2}})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace sqe::exec

BENCHMARK_MAIN();
