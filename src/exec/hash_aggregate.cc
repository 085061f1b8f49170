#include "exec/hash_aggregate.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <limits>
#include <string>

#include "columnar/take.h"
#include "exec/batch_concatenate.h"
#include "exec/functions/aggregate_merge.h"
#include "exec/key_hash_table.h"
#include "exec/row_key_encoder.h"
#include "exec/spill_file.h"

namespace sqe::exec {

using columnar::Batch;
using columnar::Column;
using columnar::SelectionVector;

namespace {
constexpr int kRadixBits = 4;  // 16 partitions when several thread tables are merged
constexpr int kRadixPartitions = 1 << kRadixBits;
// Spilled rows are split on 4 more hash bits per level: levels 0..15 use all 64 bits.
constexpr int kMaxSpillLevel = 64 / kRadixBits - 1;
// Below this many groups in all, one partition: merging is cheaper than splitting.
constexpr int64_t kMinGroupsToPartition = 16384;
// Rows gathered per partition before they are written (fewer, larger IPC messages).
constexpr int64_t kSpillFlushRows = 16384;

/// The radix partition of `hash` at spill `level` (0: the top 4 bits, as the source's
/// merge partitions).
inline int PartitionOf(uint64_t hash, int level) {
  return static_cast<int>((hash >> (64 - kRadixBits * (level + 1))) & (kRadixPartitions - 1));
}

bool IsResourceExhausted(const Status& st) { return st.code() == StatusCode::kResourceExhausted; }

}  // namespace

struct HashAggregate::GroupTable {
  explicit GroupTable(std::shared_ptr<MemoryTracker> tracker) : keys(std::move(tracker)) {}
  KeyHashTable keys;
  std::vector<std::unique_ptr<GroupAccumulator>> accumulators;
  int64_t num_groups = 0;
  // Spilling: the table takes no new groups any more.
  bool full = false;
  // The operator tracker's usage when the source made this table: what the tracker holds
  // above it is the table's (the source aggregates spilled partitions one at a time).
  int64_t tracker_base = -1;

  Status Grow(int64_t groups) {
    if (groups <= num_groups) return Status::OK();
    for (auto& acc : accumulators) SQE_RETURN_NOT_OK(acc->Resize(groups));
    num_groups = groups;
    return Status::OK();
  }
  /// Drops the groups from `groups` on (they were added by the batch that did not fit).
  void Shrink(int64_t groups) {
    keys.Truncate(groups);
    for (auto& acc : accumulators) (void)acc->Resize(groups);  // shrinking cannot fail
    num_groups = groups;
  }
};

/// A thread's working vectors for grouping one batch.
struct HashAggregate::RowScratch {
  std::vector<Column> keys;
  std::vector<Column> args;
  std::vector<uint64_t> hashes;
  std::vector<uint32_t> groups;
  EncodedRows encoded;
};

/// Rows of new groups routed to one spill file per radix partition at `level`, gathered
/// per partition so that one input batch's slices do not become tiny messages. The
/// gathered rows are not charged to the tracker: they exist when the budget is spent and
/// are bounded (partitions x kSpillFlushRows rows).
struct HashAggregate::PartitionSpill {
  SpillDirectory* dir = nullptr;
  columnar::SchemaPtr schema;
  int level = 0;
  std::atomic<int64_t>* spilled = nullptr;
  std::array<std::unique_ptr<SpillWriter>, kRadixPartitions> writers;
  std::array<std::vector<Batch>, kRadixPartitions> pending;
  std::array<int64_t, kRadixPartitions> pending_rows{};

