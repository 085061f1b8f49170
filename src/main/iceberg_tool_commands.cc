#include "iceberg_tool_commands.h"

#include <charconv>

#include <nlohmann/json.hpp>

#include "catalog/catalog_table_operations.h"
#include "catalog/table_file_system.h"
#include "columnar/column_builder.h"
#include "columnar/json_value_encoding.h"
#include "common/uuid.h"
#include "formats/parquet/file_reader.h"
#include "iceberg/columnar_schema.h"
#include "iceberg/read/file_scan_task_reader.h"
#include "iceberg/scan/file_manifest_source.h"
#include "iceberg/scan/task_bin_packing.h"
#include "iceberg/write/data_file_writer.h"
#include "iceberg/write/fast_append.h"
#include "iceberg/write/partitioned_writer.h"

namespace sqe::tools {
namespace {

using Json = nlohmann::ordered_json;

Result<columnar::Column> NullColumn(const columnar::TypePtr& type, int64_t n) {
  SQE_ASSIGN_OR_RETURN(auto builder, columnar::MakeBuilder(type));
  SQE_RETURN_NOT_OK(builder->AppendNulls(n));
  return builder->Finish();
}

}  // namespace

// "col<op>value" -> an unbound predicate; the value is typed by Bind (strings convert).
Result<iceberg::expr::ExprPtr> ParseFilter(const std::string& text) {
  using iceberg::expr::Op;
  static const std::pair<const char*, Op> kOps[] = {{">=", Op::kGtEq},  {"<=", Op::kLtEq},
                                                    {"!=", Op::kNotEq}, {"=", Op::kEq},
                                                    {">", Op::kGt},     {"<", Op::kLt}};
  for (const auto& [symbol, op] : kOps) {
    size_t at = text.find(symbol);
    if (at == std::string::npos || at == 0) continue;
    std::string column = text.substr(0, at);
    std::string value = text.substr(at + std::string(symbol).size());
    if (value == "null" && op == Op::kEq) return iceberg::expr::IsNull(column);
    // A number literal stays a long; anything else is a string the binder converts.
    int64_t number = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
    bool numeric = !value.empty() && ec == std::errc() && end == value.data() + value.size();
    iceberg::Literal literal =
        numeric ? iceberg::Literal::Long(number) : iceberg::Literal::String(value);
    return iceberg::expr::Compare(op, column, literal);
  }
  return Status::InvalidArgument("bad filter '" + text + "': write column=value (or != < <= > >=)");
}

Result<iceberg::expr::ExprPtr> ParseFilters(const std::vector<std::string>& filters) {
  iceberg::expr::ExprPtr out;
  for (const std::string& f : filters) {
    SQE_ASSIGN_OR_RETURN(auto e, ParseFilter(f));
    out = out ? iceberg::expr::And(out, e) : e;
  }
  return out;
}

Result<catalog::TableIdentifier> ParseTableName(const std::string& name) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t dot = name.find('.', start);
    parts.push_back(name.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  if (parts.size() < 2) {
    return Status::InvalidArgument("table name '" + name + "' needs a namespace: ns.table");
  }
  catalog::TableIdentifier id;
  id.name = parts.back();
  parts.pop_back();
  id.ns = parts;
  SQE_RETURN_NOT_OK(catalog::ValidateTableIdentifier(id));
  return id;
}

Status IcebergCreateNamespace(IcebergToolContext& ctx, const std::string& ns) {
  SQE_ASSIGN_OR_RETURN(catalog::TableIdentifier id, ParseTableName(ns + ".x"));
  return ctx.catalog->CreateNamespace(id.ns, {});
}

Status IcebergCreateTable(IcebergToolContext& ctx, const std::string& table,
                          const CreateTableArgs& args, std::ostream& out) {
  SQE_ASSIGN_OR_RETURN(catalog::TableIdentifier id, ParseTableName(table));
  catalog::CreateTableRequest request;
  SQE_ASSIGN_OR_RETURN(request.schema, iceberg::ParseSchemaJson(args.schema_json));
  if (!args.spec_json.empty()) {
    SQE_ASSIGN_OR_RETURN(request.spec, iceberg::ParsePartitionSpecJson(args.spec_json));
  }
  request.format_version = args.format_version;
  for (const std::string& p : args.properties) {
    size_t eq = p.find('=');
    if (eq == std::string::npos) return Status::InvalidArgument("bad property '" + p + "': k=v");
    request.properties[p.substr(0, eq)] = p.substr(eq + 1);
  }
  SQE_ASSIGN_OR_RETURN(catalog::LoadedTable t, ctx.catalog->CreateTable(id, request));
  out << Json{{"table", table},
              {"metadata_location", t.metadata_location},
              {"location", t.metadata->location}}
             .dump()
      << "\n";
  return Status::OK();
}

Result<std::vector<iceberg::DataFile>> WriteRows(IcebergToolContext& ctx,
                                                 const catalog::LoadedTable& t,
                                                 const std::vector<std::string>& files) {
  const iceberg::TableMetadata& m = *t.metadata;
  const iceberg::Schema& schema = *m.CurrentSchema();
  SQE_ASSIGN_OR_RETURN(columnar::SchemaPtr target, iceberg::ToColumnarSchema(schema));
  SQE_ASSIGN_OR_RETURN(auto table_fs, catalog::TableFileSystem(*ctx.file_systems, t));
  // Rows go through the partitioned writer for every table: it routes them by the default
  // spec (one group for an unpartitioned one) and rolls files at the target file size.
  iceberg::PartitionedWriterOptions writer_options;
  writer_options.file.default_codec = ctx.default_parquet_codec;
  writer_options.file.table_properties = m.properties;
  if (ctx.max_open_writers > 0) writer_options.max_open_writers = ctx.max_open_writers;
  SQE_ASSIGN_OR_RETURN(
      auto writer, iceberg::PartitionedWriter::Make(*table_fs, m.location, schema, *m.DefaultSpec(),
                                                    writer_options));
  auto write_input = [&](const std::string& input) -> Status {
    SQE_ASSIGN_OR_RETURN(auto in_fs, ctx.file_systems->ForUri(input));
    SQE_ASSIGN_OR_RETURN(auto in_file, in_fs->OpenForRead(input));
    SQE_ASSIGN_OR_RETURN(auto reader, parquet::ParquetFileReader::Open(std::move(in_file)));
    const columnar::Schema& source = *reader->schema();
    for (int g = 0; g < reader->num_row_groups(); ++g) {
      SQE_ASSIGN_OR_RETURN(columnar::Batch batch, reader->ReadRowGroup(g));
      std::vector<columnar::Column> columns;
      for (const columnar::Field& field : target->fields()) {
        int index = -1;
        for (int i = 0; i < static_cast<int>(source.fields().size()); ++i) {
          if (source.fields()[i].name() == field.name()) index = i;
        }
        if (index < 0) {
          if (!field.nullable()) {
            return Status::InvalidArgument(input + " has no column '" + field.name() +
                                           "', which the table requires");
          }
          SQE_ASSIGN_OR_RETURN(columnar::Column nulls, NullColumn(field.type(), batch.num_rows()));
          columns.push_back(std::move(nulls));
          continue;
        }
        if (!source.fields()[index].type()->Equals(*field.type())) {
          return Status::InvalidArgument("column '" + field.name() + "' of " + input + " is " +
                                         source.fields()[index].type()->ToString() +
                                         "; the table stores " + field.type()->ToString());
        }
        columns.push_back(batch.column(index));
      }
      SQE_ASSIGN_OR_RETURN(columnar::Batch converted,
                           columnar::Batch::Make(target, std::move(columns), batch.num_rows()));
      SQE_RETURN_NOT_OK(writer->Write(converted));
    }
    return Status::OK();
  };
  for (const std::string& input : files) {
    if (Status st = write_input(input); !st.ok()) {
      writer->Abort();  // nothing of a failed append stays behind
      return st;
    }
  }
  return writer->Close();
}

Status IcebergAppend(IcebergToolContext& ctx, const std::string& table,
                     const std::vector<std::string>& files, std::ostream& out) {
  SQE_ASSIGN_OR_RETURN(catalog::TableIdentifier id, ParseTableName(table));
  SQE_ASSIGN_OR_RETURN(catalog::LoadedTable t, ctx.catalog->LoadTable(id));
  const iceberg::TableMetadata& m = *t.metadata;
  SQE_ASSIGN_OR_RETURN(std::vector<iceberg::DataFile> data_files, WriteRows(ctx, t, files));
  SQE_ASSIGN_OR_RETURN(auto table_fs, catalog::TableFileSystem(*ctx.file_systems, t));
  io::FileSystem& data_fs = *table_fs;
  catalog::CatalogTableOperations ops(*ctx.catalog, id, std::move(table_fs));
  Result<iceberg::AppendResult> appended = iceberg::FastAppend(ops, data_files);
  if (!appended.ok()) {
    // A commit that certainly did not land (a lost race to the end, a table that changed
    // incompatibly) leaves the data files unreferenced: remove them. I/O errors may hide a
    // commit that did land, so their files stay (an orphan at worst, never a lost row).
    const StatusCode code = appended.status().code();
    if (code == StatusCode::kConflict || code == StatusCode::kInvalidArgument ||
        code == StatusCode::kNotFound) {
      std::vector<std::string> paths;
      for (const iceberg::DataFile& f : data_files) paths.push_back(f.file_path);
      (void)data_fs.Delete(paths);
    }
    return appended.status();
  }
  const iceberg::AppendResult& r = *appended;
  out << Json{{"table", table},
              {"snapshot_id", r.snapshot_id},
              {"data_files", data_files.size()},
              {"attempts", r.attempts}}
             .dump()
      << "\n";
  return Status::OK();
}

Status IcebergScan(IcebergToolContext& ctx, const std::string& table, const ScanArgs& args,
                   std::ostream& out, std::ostream& stats_out) {
  SQE_ASSIGN_OR_RETURN(catalog::TableIdentifier id, ParseTableName(table));
  SQE_ASSIGN_OR_RETURN(catalog::LoadedTable t, ctx.catalog->LoadTable(id));
  const iceberg::TableMetadata& m = *t.metadata;
  iceberg::ScanOptions options;
  options.snapshot_id = args.snapshot_id;
  options.ref = args.ref;
  options.as_of_timestamp_ms = args.as_of_ms;
  SQE_ASSIGN_OR_RETURN(options.filter, ParseFilters(args.filters));
  SQE_ASSIGN_OR_RETURN(auto fs, catalog::TableFileSystem(*ctx.file_systems, t));
  iceberg::FileManifestSource source(*fs);
  SQE_ASSIGN_OR_RETURN(iceberg::ScanPlan plan, iceberg::PlanScan(m, source, options));
  // The plan's schema names the columns: the snapshot's for time travel, else the current.
  std::shared_ptr<const iceberg::Schema> schema = plan.schema;
  iceberg::DeleteLoader deletes(*fs);
  int64_t rows = 0;
  int64_t rows_deleted = 0;
  int64_t rows_filtered = 0;
  // Tasks run in bin-packed groups, as the engine's scan will hand them to workers.
  iceberg::BinPackingOptions packing;
  packing.target_size = ctx.target_task_size;
  if (auto it = m.properties.find("read.split.open-file-cost"); it != m.properties.end()) {
    packing.open_file_cost = std::strtoll(it->second.c_str(), nullptr, 10);
  }
  std::vector<iceberg::CombinedScanTask> combined = iceberg::PackScanTasks(plan.tasks, packing);
  std::vector<iceberg::FileScanTask> ordered;
  for (iceberg::CombinedScanTask& c : combined) {
    for (iceberg::FileScanTask& t : c.tasks) ordered.push_back(std::move(t));
  }
  for (const iceberg::FileScanTask& task : ordered) {
    iceberg::TaskReaderOptions reader_options;
    reader_options.schema = schema;
    reader_options.spec = m.SpecById(task.spec_id);
    SQE_ASSIGN_OR_RETURN(auto reader,
                         iceberg::FileScanTaskReader::Open(*fs, task, reader_options, deletes));
    while (true) {
      SQE_ASSIGN_OR_RETURN(std::optional<columnar::Batch> batch, reader->Next());
      if (!batch) break;
      std::string text;
      SQE_RETURN_NOT_OK(columnar::AppendJsonLines(*batch, &text));
      out << text;
      rows += batch->num_rows();
    }
    rows_deleted +=
        reader->stats().rows_deleted_by_position + reader->stats().rows_deleted_by_equality;
    rows_filtered += reader->stats().rows_filtered;
  }
  const iceberg::ScanStats& s = plan.stats;
  stats_out << Json{{"snapshot_id", plan.snapshot_id ? Json(*plan.snapshot_id) : Json(nullptr)},
                    {"rows", rows},
                    {"rows_deleted", rows_deleted},
                    {"rows_filtered", rows_filtered},
                    {"manifests", s.manifests},
                    {"manifests_skipped", s.manifests_skipped},
                    {"data_files", s.data_files},
                    {"data_files_skipped_by_partition", s.data_files_skipped_by_partition},
                    {"data_files_skipped_by_metrics", s.data_files_skipped_by_metrics},
                    {"delete_files", s.delete_files},
                    {"delete_files_applied", s.delete_files_applied},
                    {"tasks", s.tasks},
                    {"combined_tasks", combined.size()}}
                   .dump()
            << "\n";
  return Status::OK();
}

Status IcebergMetadata(IcebergToolContext& ctx, const std::string& table, std::ostream& out) {
  SQE_ASSIGN_OR_RETURN(catalog::TableIdentifier id, ParseTableName(table));
  SQE_ASSIGN_OR_RETURN(catalog::LoadedTable t, ctx.catalog->LoadTable(id));
  Json snapshots = Json::array();
  for (const iceberg::Snapshot& s : t.metadata->snapshots) {
    snapshots.push_back(
        {{"snapshot_id", s.snapshot_id},
         {"parent_snapshot_id", s.parent_snapshot_id ? Json(*s.parent_snapshot_id) : Json(nullptr)},
         {"sequence_number", s.sequence_number},
         {"timestamp_ms", s.timestamp_ms},
         {"operation", s.Operation()},
         {"summary", s.summary}});
  }
  const iceberg::Snapshot* current = t.metadata->CurrentSnapshot();
  out << Json{{"metadata_location", t.metadata_location},
              {"location", t.metadata->location},
              {"format_version", t.metadata->format_version},
              {"current_snapshot_id", current ? Json(current->snapshot_id) : Json(nullptr)},
              {"snapshots", snapshots}}
             .dump()
      << "\n";
  return Status::OK();
}

}  // namespace sqe::tools
