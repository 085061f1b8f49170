// sqe-iceberg overwrite / delete / rewrite: the snapshot commits beyond append
// (iceberg/write/snapshot_update.h) driven from the command line.
#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "catalog/catalog_table_operations.h"
#include "catalog/table_file_system.h"
#include "common/uuid.h"
#include "formats/parquet/file_reader.h"
#include "iceberg/column_literal.h"
#include "iceberg/columnar_schema.h"
#include "iceberg/expr/evaluators.h"
#include "iceberg/read/file_scan_task_reader.h"
#include "iceberg/scan/file_manifest_source.h"
#include "iceberg/write/deletion_vector_writer.h"
#include "iceberg/write/equality_delete_writer.h"
#include "iceberg/write/expire_snapshots.h"
#include "iceberg/write/partitioned_writer.h"
#include "iceberg/write/position_delete_writer.h"
#include "iceberg/write/snapshot_update.h"
#include "main/iceberg_tool_commands.h"

namespace sqe::tools {
namespace {

using Json = nlohmann::ordered_json;

void PrintCommit(std::ostream& out, const std::string& table, const iceberg::SnapshotCommit& c,
                 Json extra = Json::object()) {
  const iceberg::Snapshot* s = c.metadata.CurrentSnapshot();
  Json line = {{"table", table},
               {"snapshot_id", c.snapshot_id},
               {"operation", s ? s->Operation() : ""},
               {"attempts", c.attempts},
               {"removed_files", c.removed.size()}};
  for (auto& [k, v] : extra.items()) line[k] = v;
  out << line.dump() << "\n";
}

void DeleteQuietly(io::FileSystem& fs, const std::vector<iceberg::DataFile>& files) {
  std::vector<std::string> paths;
  for (const iceberg::DataFile& f : files) paths.push_back(f.file_path);
  if (!paths.empty()) (void)fs.Delete(paths);
}

/// The current snapshot's scan of the whole table, one task per file.
Result<iceberg::ScanPlan> PlanWholeFiles(io::FileSystem& fs, const iceberg::TableMetadata& m,
                                         iceberg::expr::ExprPtr filter) {
  iceberg::ScanOptions options;
  options.filter = std::move(filter);
  options.target_split_size = std::numeric_limits<int64_t>::max();
  iceberg::FileManifestSource source(fs);
  return iceberg::PlanScan(m, source, options);
}

}  // namespace

Status IcebergOverwrite(IcebergToolContext& ctx, const std::string& table,
                        const std::vector<std::string>& filters,
                        const std::vector<std::string>& files, std::ostream& out) {
  SQE_ASSIGN_OR_RETURN(catalog::TableIdentifier id, ParseTableName(table));
  SQE_ASSIGN_OR_RETURN(iceberg::expr::ExprPtr filter, ParseFilters(filters));
  if (filter == nullptr) {
    return Status::InvalidArgument("overwrite needs --filter: the rows to replace");
  }
  SQE_ASSIGN_OR_RETURN(catalog::LoadedTable t, ctx.catalog->LoadTable(id));
  SQE_ASSIGN_OR_RETURN(std::vector<iceberg::DataFile> added, WriteRows(ctx, t, files));
  SQE_ASSIGN_OR_RETURN(auto fs, catalog::TableFileSystem(*ctx.file_systems, t));
  io::FileSystem& data_fs = *fs;
  catalog::CatalogTableOperations ops(*ctx.catalog, id, std::move(fs));
  iceberg::SnapshotChanges changes;
  changes.operation = "overwrite";
  changes.remove_filter = filter;
  changes.add_data = added;
  Result<iceberg::SnapshotCommit> committed = iceberg::CommitSnapshot(ops, changes);
  if (!committed.ok()) {
    if (committed.status().code() != StatusCode::kIOError) DeleteQuietly(data_fs, added);
    return committed.status();
  }
  PrintCommit(out, table, *committed, {{"added_files", added.size()}});
  return Status::OK();
}

Status IcebergDelete(IcebergToolContext& ctx, const std::string& table,
                     const std::vector<std::string>& filters, std::ostream& out) {
  SQE_ASSIGN_OR_RETURN(catalog::TableIdentifier id, ParseTableName(table));
  SQE_ASSIGN_OR_RETURN(iceberg::expr::ExprPtr filter, ParseFilters(filters));
  if (filter == nullptr) {
    return Status::InvalidArgument(
        "delete needs --filter (to delete every row, use --filter "
        "with a condition every row meets, or drop the table)");
  }
  SQE_ASSIGN_OR_RETURN(catalog::LoadedTable t, ctx.catalog->LoadTable(id));
  const iceberg::TableMetadata& m = *t.metadata;
  SQE_ASSIGN_OR_RETURN(auto fs, catalog::TableFileSystem(*ctx.file_systems, t));
  SQE_ASSIGN_OR_RETURN(iceberg::ScanPlan plan, PlanWholeFiles(*fs, m, filter));
  SQE_ASSIGN_OR_RETURN(iceberg::expr::ExprPtr bound,
                       iceberg::expr::Bind(filter, *plan.schema, true));
  // Per data file: the positions of live rows the filter matches.
  iceberg::DeleteLoader loader(*fs);
  iceberg::SnapshotChanges changes;
  changes.operation = "delete";
  std::vector<iceberg::DataFile> written;
  iceberg::DeletionVectorWriter dvs(*fs, m.location + "/data/" + RandomUuid() + "-dv.puffin");
  int64_t rows_deleted = 0;
  int64_t vectors_added = 0;
  for (const iceberg::FileScanTask& task : plan.tasks) {
    SQE_ASSIGN_OR_RETURN(std::vector<int64_t> already,
                         loader.DeletedPositions(task.file, task.deletes));
    iceberg::FileScanTask raw = task;  // every row, no residual, no deletes: positions kept
    raw.residual = nullptr;
    raw.deletes.clear();
    raw.start = 0;
    raw.length = task.file.file_size_in_bytes;
    iceberg::TaskReaderOptions options;
    options.schema = plan.schema;
    options.spec = m.SpecById(task.spec_id);
    SQE_ASSIGN_OR_RETURN(auto reader, iceberg::FileScanTaskReader::Open(*fs, raw, options, loader));
    std::vector<int64_t> positions;
    int64_t position = 0;
    size_t next_deleted = 0;
    const auto& fields = plan.schema->fields();
    while (true) {
      SQE_ASSIGN_OR_RETURN(std::optional<columnar::Batch> batch, reader->Next());
      if (!batch) break;
      for (int64_t r = 0; r < batch->num_rows(); ++r, ++position) {
        while (next_deleted < already.size() && already[next_deleted] < position) ++next_deleted;
        if (next_deleted < already.size() && already[next_deleted] == position) continue;
        std::map<int32_t, iceberg::Literal> row;
        for (size_t c = 0; c < fields.size(); ++c) {
          if (!fields[c].type->is_primitive()) continue;
          SQE_ASSIGN_OR_RETURN(
              iceberg::Literal v,
              iceberg::LiteralAt(batch->column(static_cast<int>(c)), r, *fields[c].type));
          if (!v.is_null()) row.emplace(fields[c].id, std::move(v));
        }
        SQE_ASSIGN_OR_RETURN(bool match, iceberg::expr::Evaluate(bound, [&](int32_t fid) {
                               auto it = row.find(fid);
                               return it == row.end() ? nullptr : &it->second;
                             }));
        if (match) positions.push_back(position);
      }
    }
    if (positions.empty()) continue;
    rows_deleted += static_cast<int64_t>(positions.size());
    const int64_t live = task.file.record_count - static_cast<int64_t>(already.size());
    if (static_cast<int64_t>(positions.size()) == live) {
      changes.remove_paths.insert(task.file.file_path);  // every live row goes: drop the file
      for (const iceberg::DataFile& d : task.deletes) {  // and its deletion vector with it
        if (d.file_format == iceberg::FileFormat::kPuffin) {
          changes.replace_dvs[task.file.file_path] =
              std::make_pair(d.file_path, d.content_offset.value_or(-1));
        }
      }
      continue;
    }
    if (m.format_version >= 3) {
      // v3: one deletion vector per data file, holding its earlier deletes too; the vector
      // it replaces (if any) goes in the same commit.
      std::optional<std::pair<std::string, int64_t>> old_dv;
      for (const iceberg::DataFile& d : task.deletes) {
        if (d.file_format == iceberg::FileFormat::kPuffin) {
          old_dv = std::make_pair(d.file_path, d.content_offset.value_or(-1));
        }
      }
      std::vector<int64_t> all = already;
      all.insert(all.end(), positions.begin(), positions.end());
      dvs.Add(task.file.file_path, task.file.partition, std::move(all));
      ++vectors_added;
      changes.replace_dvs[task.file.file_path] = old_dv;
      changes.referenced_data_files.insert(task.file.file_path);
      continue;
    }
    if (m.format_version < 2) {
      return Status::InvalidArgument("row-level deletes need table format version 2; " + table +
                                     " is v1 and " + task.file.file_path +
                                     " has rows the filter does not match");
    }
    std::string dir = task.file.file_path.substr(0, task.file.file_path.rfind('/') + 1);
    iceberg::DataFileWriterOptions file_options;
    file_options.default_codec = ctx.default_parquet_codec;
    file_options.table_properties = m.properties;
    iceberg::PositionDeleteWriter writer(*fs, dir + "delete-" + RandomUuid() + ".parquet",
                                         task.file.partition, file_options);
    for (int64_t p : positions) writer.Delete(task.file.file_path, p);
    Result<iceberg::DataFile> deletes = writer.Close();
    if (!deletes.ok()) {
      DeleteQuietly(*fs, written);
      return deletes.status();
    }
    written.push_back(*deletes);
    changes.add_deletes.push_back(*deletes);
    changes.referenced_data_files.insert(task.file.file_path);
  }
  if (vectors_added > 0) {
    Result<std::vector<iceberg::DataFile>> vectors = dvs.Close();
    if (!vectors.ok()) {
      DeleteQuietly(*fs, written);
      return vectors.status();
    }
    written.push_back(vectors->front());  // one Puffin file holds them all
    for (iceberg::DataFile& v : *vectors) changes.add_deletes.push_back(std::move(v));
  }
  if (changes.add_deletes.empty() && changes.remove_paths.empty()) {
    out << Json{{"table", table}, {"rows_deleted", 0}}.dump() << "\n";
    return Status::OK();
  }
  io::FileSystem& data_fs = *fs;
  catalog::CatalogTableOperations ops(*ctx.catalog, id, std::move(fs));
  Result<iceberg::SnapshotCommit> committed = iceberg::CommitSnapshot(ops, changes);
  if (!committed.ok()) {
    if (committed.status().code() != StatusCode::kIOError) DeleteQuietly(data_fs, written);
    return committed.status();
  }
  PrintCommit(out, table, *committed,
              {{"rows_deleted", rows_deleted},
               {"delete_files", changes.add_deletes.size()},
               {"deletion_vectors", vectors_added}});
  return Status::OK();
}

Status IcebergRewrite(IcebergToolContext& ctx, const std::string& table, std::ostream& out) {
  SQE_ASSIGN_OR_RETURN(catalog::TableIdentifier id, ParseTableName(table));
  SQE_ASSIGN_OR_RETURN(catalog::LoadedTable t, ctx.catalog->LoadTable(id));
  const iceberg::TableMetadata& m = *t.metadata;
  const iceberg::Snapshot* start = m.CurrentSnapshot();
  if (start == nullptr) {
    out << Json{{"table", table}, {"rewritten_files", 0}}.dump() << "\n";
    return Status::OK();
  }
  SQE_ASSIGN_OR_RETURN(auto fs, catalog::TableFileSystem(*ctx.file_systems, t));
  SQE_ASSIGN_OR_RETURN(iceberg::ScanPlan plan, PlanWholeFiles(*fs, m, nullptr));
  // Compaction: every live row, deletes applied, rewritten by the default spec at the
  // target file size; the old data and delete files go in the same snapshot.
  iceberg::PartitionedWriterOptions writer_options;
  writer_options.file.default_codec = ctx.default_parquet_codec;
  writer_options.file.table_properties = m.properties;
  if (ctx.max_open_writers > 0) writer_options.max_open_writers = ctx.max_open_writers;
  SQE_ASSIGN_OR_RETURN(
      auto writer, iceberg::PartitionedWriter::Make(*fs, m.location, *plan.schema, *m.DefaultSpec(),
                                                    writer_options));
  iceberg::SnapshotChanges changes;
  changes.operation = "replace";
  iceberg::DeleteLoader loader(*fs);
  auto copy = [&]() -> Status {
    for (const iceberg::FileScanTask& task : plan.tasks) {
      changes.remove_paths.insert(task.file.file_path);
      for (const iceberg::DataFile& d : task.deletes) changes.remove_paths.insert(d.file_path);
      iceberg::TaskReaderOptions options;
      options.schema = plan.schema;
      options.spec = m.SpecById(task.spec_id);
      SQE_ASSIGN_OR_RETURN(auto reader,
                           iceberg::FileScanTaskReader::Open(*fs, task, options, loader));
      while (true) {
        SQE_ASSIGN_OR_RETURN(std::optional<columnar::Batch> batch, reader->Next());
        if (!batch) break;
        SQE_RETURN_NOT_OK(writer->Write(*batch));
      }
    }
    return Status::OK();
  };
  if (Status st = copy(); !st.ok()) {
    writer->Abort();
    return st;
  }
  SQE_ASSIGN_OR_RETURN(changes.add_data, writer->Close());
  // Delete files no task needed (they match no live data file) go as well.
  iceberg::FileManifestSource source(*fs);
  SQE_ASSIGN_OR_RETURN(auto manifests, source.ReadManifestList(*start));
  for (const iceberg::ManifestFile& mf : manifests) {
    if (mf.content != iceberg::ManifestContent::kDeletes) continue;
    SQE_ASSIGN_OR_RETURN(auto entries,
                         source.ReadEntries(mf, *m.SpecById(mf.partition_spec_id), *plan.schema));
    for (const iceberg::ManifestEntry& e : entries) {
      if (e.status != iceberg::ManifestStatus::kDeleted) {
        changes.remove_paths.insert(e.data_file.file_path);
      }
    }
  }
  changes.data_sequence_number = start->sequence_number;
  changes.fail_on_deletes_after_sequence = start->sequence_number;
  io::FileSystem& data_fs = *fs;
  catalog::CatalogTableOperations ops(*ctx.catalog, id, std::move(fs));
  Result<iceberg::SnapshotCommit> committed = iceberg::CommitSnapshot(ops, changes);
  if (!committed.ok()) {
    if (committed.status().code() != StatusCode::kIOError) DeleteQuietly(data_fs, changes.add_data);
    return committed.status();
  }
  PrintCommit(out, table, *committed, {{"added_files", changes.add_data.size()}});
  return Status::OK();
}

Status IcebergExpireSnapshots(IcebergToolContext& ctx, const std::string& table,
                              const ExpireArgs& args, std::ostream& out) {
  SQE_ASSIGN_OR_RETURN(catalog::TableIdentifier id, ParseTableName(table));
  SQE_ASSIGN_OR_RETURN(catalog::LoadedTable t, ctx.catalog->LoadTable(id));
  SQE_ASSIGN_OR_RETURN(auto fs, catalog::TableFileSystem(*ctx.file_systems, t));
  catalog::CatalogTableOperations ops(*ctx.catalog, id, std::move(fs));
  iceberg::ExpireSnapshotsOptions options;
  options.older_than_ms = args.older_than_ms;
  options.retain_last = args.retain_last;
  options.snapshot_ids = args.snapshot_ids;
  options.dry_run = args.dry_run;
  SQE_ASSIGN_OR_RETURN(iceberg::ExpireSnapshotsResult r, iceberg::ExpireSnapshots(ops, options));
  out << Json{{"table", table},
              {"expired_snapshot_ids", r.expired_snapshot_ids},
              {"deleted_manifest_lists", r.deleted_manifest_lists},
              {"deleted_manifests", r.deleted_manifests},
              {"deleted_data_files", r.deleted_data_files},
              {"deleted_delete_files", r.deleted_delete_files},
              {"deleted_statistics_files", r.deleted_statistics_files},
              {"failed_deletes", r.failed_deletes},
              {"dry_run", args.dry_run}}
             .dump()
      << "\n";
  return Status::OK();
}

Status IcebergEqualityDelete(IcebergToolContext& ctx, const std::string& table,
                             const std::string& keys_file, const std::vector<std::string>& columns,
                             std::ostream& out) {
  SQE_ASSIGN_OR_RETURN(catalog::TableIdentifier id, ParseTableName(table));
  SQE_ASSIGN_OR_RETURN(catalog::LoadedTable t, ctx.catalog->LoadTable(id));
  const iceberg::TableMetadata& m = *t.metadata;
  if (m.format_version < 2) {
    return Status::InvalidArgument("equality deletes need table format version 2 or later");
  }
  if (!m.DefaultSpec()->is_unpartitioned()) {
    return Status::NotImplemented(
        "equality deletes are written for unpartitioned tables only (they apply to the whole "
        "table); " +
        table + " is partitioned: use delete --filter");
  }
  if (columns.empty()) return Status::InvalidArgument("--equality-columns names no column");
  const iceberg::Schema& schema = *m.CurrentSchema();
  std::vector<int32_t> ids;
  for (const std::string& c : columns) {
    const iceberg::NestedField* f = schema.FindFieldByName(c);
    if (f == nullptr) return Status::InvalidArgument("no column '" + c + "' in " + table);
    ids.push_back(f->id);
  }
  SQE_ASSIGN_OR_RETURN(auto fs, catalog::TableFileSystem(*ctx.file_systems, t));
  iceberg::DataFileWriterOptions file_options;
  file_options.default_codec = ctx.default_parquet_codec;
  file_options.table_properties = m.properties;
  const std::string path = m.location + "/data/" + RandomUuid() + "-eq-deletes.parquet";
  SQE_ASSIGN_OR_RETURN(
      auto writer, iceberg::EqualityDeleteWriter::Open(*fs, path, schema, ids, {}, file_options));
  SQE_ASSIGN_OR_RETURN(columnar::SchemaPtr target, iceberg::ToColumnarSchema(writer->schema()));
  auto copy = [&]() -> Status {
    SQE_ASSIGN_OR_RETURN(auto in_fs, ctx.file_systems->ForUri(keys_file));
    SQE_ASSIGN_OR_RETURN(auto in_file, in_fs->OpenForRead(keys_file));
    SQE_ASSIGN_OR_RETURN(auto reader, parquet::ParquetFileReader::Open(std::move(in_file)));
    const columnar::Schema& source = *reader->schema();
    for (int g = 0; g < reader->num_row_groups(); ++g) {
      SQE_ASSIGN_OR_RETURN(columnar::Batch batch, reader->ReadRowGroup(g));
      std::vector<columnar::Column> key_columns;
      for (const columnar::Field& field : target->fields()) {
        int index = -1;
        for (int i = 0; i < static_cast<int>(source.fields().size()); ++i) {
          if (source.fields()[i].name() == field.name()) index = i;
        }
        if (index < 0 || !source.fields()[index].type()->Equals(*field.type())) {
          return Status::InvalidArgument(keys_file + " needs a column '" + field.name() + "' of " +
                                         field.type()->ToString());
        }
        key_columns.push_back(batch.column(index));
      }
      SQE_ASSIGN_OR_RETURN(columnar::Batch keys,
                           columnar::Batch::Make(target, std::move(key_columns), batch.num_rows()));
      SQE_RETURN_NOT_OK(writer->Write(keys));
    }
    return Status::OK();
  };
  if (Status st = copy(); !st.ok()) {
    (void)writer->Close();
    (void)fs->Delete({path});
    return st;
  }
  SQE_ASSIGN_OR_RETURN(iceberg::DataFile deletes, writer->Close());
  io::FileSystem& data_fs = *fs;
  catalog::CatalogTableOperations ops(*ctx.catalog, id, std::move(fs));
  iceberg::SnapshotChanges changes;
  changes.operation = "delete";
  changes.add_deletes = {deletes};
  Result<iceberg::SnapshotCommit> committed = iceberg::CommitSnapshot(ops, changes);
  if (!committed.ok()) {
    if (committed.status().code() != StatusCode::kIOError) DeleteQuietly(data_fs, {deletes});
    return committed.status();
  }
  PrintCommit(out, table, *committed, {{"equality_deletes", deletes.record_count}});
  return Status::OK();
}

}  // namespace sqe::tools
