#include "exec/table_scan.h"

#include <algorithm>
#include <cstdlib>
#include <set>

#include "exec/scan_filter.h"
#include "exec/value.h"
#include "iceberg/columnar_schema.h"
#include "iceberg/read/file_scan_task_reader.h"
#include "iceberg/scan/file_manifest_source.h"

namespace sqe::exec {
namespace {

namespace ice = iceberg::expr;

// The snapshot the spec asks for (nullptr: the table has none).
Result<const iceberg::Snapshot*> ScannedSnapshot(const iceberg::TableMetadata& m,
                                                 const IcebergScanSpec& spec) {
  if (spec.snapshot_id) {
    const iceberg::Snapshot* s = m.SnapshotById(*spec.snapshot_id);
    if (s == nullptr) {
      return Status::NotFound("snapshot " + std::to_string(*spec.snapshot_id) + " of table '" +
                              catalog::TableIdentifierToString(spec.table.id) + "' not found");
    }
    return s;
  }
  if (spec.ref) return m.SnapshotForRef(*spec.ref);
  if (spec.as_of_timestamp_ms) return m.SnapshotAsOf(*spec.as_of_timestamp_ms);
  return m.CurrentSnapshot();
}

void SplitIcebergConjuncts(const ice::ExprPtr& e, std::vector<ice::ExprPtr>* out) {
  if (!e) return;
  if (e->op == ice::Op::kAnd) {
    SplitIcebergConjuncts(e->left, out);
    SplitIcebergConjuncts(e->right, out);
    return;
  }
  out->push_back(e);
}

bool IsHidden(int32_t field_id) {
  return field_id == kPathFieldId || field_id == kFileModifiedTimeFieldId;
}

}  // namespace

const std::vector<std::pair<columnar::Field, int32_t>>& IcebergHiddenColumns() {
  static const std::vector<std::pair<columnar::Field, int32_t>> kColumns = {
      {columnar::Field("$path", columnar::String(), true), kPathFieldId},
      {columnar::Field("$file_modified_time", columnar::TimestampTz(columnar::TimeUnit::kMicro),
                       true),
       kFileModifiedTimeFieldId}};
  return kColumns;
}

/// Per-thread state: the task this thread is reading.
class IcebergTableScan::State : public OperatorState {
 public:
  explicit State(IcebergTableScan* scan) : scan_(scan) {}
  ~State() override { FinishTask(); }

  // Counts the current reader's work (a task read to its end, or abandoned at LIMIT).
  void FinishTask() {
    if (!reader) return;
    scan_->AddReaderStats(reader->stats(), reader->file_stats().bytes_read);
    reader.reset();
  }

  std::unique_ptr<iceberg::FileScanTaskReader> reader;
  /// The current task's hidden column values ("$path", "$file_modified_time").
  Value path;
  Value modified_time;

