#pragma once
/// HashAggregate: GROUP BY (and global aggregates) as a pipeline breaker. As a sink each
/// thread groups its batches into its own KeyHashTable with one GroupAccumulator per
/// aggregate (keys hashed column-at-a-time, encoded, looked up batch-at-a-time, then each
/// accumulator updated for the whole batch). Combine hands the thread's table over.
/// As a source, the groups are split into radix partitions by the top bits of their
/// hash; each source thread claims a partition, merges that partition of every thread's
/// table into one table (accumulator Merge with kSkipGroup for other partitions) and
/// emits it in batches of ExecContext::batch_size rows. One thread table is emitted as is.
///
/// NULL keys form their own group (GROUP BY semantics). Without keys there is exactly
/// one output row, even for empty input (count = 0, other aggregates NULL).
///
/// Memory: tables and accumulators reserve on the operator's tracker and fail with
/// ResourceExhausted naming the query limit. Spilling goes in Combine: a thread table
/// over budget would write each radix partition to spill_dir, and the source would
/// re-read one partition at a time (the partitioning already matches).

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "exec/functions/registry.h"
#include "exec/physical_operator.h"

namespace sqe::exec {

/// One aggregate of a HashAggregate: the resolved function and its argument columns
/// (indices into the input batch).
struct AggregateCall {
  const AggregateFunction* function;
  std::vector<int> args;
};

class HashAggregate : public PhysicalOperator {
 public:
  /// `output`: the key columns (in `group_keys` order, same types) then one column per
  /// aggregate (its function's return type).
  HashAggregate(PhysicalOperatorPtr child, std::vector<int> group_keys,
                std::vector<AggregateCall> aggregates, columnar::SchemaPtr output);
  ~HashAggregate() override;

  std::string Details() const override;

  bool IsSink() const override { return true; }
  Result<std::unique_ptr<OperatorState>> MakeSinkState(ExecContext& ctx) override;
  Status Sink(ExecContext& ctx, const columnar::Batch& input, OperatorState& state) override;
  Status Combine(ExecContext& ctx, OperatorState& state) override;
  Status Finalize(ExecContext& ctx) override;

  bool IsSource() const override { return true; }
  Result<std::unique_ptr<OperatorState>> MakeSourceState(ExecContext& ctx) override;
  Result<std::optional<columnar::Batch>> GetData(ExecContext& ctx, OperatorState& state) override;
  int64_t SourceParallelism() const override;

  struct GroupTable;  // hash_aggregate.cc

 private:
  Result<std::unique_ptr<GroupTable>> MakeTable(ExecContext& ctx);
  Result<columnar::Batch> EmitTable(ExecContext& ctx, GroupTable& table);
  Result<columnar::Batch> MergePartition(ExecContext& ctx, int partition);

  std::vector<int> group_keys_;
  std::vector<AggregateCall> aggregates_;
  std::vector<columnar::TypePtr> key_types_;

  std::mutex mutex_;
  std::shared_ptr<MemoryTracker> tracker_;           // shared by every table of this operator
  std::vector<std::unique_ptr<GroupTable>> tables_;  // one per sinking thread
  int partitions_ = 1;
  std::atomic<int> next_partition_{0};
};

}  // namespace sqe::exec
