#pragma once
/// HashJoin: equi-join (plus an optional residual predicate) of a probe and a build side.
/// The build side (children[1]) is the sink of its own pipeline: each thread collects
/// batches, Finalize concatenates them, hashes the keys column-at-a-time into a
/// KeyHashTable (one entry per distinct key, rows chained per key). The probe side
/// (children[0]) streams through Execute on every probe thread: keys hashed and encoded
/// per batch, looked up batch-at-a-time, candidate pairs gathered with Take, the residual
/// evaluated on the pairs, and unmatched rows emitted as the join type needs.
///
/// Semantics: keys compare with SQL equality (a NULL key never matches); no keys is a
/// cross join. Output: probe ++ build columns (inner, left, right; the unmatched side
/// NULL); probe columns only (semi, anti); probe ++ one boolean "mark" (mark: true on a
/// match, false without one, NULL when `null_aware` and the answer is unknown: the probe
/// key is NULL or the build side has a NULL key, with a non-empty build side). Anti with
/// `null_aware` (NOT IN) drops the rows whose answer is unknown.
///
/// Joins that keep build rows (RIGHT, FULL, RIGHT SEMI, RIGHT ANTI) mark every build row
/// that matched (a byte per row, set with relaxed atomic stores from the probe threads);
/// the join is then also the source of a continuation pipeline
/// (PipelineBuilder::AddContinuation) that runs after the probe pipeline and emits, through
/// the same operators above the join into the same sink: the build rows never matched with
/// probe columns NULL (RIGHT, FULL), the matched build rows (RIGHT SEMI) or the unmatched
/// ones (RIGHT ANTI), the last two with build columns only. FULL also emits the unmatched
/// probe rows like LEFT. So the optimizer can build on whichever side is smaller: `a LEFT
/// JOIN b` with a small `a` runs as RIGHT with `a` built; `a SEMI b` with a small `a` as
/// `b RIGHT SEMI a` (EXISTS semantics only: RIGHT ANTI is never null-aware).
///
/// Memory: the build side, its keys and chains reserve on the operator's tracker
/// (ResourceExhausted at the query limit). Spilling goes in Finalize: the build rows
/// would be radix-partitioned by key hash (the hash is already computed) and partitions
/// past the budget written to spill_dir, with probe rows of those partitions spilled too.

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "exec/expression.h"
#include "exec/physical_operator.h"

namespace sqe::exec {

enum class JoinType { kInner, kLeft, kRight, kFull, kSemi, kAnti, kMark, kRightSemi, kRightAnti };

/// "INNER", "LEFT", ...
const char* JoinTypeName(JoinType type);

class HashJoin : public PhysicalOperator {
 public:
  HashJoin(PhysicalOperatorPtr probe, PhysicalOperatorPtr build, JoinType type,
           std::vector<int> probe_keys, std::vector<int> build_keys, ExprPtr residual,
           bool null_aware, columnar::SchemaPtr output);
  ~HashJoin() override;

  /// Marks keys that compare with IS NOT DISTINCT FROM (a NULL matches a NULL) instead of
  /// SQL equality; one flag per key, in probe_keys order. Used by decorrelated subqueries,
  /// which join back on their correlated values.
  void SetNullSafeKeys(std::vector<bool> null_safe);

  std::string Details() const override;
  void BuildPipelines(PipelineBuilder& builder) override;

  // Build side (sink of the table side's pipeline).
  bool IsSink() const override { return true; }
  Result<std::unique_ptr<OperatorState>> MakeSinkState(ExecContext& ctx) override;
  Status Sink(ExecContext& ctx, const columnar::Batch& input, OperatorState& state) override;
  Status Combine(ExecContext& ctx, OperatorState& state) override;
  Status Finalize(ExecContext& ctx) override;

  // Joins keeping build rows: source of the continuation pipeline emitting them.
  bool IsSource() const override { return KeepsBuildRows(); }
  Result<std::unique_ptr<OperatorState>> MakeSourceState(ExecContext& ctx) override;
  Result<std::optional<columnar::Batch>> GetData(ExecContext& ctx, OperatorState& state) override;

  // Probe side (streaming in the stream side's pipeline).
  Result<std::unique_ptr<OperatorState>> MakeOperatorState(ExecContext& ctx) override;
  Status Execute(ExecContext& ctx, const columnar::Batch& input, OperatorState& state,
                 std::vector<columnar::Batch>* out) override;
  /// Emits every batch_size pairs as they are found, so a fan-out (many matches per probe
  /// row, cross joins) holds one output batch at a time, and checks for cancellation.
  Status ExecuteStreaming(ExecContext& ctx, const columnar::Batch& input, OperatorState& state,
                          const std::function<Status(const columnar::Batch&)>& emit) override;

  struct Table;  // hash_join.cc

 private:
  std::shared_ptr<MemoryTracker> Tracker(ExecContext& ctx);
  /// RIGHT, FULL, RIGHT SEMI, RIGHT ANTI: build rows are marked and emitted afterwards.
  bool KeepsBuildRows() const;
  /// Output columns for pairs (stream row s_sel[i], table row t_sel[i]).
  Result<std::vector<columnar::Column>> PairColumns(const columnar::Batch& stream,
                                                    const std::vector<uint32_t>& s_sel,
                                                    const std::vector<uint32_t>& t_sel,
                                                    int64_t table_null_rows);
  /// any_null[i] = 1 when a key of row i that is not null-safe is NULL.
  void NullMask(const std::vector<columnar::Column>& keys, int64_t rows,
                std::vector<uint8_t>* any_null) const;
  Status EmitPairs(ExecContext& ctx, const columnar::Batch& stream, std::vector<uint32_t>* s_sel,
                   std::vector<uint32_t>* t_sel, std::vector<uint8_t>* matched,
                   std::vector<columnar::Batch>* out);

  JoinType type_;
  ExprPtr residual_;
  bool null_aware_;
  // The side kept in the hash table ("table": the build child, children[1]) and the side
  // streamed against it ("stream": the probe child, children[0]).
  static constexpr int table_child_ = 1;
  static constexpr int stream_child_ = 0;
  std::vector<int> table_keys_;
  std::vector<int> stream_keys_;
  std::vector<columnar::TypePtr> key_types_;
  std::vector<bool> null_safe_;  ///< per key; empty: every key is SQL equality

  std::mutex mutex_;
  std::shared_ptr<MemoryTracker> tracker_;
  std::vector<columnar::Batch> table_batches_;
  Reservation batches_reservation_;
  std::unique_ptr<Table> table_;
  /// Joins keeping build rows: the next build row their source looks at.
  std::atomic<int64_t> unmatched_cursor_{0};
};

}  // namespace sqe::exec