 private:
  IcebergTableScan* scan_;
};

IcebergTableScan::IcebergTableScan(IcebergScanSpec spec, columnar::SchemaPtr output_schema)
    : PhysicalOperator("TableScan", std::move(output_schema)), spec_(std::move(spec)) {
  fs_ = spec_.fs.get();
  for (int32_t id : spec_.field_ids) {
    if (IsHidden(id)) {
      has_hidden_ = true;
      output_from_.push_back(-static_cast<int64_t>(id));
    } else {
      output_from_.push_back(static_cast<int64_t>(read_ids_.size()));
      read_ids_.push_back(id);
    }
  }
}

IcebergTableScan::~IcebergTableScan() = default;

Result<columnar::SchemaPtr> IcebergTableScan::OutputSchema(const catalog::LoadedTable& table,
                                                           const std::vector<int32_t>& field_ids) {
  const iceberg::Schema* schema = table.metadata ? table.metadata->CurrentSchema() : nullptr;
  if (schema == nullptr) {
    return Status::InvalidArgument("table '" + catalog::TableIdentifierToString(table.id) +
                                   "' has no current schema");
  }
  std::vector<iceberg::NestedField> fields;
  std::vector<std::pair<size_t, columnar::Field>> hidden;
  for (int32_t id : field_ids) {
    if (IsHidden(id)) {
      for (const auto& [field, hidden_id] : IcebergHiddenColumns()) {
        if (hidden_id == id) hidden.emplace_back(fields.size() + hidden.size(), field);
      }
      continue;
    }
    const iceberg::NestedField* found = nullptr;
    for (const iceberg::NestedField& f : schema->fields()) {
      if (f.id == id) found = &f;
    }
    if (found == nullptr) {
      return Status::InvalidArgument("table '" + catalog::TableIdentifierToString(table.id) +
                                     "' has no top-level column with field id " +
                                     std::to_string(id));
    }
    fields.push_back(*found);
  }
  SQE_ASSIGN_OR_RETURN(columnar::SchemaPtr table_columns,
                       iceberg::ToColumnarSchema(iceberg::Schema(0, std::move(fields))));
  if (hidden.empty()) return table_columns;
  std::vector<columnar::Field> out = table_columns->fields();
  for (auto& [at, field] : hidden) out.insert(out.begin() + static_cast<int64_t>(at), field);
  return columnar::Schema::Make(std::move(out));
}

Status IcebergTableScan::Prepare(ExecContext& ctx) {
  if (planned_.load(std::memory_order_acquire)) return plan_status_;
  std::lock_guard<std::mutex> lock(mutex_);
  if (planned_.load(std::memory_order_relaxed)) return plan_status_;
  plan_status_ = PlanLocked(ctx);
  planned_.store(true, std::memory_order_release);
  return plan_status_;
}

Status IcebergTableScan::PlanLocked(ExecContext& ctx) {
  const std::string table_name = catalog::TableIdentifierToString(spec_.table.id);
  if (!spec_.table.metadata) {
    return Status::InvalidArgument("table '" + table_name + "' was not loaded");
  }
  if (fs_ == nullptr) fs_ = ctx.fs;
  if (fs_ == nullptr) {
    return Status::InvalidArgument("no file system to read table '" + table_name + "' with");
  }
  const iceberg::TableMetadata& m = *spec_.table.metadata;
  // A conjunct that does not bind (a column renamed since the optimizer looked, a literal
  // the column type cannot hold) must not fail the query: the engine filters anyway.
  std::vector<const iceberg::Schema*> schemas = {m.CurrentSchema()};
  SQE_ASSIGN_OR_RETURN(const iceberg::Snapshot* snapshot, ScannedSnapshot(m, spec_));
  if (snapshot != nullptr && (spec_.snapshot_id || spec_.as_of_timestamp_ms || spec_.ref)) {
    auto s = m.SchemaForSnapshot(snapshot->snapshot_id);
    if (s.ok() && *s != nullptr) schemas.push_back(*s);
  }
  std::vector<ice::ExprPtr> conjuncts;
  SplitIcebergConjuncts(spec_.filter, &conjuncts);
  ice::ExprPtr filter;
  for (const ice::ExprPtr& c : conjuncts) {
    bool binds = true;
    for (const iceberg::Schema* s : schemas) {
      if (s == nullptr || !ice::Bind(c, *s).ok()) binds = false;
    }
    if (binds) filter = filter ? ice::And(filter, c) : c;
  }
  planned_filter_ = filter;

  iceberg::ScanOptions options;
  options.snapshot_id = spec_.snapshot_id;
  options.ref = spec_.ref;
  options.as_of_timestamp_ms = spec_.as_of_timestamp_ms;
  options.filter = filter;
  if (spec_.target_split_size > 0) options.target_split_size = spec_.target_split_size;
  options.scheduler = ctx.scheduler;
  options.parallelism = ctx.threads;
  iceberg::FileManifestSource manifests(*fs_);
  auto plan = iceberg::PlanScan(m, manifests, options);
  if (!plan.ok()) return plan.status().WithContext("scan of table '" + table_name + "'");
  plan_ = std::move(*plan);
  // Conjuncts on "$path" (=, IN, starts_with) do not bind to the table schema; they keep
  // only the matching files' tasks (the Filter above the scan still checks every row).
  for (const ice::ExprPtr& c : conjuncts) {
    if (!c->is_predicate() || c->column != IcebergHiddenColumns()[0].first.name()) continue;
    if (c->op != ice::Op::kEq && c->op != ice::Op::kIn && c->op != ice::Op::kStartsWith) continue;
    auto keep = [&](const std::string& path) {
      for (const iceberg::Literal& l : c->literals) {
        if (l.type() != iceberg::TypeId::kString) return true;  // not understood: keep
        if (c->op == ice::Op::kStartsWith ? path.starts_with(l.bytes()) : path == l.bytes()) {
          return true;
        }
      }
      return false;
    };
    std::set<std::string> dropped;
    std::erase_if(plan_.tasks, [&](const iceberg::FileScanTask& t) {
      if (keep(t.file.file_path)) return false;
      dropped.insert(t.file.file_path);
      return true;
    });
    files_pruned_by_path_ += static_cast<int64_t>(dropped.size());
  }
  if (read_ids_.empty() && !spec_.field_ids.empty() && plan_.schema != nullptr) {
    // Only hidden columns: read the narrowest column for the row counts, then drop it.
    const iceberg::NestedField* pick = nullptr;
    for (const iceberg::NestedField& f : plan_.schema->fields()) {
      if (pick == nullptr || (!f.type->is_nested() && pick->type->is_nested())) pick = &f;
    }
    if (pick == nullptr)
      return Status::InvalidArgument("table '" + table_name + "' has no columns");
    read_ids_.push_back(pick->id);
  }
  // Larger tasks first, so the last task a thread picks up is a small one.
  std::stable_sort(plan_.tasks.begin(), plan_.tasks.end(),
                   [](const iceberg::FileScanTask& a, const iceberg::FileScanTask& b) {
                     return a.length > b.length;
                   });
  if (task_ordering_ && plan_.schema != nullptr) {
    ordered_by_ = task_ordering_(m, *plan_.schema, &plan_.tasks);
    ordered_.store(!ordered_by_.empty(), std::memory_order_release);
  }
  tasks_.store(static_cast<int64_t>(plan_.tasks.size()));
  // Files in manifests the planner skipped whole are pruned too: the snapshot summary
  // counts every live data file.
  if (snapshot != nullptr) {
    auto total = snapshot->summary.find("total-data-files");
    if (total != snapshot->summary.end()) {
      char* end = nullptr;
      const long long n = std::strtoll(total->second.c_str(), &end, 10);
      if (end != total->second.c_str() && *end == '\0' && n >= 0) snapshot_data_files_ = n;
    }
  }
  deletes_ = std::make_unique<iceberg::DeleteLoader>(*fs_);
  RefreshExtra();
  return Status::OK();
}

Result<int64_t> IcebergTableScan::EstimateRows() const {
  if (!spec_.table.metadata) return Status::InvalidArgument("table was not loaded");
  SQE_ASSIGN_OR_RETURN(const iceberg::Snapshot* snapshot,
                       ScannedSnapshot(*spec_.table.metadata, spec_));
  if (snapshot == nullptr) return int64_t{0};
  auto it = snapshot->summary.find("total-records");
  if (it == snapshot->summary.end()) {
    return Status::NotFound("snapshot " + std::to_string(snapshot->snapshot_id) + " of table '" +
                            catalog::TableIdentifierToString(spec_.table.id) +
                            "' has no total-records in its summary");
  }
  char* end = nullptr;
  const long long n = std::strtoll(it->second.c_str(), &end, 10);
  if (end == it->second.c_str() || *end != '\0' || n < 0) {
    return Status::Corruption("total-records '" + it->second + "' of snapshot " +
                              std::to_string(snapshot->snapshot_id) + " is not a count");
  }
  return static_cast<int64_t>(n);
}

iceberg::ScanStats IcebergTableScan::scan_stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return plan_.stats;
}

