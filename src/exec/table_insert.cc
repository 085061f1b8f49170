#include "exec/table_insert.h"

#include "catalog/catalog_table_operations.h"
#include "columnar/fixed_width_builder.h"
#include "iceberg/columnar_schema.h"
#include "iceberg/write/fast_append.h"
#include "iceberg/write/partitioned_writer.h"

namespace sqe::exec {

namespace {

/// One thread's writer: opened at its first batch, aborted unless Combine took its files.
class InsertState : public OperatorState {
 public:
  ~InsertState() override {
    if (writer != nullptr) writer->Abort();
  }
  std::unique_ptr<iceberg::PartitionedWriter> writer;
  int64_t rows = 0;
};

columnar::SchemaPtr CountSchema() {
  return columnar::Schema::Make({columnar::Field("rows", columnar::Int64(), false)});
}

}  // namespace

Result<std::unique_ptr<TableInsert>> TableInsert::Make(PhysicalOperatorPtr child,
                                                       TableInsertTarget target,
                                                       TableInsertOptions options) {
  if (target.table.metadata == nullptr || target.table.metadata->CurrentSchema() == nullptr) {
    return Status::Internal("table '" + target.display_name + "' has no current schema");
  }
  iceberg::Schema schema = *target.table.metadata->CurrentSchema();
  SQE_ASSIGN_OR_RETURN(columnar::SchemaPtr columns, iceberg::ToColumnarSchema(schema));
  if (child->schema()->num_fields() != columns->num_fields()) {
    return Status::InvalidArgument("Insert into '" + target.display_name + "' has " +
                                   std::to_string(child->schema()->num_fields()) +
                                   " columns; the table has " +
                                   std::to_string(columns->num_fields()));
  }
  return std::unique_ptr<TableInsert>(new TableInsert(std::move(child), std::move(target),
                                                      std::move(options), std::move(schema),
                                                      std::move(columns)));
}

TableInsert::TableInsert(PhysicalOperatorPtr child, TableInsertTarget target,
                         TableInsertOptions options, iceberg::Schema table_schema,
                         columnar::SchemaPtr table_columns)
    : PhysicalOperator("TableInsert", CountSchema(), Children(std::move(child))),
      target_(std::move(target)),
      options_(std::move(options)),
      table_schema_(std::move(table_schema)),
      table_columns_(std::move(table_columns)) {}

TableInsert::~TableInsert() { Abort(); }

std::string TableInsert::Details() const { return "table=" + target_.display_name; }

Result<std::unique_ptr<OperatorState>> TableInsert::MakeSinkState(ExecContext&) {
  return std::unique_ptr<OperatorState>(std::make_unique<InsertState>());
}

Status TableInsert::Sink(ExecContext& ctx, const columnar::Batch& input, OperatorState& state) {
  auto& s = static_cast<InsertState&>(state);
  if (input.num_rows() == 0) return Status::OK();
  stats_.rows_in.fetch_add(input.num_rows(), std::memory_order_relaxed);
  for (int i = 0; i < table_columns_->num_fields(); ++i) {
    const columnar::Field& field = table_columns_->field(i);
    if (!field.nullable() && input.column(i).null_count() > 0) {
      return Status::InvalidArgument("NULL value not allowed for NOT NULL column: " + field.name() +
                                     " (table '" + target_.display_name + "')");
    }
  }
  std::vector<columnar::Column> columns;
  columns.reserve(static_cast<size_t>(input.num_columns()));
  for (int i = 0; i < input.num_columns(); ++i) columns.push_back(input.column(i));
  SQE_ASSIGN_OR_RETURN(columnar::Batch rows,
                       columnar::Batch::Make(table_columns_, std::move(columns), input.num_rows()));
  if (s.writer == nullptr) {
    const iceberg::TableMetadata& m = *target_.table.metadata;
    iceberg::PartitionedWriterOptions writer_options;
    writer_options.file.default_codec = options_.default_codec;
    writer_options.file.table_properties = m.properties;
    writer_options.target_file_size_bytes = options_.target_file_size_bytes;
    if (options_.max_open_writers > 0) writer_options.max_open_writers = options_.max_open_writers;
    writer_options.tracker = MakeTracker(ctx);
    const iceberg::PartitionSpec* spec = m.DefaultSpec();
    if (spec == nullptr) {
      return Status::Corruption("table '" + target_.display_name + "' has no default spec");
    }
    SQE_ASSIGN_OR_RETURN(
        s.writer, iceberg::PartitionedWriter::Make(*target_.fs, m.location, table_schema_, *spec,
                                                   std::move(writer_options)));
  }
  SQE_RETURN_NOT_OK(s.writer->Write(rows));
  s.rows += rows.num_rows();
  return Status::OK();
}

Status TableInsert::Combine(ExecContext&, OperatorState& state) {
  auto& s = static_cast<InsertState&>(state);
  if (s.writer == nullptr) return Status::OK();
  Result<std::vector<iceberg::DataFile>> closed = s.writer->Close();
  if (!closed.ok()) return closed.status();  // the state's destructor aborts the writer
  s.writer.reset();
  std::lock_guard<std::mutex> lock(mutex_);
  for (iceberg::DataFile& f : *closed) files_.push_back(std::move(f));
  rows_ += s.rows;
  return Status::OK();
}

Status TableInsert::Finalize(ExecContext& ctx) {
  SQE_RETURN_NOT_OK(ctx.CheckInterrupt());
  std::lock_guard<std::mutex> lock(mutex_);
  if (files_.empty()) {
    committed_ = true;  // nothing to commit: an INSERT of no rows changes nothing
    return Status::OK();
  }
  SQE_ASSIGN_OR_RETURN(std::unique_ptr<io::FileSystem> commit_fs, target_.make_commit_fs());
  catalog::CatalogTableOperations ops(*target_.catalog, target_.table.id, std::move(commit_fs));
  Result<iceberg::AppendResult> appended = iceberg::FastAppend(ops, files_);
  if (!appended.ok()) {
    // A commit that certainly did not land leaves the files unreferenced: Abort deletes
    // them. Other errors (I/O talking to the catalog) may hide a commit that did land.
    const StatusCode code = appended.status().code();
    if (code != StatusCode::kConflict && code != StatusCode::kInvalidArgument &&
        code != StatusCode::kNotFound && code != StatusCode::kCancelled &&
        code != StatusCode::kDeadlineExceeded) {
      keep_files_ = true;
    }
    const Status& st = appended.status();
    return Status(st.code(),
                  "Insert into '" + target_.display_name + "' failed to commit: " + st.message());
  }
  snapshot_id_ = appended->snapshot_id;
  committed_ = true;
  stats_.extra =
      "files=" + std::to_string(files_.size()) + " attempts=" + std::to_string(appended->attempts);
  return Status::OK();
}

Result<std::optional<columnar::Batch>> TableInsert::GetData(ExecContext&, OperatorState&) {
  if (emitted_.exchange(true)) return std::optional<columnar::Batch>();
  columnar::FixedWidthBuilder<int64_t> builder(columnar::Int64());
  SQE_RETURN_NOT_OK(builder.Append(rows_));
  SQE_ASSIGN_OR_RETURN(columnar::Column count, builder.Finish());
  SQE_ASSIGN_OR_RETURN(columnar::Batch batch, columnar::Batch::Make(schema_, {count}, 1));
  stats_.rows_out.fetch_add(1, std::memory_order_relaxed);
  return std::optional<columnar::Batch>(std::move(batch));
}

void TableInsert::Abort() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (committed_ || keep_files_ || files_.empty()) return;
  std::vector<std::string> paths;
  paths.reserve(files_.size());
  for (const iceberg::DataFile& f : files_) paths.push_back(f.file_path);
  (void)target_.fs->Delete(paths);
  files_.clear();
}

}  // namespace sqe::exec
