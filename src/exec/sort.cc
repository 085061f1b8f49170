#include "exec/sort.h"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <numeric>
#include <queue>
#include <string>
#include <unordered_map>

#include "columnar/take.h"
#include "exec/batch_concatenate.h"
#include "exec/functions/interleave.h"
#include "exec/spill_file.h"

namespace sqe::exec {

using columnar::Batch;
using columnar::Column;

namespace {

// Per row, besides the data and the key bytes: the key offset (4) and what ordering
// needs (the order, 4, and OrderEncodedRows' 16-byte working entries).
constexpr int64_t kOffsetBytesPerRow = 4;
constexpr int64_t kOrderBytesPerRow = 24;

bool IsResourceExhausted(const Status& st) { return st.code() == StatusCode::kResourceExhausted; }

/// Appends the rows of `src` to `dst` (offsets shifted).
void AppendKeys(const EncodedRows& src, EncodedRows* dst) {
  if (dst->offsets.empty()) dst->offsets.push_back(0);
  const auto base = static_cast<uint32_t>(dst->bytes.size());
  dst->bytes.insert(dst->bytes.end(), src.bytes.begin(), src.bytes.end());
  for (size_t i = 1; i < src.offsets.size(); ++i) dst->offsets.push_back(base + src.offsets[i]);
}

/// Row i of the result is row row_in_piece[i] of pieces[piece_of_row[i]]; the buffers
/// are charged to `tracker` (nullptr: untracked).
Result<Batch> Gather(const columnar::SchemaPtr& schema, const std::vector<Batch>& pieces,
                     const std::vector<int32_t>& piece_of_row,
                     const std::vector<uint32_t>& row_in_piece,
                     const std::shared_ptr<MemoryTracker>& tracker) {
  const auto rows = static_cast<int64_t>(piece_of_row.size());
  if (pieces.size() == 1) {
    return columnar::Take(pieces[0], columnar::SelectionVector(row_in_piece), tracker);
  }
  EvalContext eval;
  eval.tracker = tracker;
  std::vector<Column> columns;
  std::vector<Column> parts(pieces.size());
  for (int c = 0; c < schema->num_fields(); ++c) {
    const columnar::TypePtr& type = schema->field(c).type();
    for (size_t p = 0; p < pieces.size(); ++p) parts[p] = pieces[p].column(c);
    if (!type->is_nested()) {
      SQE_ASSIGN_OR_RETURN(Column column, Interleave(type, parts, piece_of_row.data(),
                                                     row_in_piece.data(), rows, eval));
      columns.push_back(std::move(column));
      continue;
    }
    // Nested values: concatenate the pieces, then take by position in the concatenation.
    std::vector<uint32_t> starts(pieces.size() + 1, 0);
    for (size_t p = 0; p < pieces.size(); ++p) {
      starts[p + 1] = starts[p] + static_cast<uint32_t>(pieces[p].num_rows());
    }
    SQE_ASSIGN_OR_RETURN(Column all, Concatenate(parts, nullptr));
    std::vector<uint32_t> positions(static_cast<size_t>(rows));
    for (int64_t i = 0; i < rows; ++i) positions[i] = starts[piece_of_row[i]] + row_in_piece[i];
    SQE_ASSIGN_OR_RETURN(
        Column column,
        columnar::Take(all, columnar::SelectionVector(std::move(positions)), tracker));
    columns.push_back(std::move(column));
  }
  return Batch::Make(schema, std::move(columns), rows);
}

void RemoveFile(const std::string& path) {
  std::error_code ignored;
  std::filesystem::remove(path, ignored);
}

}  // namespace

struct Sort::Run {
  Batch batch;
  EncodedRows keys;
  std::vector<uint32_t> order;
  Reservation reservation;
};

/// What one sinking thread holds: its batches, their normalized keys (one after the
/// other) and the reservation for both plus the room to order them.
struct Sort::Collected {
  std::vector<Batch> batches;
  EncodedRows keys;
  Reservation reservation;

  void Clear() {
    batches.clear();
    keys = EncodedRows();
    reservation.Reset();
  }
};

/// The k-way merge of sorted spill files, one batch per file in memory: a heap of the
/// files ordered by the normalized key of their current row.
struct Sort::SpillMerge {
  struct Cursor {
    std::string path;
    std::unique_ptr<SpillReader> reader;
    Batch batch;
    EncodedRows keys;
    int64_t pos = 0;
  };

