#pragma once
/// Benchmark-only: runs a small physical plan (ValuesSource -> operator -> ResultCollector)
/// over in-memory batches on N threads of a shared scheduler, for the micro-benchmarks of
/// the pipeline breakers (hash_aggregate_benchmark.cc, hash_join_benchmark.cc,
/// sort_benchmark.cc). The unit tests have their own gtest-based helper
/// (breaker_testing.h); this one aborts on an error instead.

#include <algorithm>
#include <memory>
#include <vector>

#include "columnar/benchmark_columns.h"
#include "common/task_scheduler.h"
#include "exec/pipeline.h"
#include "exec/result_collector.h"
#include "exec/values_source.h"

namespace sqe::exec::benchmarking {

/// A source handing out `batches` (shared buffers: building it copies no data).
inline PhysicalOperatorPtr Source(columnar::SchemaPtr schema,
                                  const std::vector<columnar::Batch>& batches) {
  return std::make_unique<ValuesSource>(std::move(schema), batches, /*ordered=*/false);
}

/// Runs `plan` on `threads` threads; the number of result rows.
inline int64_t RunPlan(PhysicalOperatorPtr plan, int threads) {
  static TaskScheduler scheduler(2);
  ExecContext ctx;
  ctx.tracker = MemoryTracker::Create(MemoryScope::kQuery, "benchmark");
  ctx.scheduler = &scheduler;
  ctx.threads = threads;
  ResultCollector collector(std::move(plan), 0);
  columnar::benchmarking::OrDie(ExecutePlan(ctx, collector));
  int64_t rows = 0;
  for (const auto& b : collector.TakeBatches()) rows += b.num_rows();
  return rows;
}

}  // namespace sqe::exec::benchmarking
