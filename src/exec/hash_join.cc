#include "exec/hash_join.h"

#include <algorithm>
#include <atomic>
#include <string>

#include "columnar/boolean_builder.h"
#include "columnar/take.h"
#include "exec/batch_concatenate.h"
#include "exec/expression_evaluator.h"
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
};

struct ProbeState : OperatorState {
  std::vector<Column> keys;
  std::vector<uint64_t> hashes;
  std::vector<uint8_t> null_keys;
  std::vector<uint32_t> groups;
  EncodedRows encoded;
  std::vector<uint32_t> s_sel, t_sel;
  std::vector<uint8_t> matched;
  /// Set while ExecuteStreaming runs: pair batches go out as soon as they are made.
  const std::function<Status(const Batch&)>* emit = nullptr;
};
}  // namespace

struct HashJoin::Table {
  explicit Table(std::shared_ptr<MemoryTracker> tracker) : keys(std::move(tracker)) {}
  Batch rows;
  KeyHashTable keys;
  std::vector<uint32_t> head;  // per key: first row, kEnd when none
  std::vector<uint32_t> next;  // per row: next row of the same key
  bool has_null_key = false;
  /// KeepsBuildRows(): per build row, 1 once some probe row matched it (relaxed atomic
  /// stores).
  std::vector<uint8_t> matched;
  Reservation reservation;
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
  // Kept build rows continue through the rest of the probe pipeline.
  if (KeepsBuildRows()) builder.AddContinuation(this);
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

Status HashJoin::Sink(ExecContext&, const Batch& input, OperatorState& state) {
  auto& s = static_cast<BuildState&>(state);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    SQE_RETURN_NOT_OK(
        batches_reservation_.Resize(batches_reservation_.bytes() + BatchBytes(input)));
  }
  s.batches.push_back(input);
  return Status::OK();
}

Status HashJoin::Combine(ExecContext&, OperatorState& state) {
  auto& s = static_cast<BuildState&>(state);
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& b : s.batches) table_batches_.push_back(std::move(b));
  s.batches.clear();
  return Status::OK();
}

Status HashJoin::Finalize(ExecContext& ctx) {
  std::shared_ptr<MemoryTracker> tracker = Tracker(ctx);
  auto table = std::make_unique<Table>(tracker);
  const columnar::SchemaPtr& schema = children_[table_child_]->schema();
  SQE_ASSIGN_OR_RETURN(table->rows, Concatenate(schema, table_batches_, tracker));
  table_batches_.clear();
  batches_reservation_.Reset();
  const int64_t n = table->rows.num_rows();
  if (n >= static_cast<int64_t>(kEnd)) {
    return Status::ResourceExhausted("the build side of a join has more than 2^32 - 1 rows");
  }
  SQE_ASSIGN_OR_RETURN(table->reservation, Reservation::Make(tracker, n * 12 + 64));
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
    for (int64_t r = n - 1; r >= 0; --r) {
      if (null_keys[r]) {
        table->has_null_key = true;
        continue;  // a NULL key never matches
      }
      table->next[r] = table->head[groups[r]];
      table->head[groups[r]] = static_cast<uint32_t>(r);
    }
    SQE_RETURN_NOT_OK(table->reservation.Resize(n * 8 + table->keys.size() * 4 + 64));
  }
  if (KeepsBuildRows()) {
    SQE_RETURN_NOT_OK(table->reservation.Resize(table->reservation.bytes() + n));
    table->matched.assign(static_cast<size_t>(n), 0);
  }
  unmatched_cursor_.store(0, std::memory_order_relaxed);
  table_ = std::move(table);
  return Status::OK();
}

Result<std::unique_ptr<OperatorState>> HashJoin::MakeOperatorState(ExecContext&) {
  return std::unique_ptr<OperatorState>(std::make_unique<ProbeState>());
}

Result<std::vector<Column>> HashJoin::PairColumns(const Batch& stream,
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
    for (const Column& c : table_->rows.columns()) {
      SQE_ASSIGN_OR_RETURN(Column taken, columnar::Take(c, tsel, tracker_));
      table_columns.push_back(std::move(taken));
    }
  }
  for (Column& c : table_columns) stream_columns.push_back(std::move(c));
  return stream_columns;
}