  columnar::SchemaPtr schema;
  std::vector<SortKey> sort_keys;
  std::vector<Cursor> cursors;
  std::vector<uint32_t> heap;
  // Scratch of Next.
  std::vector<Batch> pieces;
  std::vector<int32_t> piece_of_row;
  std::vector<uint32_t> row_in_piece;
  std::vector<int32_t> cursor_piece;

  std::string_view Key(uint32_t r) const { return cursors[r].keys.row(cursors[r].pos); }
  bool Later(uint32_t a, uint32_t b) const { return Key(b) < Key(a); }

  /// Loads the cursor's next batch; false (and the file deleted) at its end.
  Result<bool> Load(Cursor& c) {
    SQE_ASSIGN_OR_RETURN(std::optional<Batch> batch, c.reader->Next());
    if (!batch) {
      c.reader.reset();
      c.batch = Batch();
      RemoveFile(c.path);
      return false;
    }
    c.batch = std::move(*batch);
    c.pos = 0;
    SQE_RETURN_NOT_OK(EncodeSortKeys(c.batch, sort_keys, &c.keys));
    return true;
  }

  Status Open(const std::vector<std::string>& paths) {
    cursors.resize(paths.size());
    auto later = [this](uint32_t a, uint32_t b) { return Later(a, b); };
    for (size_t r = 0; r < paths.size(); ++r) {
      cursors[r].path = paths[r];
      SQE_ASSIGN_OR_RETURN(cursors[r].reader, SpillReader::Open(paths[r]));
      SQE_ASSIGN_OR_RETURN(bool any, Load(cursors[r]));
      if (any) {
        heap.push_back(static_cast<uint32_t>(r));
        std::push_heap(heap.begin(), heap.end(), later);
      }
    }
    cursor_piece.assign(paths.size(), -1);
    return Status::OK();
  }

  /// Up to `rows` next rows in order; nullopt when every file is done.
  Result<std::optional<Batch>> Next(int64_t rows, const std::shared_ptr<MemoryTracker>& tracker) {
    if (heap.empty()) return std::optional<Batch>();
    auto later = [this](uint32_t a, uint32_t b) { return Later(a, b); };
    pieces.clear();
    piece_of_row.clear();
    row_in_piece.clear();
    std::fill(cursor_piece.begin(), cursor_piece.end(), -1);
    while (static_cast<int64_t>(piece_of_row.size()) < rows && !heap.empty()) {
      std::pop_heap(heap.begin(), heap.end(), later);
      const uint32_t r = heap.back();
      heap.pop_back();
      Cursor& c = cursors[r];
      if (cursor_piece[r] < 0) {
        cursor_piece[r] = static_cast<int32_t>(pieces.size());
        pieces.push_back(c.batch);
      }
      piece_of_row.push_back(cursor_piece[r]);
      row_in_piece.push_back(static_cast<uint32_t>(c.pos));
      if (++c.pos >= c.batch.num_rows()) {
        cursor_piece[r] = -1;  // the next batch is another piece
        SQE_ASSIGN_OR_RETURN(bool more, Load(c));
        if (!more) continue;
      }
      heap.push_back(r);
      std::push_heap(heap.begin(), heap.end(), later);
    }
    SQE_ASSIGN_OR_RETURN(Batch out, Gather(schema, pieces, piece_of_row, row_in_piece, tracker));
    return std::optional<Batch>(std::move(out));
  }
};

namespace {

struct SinkState : OperatorState {
  Sort::Collected* collected() { return collected_.get(); }
  std::unique_ptr<Sort::Collected> collected_;
  EncodedRows scratch;
};

}  // namespace

std::string SortKeysToString(const std::vector<SortKey>& keys) {
  std::string out;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (i) out += ", ";
    out += "#" + std::to_string(keys[i].column) + (keys[i].ascending ? " ASC" : " DESC") +
           (keys[i].nulls_first ? " NULLS FIRST" : " NULLS LAST");
  }
  return out;
}

Sort::Sort(PhysicalOperatorPtr child, std::vector<SortKey> keys)
    : PhysicalOperator("Sort", nullptr, Children(std::move(child), nullptr)),
      keys_(std::move(keys)) {
  schema_ = children_[0]->schema();
}

