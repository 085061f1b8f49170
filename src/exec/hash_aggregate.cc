#include "exec/hash_aggregate.h"

#include <string>

#include "exec/functions/aggregate_merge.h"
#include "exec/key_hash_table.h"
#include "exec/row_key_encoder.h"

namespace sqe::exec {

using columnar::Batch;
using columnar::Column;

namespace {
constexpr int kRadixBits = 4;  // 16 partitions when several thread tables are merged
// Below this many groups in all, one partition: merging is cheaper than splitting.
constexpr int64_t kMinGroupsToPartition = 16384;
}  // namespace

struct HashAggregate::GroupTable {
  explicit GroupTable(std::shared_ptr<MemoryTracker> tracker) : keys(std::move(tracker)) {}
  KeyHashTable keys;
  std::vector<std::unique_ptr<GroupAccumulator>> accumulators;
  int64_t num_groups = 0;

  Status Grow(int64_t groups) {
    if (groups <= num_groups) return Status::OK();
    for (auto& acc : accumulators) SQE_RETURN_NOT_OK(acc->Resize(groups));
    num_groups = groups;
    return Status::OK();
  }
};

namespace {

struct SinkState : OperatorState {
  std::unique_ptr<HashAggregate::GroupTable> table;
  std::vector<Column> keys;
  std::vector<Column> args;
  std::vector<uint64_t> hashes;
  std::vector<uint32_t> groups;
  EncodedRows encoded;
};

struct SourceState : OperatorState {
  std::optional<Batch> pending;
  int64_t offset = 0;
};

}  // namespace

HashAggregate::HashAggregate(PhysicalOperatorPtr child, std::vector<int> group_keys,
                             std::vector<AggregateCall> aggregates, columnar::SchemaPtr output)
    : PhysicalOperator("HashAggregate", std::move(output), Children(std::move(child), nullptr)),
      group_keys_(std::move(group_keys)),
      aggregates_(std::move(aggregates)) {
  for (int k : group_keys_) key_types_.push_back(children_[0]->schema()->field(k).type());
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
  return std::unique_ptr<OperatorState>(std::move(state));
}

Status HashAggregate::Sink(ExecContext&, const Batch& input, OperatorState& state) {
  auto& s = static_cast<SinkState&>(state);
  GroupTable& table = *s.table;
  const int64_t n = input.num_rows();
  s.groups.resize(static_cast<size_t>(n));
  if (group_keys_.empty()) {
    std::fill(s.groups.begin(), s.groups.end(), 0);
  } else {
    s.keys.clear();
    for (int k : group_keys_) s.keys.push_back(input.column(k));
    s.hashes.resize(static_cast<size_t>(n));
    HashKeyColumns(s.keys, n, s.hashes.data());
    SQE_RETURN_NOT_OK(RowKeyEncoder(key_types_).Encode(s.keys, n, &s.encoded));
    SQE_RETURN_NOT_OK(table.keys.FindOrInsert(s.encoded, s.hashes.data(), n, s.groups.data()));
    SQE_RETURN_NOT_OK(table.Grow(table.keys.size()));
  }
  for (size_t a = 0; a < aggregates_.size(); ++a) {
    s.args.clear();
    for (int c : aggregates_[a].args) s.args.push_back(input.column(c));
    SQE_RETURN_NOT_OK(table.accumulators[a]->Update(s.args, s.groups.data(), n));
  }
  return Status::OK();
}

Status HashAggregate::Combine(ExecContext&, OperatorState& state) {
  auto& s = static_cast<SinkState&>(state);
  std::lock_guard<std::mutex> lock(mutex_);
  tables_.push_back(std::move(s.table));
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
  if (tables_.empty()) partitions_ = 0;
  next_partition_.store(0);
  return Status::OK();
}

int64_t HashAggregate::SourceParallelism() const { return std::max(1, partitions_); }

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

Result<Batch> HashAggregate::MergePartition(ExecContext& ctx, int partition) {
  SQE_ASSIGN_OR_RETURN(auto merged, MakeTable(ctx));
  std::vector<uint32_t> map;
  for (const auto& table : tables_) {
    map.assign(static_cast<size_t>(table->num_groups), kSkipGroup);
    if (group_keys_.empty()) {
      map[0] = 0;
    } else {
      for (uint32_t g = 0; g < map.size(); ++g) {
        const uint64_t hash = table->keys.hash(g);
        if (partitions_ > 1 && static_cast<int>(hash >> (64 - kRadixBits)) != partition) continue;
        SQE_ASSIGN_OR_RETURN(map[g], merged->keys.FindOrInsert(table->keys.key(g), hash));
      }
      SQE_RETURN_NOT_OK(merged->Grow(merged->keys.size()));
    }
    for (size_t a = 0; a < aggregates_.size(); ++a) {
      SQE_RETURN_NOT_OK(merged->accumulators[a]->Merge(*table->accumulators[a], map.data()));
    }
  }
  return EmitTable(ctx, *merged);
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
    const int partition = next_partition_.fetch_add(1);
    if (partition >= partitions_) return std::optional<Batch>();
    if (partitions_ == 1 && tables_.size() == 1) {
      SQE_ASSIGN_OR_RETURN(Batch batch, EmitTable(ctx, *tables_[0]));
      s.pending = std::move(batch);
    } else {
      SQE_ASSIGN_OR_RETURN(Batch batch, MergePartition(ctx, partition));
      s.pending = std::move(batch);
    }
    s.offset = 0;
  }
}

}  // namespace sqe::exec
