#include "datagen/tpch_loader.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>

#include "common/task_scheduler.h"

namespace sqe::datagen {
namespace {

/// Shared by the workers of one table.
struct TableRun {
  const TpchGenerator* generator;
  TpchTable table;
  int64_t units = 0;
  int64_t chunk_units = 0;
  int64_t chunks = 0;
  TableSink* sink = nullptr;
  std::atomic<int64_t> units_done{0};
  std::atomic<int64_t> rows{0};
  std::atomic<bool> failed{false};
  std::mutex progress_mutex;
  const std::function<void(const TpchProgress&)>* progress = nullptr;
};

Status RunWorker(TableRun& run, int64_t worker, int64_t workers) {
  std::unique_ptr<SinkWriter> writer;
  for (int64_t chunk = worker; chunk < run.chunks; chunk += workers) {
    if (run.failed.load()) return Status::OK();  // another worker's error is reported
    const int64_t first = chunk * run.chunk_units;
    const int64_t count = std::min(run.chunk_units, run.units - first);
    Result<columnar::Batch> batch = run.generator->Generate(run.table, first, count);
    Status st = batch.status();
    if (st.ok() && writer == nullptr) {
      Result<std::unique_ptr<SinkWriter>> opened = run.sink->OpenWriter();
      st = opened.status();
      if (st.ok()) writer = std::move(*opened);
    }
    if (st.ok()) st = writer->Write(*batch);
    if (!st.ok()) {
      run.failed = true;
      return st;
    }
    const int64_t done = run.units_done.fetch_add(count) + count;
    const int64_t rows = run.rows.fetch_add(batch->num_rows()) + batch->num_rows();
    if (*run.progress) {
      std::lock_guard<std::mutex> lock(run.progress_mutex);
      (*run.progress)(TpchProgress{run.table, done, run.units, rows});
    }
  }
  if (writer != nullptr) {
    Status st = writer->Close();
    if (!st.ok()) {
      run.failed = true;
      return st;
    }
  }
  return Status::OK();
}

}  // namespace

Result<std::vector<TpchTableReport>> LoadTpch(const TpchLoadOptions& options, DatasetSink& sink) {
  if (options.threads < 1) return Status::InvalidArgument("threads must be >= 1");
  if (options.chunk_units < 1) return Status::InvalidArgument("chunk_units must be >= 1");
  SQE_ASSIGN_OR_RETURN(std::unique_ptr<TpchGenerator> generator,
                       TpchGenerator::Make(options.generator));
  std::vector<TpchTable> tables = options.tables;
  if (tables.empty()) tables.assign(AllTpchTables().begin(), AllTpchTables().end());
  // The calling thread works too (ParallelFor).
  std::unique_ptr<TaskScheduler> scheduler;
  if (options.threads > 1) scheduler = std::make_unique<TaskScheduler>(options.threads - 1);

  std::vector<TpchTableReport> reports;
  for (TpchTable table : tables) {
    const auto started = std::chrono::steady_clock::now();
    SQE_ASSIGN_OR_RETURN(std::unique_ptr<TableSink> table_sink, sink.BeginTable(table));
    TableRun run;
    run.generator = generator.get();
    run.table = table;
    run.units = generator->UnitCount(table);
    // Lineitem's units are orders of about four rows: smaller chunks keep batches alike.
    run.chunk_units = table == TpchTable::kLineitem ? std::max<int64_t>(1, options.chunk_units / 4)
                                                    : options.chunk_units;
    run.chunks = (run.units + run.chunk_units - 1) / run.chunk_units;
    run.sink = table_sink.get();
    run.progress = &options.progress;
    const int64_t workers = std::min<int64_t>(options.threads, run.chunks);
    SQE_RETURN_NOT_OK(ParallelFor(scheduler.get(), workers, static_cast<int>(workers),
                                  [&](int64_t w) { return RunWorker(run, w, workers); }));
    SQE_RETURN_NOT_OK(table_sink->Commit());
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - started;
    reports.push_back(TpchTableReport{table, run.rows.load(), elapsed.count()});
  }
  return reports;
}

}  // namespace sqe::datagen