Sort::~Sort() {
  // Unread runs go with the query's spill directory; the merge's open files close here.
}

std::string Sort::Details() const { return "keys=[" + SortKeysToString(keys_) + "]"; }

Result<std::unique_ptr<OperatorState>> Sort::MakeSinkState(ExecContext& ctx) {
  auto state = std::make_unique<SinkState>();
  state->collected_ = std::make_unique<Collected>();
  std::shared_ptr<MemoryTracker> tracker = MakeTracker(ctx);
  SQE_ASSIGN_OR_RETURN(state->collected_->reservation, Reservation::Make(tracker, 0));
  std::lock_guard<std::mutex> lock(mutex_);
  if (headroom_ < 0) {
    // With spilling on, runs are written while an eighth of what the query could use
    // (at most 64MB) is still free: the operators streaming into the sort need room too.
    const int64_t available =
        tracker == nullptr ? std::numeric_limits<int64_t>::max() : tracker->Available();
    headroom_ = !ctx.spill_enabled() || available == std::numeric_limits<int64_t>::max()
                    ? 0
                    : std::min<int64_t>(available / 8, int64_t{64} << 20);
  }
  return std::unique_ptr<OperatorState>(std::move(state));
}

Status Sort::Sink(ExecContext& ctx, const Batch& input, OperatorState& state) {
  auto& s = static_cast<SinkState&>(state);
  Collected& c = *s.collected();
  if (spill_requested_.load(std::memory_order_relaxed) && !c.batches.empty()) {
    // Another thread found no room even after writing its own run.
    spill_requested_.store(false, std::memory_order_relaxed);
    SQE_RETURN_NOT_OK(SpillCollected(ctx, c));
  }
  SQE_RETURN_NOT_OK(EncodeSortKeys(input, keys_, &s.scratch));
  const int64_t rows = input.num_rows();
  const int64_t need = BatchBytes(input) + static_cast<int64_t>(s.scratch.bytes.size()) +
                       rows * (kOffsetBytesPerRow + kOrderBytesPerRow);
  Status st = c.reservation.Resize(c.reservation.bytes() + need);
  if (!st.ok()) {
    if (!IsResourceExhausted(st) || !ctx.spill_enabled()) {
      return SpillOffError(ctx.spill_enabled(), st);
    }
    SQE_RETURN_NOT_OK(SpillCollected(ctx, c));
    if (!c.reservation.Resize(need).ok()) {
      // Other threads hold the memory: this batch is a run of its own, and they spill next.
      spill_requested_.store(true, std::memory_order_relaxed);
      Collected single;
      single.batches.push_back(input);
      AppendKeys(s.scratch, &single.keys);
      return SpillCollected(ctx, single);
    }
  }
  c.batches.push_back(input);
  AppendKeys(s.scratch, &c.keys);
  if (headroom_ > 0 && c.reservation.tracker()->Available() < headroom_) {
    return SpillCollected(ctx, c);
  }
  return Status::OK();
}

Status Sort::SpillCollected(ExecContext& ctx, Collected& c) {
  if (c.batches.empty()) {
    c.Clear();
    return Status::OK();
  }
  std::vector<uint32_t> order;
  OrderEncodedRows(c.keys, -1, &order);
  c.keys = EncodedRows();  // ordered: the keys are not needed to write the run
  Status st = WriteRun(ctx, c.batches, order);
  c.Clear();
  return st;
}

