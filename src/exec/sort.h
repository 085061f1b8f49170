#pragma once
/// Sort: ORDER BY as a pipeline breaker. Each sinking thread collects its batches and
/// their normalized keys (sort_key_encoder.h); its Combine turns them into one sorted run
/// (sorted by memcmp of the keys), so runs sort in parallel. Finalize merges the runs'
/// orders (k-way, on the normalized keys) into one global order over their
/// concatenation, and the (ordered, single-threaded) source emits it in batches of
/// ExecContext::batch_size rows. Not stable.
///
/// Memory: collected batches, keys and the room to order them reserve on the operator's
/// tracker. Without spilling (ExecContext::spill_dir empty) a refused reservation fails
/// with ResourceExhausted naming the limit and that spilling is off.
///
/// Spilling (external merge sort): when a thread cannot reserve for its next batch, or
/// less than an eighth of the query's memory (at most 64MB) is left for the operators
/// feeding it, it orders what it holds and writes it as a sorted run to a spill file,
/// releases it and goes on. Once any run is on disk, the threads' last runs are written too, and
/// the source k-way merges the files reading one batch per run at a time (keys re-encoded per
/// batch), in passes of at most kMaxMergeFanIn runs. EXPLAIN ANALYZE shows `spilled=<bytes>
/// runs=<n>`.
///
/// TopN and Window use the same key machinery but stay in memory: TopN is bounded by
/// its limit, and Window's partitions are not spilled yet.

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "exec/physical_operator.h"
#include "exec/sort_key_encoder.h"

namespace sqe::exec {

class Sort : public PhysicalOperator {
 public:
  /// Runs merged at once by the source; more are first merged into longer runs.
  static constexpr size_t kMaxMergeFanIn = 64;

  Sort(PhysicalOperatorPtr child, std::vector<SortKey> keys);
  ~Sort() override;

  std::string Details() const override;

  bool IsSink() const override { return true; }
  Result<std::unique_ptr<OperatorState>> MakeSinkState(ExecContext& ctx) override;
  Status Sink(ExecContext& ctx, const columnar::Batch& input, OperatorState& state) override;
  Status Combine(ExecContext& ctx, OperatorState& state) override;
  Status Finalize(ExecContext& ctx) override;

  bool IsSource() const override { return true; }
  bool SourceIsOrdered() const override { return true; }
  Result<std::unique_ptr<OperatorState>> MakeSourceState(ExecContext& ctx) override;
  Result<std::optional<columnar::Batch>> GetData(ExecContext& ctx, OperatorState& state) override;

  /// Bytes this operator wrote to spill files so far.
  int64_t spilled_bytes() const { return spilled_bytes_.load(); }

  struct Run;         // sort.cc
  struct SpillMerge;  // sort.cc
  struct Collected;   // sort.cc

 private:
  /// Orders `c` and writes it as one run to a new spill file; `c` is emptied.
  Status SpillCollected(ExecContext& ctx, Collected& c);
  /// Writes the rows of `batches` in `order` (indices over their concatenation) as a run.
  Status WriteRun(ExecContext& ctx, const std::vector<columnar::Batch>& batches,
                  const std::vector<uint32_t>& order);
  /// Merges runs until at most kMaxMergeFanIn are left, then opens the final merge.
  Status PrepareMerge(ExecContext& ctx);

  std::vector<SortKey> keys_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Run>> runs_;
  // After Finalize: every row in one batch and the global order over it.
  columnar::Batch sorted_input_;
  std::vector<uint32_t> order_;
  Reservation order_reservation_;
  size_t next_ = 0;
  // Spilling: the runs on disk, a thread's request that others spill too, the bytes
  // written, and the final merge.
  std::vector<std::string> spilled_runs_;
  std::atomic<bool> spill_requested_{false};
  std::atomic<int64_t> spilled_bytes_{0};
  int64_t runs_written_ = 0;
  int64_t headroom_ = -1;  // memory left to others before a thread spills (-1: not decided)
  std::unique_ptr<SpillMerge> merge_;
};

/// Describes sort keys for EXPLAIN: "#0 ASC NULLS LAST, #2 DESC NULLS FIRST".
std::string SortKeysToString(const std::vector<SortKey>& keys);

}  // namespace sqe::exec
