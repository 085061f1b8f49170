#include "exec/hash_join.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <deque>
#include <limits>
#include <string>

#include "columnar/boolean_builder.h"
#include "columnar/take.h"
#include "exec/batch_concatenate.h"
#include "exec/expression_evaluator.h"
#include "exec/hash_join_spill.h"
#include "exec/key_hash_table.h"
#include "exec/pipeline.h"
#include "exec/row_key_encoder.h"

namespace sqe::exec {

using columnar::Batch;
using columnar::Column;

namespace {
constexpr uint32_t kEnd = UINT32_MAX;

struct BuildState : OperatorState {
  std::vector<Batch> batches;
  int64_t bytes = 0;  ///< reserved for `batches` on the shared reservation
};

/// Rows per spill message and the bytes a partition gathers before writing.
constexpr int64_t kSpillFlushBytes = 256 << 10;

bool IsResourceExhausted(const Status& st) { return st.code() == StatusCode::kResourceExhausted; }
}  // namespace

struct HashJoin::ProbeState : OperatorState {
  std::vector<Column> keys;
  std::vector<uint64_t> hashes;
  std::vector<uint8_t> null_keys;
  std::vector<uint32_t> groups;
  EncodedRows encoded;
  std::vector<uint32_t> s_sel, t_sel;
  std::vector<uint8_t> matched;
  std::vector<int32_t> partitions;  ///< spilling: per row, its probe file or -1
  /// Set while ExecuteStreaming runs: pair batches go out as soon as they are made.
  const std::function<Status(const Batch&)>* emit = nullptr;
};

struct HashJoin::Table {
  explicit Table(std::shared_ptr<MemoryTracker> tracker) : keys(std::move(tracker)) {}
  Batch rows;
  KeyHashTable keys;
  std::vector<uint32_t> head;  // per key: first row, kEnd when none
  std::vector<uint32_t> next;  // per row: next row of the same key
  bool has_null_key = false;
  /// No key has two rows: a probe row makes at most one pair.
  bool unique_keys = false;
  /// KeepsBuildRows(): per build row, 1 once some probe row matched it (relaxed atomic
  /// stores).
  std::vector<uint8_t> matched;
  Reservation reservation;
};

/// The grace hash join once the build side spilled. Partitions are those of level 0
/// (JoinPartitionOf); a partition split again becomes work items of a deeper level.
struct HashJoin::Spill {
  SpillDirectory* dir = nullptr;
  std::atomic<int64_t> bytes{0};  ///< written to spill files by this join
  std::unique_ptr<JoinPartitionWriter> build;
  std::unique_ptr<JoinPartitionWriter> probe;  ///< probe rows of the partitions on disk
  std::array<uint8_t, kJoinPartitions> on_disk{};
  bool any_on_disk = false;
  std::atomic<int64_t> build_rows{0};
  std::atomic<bool> build_null_key{false};

  // The continuation's part: one thread at a time, under `mutex`.
  struct Work {
    std::string build_path, probe_path;
    int64_t probe_rows = 0;
    int level = 0;
  };
  std::mutex mutex;
  bool started = false;
  std::vector<Work> work;
  std::deque<Batch> pending;     ///< output made but not handed out yet
  std::unique_ptr<Table> table;  ///< the partition being joined
  std::unique_ptr<SpillReader> probe_reader;
  std::optional<Batch> probe_batch;  ///< read from the probe file, joined slice by slice
  int64_t probe_offset = 0;
  std::vector<int64_t> pair_counts;  ///< per row of probe_batch (capped)
  int64_t kept_cursor = 0;
  int64_t splits = 0;  ///< partitions split again (EXPLAIN ANALYZE)
  ProbeState probe_state;
  std::vector<uint32_t> kept_rows;
};

namespace {
void MarkMatched(std::vector<uint8_t>& matched, uint32_t row) {
  std::atomic_ref<uint8_t> flag(matched[row]);
  if (flag.load(std::memory_order_relaxed) == 0) flag.store(1, std::memory_order_relaxed);
}
}  // namespace

const char* JoinTypeName(JoinType type) {
  switch (type) {
    case JoinType::kInner:
      return "INNER";
    case JoinType::kLeft:
      return "LEFT";
    case JoinType::kRight:
      return "RIGHT";
    case JoinType::kFull:
      return "FULL";
    case JoinType::kSemi:
      return "SEMI";
    case JoinType::kAnti:
      return "ANTI";
    case JoinType::kMark:
      return "MARK";
    case JoinType::kRightSemi:
      return "RIGHT SEMI";
    case JoinType::kRightAnti:
      return "RIGHT ANTI";
  }
  return "?";
}

HashJoin::HashJoin(PhysicalOperatorPtr probe, PhysicalOperatorPtr build, JoinType type,
                   std::vector<int> probe_keys, std::vector<int> build_keys, ExprPtr residual,
                   bool null_aware, columnar::SchemaPtr output)
    : PhysicalOperator("HashJoin", std::move(output), Children(std::move(probe), std::move(build))),
      type_(type),
      residual_(std::move(residual)),
      null_aware_(null_aware) {
  table_keys_ = std::move(build_keys);
  stream_keys_ = std::move(probe_keys);
  for (int k : table_keys_)
    key_types_.push_back(children_[table_child_]->schema()->field(k).type());
}

bool HashJoin::KeepsBuildRows() const {
  return type_ == JoinType::kRight || type_ == JoinType::kFull || type_ == JoinType::kRightSemi ||
         type_ == JoinType::kRightAnti;
}

HashJoin::~HashJoin() = default;

void HashJoin::SetNullSafeKeys(std::vector<bool> null_safe) { null_safe_ = std::move(null_safe); }

void HashJoin::NullMask(const std::vector<Column>& keys, int64_t rows,
                        std::vector<uint8_t>* any_null) const {
  if (null_safe_.empty()) {
    KeyNullMask(keys, rows, any_null);
    return;
  }
  std::vector<Column> checked;
  for (size_t k = 0; k < keys.size(); ++k) {
    if (k >= null_safe_.size() || !null_safe_[k]) checked.push_back(keys[k]);
  }
  if (checked.empty()) {
    any_null->assign(static_cast<size_t>(rows), 0);
    return;
  }
  KeyNullMask(checked, rows, any_null);
}

std::string HashJoin::Details() const {
  std::string out = std::string("type=") + JoinTypeName(type_) + ", keys=[";
  const std::vector<int>& probe = stream_keys_;
  const std::vector<int>& build = table_keys_;
  for (size_t i = 0; i < probe.size(); ++i) {
    if (i) out += ", ";
    out += "#" + std::to_string(probe[i]) + " = build.#" + std::to_string(build[i]);
  }
  out += "]";
  if (residual_ != nullptr) out += ", residual=" + residual_->ToString();
  if (null_aware_) out += ", null_aware";
  return out;
}

void HashJoin::BuildPipelines(PipelineBuilder& builder) {
  children_[table_child_]->BuildPipelines(builder);
  builder.current().sink = this;
  const int build = builder.current_index();
  children_[stream_child_]->BuildPipelines(builder);
  builder.current().operators.push_back(this);
  builder.AddDependency(builder.current_index(), build);
  // Kept build rows and the spilled partitions' output continue through the rest of the
  // probe pipeline (a join that neither keeps rows nor spilled runs it on one thread,
  // finding nothing to do).
  builder.AddContinuation(this);
}

int64_t HashJoin::SourceParallelism() const {
  const bool work = KeepsBuildRows() || (spill_ != nullptr && spill_->any_on_disk);
  return work ? 0 : 1;
}

std::shared_ptr<MemoryTracker> HashJoin::Tracker(ExecContext& ctx) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (tracker_ == nullptr) {
    tracker_ = MakeTracker(ctx);
    batches_reservation_ = std::move(Reservation::Make(tracker_, 0)).value();
  }
  return tracker_;
}