  Status Append(int p, Batch batch) {
    pending_rows[p] += batch.num_rows();
    pending[p].push_back(std::move(batch));
    if (pending_rows[p] >= kSpillFlushRows) return Flush(p);
    return Status::OK();
  }
  Status Flush(int p) {
    if (pending[p].empty()) return Status::OK();
    if (writers[p] == nullptr) {
      const std::string tag = "aggregate-l" + std::to_string(level) + "-p" + std::to_string(p);
      SQE_ASSIGN_OR_RETURN(writers[p], SpillWriter::Open(dir->NewFilePath(tag), schema));
    }
    const int64_t before = writers[p]->bytes_written();
    if (pending[p].size() == 1) {
      SQE_RETURN_NOT_OK(writers[p]->Append(pending[p][0]));
    } else {
      SQE_ASSIGN_OR_RETURN(Batch all, Concatenate(schema, pending[p], nullptr));
      SQE_RETURN_NOT_OK(writers[p]->Append(all));
    }
    Count(writers[p]->bytes_written() - before);
    pending[p].clear();
    pending_rows[p] = 0;
    return Status::OK();
  }
  /// Writes what is gathered and closes the files; paths[p] is partition p's file ("" when
  /// it got no rows).
  Status Finish(std::array<std::string, kRadixPartitions>* paths) {
    for (int p = 0; p < kRadixPartitions; ++p) {
      SQE_RETURN_NOT_OK(Flush(p));
      if (writers[p] == nullptr) continue;
      const int64_t before = writers[p]->bytes_written();
      SQE_RETURN_NOT_OK(writers[p]->Finish());
      Count(writers[p]->bytes_written() - before);
      (*paths)[p] = writers[p]->path();
      writers[p].reset();
    }
    return Status::OK();
  }
  void Count(int64_t bytes) {
    spilled->fetch_add(bytes);
    dir->bytes_spilled().fetch_add(bytes);
  }
};

/// Groups still to emit after spilling: one table and the rows spilled beside it, split
/// into partitions at `level`; the source aggregates one partition at a time.
struct HashAggregate::SpilledPart {
  std::shared_ptr<GroupTable> table;  // may be null
  std::array<std::vector<std::string>, kRadixPartitions> files;
  int level = 0;
};

namespace {

struct SinkState : OperatorState {
  std::unique_ptr<HashAggregate::GroupTable> table;
  std::unique_ptr<HashAggregate::RowScratch> scratch;
  std::unique_ptr<HashAggregate::PartitionSpill> spill;
};

struct SourceState : OperatorState {
  std::optional<Batch> pending;
  int64_t offset = 0;
  std::vector<HashAggregate::SpillWorkItem>
      work;  // sub-partitions this thread split off, last first
};

}  // namespace

HashAggregate::HashAggregate(PhysicalOperatorPtr child, std::vector<int> group_keys,
                             std::vector<AggregateCall> aggregates, columnar::SchemaPtr output)
    : PhysicalOperator("HashAggregate", std::move(output), Children(std::move(child), nullptr)),
      group_keys_(std::move(group_keys)),
      aggregates_(std::move(aggregates)) {
  for (int k : group_keys_) key_types_.push_back(children_[0]->schema()->field(k).type());
  // Spilled rows keep the columns the keys and aggregates read, in input order.
  input_layout_.keys = group_keys_;
  for (const AggregateCall& call : aggregates_) {
    input_layout_.args.push_back(call.args);
    spill_columns_.insert(spill_columns_.end(), call.args.begin(), call.args.end());
  }
  spill_columns_.insert(spill_columns_.end(), group_keys_.begin(), group_keys_.end());
  std::sort(spill_columns_.begin(), spill_columns_.end());
  spill_columns_.erase(std::unique(spill_columns_.begin(), spill_columns_.end()),
                       spill_columns_.end());
  auto spilled_index = [this](int c) {
    return static_cast<int>(std::lower_bound(spill_columns_.begin(), spill_columns_.end(), c) -
                            spill_columns_.begin());
  };
  for (int k : group_keys_) spilled_layout_.keys.push_back(spilled_index(k));
  for (const AggregateCall& call : aggregates_) {
    std::vector<int> args;
    for (int c : call.args) args.push_back(spilled_index(c));
    spilled_layout_.args.push_back(std::move(args));
  }
  std::vector<columnar::Field> fields;
  for (int c : spill_columns_) fields.push_back(children_[0]->schema()->field(c));
  spill_schema_ = columnar::Schema::Make(std::move(fields));
}

HashAggregate::~HashAggregate() = default;

std::string HashAggregate::Details() const {
  std::string out = "keys=[";
  for (size_t i = 0; i < group_keys_.size(); ++i) {
    out += (i ? ", #" : "#") + std::to_string(group_keys_[i]);
  }
  out += "], aggs=[";
  for (size_t i = 0; i < aggregates_.size(); ++i) {
    if (i) out += ", ";
    out += aggregates_[i].function->name + "(";
    if (aggregates_[i].function->distinct) out += "DISTINCT ";
    for (size_t a = 0; a < aggregates_[i].args.size(); ++a) {
      out += (a ? ", #" : "#") + std::to_string(aggregates_[i].args[a]);
    }
    out += ")";
  }
  return out + "]";
}

Result<std::unique_ptr<HashAggregate::GroupTable>> HashAggregate::MakeTable(ExecContext& ctx) {
  std::shared_ptr<MemoryTracker> tracker;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (tracker_ == nullptr) tracker_ = MakeTracker(ctx);
    tracker = tracker_;
  }
  auto table = std::make_unique<GroupTable>(tracker);
  for (const AggregateCall& call : aggregates_) {
    SQE_ASSIGN_OR_RETURN(auto acc, call.function->make_accumulator(tracker));
    table->accumulators.push_back(std::move(acc));
  }
  if (group_keys_.empty()) SQE_RETURN_NOT_OK(table->Grow(1));
  return table;
}

