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
/// Memory: the build side, its keys and chains reserve on the operator's tracker. When the
/// query may spill (ExecContext::spill_dir) and a reservation fails or less than a quarter
/// of the query's limit is left (ShouldSpillEarly), the join turns into a grace hash join
/// (hash_join_spill.h, docs/dev/hash-join-spilling.md): every build row goes to one of 64
/// spill files by the top bits of its key hash; Finalize loads back the partitions that
/// fit the budget into the in-memory table; probe rows of the partitions left on disk are
/// written to per-partition probe files instead of being probed. The join is always the source of
/// a continuation pipeline: after the probe input ends (and after the kept build rows of
/// the in-memory partitions) it joins each spilled partition in turn, one thread at a
/// time: its table built from its file, its probe file streamed through it, then (RIGHT,
/// FULL, RIGHT SEMI/ANTI) its kept build rows. A partition still too big is split again
/// on the next six hash bits (up to four levels). NULL-aware answers use the whole build
/// side's emptiness and NULL-key flag, so they are the same as in memory. A cross join
/// (no keys) cannot be partitioned and fails with ResourceExhausted, as does every join
/// when spilling is off. EXPLAIN ANALYZE shows the bytes written as `spilled=...` (and
/// `spill_splits=N` when partitions were split again).

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
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

  // Source of the continuation pipeline: kept build rows, then spilled partitions.
  bool IsSource() const override { return true; }
  /// One thread when the continuation has nothing to do (no kept rows, nothing spilled).
  int64_t SourceParallelism() const override;
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

  struct Table;       // hash_join.cc
  struct ProbeState;  // hash_join.cc: a probe thread's scratch
  struct Spill;       // hash_join.cc: the grace hash join's state once the build spilled

 private:
  std::shared_ptr<MemoryTracker> Tracker(ExecContext& ctx);
  /// RIGHT, FULL, RIGHT SEMI, RIGHT ANTI: build rows are marked and emitted afterwards.
  bool KeepsBuildRows() const;
  /// Output columns for pairs (stream row s_sel[i], table row t_sel[i]).
  Result<std::vector<columnar::Column>> PairColumns(const Table& table,
                                                    const columnar::Batch& stream,
                                                    const std::vector<uint32_t>& s_sel,
                                                    const std::vector<uint32_t>& t_sel,
                                                    int64_t table_null_rows);
  /// any_null[i] = 1 when a key of row i that is not null-safe is NULL.
  void NullMask(const std::vector<columnar::Column>& keys, int64_t rows,
                std::vector<uint8_t>* any_null) const;
  Status EmitPairs(ExecContext& ctx, Table& table, const columnar::Batch& stream,
                   std::vector<uint32_t>* s_sel, std::vector<uint32_t>* t_sel,
                   std::vector<uint8_t>* matched, std::vector<columnar::Batch>* out);
  /// s.keys, s.hashes and s.null_keys of the probe batch `input`.
  void HashProbeKeys(const columnar::Batch& input, ProbeState& s) const;
  /// s.groups[i] = the key number in `table` of row i of `input` (kNotFound for none or a
  /// NULL key), with s.keys, s.hashes, s.null_keys and s.encoded filled on the way.
  Status LookUpKeys(const Table& table, const columnar::Batch& input, ProbeState& s) const;
  /// Joins `input` against `table` (the in-memory one or a spilled partition's).
  Status ProbeBatch(ExecContext& ctx, const columnar::Batch& input, Table& table, ProbeState& s,
                    std::vector<columnar::Batch>* out);
  /// The hash table of `batches` (build rows), reserved on the tracker. Once they are
  /// concatenated `batches` holds the one concatenated batch instead (and
  /// `batches_reservation`, optional, is reset), so on failure the caller can still spill
  /// them; on success it is empty.
  Result<std::unique_ptr<Table>> BuildTable(std::vector<columnar::Batch>* batches,
                                            Reservation* batches_reservation);

  // Spilling (hash_join.cc, "grace hash join").
  /// True when spilling is possible and the query has less than a quarter of its limit
  /// left: the build side spills before the operators around it run out.
  bool ShouldSpillEarly(ExecContext& ctx) const;
  /// Turns spilling on after `cause` (a failed reservation); mutex_ held.
  Status StartSpilling(ExecContext& ctx, const Status& cause);
  /// Routes the rows of a build batch to their partition files.
  Status SpillBuildBatch(const columnar::Batch& batch);
  /// Writes `batches` to the partition files and releases their reservation.
  Status SpillBuildBatches(std::vector<columnar::Batch>* batches, int64_t bytes);
  /// Finalize once spilling: loads the partitions that fit, opens the probe files.
  Status FinalizeSpilled(ExecContext& ctx);
  /// Writes the rows of `input` that belong to a spilled partition to its probe file;
  /// the other rows (all of `input`, a subset, or nothing).
  Result<std::optional<columnar::Batch>> SpillProbeRows(const columnar::Batch& input,
                                                        ProbeState& s);
  /// The next output of the spilled partitions; nullopt when all are joined.
  Result<std::optional<columnar::Batch>> NextSpilledBatch(ExecContext& ctx);
  /// counts[i] = the pairs probe row i of `input` makes with `table` (at least 1, at most
  /// cap + 1): how NextSpilledBatch cuts a probe batch into slices.
  Status PairCounts(const Table& table, const columnar::Batch& input, ProbeState& s, int64_t cap,
                    std::vector<int64_t>* counts);
  /// Loads the next spilled partition (splitting it again when it does not fit).
  Status OpenNextPartition(ExecContext& ctx);
  /// The kept build rows of `table` (rows[start, end)) as an output batch, nullopt when none.
  Result<std::optional<columnar::Batch>> KeptBuildRows(const Table& table, int64_t start,
                                                       int64_t end, std::vector<uint32_t>* rows);

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
  /// Whole build side facts (NULL-aware answers), set by Finalize.
  bool build_empty_ = true;
  bool build_has_null_key_ = false;
  /// Set (under mutex_) once the build side spills; never unset.
  std::atomic<bool> spilling_{false};
  std::unique_ptr<Spill> spill_;
  /// Joins keeping build rows: the next build row their source looks at.
  std::atomic<int64_t> unmatched_cursor_{0};
};

}  // namespace sqe::exec