Result<std::unique_ptr<OperatorState>> HashJoin::MakeSinkState(ExecContext& ctx) {
  SQE_RETURN_NOT_OK(RowKeyEncoder::CheckKeyTypes(key_types_));
  Tracker(ctx);
  return std::unique_ptr<OperatorState>(std::make_unique<BuildState>());
}

Status HashJoin::Sink(ExecContext& ctx, const Batch& input, OperatorState& state) {
  auto& s = static_cast<BuildState&>(state);
  bool input_kept = false;
  if (!spilling_.load(std::memory_order_acquire)) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!spilling_.load(std::memory_order_relaxed)) {
      const int64_t bytes = BatchBytes(input);
      Status st = batches_reservation_.Resize(batches_reservation_.bytes() + bytes);
      if (st.ok()) {
        s.batches.push_back(input);
        s.bytes += bytes;
        if (!ShouldSpillEarly(ctx)) return Status::OK();
        input_kept = true;
      } else if (!IsResourceExhausted(st)) {
        return st;
      }
      SQE_RETURN_NOT_OK(StartSpilling(ctx, st));
    }
  }
  // Spilling: this thread's batches gathered before go first, then the new one.
  if (!s.batches.empty()) {
    SQE_RETURN_NOT_OK(SpillBuildBatches(&s.batches, s.bytes));
    s.bytes = 0;
  }
  return input_kept ? Status::OK() : SpillBuildBatch(input);
}

bool HashJoin::ShouldSpillEarly(ExecContext& ctx) const {
  if (!ctx.spill_enabled() || table_keys_.empty() || tracker_ == nullptr) return false;
  // A quarter of the tightest limit above stays free for the operators around the join
  // (the scans and projections feeding it allocate too, and fail if the join took all).
  int64_t limit = 0;
  for (const MemoryTracker* t = tracker_.get(); t != nullptr; t = t->parent().get()) {
    if (t->limit() > 0 && (limit == 0 || t->limit() < limit)) limit = t->limit();
  }
  return limit > 0 && tracker_->Available() < limit / 4;
}

Status HashJoin::Combine(ExecContext&, OperatorState& state) {
  auto& s = static_cast<BuildState&>(state);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!spilling_.load(std::memory_order_relaxed)) {
      for (auto& b : s.batches) table_batches_.push_back(std::move(b));
      s.batches.clear();
      return Status::OK();
    }
  }
  SQE_RETURN_NOT_OK(SpillBuildBatches(&s.batches, s.bytes));
  s.bytes = 0;
  return Status::OK();
}

