#include "datagen/iceberg_table_sink.h"

#include <cctype>
#include <mutex>
#include <vector>

#include "catalog/catalog_table_operations.h"
#include "catalog/table_file_system.h"
#include "iceberg/columnar_schema.h"
#include "iceberg/partition_spec.h"
#include "iceberg/schema.h"
#include "iceberg/write/fast_append.h"
#include "iceberg/write/partitioned_writer.h"

namespace sqe::datagen {
namespace {

std::string Trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

/// Splits on commas outside parentheses.
std::vector<std::string> SplitTerms(const std::string& text) {
  std::vector<std::string> terms;
  std::string current;
  int depth = 0;
  for (char c : text) {
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ',' && depth == 0) {
      terms.push_back(Trim(current));
      current.clear();
    } else {
      current.push_back(c);
    }
  }
  if (!Trim(current).empty()) terms.push_back(Trim(current));
  return terms;
}

struct TableState {
  catalog::LoadedTable table;
  std::shared_ptr<io::FileSystem> fs;
  iceberg::Schema schema;
  columnar::SchemaPtr columns;  // the columnar form of `schema`, with field ids
};

class IcebergWriter final : public SinkWriter {
 public:
  IcebergWriter(std::shared_ptr<TableState> state,
                std::unique_ptr<iceberg::PartitionedWriter> writer,
                std::function<void(std::vector<iceberg::DataFile>)> on_close)
      : state_(std::move(state)), writer_(std::move(writer)), on_close_(std::move(on_close)) {}
  ~IcebergWriter() override {
    if (writer_ != nullptr) writer_->Abort();
  }

  Status Write(const columnar::Batch& batch) override {
    std::vector<columnar::Column> columns;
    columns.reserve(static_cast<size_t>(batch.num_columns()));
    for (int i = 0; i < batch.num_columns(); ++i) columns.push_back(batch.column(i));
    SQE_ASSIGN_OR_RETURN(
        columnar::Batch rows,
        columnar::Batch::Make(state_->columns, std::move(columns), batch.num_rows()));
    return writer_->Write(rows);
  }

  Status Close() override {
    SQE_ASSIGN_OR_RETURN(std::vector<iceberg::DataFile> files, writer_->Close());
    writer_.reset();
    on_close_(std::move(files));
    return Status::OK();
  }

 private:
  std::shared_ptr<TableState> state_;
  std::unique_ptr<iceberg::PartitionedWriter> writer_;
  std::function<void(std::vector<iceberg::DataFile>)> on_close_;
};

class IcebergTableSink final : public TableSink {
 public:
  IcebergTableSink(const IcebergDatasetSinkOptions& options, std::shared_ptr<TableState> state)
      : options_(options), state_(std::move(state)) {}

  ~IcebergTableSink() override {
    if (committed_) return;
    std::vector<std::string> paths;
    for (const iceberg::DataFile& f : files_) paths.push_back(f.file_path);
    if (!paths.empty()) (void)state_->fs->Delete(paths);
  }

  Result<std::unique_ptr<SinkWriter>> OpenWriter() override {
    const iceberg::TableMetadata& m = *state_->table.metadata;
    const iceberg::PartitionSpec* spec = m.DefaultSpec();
    if (spec == nullptr) return Status::Corruption("table has no default partition spec");
    iceberg::PartitionedWriterOptions writer_options;
    writer_options.file.default_codec = options_.default_codec;
    writer_options.file.table_properties = m.properties;
    SQE_ASSIGN_OR_RETURN(std::unique_ptr<iceberg::PartitionedWriter> writer,
                         iceberg::PartitionedWriter::Make(*state_->fs, m.location, state_->schema,
                                                          *spec, std::move(writer_options)));
    return std::unique_ptr<SinkWriter>(std::make_unique<IcebergWriter>(
        state_, std::move(writer), [this](std::vector<iceberg::DataFile> files) {
          std::lock_guard<std::mutex> lock(mutex_);
          for (iceberg::DataFile& f : files) files_.push_back(std::move(f));
        }));
  }

  Status Commit() override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (files_.empty()) {
      committed_ = true;
      return Status::OK();
    }
    SQE_ASSIGN_OR_RETURN(std::unique_ptr<io::FileSystem> commit_fs,
                         catalog::TableFileSystem(*options_.file_systems, state_->table));
    catalog::CatalogTableOperations ops(*options_.catalog, state_->table.id, std::move(commit_fs));
    Result<iceberg::AppendResult> appended = iceberg::FastAppend(ops, files_);
    if (!appended.ok() && appended.status().code() == StatusCode::kIOError) {
      committed_ = true;  // the outcome is unknown: the snapshot may reference the files
    }
    SQE_RETURN_NOT_OK(appended.status());
    committed_ = true;
    return Status::OK();
  }

 private:
  const IcebergDatasetSinkOptions& options_;
  std::shared_ptr<TableState> state_;
  std::mutex mutex_;
  std::vector<iceberg::DataFile> files_;
  bool committed_ = false;
};

class IcebergDatasetSink final : public DatasetSink {
 public:
  explicit IcebergDatasetSink(IcebergDatasetSinkOptions options) : options_(std::move(options)) {}

