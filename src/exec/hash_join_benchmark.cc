// HashJoin micro-benchmark: an inner equi-join on a bigint key, build side of 1K to 1M
// rows (unique keys, plus a decimal payload), probe side of 4M rows whose keys all hit
// the build side (orders x lineitem shaped), on 1 and 2 threads. "build" runs the build
// alone (the probe side empty); "build_probe" the whole join. Reports rows/s of the side
// each one measures.
//
//   build/release/src/exec/hash_join_benchmark [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <numeric>

#include "exec/benchmark_plan.h"
#include "exec/hash_join.h"

namespace sqe::exec {
namespace {

namespace bm = columnar::benchmarking;

constexpr int64_t kProbeRows = 4 << 20;

struct JoinInput {
  columnar::SchemaPtr build_schema;
  std::vector<columnar::Batch> build;
  columnar::SchemaPtr probe_schema;
  std::vector<columnar::Batch> probe;
  columnar::SchemaPtr output;
};

JoinInput MakeInput(int64_t build_rows, int64_t probe_rows) {
  JoinInput in;
  std::vector<int64_t> keys(static_cast<size_t>(build_rows));
  std::iota(keys.begin(), keys.end(), 0);
  in.build = bm::CutIntoBatches(
      {bm::Int64Column(keys), bm::RandomDecimalColumn(build_rows, 0, 100000000, 4)}, 8192,
      &in.build_schema);
  in.probe = bm::CutIntoBatches({bm::RandomInt64Column(probe_rows, build_rows, 5),
                                 bm::RandomDecimalColumn(probe_rows, 90000, 10495000, 6)},
                                8192, &in.probe_schema);
  std::vector<columnar::Field> fields;
  for (const auto& f : in.probe_schema->fields()) fields.emplace_back("p_" + f.name(), f.type());
  for (const auto& f : in.build_schema->fields()) fields.emplace_back("b_" + f.name(), f.type());
  in.output = columnar::Schema::Make(fields);
  return in;
}

int64_t RunJoin(const JoinInput& in, bool with_probe, int threads) {
  static const std::vector<columnar::Batch> kNone;
  auto join = std::make_unique<HashJoin>(
      benchmarking::Source(in.probe_schema, with_probe ? in.probe : kNone),
      benchmarking::Source(in.build_schema, in.build), JoinType::kInner, std::vector<int>{0},
      std::vector<int>{0}, nullptr, false, in.output);
  return benchmarking::RunPlan(std::move(join), threads);
}

void BM_HashJoinBuild(benchmark::State& state) {
  const int64_t build_rows = state.range(0);
  const int threads = static_cast<int>(state.range(1));
  const JoinInput in = MakeInput(build_rows, 0);
  for (auto _ : state) benchmark::DoNotOptimize(RunJoin(in, false, threads));
  state.counters["build_rows_per_s"] = benchmark::Counter(
      static_cast<double>(build_rows), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_HashJoinBuildProbe(benchmark::State& state) {
  const int64_t build_rows = state.range(0);
  const int threads = static_cast<int>(state.range(1));
  const JoinInput in = MakeInput(build_rows, kProbeRows);
  int64_t out = 0;
  for (auto _ : state) out = RunJoin(in, true, threads);
  if (out != kProbeRows) state.SkipWithError("the join lost rows");
  state.counters["probe_rows_per_s"] = benchmark::Counter(
      static_cast<double>(kProbeRows), benchmark::Counter::kIsIterationInvariantRate);
}

BENCHMARK(BM_HashJoinBuild)
    ->ArgNames({"build_rows", "threads"})
    ->ArgsProduct({{1000, 1000000}, {1, 2}})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_HashJoinBuildProbe)
    ->ArgNames({"build_rows", "threads"})
    ->ArgsProduct({{1000, 1000000}, {1, 2}})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace sqe::exec

BENCHMARK_MAIN();