iceberg::expr::ExprPtr IcebergTableScan::planned_filter() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return planned_filter_;
}

std::string IcebergTableScan::Details() const {
  std::string out = "table=" + catalog::TableIdentifierToString(spec_.table.id);
  out += " columns=[";
  for (int i = 0; i < schema_->num_fields(); ++i) {
    out += (i ? ", " : "") + schema_->field(i).name();
  }
  out += "]";
  if (spec_.filter) out += " filter=" + ice::ToString(spec_.filter);
  if (spec_.snapshot_id) out += " snapshot=" + std::to_string(*spec_.snapshot_id);
  if (spec_.ref) out += " ref=" + *spec_.ref;
  if (spec_.as_of_timestamp_ms) out += " as_of_ms=" + std::to_string(*spec_.as_of_timestamp_ms);
  if (ordered_.load(std::memory_order_acquire)) out += " ordered_by=" + ordered_by_;
  return out;
}

std::string IcebergTableScan::ordered_by() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return ordered_by_;
}

Result<std::unique_ptr<OperatorState>> IcebergTableScan::MakeSourceState(ExecContext& ctx) {
  SQE_RETURN_NOT_OK(Prepare(ctx));
  return std::unique_ptr<OperatorState>(new State(this));
}

int64_t IcebergTableScan::SourceParallelism() const {
  if (!planned_.load(std::memory_order_acquire)) return 0;
  // At least one thread even for an empty plan (0 would mean "no limit").
  return std::max<int64_t>(1, tasks_.load());
}