Status Sort::WriteRun(ExecContext& ctx, const std::vector<Batch>& batches,
                      const std::vector<uint32_t>& order) {
  SQE_ASSIGN_OR_RETURN(SpillDirectory * dir, ctx.SpillDirectoryForQuery());
  SQE_ASSIGN_OR_RETURN(auto writer, SpillWriter::Open(dir->NewFilePath("sort-run"), schema_));
  std::vector<uint32_t> starts(batches.size() + 1, 0);
  for (size_t b = 0; b < batches.size(); ++b) {
    starts[b + 1] = starts[b] + static_cast<uint32_t>(batches[b].num_rows());
  }
  const auto chunk = static_cast<size_t>(std::max<int64_t>(ctx.batch_size, 1024));
  std::vector<int32_t> piece_of_row;
  std::vector<uint32_t> row_in_piece;
  for (size_t begin = 0; begin < order.size(); begin += chunk) {
    SQE_RETURN_NOT_OK(ctx.CheckInterrupt());
    const size_t end = std::min(order.size(), begin + chunk);
    piece_of_row.resize(end - begin);
    row_in_piece.resize(end - begin);
    for (size_t i = begin; i < end; ++i) {
      const uint32_t row = order[i];
      const auto p = static_cast<size_t>(std::upper_bound(starts.begin(), starts.end(), row) -
                                         starts.begin() - 1);
      piece_of_row[i - begin] = static_cast<int32_t>(p);
      row_in_piece[i - begin] = row - starts[p];
    }
    SQE_ASSIGN_OR_RETURN(Batch out, Gather(schema_, batches, piece_of_row, row_in_piece, nullptr));
    SQE_RETURN_NOT_OK(writer->Append(out));
  }
  SQE_RETURN_NOT_OK(writer->Finish());
  spilled_bytes_.fetch_add(writer->bytes_written());
  dir->bytes_spilled().fetch_add(writer->bytes_written());
  std::lock_guard<std::mutex> lock(mutex_);
  spilled_runs_.push_back(writer->path());
  ++runs_written_;
  return Status::OK();
}

Status Sort::Combine(ExecContext& ctx, OperatorState& state) {
  auto& s = static_cast<SinkState&>(state);
  Collected& c = *s.collected();
  if (c.batches.empty()) return Status::OK();
  bool spilling;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    spilling = !spilled_runs_.empty();
  }
  // Once runs are on disk the last one goes there too (the merge reads files only).
  if (spilling) return SpillCollected(ctx, c);
  auto run = std::make_unique<Run>();
  std::shared_ptr<MemoryTracker> tracker = MakeTracker(ctx);
  auto concatenated = Concatenate(schema_, c.batches, tracker);
  if (!concatenated.ok()) {
    if (IsResourceExhausted(concatenated.status()) && ctx.spill_enabled()) {
      return SpillCollected(ctx, c);
    }
    return SpillOffError(ctx.spill_enabled(), concatenated.status());
  }
  run->batch = std::move(*concatenated);
  c.batches.clear();
  run->keys = std::move(c.keys);
  const int64_t rows = run->batch.num_rows();
  const auto key_bytes = static_cast<int64_t>(run->keys.bytes.size());
  // The run's buffers are charged by Concatenate now; keep the keys and the ordering room.
  run->reservation = std::move(c.reservation);
  c.Clear();
  SQE_RETURN_NOT_OK(
      run->reservation.Resize(key_bytes + rows * (kOffsetBytesPerRow + kOrderBytesPerRow)));
  OrderEncodedRows(run->keys, -1, &run->order);
  SQE_RETURN_NOT_OK(run->reservation.Resize(key_bytes + rows * (kOffsetBytesPerRow + 4)));
  std::lock_guard<std::mutex> lock(mutex_);
  runs_.push_back(std::move(run));
  return Status::OK();
}

Status Sort::Finalize(ExecContext& ctx) {
  next_ = 0;
  if (!spilled_runs_.empty()) {
    // External merge: the runs still in memory are written too, so the merge reads files
    // only and the memory is free for the operators above.
    for (auto& run : runs_) {
      SQE_RETURN_NOT_OK(WriteRun(ctx, {run->batch}, run->order));
      run.reset();
    }
    runs_.clear();
    return PrepareMerge(ctx);
  }
  if (runs_.empty()) return Status::OK();
  if (runs_.size() == 1) {
    sorted_input_ = runs_[0]->batch;
    order_ = std::move(runs_[0]->order);
    runs_.clear();
    return Status::OK();
  }
  std::shared_ptr<MemoryTracker> tracker = MakeTracker(ctx);
  std::vector<Batch> batches;
  std::vector<uint32_t> bases;
  uint32_t total = 0;
  for (const auto& run : runs_) {
    batches.push_back(run->batch);
    bases.push_back(total);
    total += static_cast<uint32_t>(run->batch.num_rows());
  }
  auto concatenated = Concatenate(schema_, batches, tracker);
  if (!concatenated.ok()) {
    if (!IsResourceExhausted(concatenated.status()) || !ctx.spill_enabled()) {
      return SpillOffError(ctx.spill_enabled(), concatenated.status());
    }
    // The runs fit, their concatenation does not: merge them from disk instead.
    batches.clear();
    for (auto& run : runs_) {
      SQE_RETURN_NOT_OK(WriteRun(ctx, {run->batch}, run->order));
      run.reset();
    }
    runs_.clear();
    return PrepareMerge(ctx);
  }
  sorted_input_ = std::move(*concatenated);
  batches.clear();
  auto order_reservation = Reservation::Make(tracker, int64_t{total} * 4);
  if (!order_reservation.ok()) {
    return SpillOffError(ctx.spill_enabled(), order_reservation.status());
  }
  order_reservation_ = std::move(*order_reservation);
  // K-way merge of the runs' orders on their normalized keys.
  order_.clear();
  order_.reserve(total);
  std::vector<size_t> position(runs_.size(), 0);
  auto key_of = [&](size_t r) { return runs_[r]->keys.row(runs_[r]->order[position[r]]); };
  auto later = [&](size_t a, size_t b) { return key_of(b) < key_of(a); };
  std::priority_queue<size_t, std::vector<size_t>, decltype(later)> heap(later);
  for (size_t r = 0; r < runs_.size(); ++r) {
    if (!runs_[r]->order.empty()) heap.push(r);
  }
  while (!heap.empty()) {
    const size_t r = heap.top();
    heap.pop();
    order_.push_back(bases[r] + runs_[r]->order[position[r]]);
    if (++position[r] < runs_[r]->order.size()) heap.push(r);
  }
  runs_.clear();
  return Status::OK();
}