Result<std::unique_ptr<OperatorState>> HashAggregate::MakeSinkState(ExecContext& ctx) {
  SQE_RETURN_NOT_OK(RowKeyEncoder::CheckKeyTypes(key_types_));
  auto state = std::make_unique<SinkState>();
  SQE_ASSIGN_OR_RETURN(state->table, MakeTable(ctx));
  state->scratch = std::make_unique<RowScratch>();
  std::lock_guard<std::mutex> lock(mutex_);
  if (table_budget_ < 0) {
    // Sink tables stop growing at a third of what the query can still use, so that
    // merging the partitions (and emitting them) has the rest, growth spikes included.
    const int64_t available =
        tracker_ == nullptr ? std::numeric_limits<int64_t>::max() : tracker_->Available();
    table_budget_ = !ctx.spill_enabled() || group_keys_.empty() ||
                            available == std::numeric_limits<int64_t>::max()
                        ? 0
                        : tracker_->current() + available / 3;
  }
  return std::unique_ptr<OperatorState>(std::move(state));
}

Result<std::unique_ptr<HashAggregate::PartitionSpill>> HashAggregate::MakeSpill(ExecContext& ctx,
                                                                                int level) {
  if (level > kMaxSpillLevel) {
    return Status::ResourceExhausted(
        "HashAggregate: groups still exceed the memory limit after splitting on every hash "
        "bit; raise query.max_query_memory");
  }
  SQE_ASSIGN_OR_RETURN(SpillDirectory * dir, ctx.SpillDirectoryForQuery());
  auto spill = std::make_unique<PartitionSpill>();
  spill->dir = dir;
  spill->schema = spill_schema_;
  spill->level = level;
  spill->spilled = &spilled_bytes_;
  return spill;
}

