// SessionCatalog: the binder's view of the engine's catalogs (tables as scan sources,
// read_parquet files, iceberg_scan tables, information_schema).

#include <algorithm>

#include "catalog/metadata_file.h"
#include "catalog/metadata_location.h"
#include "catalog/table_file_system.h"
#include "columnar/civil_time.h"
#include "engine/distinct_bounds.h"
#include "engine/engine_internal.h"
#include "exec/parquet_scan.h"
#include "exec/table_scan.h"
#include "iceberg/columnar_schema.h"

namespace sqe::engine {

namespace {

// A loaded table as a scan source of the snapshot `travel` picks (the current one by
// default), with that snapshot's schema; `shown` names the table in EXPLAIN and errors.
Result<std::shared_ptr<const planner::ScanSource>> IcebergSource(
    Engine::Impl& engine, const catalog::LoadedTable& loaded, const std::string& shown,
    const planner::TimeTravel& travel) {
  auto source = std::make_shared<planner::ScanSource>();
  source->kind = planner::ScanSource::Kind::kIceberg;
  source->display_name = shown;
  source->table = loaded;
  SQE_ASSIGN_OR_RETURN(std::unique_ptr<io::FileSystem> fs,
                       catalog::TableFileSystem(*engine.file_systems, loaded));
  source->fs = std::shared_ptr<io::FileSystem>(std::move(fs));
  const iceberg::TableMetadata& m = *loaded.metadata;
  const iceberg::Schema* schema = m.CurrentSchema();
  const iceberg::Snapshot* snapshot = m.CurrentSnapshot();
  source->snapshot_id = travel.snapshot_id;
  source->ref = travel.ref;
  source->as_of_timestamp_ms = travel.timestamp_ms;
  if (travel.snapshot_id.has_value()) {
    snapshot = m.SnapshotById(*travel.snapshot_id);
    if (snapshot == nullptr) {
      return Status::NotFound("Snapshot " + std::to_string(*travel.snapshot_id) + " of table '" +
                              shown + "' does not exist");
    }
  } else if (travel.ref.has_value()) {
    auto it = m.refs.find(*travel.ref);
    if (it == m.refs.end()) {
      std::string refs;
      for (const auto& [ref_name, ref] : m.refs) refs += (refs.empty() ? "" : ", ") + ref_name;
      return Status::NotFound("Branch or tag '" + *travel.ref + "' of table '" + shown +
                              "' does not exist (refs: " + (refs.empty() ? "none" : refs) + ")");
    }
    SQE_ASSIGN_OR_RETURN(snapshot, m.SnapshotForRef(*travel.ref));
  } else if (travel.timestamp_ms.has_value()) {
    auto found = m.SnapshotAsOf(*travel.timestamp_ms);
    if (!found.ok()) {
      const std::string at =
          columnar::FormatTimestamp(*travel.timestamp_ms * 1000, columnar::TimeUnit::kMicro);
      std::string first =
          m.snapshot_log.empty()
              ? "the table has no snapshots"
              : "its first snapshot was committed at " +
                    columnar::FormatTimestamp(m.snapshot_log.front().timestamp_ms * 1000,
                                              columnar::TimeUnit::kMicro) +
                    " UTC";
      return Status::NotFound("No version history of table '" + shown + "' at or before " + at +
                              " UTC (" + first + ")");
    }
    snapshot = *found;
  }
  if (snapshot != nullptr && (travel.snapshot_id || travel.timestamp_ms ||
                              (travel.ref && snapshot != m.CurrentSnapshot()))) {
    SQE_ASSIGN_OR_RETURN(schema, m.SchemaForSnapshot(snapshot->snapshot_id));
  }
  if (schema == nullptr) return Status::Corruption("table '" + shown + "' has no schema");
  SQE_ASSIGN_OR_RETURN(source->schema, iceberg::ToColumnarSchema(*schema));
  for (const iceberg::NestedField& f : schema->fields()) source->field_ids.push_back(f.id);
  for (const auto& [field, id] : exec::IcebergHiddenColumns()) {
    source->hidden_columns.push_back(field);
    source->field_ids.push_back(id);
  }
  source->row_count = 0;
  if (snapshot != nullptr) {
    auto it = snapshot->summary.find("total-records");
    source->row_count = it == snapshot->summary.end() ? -1 : std::atoll(it->second.c_str());
    // Statistics only: a table whose manifests cannot be read fails in the scan instead.
    auto bounds = engine.distinct_bounds.Get(m, *snapshot, *schema, *source->fs);
    if (bounds.ok()) source->distinct_bounds = std::move(*bounds);
  }
  return std::shared_ptr<const planner::ScanSource>(source);
}

}  // namespace

Result<std::shared_ptr<const planner::ScanSource>> SessionCatalog::LoadTable(
    const planner::TableName& name, const planner::TimeTravel& travel) {
  Engine::Impl& engine = *session_.engine;
  SQE_ASSIGN_OR_RETURN(auto cat, engine.Catalog(name.catalog));
  if (name.table.find('$') != std::string::npos) {
    return Status::NotImplemented("Iceberg metadata table '" + name.ToString() +
                                  "' is not supported yet");
  }
  catalog::TableIdentifier id{{name.schema}, name.table};
  auto loaded = cat->LoadTable(id);
  if (!loaded.ok()) {
    if (loaded.status().code() != StatusCode::kNotFound) return loaded.status();
    auto exists = cat->NamespaceExists({name.schema});
    if (exists.ok() && !*exists) {
      return Status::NotFound("Schema '" + name.schema + "' does not exist in catalog '" +
                              name.catalog + "'");
    }
    std::string tables;
    auto listed = cat->ListTables({name.schema});
    if (listed.ok()) {
      for (const catalog::TableIdentifier& t : *listed) {
        tables += (tables.empty() ? "" : ", ") + t.name;
      }
    }
    return Status::NotFound("Table '" + name.ToString() + "' does not exist" +
                            (tables.empty()
                                 ? std::string(" (the schema has no tables)")
                                 : " (tables in '" + name.schema + "': " + tables + ")"));
  }
  return IcebergSource(engine, *loaded, name.ToString(), travel);
}

Result<std::shared_ptr<const planner::ScanSource>> SessionCatalog::ReadParquet(
    const std::vector<std::string>& paths) {
  Engine::Impl& engine = *session_.engine;
  if (paths.empty()) return Status::InvalidArgument("read_parquet needs a path");
  SQE_ASSIGN_OR_RETURN(std::unique_ptr<io::FileSystem> fs, engine.file_systems->ForUri(paths[0]));
  std::shared_ptr<io::FileSystem> shared(std::move(fs));
  SQE_ASSIGN_OR_RETURN(exec::ParquetScanSource described,
                       exec::ParquetScan::Describe(paths, *shared));
  auto source = std::make_shared<planner::ScanSource>();
  source->kind = planner::ScanSource::Kind::kParquet;
  std::string shown;
  for (const std::string& p : paths) shown += (shown.empty() ? "'" : ", '") + p + "'";
  source->display_name = "read_parquet(" + shown + ")";
  source->fs = shared;
  source->patterns = paths;
  source->schema = described.schema;
  // Rows are known only once footers are read; estimate from the bytes (8 per value).
  int64_t bytes = 0;
  for (const io::FileInfo& f : described.files) bytes += f.size;
  source->row_count = bytes / std::max<int64_t>(8, 8 * described.schema->num_fields());
  source->parquet = std::move(described);
  return std::shared_ptr<const planner::ScanSource>(source);
}

Result<std::shared_ptr<const planner::ScanSource>> SessionCatalog::IcebergScan(
    const std::string& path, const std::string& metadata_version,
    const planner::TimeTravel& travel) {
  Engine::Impl& engine = *session_.engine;
  SQE_ASSIGN_OR_RETURN(std::unique_ptr<io::FileSystem> fs, engine.file_systems->ForUri(path));
  SQE_ASSIGN_OR_RETURN(std::string location,
                       catalog::FindMetadataLocation(*fs, path, metadata_version));
  auto metadata = catalog::ReadMetadataFile(*engine.file_systems, location);
  if (!metadata.ok()) {
    if (metadata.status().code() == StatusCode::kNotFound) {
      return Status::NotFound("iceberg_scan: no Iceberg metadata file at '" + location + "'");
    }
    return metadata.status().WithContext("iceberg_scan('" + path + "')");
  }
  // Named by the path the query wrote (EXPLAIN shows table=<path>).
  catalog::LoadedTable loaded =
      catalog::LoadedTable::Of(catalog::TableIdentifier{{}, path}, location, std::move(*metadata));
  return IcebergSource(engine, loaded, "iceberg_scan('" + path + "')", travel);
}

}  // namespace sqe::engine