Status HashJoin::EmitPairs(ExecContext& ctx, const Batch& stream, std::vector<uint32_t>* s_sel,
                           std::vector<uint32_t>* t_sel, std::vector<uint8_t>* matched,
                           std::vector<Batch>* out) {
  if (s_sel->empty()) return Status::OK();
  const bool pairs_out = type_ == JoinType::kInner || type_ == JoinType::kLeft ||
                         type_ == JoinType::kRight || type_ == JoinType::kFull;
  const bool mark_build = KeepsBuildRows();
  if (residual_ == nullptr && !pairs_out) {
    for (uint32_t s : *s_sel) (*matched)[s] = 1;
    if (mark_build) {
      for (uint32_t t : *t_sel) MarkMatched(table_->matched, t);
    }
  } else {
    SQE_ASSIGN_OR_RETURN(std::vector<Column> columns, PairColumns(stream, *s_sel, *t_sel, -1));
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
        if (mark_build) MarkMatched(table_->matched, (*t_sel)[pass[i]]);
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
        for (uint32_t t : *t_sel) MarkMatched(table_->matched, t);
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
  const Table& table = *table_;
  const int64_t n = input.num_rows();
  const bool table_empty = table.rows.num_rows() == 0;
  s.groups.assign(static_cast<size_t>(n), KeyHashTable::kNotFound);
  s.null_keys.assign(static_cast<size_t>(n), 0);
  if (stream_keys_.empty()) {
    if (!table_empty) std::fill(s.groups.begin(), s.groups.end(), 0);
  } else if (!table_empty) {
    s.keys.clear();
    for (int k : stream_keys_) s.keys.push_back(input.column(k));
    s.hashes.resize(static_cast<size_t>(n));
    HashKeyColumns(s.keys, n, s.hashes.data());
    NullMask(s.keys, n, &s.null_keys);
    SQE_RETURN_NOT_OK(RowKeyEncoder(key_types_).Encode(s.keys, n, &s.encoded));
    table.keys.Find(s.encoded, s.hashes.data(), n, s.null_keys.data(), s.groups.data());
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
          if (std::atomic_ref<uint8_t>(table_->matched[r]).load(std::memory_order_relaxed)) break;
          MarkMatched(table_->matched, r);
        }
      }
      continue;
    }
    for (uint32_t r = table.head[g]; r != kEnd; r = table.next[r]) {
      s.s_sel.push_back(static_cast<uint32_t>(i));
      s.t_sel.push_back(r);
      if (static_cast<int64_t>(s.s_sel.size()) >= ctx.batch_size) {
        SQE_RETURN_NOT_OK(EmitPairs(ctx, input, &s.s_sel, &s.t_sel, &s.matched, out));
        if (s.emit != nullptr) {
          for (const Batch& b : *out) SQE_RETURN_NOT_OK((*s.emit)(b));
          out->clear();
          SQE_RETURN_NOT_OK(ctx.CheckInterrupt());
        }
      }
    }
  }
  SQE_RETURN_NOT_OK(EmitPairs(ctx, input, &s.s_sel, &s.t_sel, &s.matched, out));

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
      SQE_ASSIGN_OR_RETURN(std::vector<Column> columns, PairColumns(input, s.s_sel, {}, rows));
      s.s_sel.clear();
      SQE_ASSIGN_OR_RETURN(Batch result, Batch::Make(schema_, std::move(columns), rows));
      out->push_back(std::move(result));
      return Status::OK();
    }
    case JoinType::kSemi:
    case JoinType::kAnti: {
      const bool unknown_if_unmatched = null_aware_ && !table_empty && table.has_null_key;
      columnar::SelectionVector keep;
      for (int64_t i = 0; i < n; ++i) {
        bool pass;
        if (type_ == JoinType::kSemi) {
          pass = s.matched[i] != 0;
        } else {
          pass = !s.matched[i] &&
                 !(null_aware_ && !table_empty && (s.null_keys[i] || unknown_if_unmatched));
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
        } else if (null_aware_ && !table_empty && (s.null_keys[i] || table.has_null_key)) {
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
  if (!KeepsBuildRows()) {
    return Status::Internal("HashJoin is a source only for joins that keep build rows");
  }
  return std::unique_ptr<OperatorState>(std::make_unique<UnmatchedState>());
}

Result<std::optional<Batch>> HashJoin::GetData(ExecContext& ctx, OperatorState& state) {
  auto& s = static_cast<UnmatchedState&>(state);
  const Table& table = *table_;
  const int64_t n = table.rows.num_rows();
  const int64_t chunk = std::max<int64_t>(1, ctx.batch_size);
  // RIGHT SEMI keeps the matched build rows; the others the unmatched ones.
  const uint8_t keep = type_ == JoinType::kRightSemi ? 1 : 0;
  const bool with_probe_columns = type_ == JoinType::kRight || type_ == JoinType::kFull;
  // Threads claim ranges of build rows until one holds a row to emit.
  while (true) {
    const int64_t start = unmatched_cursor_.fetch_add(chunk, std::memory_order_relaxed);
    if (start >= n) return std::optional<Batch>();
    const int64_t end = std::min(n, start + chunk);
    s.rows.clear();
    for (int64_t r = start; r < end; ++r) {
      if (table.matched[r] == keep) s.rows.push_back(static_cast<uint32_t>(r));
    }
    if (s.rows.empty()) continue;
    const int64_t rows = static_cast<int64_t>(s.rows.size());
    std::vector<Column> columns;
    if (with_probe_columns) {
      for (const auto& f : children_[stream_child_]->schema()->fields()) {
        SQE_ASSIGN_OR_RETURN(Column nulls, Column::MakeAllNull(f.type(), rows, tracker_));
        columns.push_back(std::move(nulls));
      }
    }
    columnar::SelectionVector sel(s.rows);
    for (const Column& c : table.rows.columns()) {
      SQE_ASSIGN_OR_RETURN(Column taken, columnar::Take(c, sel, tracker_));
      columns.push_back(std::move(taken));
    }
    SQE_ASSIGN_OR_RETURN(Batch result, Batch::Make(schema_, std::move(columns), rows));
    return std::optional<Batch>(std::move(result));
  }
}

}  // namespace sqe::exec