  Result<std::unique_ptr<TableSink>> BeginTable(TpchTable table) override {
    catalog::Catalog& cat = *options_.catalog;
    const catalog::Namespace ns{options_.schema};
    SQE_ASSIGN_OR_RETURN(bool ns_exists, cat.NamespaceExists(ns));
    if (!ns_exists) {
      Status created = cat.CreateNamespace(ns, {});
      if (!created.ok() && created.code() != StatusCode::kAlreadyExists) return created;
    }
    const std::string name(TpchTableName(table));
    const catalog::TableIdentifier id{ns, name};
    if (Result<catalog::LoadedTable> old = cat.LoadTable(id); old.ok()) {
      if (!options_.replace) {
        return Status::AlreadyExists("table '" + options_.schema + "." + name +
                                     "' already exists; pass --replace to drop and reload it");
      }
      SQE_RETURN_NOT_OK(cat.DropTable(id, /*purge=*/true));
    } else if (old.status().code() != StatusCode::kNotFound) {
      return old.status();
    }
    catalog::CreateTableRequest request;
    SQE_ASSIGN_OR_RETURN(request.schema, iceberg::ParseSchemaJson(TpchIcebergSchemaJson(table)));
    auto partitioning = options_.partitioning.find(name);
    if (partitioning != options_.partitioning.end()) {
      SQE_ASSIGN_OR_RETURN(std::string spec_json,
                           TpchPartitionSpecJson(table, partitioning->second));
      SQE_ASSIGN_OR_RETURN(request.spec, iceberg::ParsePartitionSpecJson(spec_json));
    }
    auto state = std::make_shared<TableState>();
    SQE_ASSIGN_OR_RETURN(state->table, cat.CreateTable(id, request));
    if (state->table.metadata == nullptr || state->table.metadata->CurrentSchema() == nullptr) {
      return Status::Internal("table '" + name + "' was created without a schema");
    }
    state->schema = *state->table.metadata->CurrentSchema();
    SQE_ASSIGN_OR_RETURN(state->columns, iceberg::ToColumnarSchema(state->schema));
    SQE_ASSIGN_OR_RETURN(std::unique_ptr<io::FileSystem> fs,
                         catalog::TableFileSystem(*options_.file_systems, state->table));
    state->fs = std::shared_ptr<io::FileSystem>(std::move(fs));
    return std::unique_ptr<TableSink>(std::make_unique<IcebergTableSink>(options_, state));
  }

 private:
  IcebergDatasetSinkOptions options_;
};

}  // namespace

Result<std::string> TpchPartitionSpecJson(TpchTable table, const std::string& terms) {
  const columnar::SchemaPtr schema = TpchSchema(table);
  std::string fields;
  int32_t field_id = iceberg::PartitionSpec::kFirstFieldId;
  for (const std::string& term : SplitTerms(terms)) {
    std::string transform = "identity", column = term, name_suffix;
    const size_t open = term.find('(');
    if (open != std::string::npos) {
      if (term.back() != ')') {
        return Status::InvalidArgument("partition term '" + term + "' lacks a closing ')'");
      }
      transform = Trim(term.substr(0, open));
      std::string args = term.substr(open + 1, term.size() - open - 2);
      column = Trim(args);
      if (transform == "bucket" || transform == "truncate") {
        const size_t comma = args.find(',');
        if (comma == std::string::npos) {
          return Status::InvalidArgument("partition term '" + term + "' needs (N, column)");
        }
        const std::string n = Trim(args.substr(0, comma));
        column = Trim(args.substr(comma + 1));
        name_suffix = transform == "bucket" ? "_bucket" : "_trunc";
        transform.append("[").append(n).append("]");
      } else if (transform == "year" || transform == "month" || transform == "day") {
        name_suffix = std::string("_").append(transform);
      } else if (transform != "identity") {
        return Status::InvalidArgument(
            "partition term '" + term +
            "': unknown transform (identity, year, month, day, bucket, truncate)");
      }
    }
    Result<int> index = schema->FindField(column);
    if (!index.ok()) {
      return Status::InvalidArgument("partition term '" + term + "': table " +
                                     std::string(TpchTableName(table)) + " has no column '" +
                                     column + "'");
    }
    if (!fields.empty()) fields += ",";
    fields += R"({"source-id":)" + std::to_string(*index + 1) + R"(,"field-id":)" +
              std::to_string(field_id++) + R"(,"name":")" + column + name_suffix +
              R"(","transform":")" + transform + "\"}";
  }
  return R"({"spec-id":0,"fields":[)" + fields + "]}";
}

Result<std::unique_ptr<DatasetSink>> MakeIcebergDatasetSink(IcebergDatasetSinkOptions options) {
  if (options.catalog == nullptr || options.file_systems == nullptr) {
    return Status::InvalidArgument("no catalog to load the TPC-H tables into");
  }
  if (options.schema.empty()) return Status::InvalidArgument("empty schema name");
  return std::unique_ptr<DatasetSink>(std::make_unique<IcebergDatasetSink>(std::move(options)));
}

}  // namespace sqe::datagen