Result<std::optional<columnar::Batch>> IcebergTableScan::GetData(ExecContext& ctx,
                                                                 OperatorState& state) {
  SQE_RETURN_NOT_OK(Prepare(ctx));
  State& s = static_cast<State&>(state);
  while (true) {
    SQE_RETURN_NOT_OK(ctx.CheckInterrupt());
    if (!s.reader) {
      const size_t i = next_task_.fetch_add(1, std::memory_order_relaxed);
      if (i >= plan_.tasks.size()) return std::optional<columnar::Batch>();
      const iceberg::FileScanTask& task = plan_.tasks[i];
      iceberg::TaskReaderOptions options;
      options.schema = plan_.schema;
      options.projected_ids = read_ids_;
      options.spec = spec_.table.metadata->SpecById(task.spec_id);
      options.batch_size = ctx.batch_size;
      options.predicate = IcebergToParquetPredicates(task.residual);
      options.apply_residual = spec_.filter_rows;
      SQE_ASSIGN_OR_RETURN(s.reader,
                           iceberg::FileScanTaskReader::Open(*fs_, task, options, *deletes_));
      if (has_hidden_) SQE_RETURN_NOT_OK(HiddenValues(task, &s.path, &s.modified_time));
    }
    SQE_ASSIGN_OR_RETURN(std::optional<columnar::Batch> batch, s.reader->Next());
    if (!batch) {
      s.FinishTask();
      continue;
    }
    // The reader names columns as the table does; the plan may have renamed them.
    std::vector<columnar::Column> columns;
    if (!has_hidden_) {
      columns.reserve(static_cast<size_t>(batch->num_columns()));
      for (int c = 0; c < batch->num_columns(); ++c) columns.push_back(batch->column(c));
    }
    for (size_t i = 0; has_hidden_ && i < output_from_.size(); ++i) {
      const int64_t from = output_from_[i];
      if (from >= 0) {
        columns.push_back(batch->column(static_cast<int>(from)));
        continue;
      }
      const Value& v = -from == kPathFieldId ? s.path : s.modified_time;
      SQE_ASSIGN_OR_RETURN(columnar::Column c, v.ToColumn(batch->num_rows()));
      columns.push_back(std::move(c));
    }
    auto out = columnar::Batch::Make(schema_, std::move(columns), batch->num_rows());
    if (!out.ok()) {
      return out.status().WithContext("scan of table '" +
                                      catalog::TableIdentifierToString(spec_.table.id) +
                                      "': the data does not match the planned output schema");
    }
    return std::optional<columnar::Batch>(std::move(*out));
  }
}

Status IcebergTableScan::HiddenValues(const iceberg::FileScanTask& task, Value* path,
                                      Value* modified_time) {
  *path = Value::Varchar(task.file.file_path);
  const columnar::TypePtr time_type = columnar::TimestampTz(columnar::TimeUnit::kMicro);
  *modified_time = Value::Null(time_type);
  if (std::find(spec_.field_ids.begin(), spec_.field_ids.end(), kFileModifiedTimeFieldId) ==
      spec_.field_ids.end()) {
    return Status::OK();
  }
  Result<int64_t> micros = fs_->LastModifiedMicros(task.file.file_path);
  if (micros.ok()) {
    *modified_time = Value(time_type, *micros);
  } else if (micros.status().code() != StatusCode::kNotImplemented) {
    return micros.status().WithContext("$file_modified_time of a file of table '" +
                                       catalog::TableIdentifierToString(spec_.table.id) + "'");
  }
  return Status::OK();
}

void IcebergTableScan::AddReaderStats(const iceberg::TaskReadStats& task, int64_t bytes_read) {
  row_groups_read_.fetch_add(task.row_groups, std::memory_order_relaxed);
  row_groups_skipped_.fetch_add(task.row_groups_skipped, std::memory_order_relaxed);
  rows_read_.fetch_add(task.rows_read, std::memory_order_relaxed);
  rows_deleted_.fetch_add(task.rows_deleted_by_position + task.rows_deleted_by_equality,
                          std::memory_order_relaxed);
  rows_filtered_.fetch_add(task.rows_filtered, std::memory_order_relaxed);
  stats_.bytes_read.fetch_add(bytes_read, std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(mutex_);
  RefreshExtra();
}

void IcebergTableScan::RefreshExtra() {
  // Called with mutex_ held.
  const iceberg::ScanStats& p = plan_.stats;
  stats_.extra = "files_skipped_by_partition=" + std::to_string(p.data_files_skipped_by_partition) +
                 " files_skipped_by_metrics=" + std::to_string(p.data_files_skipped_by_metrics) +
                 " manifests=" + std::to_string(p.manifests) +
                 " manifests_skipped=" + std::to_string(p.manifests_skipped) +
                 " delete_files=" + std::to_string(p.delete_files) +
                 " tasks=" + std::to_string(p.tasks) +
                 " rows_read=" + std::to_string(rows_read_.load()) +
                 " rows_deleted=" + std::to_string(rows_deleted_.load()) +
                 " rows_filtered=" + std::to_string(rows_filtered_.load());
  const int64_t skipped =
      p.data_files_skipped_by_partition + p.data_files_skipped_by_metrics + files_pruned_by_path_;
  const int64_t read = p.data_files - skipped;
  stats_.files_read.store(read, std::memory_order_relaxed);
  stats_.files_pruned.store(std::max(skipped, snapshot_data_files_ - read),
                            std::memory_order_relaxed);
  stats_.row_groups_read.store(row_groups_read_.load(), std::memory_order_relaxed);
  stats_.row_groups_pruned.store(row_groups_skipped_.load(), std::memory_order_relaxed);
}

}  // namespace sqe::exec