Status HashAggregate::AddRows(ExecContext& ctx, GroupTable& table, RowScratch& s,
                              const Batch& input, int level, std::unique_ptr<PartitionSpill>* spill,
                              bool spilled_rows) {
  const ColumnLayout& layout = spilled_rows ? spilled_layout_ : input_layout_;
  const int64_t n = input.num_rows();
  s.groups.resize(static_cast<size_t>(n));
  auto update = [&](const Batch& rows, const uint32_t* groups) -> Status {
    for (size_t a = 0; a < aggregates_.size(); ++a) {
      s.args.clear();
      for (int c : layout.args[a]) s.args.push_back(rows.column(c));
      Status st = table.accumulators[a]->Update(s.args, groups, rows.num_rows());
      if (!st.ok()) return IsResourceExhausted(st) ? SpillOffError(ctx.spill_enabled(), st) : st;
    }
    return Status::OK();
  };
  if (group_keys_.empty()) {
    std::fill(s.groups.begin(), s.groups.end(), 0);
    return update(input, s.groups.data());
  }
  s.keys.clear();
  for (int k : layout.keys) s.keys.push_back(input.column(k));
  s.hashes.resize(static_cast<size_t>(n));
  HashKeyColumns(s.keys, n, s.hashes.data());
  const bool can_spill = ctx.spill_enabled();
  if (!table.full) {
    SQE_RETURN_NOT_OK(RowKeyEncoder(key_types_).Encode(s.keys, n, &s.encoded));
    const int64_t before = table.keys.size();
    Status st = table.keys.FindOrInsert(s.encoded, s.hashes.data(), n, s.groups.data());
    if (st.ok()) st = table.Grow(table.keys.size());
    if (st.ok()) {
      SQE_RETURN_NOT_OK(update(input, s.groups.data()));
      if (can_spill) {
        // Stop growing while there is still room to merge and emit what the table holds,
        // and for its structures to double once more (a batch's growth spike).
        if (level == 0) {
          table.full = table_budget_ > 0 && tracker_->current() > table_budget_;
        } else {
          table.full = tracker_->Available() < 2 * (tracker_->current() - table.tracker_base);
        }
      }
      return Status::OK();
    }
    if (!IsResourceExhausted(st) || !can_spill) return SpillOffError(ctx.spill_enabled(), st);
    table.Shrink(before);
    table.full = true;
  }
  // The table is full and frozen: every further row is spilled, by partition. Rows of
  // groups the table holds go too (updating them in place could grow their states past
  // the limit); the source merges each partition of the spilled rows with the table's
  // groups of the same partition.
  if (*spill == nullptr) {
    SQE_ASSIGN_OR_RETURN(*spill, MakeSpill(ctx, level));
  }
  std::array<SelectionVector, kRadixPartitions> parts;
  for (int64_t i = 0; i < n; ++i) {
    parts[PartitionOf(s.hashes[i], level)].Append(static_cast<uint32_t>(i));
  }
  // Only the columns the keys and aggregates read are written.
  Batch used = input;
  if (!spilled_rows) {
    SQE_ASSIGN_OR_RETURN(used, input.Project(spill_columns_));
  }
  for (int p = 0; p < kRadixPartitions; ++p) {
    if (parts[p].empty()) continue;
    if (parts[p].size() == n) {
      SQE_RETURN_NOT_OK((*spill)->Append(p, used));
    } else {
      SQE_ASSIGN_OR_RETURN(Batch rows, columnar::Take(used, parts[p]));
      SQE_RETURN_NOT_OK((*spill)->Append(p, std::move(rows)));
    }
  }
  return Status::OK();
}

Status HashAggregate::Sink(ExecContext& ctx, const Batch& input, OperatorState& state) {
  auto& s = static_cast<SinkState&>(state);
  return AddRows(ctx, *s.table, *s.scratch, input, 0, &s.spill, false);
}

Status HashAggregate::Combine(ExecContext&, OperatorState& state) {
  auto& s = static_cast<SinkState&>(state);
  std::array<std::string, kRadixPartitions> paths;
  if (s.spill != nullptr) SQE_RETURN_NOT_OK(s.spill->Finish(&paths));
  std::lock_guard<std::mutex> lock(mutex_);
  tables_.push_back(std::move(s.table));
  if (s.spill != nullptr) {
    if (spilled_.empty()) spilled_.resize(kRadixPartitions);
    for (int p = 0; p < kRadixPartitions; ++p) {
      if (!paths[p].empty()) spilled_[p].push_back(paths[p]);
    }
    spilled_any_ = true;
  }
  return Status::OK();
}

