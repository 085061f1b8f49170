#include "catalog/metastore_catalog.h"
#include "common/clock.h"

#include "catalog/metadata_file.h"
#include "common/crash_point.h"

#include <chrono>

#include "common/logging.h"
#include "common/uuid.h"
#include "iceberg/new_table.h"

namespace sqe::catalog {
namespace {

// "<version>-<uuid>.metadata.json", or ".gz.metadata.json" when the table asks for gzip.
std::string MetadataFileNameFor(int version, const iceberg::TableMetadata& metadata) {
  std::string name = iceberg::MetadataFileName(version, RandomUuid());
  const std::string suffix = MetadataFileSuffix(metadata);
  if (suffix != ".metadata.json") {
    name = name.substr(0, name.size() - std::string_view(".metadata.json").size()) + suffix;
  }
  return name;
}

std::string Join(const std::string& base, const std::string& name) {
  if (base.empty()) return name;
  return base.back() == '/' ? base + name : base + "/" + name;
}

}  // namespace

Catalog::~Catalog() = default;

MetastoreCatalog::MetastoreCatalog(std::unique_ptr<JdbcCatalogStore> store,
                                   std::shared_ptr<io::s3::StorageFileSystems> file_systems,
                                   MetastoreCatalogOptions options)
    : store_(std::move(store)),
      file_systems_(std::move(file_systems)),
      options_(std::move(options)) {}

Status MetastoreCatalog::CreateNamespace(const Namespace& ns,
                                         const std::map<std::string, std::string>& properties) {
  return store_->CreateNamespace(ns, properties);
}
Result<std::vector<Namespace>> MetastoreCatalog::ListNamespaces(const Namespace& parent) {
  return store_->ListNamespaces(parent);
}
Result<bool> MetastoreCatalog::NamespaceExists(const Namespace& ns) {
  return store_->NamespaceExists(ns);
}
Result<std::map<std::string, std::string>> MetastoreCatalog::LoadNamespaceProperties(
    const Namespace& ns) {
  return store_->LoadNamespaceProperties(ns);
}
Status MetastoreCatalog::UpdateNamespaceProperties(
    const Namespace& ns, const std::vector<std::string>& removals,
    const std::map<std::string, std::string>& updates) {
  return store_->UpdateNamespaceProperties(ns, removals, updates);
}
Status MetastoreCatalog::DropNamespace(const Namespace& ns) { return store_->DropNamespace(ns); }
Result<std::vector<TableIdentifier>> MetastoreCatalog::ListTables(const Namespace& ns) {
  return store_->ListTables(ns);
}

std::string MetastoreCatalog::DefaultTableLocation(const TableIdentifier& id) const {
  std::string location = options_.warehouse;
  for (const std::string& level : id.ns) location = Join(location, level);
  return Join(location, id.name);
}

Result<iceberg::TableMetadata> MetastoreCatalog::ReadMetadata(const std::string& location) {
  return ReadMetadataFile(*file_systems_, location, options_.max_metadata_size);
}

Status MetastoreCatalog::WriteMetadata(const std::string& location,
                                       const iceberg::TableMetadata& metadata) {
  SQE_ASSIGN_OR_RETURN(std::string content, MetadataFileContent(metadata, location));
  return WriteSmallFile(*file_systems_, location, content, /*overwrite=*/false);
}

void MetastoreCatalog::DeleteQuietly(const std::string& location) {
  auto fs = file_systems_->ForUri(location);
  Status s = fs.ok() ? (*fs)->Delete({location}) : fs.status();
  if (!s.ok()) {
    log::Warn("catalog_orphan_metadata", {{"location", location}, {"error", s.message()}});
  }
}

Result<LoadedTable> MetastoreCatalog::LoadTable(const TableIdentifier& id) {
  SQE_ASSIGN_OR_RETURN(TablePointer pointer, store_->LoadTable(id));
  SQE_ASSIGN_OR_RETURN(iceberg::TableMetadata metadata, ReadMetadata(pointer.metadata_location));
  return LoadedTable::Of(id, pointer.metadata_location, std::move(metadata));
}

Result<LoadedTable> MetastoreCatalog::CreateTable(const TableIdentifier& id,
                                                  const CreateTableRequest& request) {
  SQE_RETURN_NOT_OK(ValidateTableIdentifier(id));
  SQE_ASSIGN_OR_RETURN(bool ns_exists, store_->NamespaceExists(id.ns));
  if (!ns_exists) {
    return Status::NotFound("namespace '" + NamespaceToString(id.ns) +
                            "' does not exist: create it first");
  }
  if (store_->LoadTable(id).ok()) {
    return Status::AlreadyExists("table '" + TableIdentifierToString(id) + "' already exists");
  }
  iceberg::NewTableOptions options;
  options.schema = request.schema;
  options.spec = request.spec;
  options.sort_order = request.sort_order;
  options.properties = request.properties;
  options.location = request.location.empty() ? DefaultTableLocation(id) : request.location;
  options.format_version = request.format_version.value_or(options_.default_format_version);
  SQE_ASSIGN_OR_RETURN(iceberg::TableMetadata metadata,
                       iceberg::NewTableMetadata(options, WallClockMillis()));
  std::string location = metadata.location + "/metadata/" + MetadataFileNameFor(0, metadata);
  SQE_RETURN_NOT_OK(WriteMetadata(location, metadata));
  Status created = store_->CreateTable(id, location);
  if (!created.ok()) {
    DeleteQuietly(location);
    return created;
  }
  return LoadedTable::Of(id, location, std::move(metadata));
}

Result<LoadedTable> MetastoreCatalog::CommitTable(
    const TableIdentifier& id, const std::vector<iceberg::TableRequirement>& requirements,
    const std::vector<iceberg::TableUpdate>& updates) {
  SQE_ASSIGN_OR_RETURN(TablePointer pointer, store_->LoadTable(id));
  SQE_ASSIGN_OR_RETURN(iceberg::TableMetadata base, ReadMetadata(pointer.metadata_location));
  SQE_RETURN_NOT_OK(iceberg::CheckTableRequirements(&base, requirements));
  if (updates.empty()) return LoadedTable::Of(id, pointer.metadata_location, std::move(base));
  SQE_ASSIGN_OR_RETURN(iceberg::TableMetadata next,
                       iceberg::ApplyTableUpdates(base, updates, WallClockMillis()));
  iceberg::AppendMetadataLog(base, pointer.metadata_location, &next);
  int version = iceberg::MetadataFileVersion(pointer.metadata_location) + 1;
  std::string location = next.location + "/metadata/" + MetadataFileNameFor(version, next);
  SQE_RETURN_NOT_OK(WriteMetadata(location, next));
  CrashPoint("catalog.metadata_written");  // written, not yet the table's current file
  Status swapped = store_->CommitTable(id, pointer.metadata_location, location);
  if (!swapped.ok()) {
    // Conflict and NotFound are certain: the pointer did not move, so the file is an
    // orphan. Other errors leave the outcome unknown; the file stays.
    if (swapped.code() == StatusCode::kConflict || swapped.code() == StatusCode::kNotFound) {
      DeleteQuietly(location);
    }
    return swapped;
  }
  CrashPoint("catalog.committed");  // the pointer moved; the caller has not heard yet
  return LoadedTable::Of(id, location, std::move(next));
}

Status MetastoreCatalog::DropTable(const TableIdentifier& id, bool purge) {
  std::string table_location;
  if (purge) {
    auto loaded = LoadTable(id);
    if (loaded.ok()) table_location = loaded->metadata->location;
  }
  SQE_RETURN_NOT_OK(store_->DropTable(id));
  if (!table_location.empty()) {
    std::string prefix = table_location + "/";
    SQE_ASSIGN_OR_RETURN(auto fs, file_systems_->ForUri(prefix));
    SQE_ASSIGN_OR_RETURN(auto files, fs->List(prefix));
    std::vector<std::string> paths;
    paths.reserve(files.size());
    for (const io::FileInfo& f : files) paths.push_back(f.path);
    SQE_RETURN_NOT_OK(fs->Delete(paths));
  }
  return Status::OK();
}

Status MetastoreCatalog::RenameTable(const TableIdentifier& from, const TableIdentifier& to) {
  return store_->RenameTable(from, to);
}

Result<LoadedTable> MetastoreCatalog::RegisterTable(const TableIdentifier& id,
                                                    const std::string& metadata_location) {
  SQE_ASSIGN_OR_RETURN(iceberg::TableMetadata metadata, ReadMetadata(metadata_location));
  SQE_RETURN_NOT_OK(store_->CreateTable(id, metadata_location));
  return LoadedTable::Of(id, metadata_location, std::move(metadata));
}

}  // namespace sqe::catalog