Result<std::unique_ptr<HashJoin::Table>> HashJoin::BuildTable(std::vector<Batch>* batches,
                                                              Reservation* batches_reservation) {
  auto table = std::make_unique<Table>(tracker_);
  const columnar::SchemaPtr& schema = children_[table_child_]->schema();
  SQE_ASSIGN_OR_RETURN(table->rows, Concatenate(schema, *batches, tracker_));
  // From here on the rows are the one concatenated batch (what a caller spills when the
  // table does not fit).
  batches->clear();
  if (table->rows.num_rows() > 0) batches->push_back(table->rows);
  if (batches_reservation != nullptr) batches_reservation->Reset();
  const int64_t n = table->rows.num_rows();
  if (n >= static_cast<int64_t>(kEnd)) {
    return Status::ResourceExhausted("the build side of a join has more than 2^32 - 1 rows");
  }
  SQE_ASSIGN_OR_RETURN(table->reservation, Reservation::Make(tracker_, n * 12 + 64));
  table->next.assign(static_cast<size_t>(n), kEnd);
  if (table_keys_.empty()) {
    // Cross join: every row under one key.
    table->head.assign(1, kEnd);
    for (int64_t r = n - 1; r >= 0; --r) {
      table->next[r] = table->head[0];
      table->head[0] = static_cast<uint32_t>(r);
    }
  } else {
    std::vector<Column> keys;
    for (int k : table_keys_) keys.push_back(table->rows.column(k));
    std::vector<uint64_t> hashes(static_cast<size_t>(n));
    std::vector<uint32_t> groups(static_cast<size_t>(n));
    std::vector<uint8_t> null_keys;
    EncodedRows encoded;
    HashKeyColumns(keys, n, hashes.data());
    NullMask(keys, n, &null_keys);
    SQE_RETURN_NOT_OK(RowKeyEncoder(key_types_).Encode(keys, n, &encoded));
    SQE_RETURN_NOT_OK(table->keys.FindOrInsert(encoded, hashes.data(), n, groups.data()));
    table->head.assign(static_cast<size_t>(table->keys.size()), kEnd);
    // Chain from the last row so each chain lists its rows in input order.
    int64_t chained = 0;
    for (int64_t r = n - 1; r >= 0; --r) {
      if (null_keys[r]) {
        table->has_null_key = true;
        continue;  // a NULL key never matches
      }
      table->next[r] = table->head[groups[r]];
      table->head[groups[r]] = static_cast<uint32_t>(r);
      ++chained;
    }
    table->unique_keys = chained == table->keys.size();
    SQE_RETURN_NOT_OK(table->reservation.Resize(n * 8 + table->keys.size() * 4 + 64));
  }
  if (KeepsBuildRows()) {
    SQE_RETURN_NOT_OK(table->reservation.Resize(table->reservation.bytes() + n));
    table->matched.assign(static_cast<size_t>(n), 0);
  }
  batches->clear();
  return table;
}