Status HashAggregate::Finalize(ExecContext& ctx) {
  if (tables_.empty() && group_keys_.empty()) {
    // A global aggregate emits one row even when no thread sank anything.
    SQE_ASSIGN_OR_RETURN(auto table, MakeTable(ctx));
    tables_.push_back(std::move(table));
  }
  int64_t groups = 0;
  for (const auto& t : tables_) groups += t->num_groups;
  partitions_ = (tables_.size() > 1 && !group_keys_.empty() && groups >= kMinGroupsToPartition)
                    ? (1 << kRadixBits)
                    : 1;
  if (spilled_any_) partitions_ = kRadixPartitions;
  if (tables_.empty()) partitions_ = 0;
  next_partition_.store(0);
  RecordSpill();
  return Status::OK();
}

void HashAggregate::RecordSpill() {
  const int64_t bytes = spilled_bytes_.load();
  if (bytes == 0) return;
  std::lock_guard<std::mutex> lock(mutex_);
  stats_.extra = "spilled=" + FormatBytes(bytes);
}

int64_t HashAggregate::SourceParallelism() const {
  // Spilled partitions are aggregated one after the other (each may use what the tables
  // leave of the budget).
  return spilled_any_ ? 1 : std::max(1, partitions_);
}

Result<std::unique_ptr<OperatorState>> HashAggregate::MakeSourceState(ExecContext&) {
  return std::unique_ptr<OperatorState>(std::make_unique<SourceState>());
}

Result<Batch> HashAggregate::EmitTable(ExecContext&, GroupTable& table) {
  std::vector<Column> columns;
  if (!group_keys_.empty()) {
    SQE_ASSIGN_OR_RETURN(columns, RowKeyEncoder(key_types_).Decode(table.keys.Keys(), tracker_));
  }
  for (auto& acc : table.accumulators) {
    SQE_ASSIGN_OR_RETURN(Column column, acc->Finalize());
    columns.push_back(std::move(column));
  }
  return Batch::Make(schema_, std::move(columns), table.num_groups);
}

Status HashAggregate::MergeInto(GroupTable& merged, GroupTable& table, int partition, int level,
                                bool all) {
  std::vector<uint32_t> map(static_cast<size_t>(table.num_groups), kSkipGroup);
  if (group_keys_.empty()) {
    map[0] = 0;
  } else {
    for (uint32_t g = 0; g < map.size(); ++g) {
      const uint64_t hash = table.keys.hash(g);
      if (!all && PartitionOf(hash, level) != partition) continue;
      SQE_ASSIGN_OR_RETURN(map[g], merged.keys.FindOrInsert(table.keys.key(g), hash));
    }
    SQE_RETURN_NOT_OK(merged.Grow(merged.keys.size()));
  }
  for (size_t a = 0; a < aggregates_.size(); ++a) {
    SQE_RETURN_NOT_OK(merged.accumulators[a]->Merge(*table.accumulators[a], map.data()));
  }
  return Status::OK();
}

Result<Batch> HashAggregate::MergePartition(ExecContext& ctx, int partition) {
  SQE_ASSIGN_OR_RETURN(auto merged, MakeTable(ctx));
  for (const auto& table : tables_) {
    SQE_RETURN_NOT_OK(MergeInto(*merged, *table, partition, 0, partitions_ == 1));
  }
  return EmitTable(ctx, *merged);
}

