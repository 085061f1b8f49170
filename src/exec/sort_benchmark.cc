// Sort micro-benchmark: ORDER BY over 2M in-memory rows (8192-row batches) on one bigint
// key, on a decimal DESC + date key pair (Q18's o_totalprice DESC, o_orderdate), and on a
// short string key, on 1 and 2 threads (runs sorted in parallel, then merged). Reports
// rows/s.
//
//   build/release/src/exec/sort_benchmark [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include "exec/benchmark_plan.h"
#include "exec/sort.h"

namespace sqe::exec {
namespace {

namespace bm = columnar::benchmarking;

constexpr int64_t kRows = 2 << 20;

enum KeyShape { kBigint = 0, kDecimalDate = 1, kString = 2 };

void BM_Sort(benchmark::State& state) {
  const auto shape = static_cast<KeyShape>(state.range(0));
  const int threads = static_cast<int>(state.range(1));
  columnar::SchemaPtr schema;
  const auto batches =
      bm::CutIntoBatches({bm::RandomInt64Column(kRows, int64_t{1} << 40, 7),
                          bm::RandomDecimalColumn(kRows, 90000, 50000000, 8),
                          bm::RandomDateColumn(kRows, 9), bm::RandomStringColumn(kRows, 3, 10)},
                         8192, &schema);
  std::vector<SortKey> keys;
  switch (shape) {
    case kBigint:
      keys = {{0, true, false}};
      state.SetLabel("bigint");
      break;
    case kDecimalDate:
      keys = {{1, false, false}, {2, true, false}};
      state.SetLabel("decimal desc, date");
      break;
    case kString:
      keys = {{3, true, false}};
      state.SetLabel("varchar");
      break;
  }
  int64_t rows = 0;
  for (auto _ : state) {
    rows = benchmarking::RunPlan(
        std::make_unique<Sort>(benchmarking::Source(schema, batches), keys), threads);
  }
  if (rows != kRows) state.SkipWithError("the sort lost rows");
  state.counters["rows_per_s"] =
      benchmark::Counter(static_cast<double>(kRows), benchmark::Counter::kIsIterationInvariantRate);
}

BENCHMARK(BM_Sort)
    ->ArgNames({"key", "threads"})
    ->ArgsProduct({{kBigint, kDecimalDate, kString}, {1, 2}})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace sqe::exec

BENCHMARK_MAIN();
