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
/// Memory: tables and accumulators reserve on the operator's tracker. Without spilling
/// (ExecContext::spill_dir empty) a refused reservation fails the query with
/// ResourceExhausted naming the limit and that spilling is off.
///
/// Spilling: once a thread's table is full (a reservation is refused, or the operator
/// holds a third of what the query could use when the sink started, leaving the rest for
/// merging), the table is frozen and every further input row is written as it is (the
/// columns the keys and aggregates read) to one spill file per radix partition (the 16 partitions
/// the source merges by). No accumulator state is serialized, so every aggregate kind spills, and
/// frozen states never grow. The source builds each partition, one at a time, from the
/// tables' groups of that partition plus its spilled rows; when that table fills up in
/// turn it is frozen the same way and the partition's remaining rows split on the next 4
/// hash bits, aggregated after it with its groups (recursively, up to 15 levels). Spill
/// files are deleted once read; EXPLAIN ANALYZE shows `spilled=<bytes>`.

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
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

  /// Bytes this operator wrote to spill files so far.
  int64_t spilled_bytes() const { return spilled_bytes_.load(); }

  struct GroupTable;      // hash_aggregate.cc
  struct RowScratch;      // hash_aggregate.cc
  struct PartitionSpill;  // hash_aggregate.cc
  struct SpilledPart;     // hash_aggregate.cc
  /// One partition of a SpilledPart left to aggregate.
  struct SpillWorkItem {
    std::shared_ptr<SpilledPart> part;
    int partition;
  };

 private:
  Result<std::unique_ptr<GroupTable>> MakeTable(ExecContext& ctx);
  Result<columnar::Batch> EmitTable(ExecContext& ctx, GroupTable& table);
  Result<columnar::Batch> MergePartition(ExecContext& ctx, int partition);
  /// Merges the groups of `table` in radix `partition` at `level` (every group when
  /// `all`) into `merged`.
  Status MergeInto(GroupTable& merged, GroupTable& table, int partition, int level, bool all);
  /// Groups `input` into `table`. Once the table is full (see the class comment) rows of
  /// new groups go to `*spill` (made on first use), split on the hash bits of `level`.
  /// `spilled_rows`: `input` holds spilled rows (spilled_layout_), else the child's.
  Status AddRows(ExecContext& ctx, GroupTable& table, RowScratch& s, const columnar::Batch& input,
                 int level, std::unique_ptr<PartitionSpill>* spill, bool spilled_rows);
  /// Aggregates radix `partition` (at `level`) of `tables` plus the spilled rows in
  /// `files`: the result rows, or nullopt when it spilled again and left its
  /// sub-partitions in `more`.
  Result<std::optional<columnar::Batch>> AggregateSpilled(ExecContext& ctx,
                                                          const std::vector<GroupTable*>& tables,
                                                          const std::vector<std::string>& files,
                                                          int partition, int level,
                                                          std::vector<SpillWorkItem>* more);
  Result<std::unique_ptr<PartitionSpill>> MakeSpill(ExecContext& ctx, int level);
  /// Shows the bytes spilled so far in EXPLAIN ANALYZE.
  void RecordSpill();

  std::vector<int> group_keys_;
  std::vector<AggregateCall> aggregates_;
  std::vector<columnar::TypePtr> key_types_;
  /// Where the keys and each aggregate's arguments are in a batch AddRows groups.
  struct ColumnLayout {
    std::vector<int> keys;
    std::vector<std::vector<int>> args;
  };
  ColumnLayout input_layout_;    // the child's batches
  ColumnLayout spilled_layout_;  // spilled rows: only spill_columns_, in that order
  std::vector<int> spill_columns_;
  columnar::SchemaPtr spill_schema_;

  std::mutex mutex_;
  std::shared_ptr<MemoryTracker> tracker_;           // shared by every table of this operator
  std::vector<std::unique_ptr<GroupTable>> tables_;  // one per sinking thread
  int partitions_ = 1;
  std::atomic<int> next_partition_{0};
  // Spilling: the operator's memory above which sink tables stop growing (0 = never; -1 =
  // not decided yet), the files of spilled rows per level-0 partition, the bytes written.
  int64_t table_budget_ = -1;
  std::vector<std::vector<std::string>> spilled_;
  bool spilled_any_ = false;
  std::mutex spill_source_mutex_;  // spilled partitions are aggregated one at a time
  std::atomic<int64_t> spilled_bytes_{0};
};

}  // namespace sqe::exec