Status Sort::PrepareMerge(ExecContext& ctx) {
  const auto batch_rows = std::max<int64_t>(ctx.batch_size, 1024);
  // Too many runs for one merge: merge the oldest kMaxMergeFanIn into one longer run.
  while (spilled_runs_.size() > kMaxMergeFanIn) {
    std::vector<std::string> group(spilled_runs_.begin(),
                                   spilled_runs_.begin() + static_cast<long>(kMaxMergeFanIn));
    spilled_runs_.erase(spilled_runs_.begin(),
                        spilled_runs_.begin() + static_cast<long>(kMaxMergeFanIn));
    SpillMerge merge;
    merge.schema = schema_;
    merge.sort_keys = keys_;
    SQE_RETURN_NOT_OK(merge.Open(group));
    SQE_ASSIGN_OR_RETURN(SpillDirectory * dir, ctx.SpillDirectoryForQuery());
    SQE_ASSIGN_OR_RETURN(auto writer, SpillWriter::Open(dir->NewFilePath("sort-run"), schema_));
    while (true) {
      SQE_RETURN_NOT_OK(ctx.CheckInterrupt());
      SQE_ASSIGN_OR_RETURN(std::optional<Batch> batch, merge.Next(batch_rows, nullptr));
      if (!batch) break;
      SQE_RETURN_NOT_OK(writer->Append(*batch));
    }
    SQE_RETURN_NOT_OK(writer->Finish());
    spilled_bytes_.fetch_add(writer->bytes_written());
    dir->bytes_spilled().fetch_add(writer->bytes_written());
    spilled_runs_.push_back(writer->path());
  }
  merge_ = std::make_unique<SpillMerge>();
  merge_->schema = schema_;
  merge_->sort_keys = keys_;
  SQE_RETURN_NOT_OK(merge_->Open(spilled_runs_));
  stats_.extra =
      "spilled=" + FormatBytes(spilled_bytes_.load()) + " runs=" + std::to_string(runs_written_);
  return Status::OK();
}

Result<std::unique_ptr<OperatorState>> Sort::MakeSourceState(ExecContext&) {
  return std::make_unique<OperatorState>();
}

Result<std::optional<Batch>> Sort::GetData(ExecContext& ctx, OperatorState&) {
  if (merge_ != nullptr) {
    SQE_RETURN_NOT_OK(ctx.CheckInterrupt());
    return merge_->Next(ctx.batch_size, MakeTracker(ctx));
  }
  if (next_ >= order_.size()) return std::optional<Batch>();
  const size_t rows = std::min(order_.size() - next_, static_cast<size_t>(ctx.batch_size));
  columnar::SelectionVector selection(
      std::vector<uint32_t>(order_.begin() + next_, order_.begin() + next_ + rows));
  next_ += rows;
  SQE_ASSIGN_OR_RETURN(Batch out, columnar::Take(sorted_input_, selection, MakeTracker(ctx)));
  return std::optional<Batch>(std::move(out));
}

}  // namespace sqe::exec