Status HashJoin::Finalize(ExecContext& ctx) {
  Tracker(ctx);
  unmatched_cursor_.store(0, std::memory_order_relaxed);
  if (!spilling_.load(std::memory_order_relaxed)) {
    Result<std::unique_ptr<Table>> built = BuildTable(&table_batches_, &batches_reservation_);
    if (built.ok() && !ShouldSpillEarly(ctx)) {
      table_ = std::move(built).value();
      build_empty_ = table_->rows.num_rows() == 0;
      build_has_null_key_ = table_->has_null_key;
      return Status::OK();
    }
    Status cause = built.status();
    if (built.ok()) {
      // The table fits but leaves too little for the probe side: spill its rows.
      std::unique_ptr<Table> dropped = std::move(built).value();
      table_batches_ = {dropped->rows};
    } else if (!IsResourceExhausted(cause)) {
      return cause;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    SQE_RETURN_NOT_OK(StartSpilling(ctx, cause));
  }
  return FinalizeSpilled(ctx);
}

// --- Grace hash join ----------------------------------------------------------------

Status HashJoin::StartSpilling(ExecContext& ctx, const Status& cause) {
  if (table_keys_.empty()) {
    return Status::ResourceExhausted(cause.message() +
                                     "; a cross join (no equality keys) cannot spill to disk");
  }
  if (!ctx.spill_enabled()) return SpillOffError(false, cause);
  SQE_ASSIGN_OR_RETURN(SpillDirectory * dir, ctx.SpillDirectoryForQuery());
  auto spill = std::make_unique<Spill>();
  spill->dir = dir;
  spill->build = std::make_unique<JoinPartitionWriter>(
      dir, "join-build", children_[table_child_]->schema(), &spill->bytes,
      std::max<int64_t>(1024, ctx.batch_size), kSpillFlushBytes);
  spill_ = std::move(spill);
  spilling_.store(true, std::memory_order_release);
  // The batches Combined so far (or all of them, from Finalize); mutex_ is held.
  int64_t bytes = 0;
  for (const Batch& b : table_batches_) bytes += BatchBytes(b);
  SQE_RETURN_NOT_OK(SpillBuildBatches(&table_batches_, 0));
  return batches_reservation_.Resize(std::max<int64_t>(0, batches_reservation_.bytes() - bytes));
}

Status HashJoin::SpillBuildBatch(const Batch& batch) {
  const int64_t n = batch.num_rows();
  if (n == 0) return Status::OK();
  std::vector<Column> keys;
  for (int k : table_keys_) keys.push_back(batch.column(k));
  std::vector<uint64_t> hashes(static_cast<size_t>(n));
  HashKeyColumns(keys, n, hashes.data());
  std::vector<uint8_t> null_keys;
  NullMask(keys, n, &null_keys);
  std::vector<int32_t> partitions(static_cast<size_t>(n));
  // A NULL-keyed build row never matches: only joins emitting build rows need it back.
  const bool keep_null_keys = KeepsBuildRows();
  bool null_key = false;
  for (int64_t i = 0; i < n; ++i) {
    if (null_keys[i]) {
      null_key = true;
      if (!keep_null_keys) {
        partitions[i] = -1;
        continue;
      }
    }
    partitions[i] = JoinPartitionOf(hashes[i], 0);
  }
  if (null_key) spill_->build_null_key.store(true, std::memory_order_relaxed);
  spill_->build_rows.fetch_add(n, std::memory_order_relaxed);
  return spill_->build->Append(batch, partitions.data());
}

Status HashJoin::SpillBuildBatches(std::vector<Batch>* batches, int64_t bytes) {
  for (const Batch& b : *batches) SQE_RETURN_NOT_OK(SpillBuildBatch(b));
  batches->clear();
  if (bytes > 0) {
    std::lock_guard<std::mutex> lock(mutex_);
    SQE_RETURN_NOT_OK(
        batches_reservation_.Resize(std::max<int64_t>(0, batches_reservation_.bytes() - bytes)));
  }
  return Status::OK();
}

namespace {
/// Every batch of a spill file, their buffers charged to `tracker`.
Status ReadSpillFile(const std::string& path, const std::shared_ptr<MemoryTracker>& tracker,
                     std::vector<Batch>* out) {
  SQE_ASSIGN_OR_RETURN(std::unique_ptr<SpillReader> reader, SpillReader::Open(path, tracker));
  while (true) {
    SQE_ASSIGN_OR_RETURN(std::optional<Batch> next, reader->Next());
    if (!next.has_value()) return Status::OK();
    out->push_back(std::move(*next));
  }
}
}  // namespace

Status HashJoin::FinalizeSpilled(ExecContext& ctx) {
  Spill& sp = *spill_;
  table_batches_.clear();
  batches_reservation_.Reset();
  SQE_RETURN_NOT_OK(sp.build->Finish());
  build_empty_ = sp.build_rows.load() == 0;
  build_has_null_key_ = sp.build_null_key.load();
  // Load back the partitions that fit half of what the query may still take (the other
  // half for the probe side's work), by an estimate of the table's size: rows, keys,
  // chains and the concatenation's copy.
  int64_t budget = tracker_->Available();
  if (budget == std::numeric_limits<int64_t>::max()) budget = int64_t{1} << 40;
  budget /= 2;
  std::vector<int> resident;
  int64_t estimate = 0;
  for (int p = 0; p < kJoinPartitions; ++p) {
    if (sp.build->rows(p) == 0) continue;
    const int64_t cost = sp.build->bytes(p) * 2 + sp.build->rows(p) * 96;
    if (estimate + cost > budget) continue;
    estimate += cost;
    resident.push_back(p);
  }
  if (!resident.empty()) {
    // The table may take at most what the estimate allowed: the rest stays free for the
    // probe side (held while the table is built, then let go).
    Result<Reservation> headroom =
        Reservation::Make(tracker_, budget >= (int64_t{1} << 39) ? 0 : budget);
    std::vector<Batch> batches;
    Status st = headroom.status();
    for (int p : resident) {
      st = ReadSpillFile(sp.build->path(p), tracker_, &batches);
      if (!st.ok()) break;
    }
    if (st.ok()) {
      Result<std::unique_ptr<Table>> built = BuildTable(&batches, nullptr);
      if (built.ok()) {
        table_ = std::move(built).value();
      } else {
        st = built.status();
      }
    }
    if (!st.ok() && !IsResourceExhausted(st)) return st;
    if (!st.ok()) resident.clear();  // the estimate was wrong: everything stays on disk
  }
  if (table_ == nullptr) {
    std::vector<Batch> none;
    SQE_ASSIGN_OR_RETURN(table_, BuildTable(&none, nullptr));
  }
  for (int p : resident) RemoveSpillFile(sp.build->path(p));
  for (int p = 0; p < kJoinPartitions; ++p) {
    const bool on_disk =
        sp.build->rows(p) > 0 && std::find(resident.begin(), resident.end(), p) == resident.end();
    sp.on_disk[p] = on_disk ? 1 : 0;
    sp.any_on_disk = sp.any_on_disk || on_disk;
  }
  if (sp.any_on_disk) {
    sp.probe = std::make_unique<JoinPartitionWriter>(
        sp.dir, "join-probe", children_[stream_child_]->schema(), &sp.bytes,
        std::max<int64_t>(1024, ctx.batch_size), kSpillFlushBytes);
  }
  stats_.extra = "spilled=" + FormatBytes(sp.bytes.load());
  return Status::OK();
}

Result<std::optional<Batch>> HashJoin::SpillProbeRows(const Batch& input, ProbeState& s) {
  const Spill& sp = *spill_;
  const int64_t n = input.num_rows();
  HashProbeKeys(input, s);
  s.partitions.assign(static_cast<size_t>(n), -1);
  columnar::SelectionVector keep;
  int64_t spilled = 0;
  for (int64_t i = 0; i < n; ++i) {
    // A NULL-keyed probe row matches nothing: it is answered now, like in memory.
    if (!s.null_keys[i]) {
      const int p = JoinPartitionOf(s.hashes[i], 0);
      if (sp.on_disk[p]) {
        s.partitions[i] = p;
        ++spilled;
        continue;
      }
    }
    keep.Append(static_cast<uint32_t>(i));
  }
  if (spilled == 0) return std::optional<Batch>(input);
  SQE_RETURN_NOT_OK(sp.probe->Append(input, s.partitions.data()));
  if (keep.empty()) return std::optional<Batch>();
  SQE_ASSIGN_OR_RETURN(Batch rest, columnar::Take(input, keep, tracker_));
  return std::optional<Batch>(std::move(rest));
}

Result<std::optional<Batch>> HashJoin::NextSpilledBatch(ExecContext& ctx) {
  Spill& sp = *spill_;
  std::lock_guard<std::mutex> lock(sp.mutex);
  if (!sp.started) {
    sp.started = true;
    SQE_RETURN_NOT_OK(sp.probe->Finish());
    for (int p = kJoinPartitions - 1; p >= 0; --p) {
      if (!sp.on_disk[p]) continue;
      sp.work.push_back(
          Spill::Work{sp.build->path(p), sp.probe->path(p), sp.probe->rows(p), /*level=*/0});
    }
  }
  const int64_t chunk = std::max<int64_t>(1, ctx.batch_size);
  while (true) {
    if (!sp.pending.empty()) {
      Batch next = std::move(sp.pending.front());
      sp.pending.pop_front();
      return std::optional<Batch>(std::move(next));
    }
    SQE_RETURN_NOT_OK(ctx.CheckInterrupt());
    if (sp.table != nullptr) {
      if (sp.probe_batch.has_value()) {
        // The next slice of the probe batch: rows whose pairs add up to about one output
        // batch (at least one row), so a fan-out is handed out a batch at a time.
        const int64_t n = sp.probe_batch->num_rows();
        int64_t end = sp.probe_offset;
        int64_t pairs = 0;
        while (end < n && (end == sp.probe_offset || pairs + sp.pair_counts[end] <= chunk)) {
          pairs += sp.pair_counts[end++];
        }
        Batch slice = sp.probe_batch->Slice(sp.probe_offset, end - sp.probe_offset);
        sp.probe_offset = end;
        if (end == n) sp.probe_batch.reset();
        std::vector<Batch> out;
        SQE_RETURN_NOT_OK(ProbeBatch(ctx, slice, *sp.table, sp.probe_state, &out));
        for (Batch& b : out) sp.pending.push_back(std::move(b));
        continue;
      }
      if (sp.probe_reader != nullptr) {
        SQE_ASSIGN_OR_RETURN(std::optional<Batch> probe, sp.probe_reader->Next());
        if (probe.has_value()) {
          const bool pairs_out = type_ == JoinType::kInner || type_ == JoinType::kLeft ||
                                 type_ == JoinType::kRight || type_ == JoinType::kFull;
          if (!pairs_out || sp.table->unique_keys) {
            // At most one output row per probe row: no need to cut the batch.
            std::vector<Batch> out;
            SQE_RETURN_NOT_OK(ProbeBatch(ctx, *probe, *sp.table, sp.probe_state, &out));
            for (Batch& b : out) sp.pending.push_back(std::move(b));
            continue;
          }
          SQE_RETURN_NOT_OK(PairCounts(*sp.table, *probe, sp.probe_state, chunk, &sp.pair_counts));
          sp.probe_batch = std::move(probe);
          sp.probe_offset = 0;
          continue;
        }
        sp.probe_reader.reset();
      }
      const int64_t n = sp.table->rows.num_rows();
      if (KeepsBuildRows() && sp.kept_cursor < n) {
        const int64_t start = sp.kept_cursor;
        sp.kept_cursor = std::min(n, start + chunk);
        SQE_ASSIGN_OR_RETURN(std::optional<Batch> kept,
                             KeptBuildRows(*sp.table, start, sp.kept_cursor, &sp.kept_rows));
        if (kept.has_value()) return kept;
        continue;
      }
      sp.table.reset();
      continue;
    }
    if (sp.work.empty()) {
      stats_.extra = "spilled=" + FormatBytes(sp.bytes.load());
      if (sp.splits > 0) stats_.extra += " spill_splits=" + std::to_string(sp.splits);
      return std::optional<Batch>();
    }
    SQE_RETURN_NOT_OK(OpenNextPartition(ctx));
  }
}

Status HashJoin::PairCounts(const Table& table, const Batch& input, ProbeState& s, int64_t cap,
                            std::vector<int64_t>* counts) {
  const int64_t n = input.num_rows();
  counts->assign(static_cast<size_t>(n), 1);
  if (table.rows.num_rows() == 0) return Status::OK();
  SQE_RETURN_NOT_OK(LookUpKeys(table, input, s));
  for (int64_t i = 0; i < n; ++i) {
    if (s.groups[i] == KeyHashTable::kNotFound) continue;
    int64_t pairs = 0;
    for (uint32_t r = table.head[s.groups[i]]; r != kEnd && pairs <= cap; r = table.next[r]) {
      ++pairs;
    }
    (*counts)[i] = std::max<int64_t>(1, pairs);
  }
  return Status::OK();
}

Status HashJoin::OpenNextPartition(ExecContext& ctx) {
  Spill& sp = *spill_;
  Spill::Work w = std::move(sp.work.back());
  sp.work.pop_back();
  if (w.probe_rows == 0 && !KeepsBuildRows()) {
    // Nothing can come out of a partition without probe rows.
    RemoveSpillFile(w.build_path);
    return Status::OK();
  }
  std::vector<Batch> batches;
  // A quarter of what the query may still take stays free for probing the partition
  // (its probe batches and output): held while the table is built.
  const int64_t available = tracker_->Available();
  Result<Reservation> headroom = Reservation::Make(
      tracker_, available == std::numeric_limits<int64_t>::max() ? 0 : available / 4);
  Status st = headroom.status();
  if (st.ok() && !w.build_path.empty()) st = ReadSpillFile(w.build_path, tracker_, &batches);
  if (st.ok()) {
    Result<std::unique_ptr<Table>> built = BuildTable(&batches, nullptr);
    if (built.ok()) {
      sp.table = std::move(built).value();
      sp.kept_cursor = 0;
      RemoveSpillFile(w.build_path);
      if (w.probe_rows > 0) {
        SQE_ASSIGN_OR_RETURN(sp.probe_reader, SpillReader::Open(w.probe_path, tracker_));
        RemoveSpillFile(w.probe_path);  // the open reader keeps the data until it closes
      }
      return Status::OK();
    }
    st = built.status();
  }
  if (!IsResourceExhausted(st)) return st;
  batches.clear();
  if (headroom.ok()) headroom->Reset();
  if (w.level >= kJoinMaxLevel) {
    return Status::ResourceExhausted(
        st.message() + "; a hash join partition still does not fit after splitting it " +
        std::to_string(kJoinMaxLevel + 1) +
        " times (many build rows share one join key?): raise query.max_query_memory");
  }
  // Split the partition on the next hash bits, both sides.
  const int level = w.level + 1;
  ++sp.splits;
  auto split = [&](const std::string& path, const columnar::SchemaPtr& schema,
                   const std::vector<int>& key_columns,
                   const char* tag) -> Result<std::unique_ptr<JoinPartitionWriter>> {
    auto writer = std::make_unique<JoinPartitionWriter>(
        sp.dir, tag, schema, &sp.bytes, std::max<int64_t>(1024, ctx.batch_size), kSpillFlushBytes);
    SQE_ASSIGN_OR_RETURN(std::unique_ptr<SpillReader> reader, SpillReader::Open(path, tracker_));
    std::vector<Column> keys;
    std::vector<uint64_t> hashes;
    std::vector<int32_t> partitions;
    while (true) {
      SQE_RETURN_NOT_OK(ctx.CheckInterrupt());
      SQE_ASSIGN_OR_RETURN(std::optional<Batch> next, reader->Next());
      if (!next.has_value()) break;
      const int64_t n = next->num_rows();
      keys.clear();
      for (int k : key_columns) keys.push_back(next->column(k));
      hashes.resize(static_cast<size_t>(n));
      HashKeyColumns(keys, n, hashes.data());
      partitions.resize(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) partitions[i] = JoinPartitionOf(hashes[i], level);
      SQE_RETURN_NOT_OK(writer->Append(*next, partitions.data()));
    }
    SQE_RETURN_NOT_OK(writer->Finish());
    RemoveSpillFile(path);
    return writer;
  };
  SQE_ASSIGN_OR_RETURN(
      std::unique_ptr<JoinPartitionWriter> build,
      split(w.build_path, children_[table_child_]->schema(), table_keys_, "join-build"));
  std::unique_ptr<JoinPartitionWriter> probe;
  if (w.probe_rows > 0) {
    SQE_ASSIGN_OR_RETURN(
        probe, split(w.probe_path, children_[stream_child_]->schema(), stream_keys_, "join-probe"));
  }
  // Probe rows whose sub-partition got no build rows match nothing; only the joins that
  // answer unmatched probe rows (LEFT, FULL, ANTI, MARK) join them with an empty table.
  const bool answer_unmatched = type_ == JoinType::kLeft || type_ == JoinType::kFull ||
                                type_ == JoinType::kAnti || type_ == JoinType::kMark;
  for (int p = kJoinPartitions - 1; p >= 0; --p) {
    const int64_t probe_rows = probe != nullptr ? probe->rows(p) : 0;
    const std::string probe_path = probe != nullptr ? probe->path(p) : "";
    if (build->rows(p) == 0 && !(answer_unmatched && probe_rows > 0)) {
      RemoveSpillFile(probe_path);
      continue;
    }
    sp.work.push_back(Spill::Work{build->path(p), probe_path, probe_rows, level});
  }
  return Status::OK();
}

Result<std::unique_ptr<OperatorState>> HashJoin::MakeOperatorState(ExecContext&) {
  return std::unique_ptr<OperatorState>(std::make_unique<ProbeState>());
}

Result<std::vector<Column>> HashJoin::PairColumns(const Table& table, const Batch& stream,
                                                  const std::vector<uint32_t>& s_sel,
                                                  const std::vector<uint32_t>& t_sel,
                                                  int64_t table_null_rows) {
  // Columns in probe ++ build order.
  std::vector<Column> stream_columns, table_columns;
  columnar::SelectionVector ssel(s_sel);
  for (const Column& c : stream.columns()) {
    SQE_ASSIGN_OR_RETURN(Column taken, columnar::Take(c, ssel, tracker_));
    stream_columns.push_back(std::move(taken));
  }
  if (table_null_rows >= 0) {
    for (const auto& f : children_[table_child_]->schema()->fields()) {
      SQE_ASSIGN_OR_RETURN(Column nulls, Column::MakeAllNull(f.type(), table_null_rows, tracker_));
      table_columns.push_back(std::move(nulls));
    }
  } else {
    columnar::SelectionVector tsel(t_sel);
    for (const Column& c : table.rows.columns()) {
      SQE_ASSIGN_OR_RETURN(Column taken, columnar::Take(c, tsel, tracker_));
      table_columns.push_back(std::move(taken));
    }
  }
  for (Column& c : table_columns) stream_columns.push_back(std::move(c));
  return stream_columns;
}

Status HashJoin::EmitPairs(ExecContext& ctx, Table& table, const Batch& stream,
                           std::vector<uint32_t>* s_sel, std::vector<uint32_t>* t_sel,
                           std::vector<uint8_t>* matched, std::vector<Batch>* out) {
  if (s_sel->empty()) return Status::OK();
  const bool pairs_out = type_ == JoinType::kInner || type_ == JoinType::kLeft ||
                         type_ == JoinType::kRight || type_ == JoinType::kFull;
  const bool mark_build = KeepsBuildRows();
  if (residual_ == nullptr && !pairs_out) {
    for (uint32_t s : *s_sel) (*matched)[s] = 1;
    if (mark_build) {
      for (uint32_t t : *t_sel) MarkMatched(table.matched, t);
    }
  } else {
    SQE_ASSIGN_OR_RETURN(std::vector<Column> columns,
                         PairColumns(table, stream, *s_sel, *t_sel, -1));
    const int64_t rows = static_cast<int64_t>(s_sel->size());
    std::vector<columnar::Field> fields;
    for (int side = 0; side < 2; ++side) {
      for (const auto& f : children_[side]->schema()->fields()) fields.push_back(f);
    }
    SQE_ASSIGN_OR_RETURN(Batch pairs,
                         Batch::Make(columnar::Schema::Make(fields), std::move(columns), rows));
    if (residual_ != nullptr) {
      SQE_ASSIGN_OR_RETURN(columnar::SelectionVector pass,
                           EvaluatePredicate(*residual_, pairs, ctx.eval));
      for (int64_t i = 0; i < pass.size(); ++i) {
        (*matched)[(*s_sel)[pass[i]]] = 1;
        if (mark_build) MarkMatched(table.matched, (*t_sel)[pass[i]]);
      }
      if (pairs_out && !pass.empty()) {
        if (pass.size() < rows) {
          SQE_ASSIGN_OR_RETURN(pairs, columnar::Take(pairs, pass, tracker_));
        }
        SQE_ASSIGN_OR_RETURN(Batch result, Batch::Make(schema_, pairs.columns(), pairs.num_rows()));
        out->push_back(std::move(result));
      }
    } else {
      for (uint32_t s : *s_sel) (*matched)[s] = 1;
      if (mark_build) {
        for (uint32_t t : *t_sel) MarkMatched(table.matched, t);
      }
      SQE_ASSIGN_OR_RETURN(Batch result, Batch::Make(schema_, pairs.columns(), rows));
      out->push_back(std::move(result));
    }
  }
  s_sel->clear();
  t_sel->clear();
  return Status::OK();
}

Status HashJoin::ExecuteStreaming(ExecContext& ctx, const Batch& input, OperatorState& state,
                                  const std::function<Status(const Batch&)>& emit) {
  auto& s = static_cast<ProbeState&>(state);
  std::vector<Batch> out;
  s.emit = &emit;
  Status st = Execute(ctx, input, state, &out);
  s.emit = nullptr;
  SQE_RETURN_NOT_OK(st);
  for (const Batch& b : out) SQE_RETURN_NOT_OK(emit(b));
  return Status::OK();
}

Status HashJoin::Execute(ExecContext& ctx, const Batch& input, OperatorState& state,
                         std::vector<Batch>* out) {
  auto& s = static_cast<ProbeState&>(state);
  if (spill_ != nullptr && spill_->any_on_disk) {
    SQE_ASSIGN_OR_RETURN(std::optional<Batch> rest, SpillProbeRows(input, s));
    if (!rest.has_value()) return Status::OK();
    return ProbeBatch(ctx, *rest, *table_, s, out);
  }
  return ProbeBatch(ctx, input, *table_, s, out);
}

void HashJoin::HashProbeKeys(const Batch& input, ProbeState& s) const {
  const int64_t n = input.num_rows();
  s.keys.clear();
  for (int k : stream_keys_) s.keys.push_back(input.column(k));
  s.hashes.resize(static_cast<size_t>(n));
  HashKeyColumns(s.keys, n, s.hashes.data());
  NullMask(s.keys, n, &s.null_keys);
}

Status HashJoin::LookUpKeys(const Table& table, const Batch& input, ProbeState& s) const {
  const int64_t n = input.num_rows();
  HashProbeKeys(input, s);
  SQE_RETURN_NOT_OK(RowKeyEncoder(key_types_).Encode(s.keys, n, &s.encoded));
  s.groups.resize(static_cast<size_t>(n));
  table.keys.Find(s.encoded, s.hashes.data(), n, s.null_keys.data(), s.groups.data());
  return Status::OK();
}

Status HashJoin::ProbeBatch(ExecContext& ctx, const Batch& input, Table& table, ProbeState& s,
                            std::vector<Batch>* out) {
  const int64_t n = input.num_rows();
  const bool table_empty = table.rows.num_rows() == 0;
  s.groups.assign(static_cast<size_t>(n), KeyHashTable::kNotFound);
  s.null_keys.assign(static_cast<size_t>(n), 0);
  if (stream_keys_.empty()) {
    if (!table_empty) std::fill(s.groups.begin(), s.groups.end(), 0);
  } else if (!table_empty) {
    SQE_RETURN_NOT_OK(LookUpKeys(table, input, s));
  } else {
    s.keys.clear();
    for (int k : stream_keys_) s.keys.push_back(input.column(k));
    NullMask(s.keys, n, &s.null_keys);
  }

  // Candidate pairs, flushed every batch_size pairs.
  s.matched.assign(static_cast<size_t>(n), 0);
  s.s_sel.clear();
  s.t_sel.clear();
  const bool need_pairs = residual_ != nullptr || type_ == JoinType::kInner ||
                          type_ == JoinType::kLeft || type_ == JoinType::kRight ||
                          type_ == JoinType::kFull;
  const bool mark_build = KeepsBuildRows();
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t g = s.groups[i];
    if (g == KeyHashTable::kNotFound) continue;
    if (!need_pairs) {
      s.matched[i] = table.head[g] != kEnd ? 1 : 0;
      if (mark_build) {
        // Without a residual every row of a key matches together: a marked first row
        // means the whole chain is marked.
        for (uint32_t r = table.head[g]; r != kEnd; r = table.next[r]) {
          if (std::atomic_ref<uint8_t>(table.matched[r]).load(std::memory_order_relaxed)) break;
          MarkMatched(table.matched, r);
        }
      }
      continue;
    }
    for (uint32_t r = table.head[g]; r != kEnd; r = table.next[r]) {
      s.s_sel.push_back(static_cast<uint32_t>(i));
      s.t_sel.push_back(r);
      if (static_cast<int64_t>(s.s_sel.size()) >= ctx.batch_size) {
        SQE_RETURN_NOT_OK(EmitPairs(ctx, table, input, &s.s_sel, &s.t_sel, &s.matched, out));
        if (s.emit != nullptr) {
          for (const Batch& b : *out) SQE_RETURN_NOT_OK((*s.emit)(b));
          out->clear();
          SQE_RETURN_NOT_OK(ctx.CheckInterrupt());
        }
      }
    }
  }
  SQE_RETURN_NOT_OK(EmitPairs(ctx, table, input, &s.s_sel, &s.t_sel, &s.matched, out));

  switch (type_) {
    case JoinType::kInner:
    case JoinType::kRight:
    case JoinType::kRightSemi:
    case JoinType::kRightAnti:
      return Status::OK();  // the kept build rows come from the continuation
    case JoinType::kLeft:
    case JoinType::kFull: {
      for (int64_t i = 0; i < n; ++i) {
        if (!s.matched[i]) s.s_sel.push_back(static_cast<uint32_t>(i));
      }
      if (s.s_sel.empty()) return Status::OK();
      const int64_t rows = static_cast<int64_t>(s.s_sel.size());
      SQE_ASSIGN_OR_RETURN(std::vector<Column> columns,
                           PairColumns(table, input, s.s_sel, {}, rows));
      s.s_sel.clear();
      SQE_ASSIGN_OR_RETURN(Batch result, Batch::Make(schema_, std::move(columns), rows));
      out->push_back(std::move(result));
      return Status::OK();
    }
    case JoinType::kSemi:
    case JoinType::kAnti: {
      const bool unknown_if_unmatched = null_aware_ && !build_empty_ && build_has_null_key_;
      columnar::SelectionVector keep;
      for (int64_t i = 0; i < n; ++i) {
        bool pass;
        if (type_ == JoinType::kSemi) {
          pass = s.matched[i] != 0;
        } else {
          pass = !s.matched[i] &&
                 !(null_aware_ && !build_empty_ && (s.null_keys[i] || unknown_if_unmatched));
        }
        if (pass) keep.Append(static_cast<uint32_t>(i));
      }
      if (keep.empty()) return Status::OK();
      if (keep.size() == n) {
        out->push_back(input);
        return Status::OK();
      }
      SQE_ASSIGN_OR_RETURN(Batch kept, columnar::Take(input, keep, tracker_));
      out->push_back(std::move(kept));
      return Status::OK();
    }
    case JoinType::kMark: {
      columnar::BooleanBuilder mark(tracker_);
      SQE_RETURN_NOT_OK(mark.Reserve(n));
      for (int64_t i = 0; i < n; ++i) {
        if (s.matched[i]) {
          SQE_RETURN_NOT_OK(mark.Append(true));
        } else if (null_aware_ && !build_empty_ && (s.null_keys[i] || build_has_null_key_)) {
          SQE_RETURN_NOT_OK(mark.AppendNull());
        } else {
          SQE_RETURN_NOT_OK(mark.Append(false));
        }
      }
      std::vector<Column> columns = input.columns();
      SQE_ASSIGN_OR_RETURN(Column m, mark.Finish());
      columns.push_back(std::move(m));
      SQE_ASSIGN_OR_RETURN(Batch result, Batch::Make(schema_, std::move(columns), n));
      out->push_back(std::move(result));
      return Status::OK();
    }
  }
  return Status::OK();
}