Result<std::optional<Batch>> HashAggregate::AggregateSpilled(ExecContext& ctx,
                                                             const std::vector<GroupTable*>& tables,
                                                             const std::vector<std::string>& files,
                                                             int partition, int level,
                                                             std::vector<SpillWorkItem>* more) {
  // One partition at a time: each may fill what the tables leave of the budget.
  std::lock_guard<std::mutex> serial(spill_source_mutex_);
  const int64_t base = tracker_ == nullptr ? 0 : tracker_->current();
  SQE_ASSIGN_OR_RETURN(std::shared_ptr<GroupTable> merged, MakeTable(ctx));
  merged->tracker_base = base;
  for (GroupTable* table : tables) {
    Status st = MergeInto(*merged, *table, partition, level, false);
    if (!st.ok()) return IsResourceExhausted(st) ? SpillOffError(ctx.spill_enabled(), st) : st;
  }
  RowScratch scratch;
  std::unique_ptr<PartitionSpill> sub;
  for (const std::string& file : files) {
    SQE_ASSIGN_OR_RETURN(auto reader, SpillReader::Open(file));
    while (true) {
      SQE_RETURN_NOT_OK(ctx.CheckInterrupt());
      SQE_ASSIGN_OR_RETURN(std::optional<Batch> batch, reader->Next());
      if (!batch) break;
      // In slices of the batch size: the table reserves room for a whole slice of new keys.
      for (int64_t begin = 0; begin < batch->num_rows(); begin += ctx.batch_size) {
        const int64_t rows = std::min(ctx.batch_size, batch->num_rows() - begin);
        const Batch slice = rows == batch->num_rows() ? *batch : batch->Slice(begin, rows);
        SQE_RETURN_NOT_OK(AddRows(ctx, *merged, scratch, slice, level + 1, &sub, true));
      }
    }
    reader.reset();
    std::error_code ignored;
    std::filesystem::remove(file, ignored);  // read once; free the disk early
  }
  if (sub == nullptr) {
    SQE_ASSIGN_OR_RETURN(Batch out, EmitTable(ctx, *merged));
    return std::optional<Batch>(std::move(out));
  }
  // The partition did not fit: its groups and the rows of new groups split again.
  auto part = std::make_shared<SpilledPart>();
  part->table = std::move(merged);
  part->level = level + 1;
  std::array<std::string, kRadixPartitions> paths;
  SQE_RETURN_NOT_OK(sub->Finish(&paths));
  for (int p = 0; p < kRadixPartitions; ++p) {
    if (!paths[p].empty()) part->files[p].push_back(paths[p]);
  }
  for (int p = kRadixPartitions - 1; p >= 0; --p) more->push_back(SpillWorkItem{part, p});
  RecordSpill();
  return std::optional<Batch>();
}

Result<std::optional<Batch>> HashAggregate::GetData(ExecContext& ctx, OperatorState& state) {
  auto& s = static_cast<SourceState&>(state);
  while (true) {
    if (s.pending && s.offset < s.pending->num_rows()) {
      const int64_t rows = std::min(ctx.batch_size, s.pending->num_rows() - s.offset);
      Batch out = rows == s.pending->num_rows() ? *s.pending : s.pending->Slice(s.offset, rows);
      s.offset += rows;
      return std::optional<Batch>(std::move(out));
    }
    s.pending.reset();
    s.offset = 0;
    if (!s.work.empty()) {
      SpillWorkItem item = std::move(s.work.back());
      s.work.pop_back();
      std::vector<GroupTable*> tables;
      if (item.part->table != nullptr) tables.push_back(item.part->table.get());
      SQE_ASSIGN_OR_RETURN(
          s.pending, AggregateSpilled(ctx, tables, item.part->files[item.partition], item.partition,
                                      item.part->level, &s.work));
      continue;
    }
    const int partition = next_partition_.fetch_add(1);
    if (partition >= partitions_) return std::optional<Batch>();
    if (spilled_any_) {
      std::vector<GroupTable*> tables;
      for (const auto& t : tables_) tables.push_back(t.get());
      SQE_ASSIGN_OR_RETURN(
          s.pending, AggregateSpilled(ctx, tables, spilled_[partition], partition, 0, &s.work));
    } else if (partitions_ == 1 && tables_.size() == 1) {
      SQE_ASSIGN_OR_RETURN(Batch batch, EmitTable(ctx, *tables_[0]));
      s.pending = std::move(batch);
    } else {
      SQE_ASSIGN_OR_RETURN(Batch batch, MergePartition(ctx, partition));
      s.pending = std::move(batch);
    }
  }
}

}  // namespace sqe::exec
