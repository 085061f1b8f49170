#pragma once
/// PhysicalOperator: a node of the physical plan and its roles in push-based, morsel-
/// driven pipelines (DuckDB's model). A pipeline is one source, a chain of streaming
/// operators and one sink; pipeline breakers (hash aggregate, join build, sort) are the
/// sink of one pipeline and the source of the next. The executor (pipeline.h) runs each
/// pipeline on ExecContext::threads threads: every thread owns local states, pulls
/// batches from the source, pushes them through the operators into the sink, then
/// Combines its sink state; once all threads are done the sink Finalizes.
///
/// An operator overrides the roles it plays:
///  - source:    IsSource(), MakeSourceState, GetData (called concurrently from several
///               threads, each with its own local state; the operator shares work
///               between them, e.g. a scan hands out files/row groups)
///  - streaming: MakeOperatorState, Execute (per thread, no shared mutable state)
///  - sink:      IsSink(), MakeSinkState, Sink, Combine, Finalize
/// and BuildPipelines when it is not a plain streaming operator over children[0]. An
/// operator may also be the source of a continuation pipeline that feeds the operators
/// above it and its pipeline's sink once its pipeline is done (a FULL join's unmatched
/// build rows: PipelineBuilder::AddContinuation); the shared sink Finalizes once.
///
/// Every operator charges what it keeps to a child tracker of ExecContext::tracker
/// (MakeTracker) and counts rows and time in `stats()` for EXPLAIN ANALYZE.
///
/// Thread safety: GetData, Execute, Sink and Combine run concurrently on different local
/// states; Finalize runs alone after every Combine.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "columnar/batch.h"
#include "columnar/schema.h"
#include "common/memory_tracker.h"
#include "common/result.h"
#include "exec/exec_context.h"

namespace sqe::exec {

class PipelineBuilder;

/// Per-thread (local) state of an operator role; each operator subclasses it.
class OperatorState {
 public:
  virtual ~OperatorState() = default;
};

/// What EXPLAIN ANALYZE shows per operator.
struct OperatorStats {
  std::atomic<int64_t> rows_in{0};
  std::atomic<int64_t> rows_out{0};
  std::atomic<int64_t> batches_out{0};
  std::atomic<int64_t> cpu_nanos{0};
  /// Scans: bytes read from data files (the Parquet readers' reads).
  std::atomic<int64_t> bytes_read{0};
  /// The peak of the operator's tracker (MakeTracker), set by RecordPeakMemory when the
  /// plan has run; 0 for an operator that charged nothing.
  std::atomic<int64_t> peak_memory{0};
  /// Scans: data files read and pruned (by partition values or column metrics), row
  /// groups read and pruned (by statistics, page indexes or Bloom filters).
  std::atomic<int64_t> files_read{0};
  std::atomic<int64_t> files_pruned{0};
  std::atomic<int64_t> row_groups_read{0};
  std::atomic<int64_t> row_groups_pruned{0};
  /// Free-form counters ("row_groups_skipped=3"), set by the operator at Finalize / end.
  std::string extra;
};

class PhysicalOperator {
 public:
  PhysicalOperator(std::string name, columnar::SchemaPtr schema,
                   std::vector<std::unique_ptr<PhysicalOperator>> children = {});
  virtual ~PhysicalOperator();

  /// "HashAggregate", "TableScan", ...
  const std::string& name() const { return name_; }
  /// The schema of the batches this operator produces.
  const columnar::SchemaPtr& schema() const { return schema_; }
  const std::vector<std::unique_ptr<PhysicalOperator>>& children() const { return children_; }
  PhysicalOperator& child(int i) const { return *children_[i]; }
  OperatorStats& stats() const { return stats_; }
  /// The estimated output rows (EXPLAIN); -1 when unknown.
  int64_t estimated_rows = -1;

  /// The EXPLAIN line after the name: keys, predicates, columns ("keys=[#0], aggs=[sum(#1)]").
  virtual std::string Details() const { return ""; }