namespace {
struct UnmatchedState : OperatorState {
  std::vector<uint32_t> rows;
};
}  // namespace

Result<std::unique_ptr<OperatorState>> HashJoin::MakeSourceState(ExecContext&) {
  return std::unique_ptr<OperatorState>(std::make_unique<UnmatchedState>());
}

Result<std::optional<Batch>> HashJoin::KeptBuildRows(const Table& table, int64_t start, int64_t end,
                                                     std::vector<uint32_t>* rows) {
  // RIGHT SEMI keeps the matched build rows; the others the unmatched ones.
  const uint8_t keep = type_ == JoinType::kRightSemi ? 1 : 0;
  const bool with_probe_columns = type_ == JoinType::kRight || type_ == JoinType::kFull;
  rows->clear();
  for (int64_t r = start; r < end; ++r) {
    if (table.matched[r] == keep) rows->push_back(static_cast<uint32_t>(r));
  }
  if (rows->empty()) return std::optional<Batch>();
  const int64_t count = static_cast<int64_t>(rows->size());
  std::vector<Column> columns;
  if (with_probe_columns) {
    for (const auto& f : children_[stream_child_]->schema()->fields()) {
      SQE_ASSIGN_OR_RETURN(Column nulls, Column::MakeAllNull(f.type(), count, tracker_));
      columns.push_back(std::move(nulls));
    }
  }
  columnar::SelectionVector sel(*rows);
  for (const Column& c : table.rows.columns()) {
    SQE_ASSIGN_OR_RETURN(Column taken, columnar::Take(c, sel, tracker_));
    columns.push_back(std::move(taken));
  }
  SQE_ASSIGN_OR_RETURN(Batch result, Batch::Make(schema_, std::move(columns), count));
  return std::optional<Batch>(std::move(result));
}

Result<std::optional<Batch>> HashJoin::GetData(ExecContext& ctx, OperatorState& state) {
  auto& s = static_cast<UnmatchedState&>(state);
  if (KeepsBuildRows()) {
    // The in-memory table's kept rows: threads claim ranges until one holds a row.
    const int64_t n = table_->rows.num_rows();
    const int64_t chunk = std::max<int64_t>(1, ctx.batch_size);
    while (true) {
      const int64_t start = unmatched_cursor_.fetch_add(chunk, std::memory_order_relaxed);
      if (start >= n) break;
      SQE_ASSIGN_OR_RETURN(std::optional<Batch> kept,
                           KeptBuildRows(*table_, start, std::min(n, start + chunk), &s.rows));
      if (kept.has_value()) return kept;
    }
  }
  if (spill_ == nullptr || !spill_->any_on_disk) return std::optional<Batch>();
  return NextSpilledBatch(ctx);
}

}  // namespace sqe::exec