  // --- source role ---
  virtual bool IsSource() const { return false; }
  virtual Result<std::unique_ptr<OperatorState>> MakeSourceState(ExecContext& ctx);
  /// The next batch for this thread, or nullopt when the source has no more for it.
  virtual Result<std::optional<columnar::Batch>> GetData(ExecContext& ctx, OperatorState& state);
  /// True when the source's batches must reach the sink in order (sorted output): the
  /// executor then runs the pipeline on one thread.
  virtual bool SourceIsOrdered() const { return false; }
  /// Threads worth running this source on (e.g. the number of files); 0 = no limit.
  virtual int64_t SourceParallelism() const { return 0; }

  // --- streaming role ---
  virtual Result<std::unique_ptr<OperatorState>> MakeOperatorState(ExecContext& ctx);
  /// Transforms `input` into zero or more batches appended to `out`.
  virtual Status Execute(ExecContext& ctx, const columnar::Batch& input, OperatorState& state,
                         std::vector<columnar::Batch>* out);
  /// The same, handing each output batch to `emit` as soon as it exists, so an operator
  /// whose output can be far larger than its input (a join fanning out) never holds all
  /// of it at once. The executor calls this one; the default runs Execute and emits its
  /// batches.
  virtual Status ExecuteStreaming(ExecContext& ctx, const columnar::Batch& input,
                                  OperatorState& state,
                                  const std::function<Status(const columnar::Batch&)>& emit);

  // --- sink role ---
  virtual bool IsSink() const { return false; }
  virtual Result<std::unique_ptr<OperatorState>> MakeSinkState(ExecContext& ctx);
  virtual Status Sink(ExecContext& ctx, const columnar::Batch& input, OperatorState& state);
  /// This thread is done: merge its local state into the shared one (thread-safe).
  virtual Status Combine(ExecContext& ctx, OperatorState& state);
  /// Every thread has Combined: finish the breaker's work (sort runs, build tables).
  virtual Status Finalize(ExecContext& ctx);
  /// True once the sink needs no more input (LIMIT reached): sources stop early.
  virtual bool SinkIsFull() const { return false; }

  /// Adds this operator to the pipelines (default: a streaming operator over child 0;
  /// sources start a pipeline; sinks end the child's pipeline and start a new one with
  /// this operator as its source).
  virtual void BuildPipelines(PipelineBuilder& builder);

  /// The tracker for this operator's memory, a child of the query's ("operator
  /// '<name>'"): made on the first call, the same one for later calls with the same
  /// query tracker (so threads share it and its peak is the operator's). nullptr when
  /// the context has no tracker.
  std::shared_ptr<MemoryTracker> MakeTracker(ExecContext& ctx) const;
  /// Copies the tracker's peak into stats().peak_memory (ExecutePlan calls it once the
  /// plan has run, for every operator of the tree).
  void RecordPeakMemory() const;

 protected:
  std::string name_;
  columnar::SchemaPtr schema_;
  std::vector<std::unique_ptr<PhysicalOperator>> children_;
  mutable OperatorStats stats_;

 private:
  mutable std::mutex tracker_mutex_;
  mutable std::shared_ptr<MemoryTracker> operator_tracker_;
};

using PhysicalOperatorPtr = std::unique_ptr<PhysicalOperator>;

/// The children vector of a one- or two-input operator (constructors' convenience).
std::vector<PhysicalOperatorPtr> Children(PhysicalOperatorPtr first,
                                          PhysicalOperatorPtr second = nullptr);

/// The plan as EXPLAIN prints it: one operator a line, children indented, with
/// estimates; with `analyze`, the measured rows, time, peak memory, bytes read and extra
/// counters ("[rows=10 time=1.2ms peak_memory=1.5MiB bytes_read=12.0KiB ...]").
std::string ExplainPhysicalPlan(const PhysicalOperator& root, bool analyze);

/// A byte count in binary units with one decimal: "512B", "1.5KiB", "12.0MiB", "2.3GiB".
std::string FormatBytes(int64_t bytes);

}  // namespace sqe::exec
