#include "catalog/hadoop_catalog.h"
#include "common/clock.h"

#include "catalog/metadata_file.h"

#include <chrono>
#include <set>

#include "iceberg/new_table.h"

namespace sqe::catalog {
namespace {

constexpr const char* kMarker = ".namespace";
constexpr const char* kHint = "version-hint.text";

std::string Join(const std::string& a, const std::string& b) { return a + "/" + b; }

// "v12.metadata.json" -> 12; 0 for any other name.
int VersionOfFile(const std::string& name) {
  if (!name.starts_with("v") || !name.ends_with(".metadata.json")) return 0;
  std::string digits = name.substr(1, name.size() - 1 - std::string(".metadata.json").size());
  if (digits.empty() || digits.size() > 9) return 0;
  int v = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return 0;
    v = v * 10 + (c - '0');
  }
  return v;
}

std::string VersionFile(int version) { return "v" + std::to_string(version) + ".metadata.json"; }

// Splits a path under `base` into its components ("a/b/c" -> {a, b, c}).
std::vector<std::string> Components(const std::string& path, const std::string& base) {
  std::vector<std::string> out;
  if (!path.starts_with(base + "/")) return out;
  std::string rest = path.substr(base.size() + 1);
  size_t start = 0;
  while (start <= rest.size()) {
    size_t slash = rest.find('/', start);
    out.push_back(
        rest.substr(start, slash == std::string::npos ? std::string::npos : slash - start));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return out;
}

// Whether a file's components below a directory say "this directory is a table":
// metadata/<hint or vN.metadata.json>.
bool IsTableFile(const std::vector<std::string>& c, size_t at) {
  return c.size() == at + 2 && c[at] == "metadata" &&
         (c[at + 1] == kHint || VersionOfFile(c[at + 1]) > 0);
}

Status Unsupported(const std::string& what) {
  return Status::NotImplemented("the hadoop catalog cannot " + what +
                                " (Iceberg's HadoopCatalog cannot either): use the embedded or "
                                "jdbc catalog for that");
}

}  // namespace

HadoopCatalog::HadoopCatalog(std::string name, std::string warehouse, int default_format_version,
                             std::shared_ptr<io::s3::StorageFileSystems> file_systems)
    : name_(std::move(name)),
      warehouse_(std::move(warehouse)),
      default_format_version_(default_format_version),
      file_systems_(std::move(file_systems)) {
  while (warehouse_.size() > 1 && warehouse_.back() == '/') warehouse_.pop_back();
}

std::string HadoopCatalog::NamespacePath(const Namespace& ns) const {
  std::string path = warehouse_;
  for (const std::string& level : ns) path = Join(path, level);
  return path;
}

std::string HadoopCatalog::TablePath(const TableIdentifier& id) const {
  return Join(NamespacePath(id.ns), id.name);
}

Result<std::vector<io::FileInfo>> HadoopCatalog::ListAll(const std::string& prefix) {
  SQE_ASSIGN_OR_RETURN(auto fs, file_systems_->ForUri(prefix + "/"));
  return fs->List(prefix + "/");
}

Status HadoopCatalog::WriteFile(const std::string& path, const std::string& content,
                                bool overwrite) {
  return WriteSmallFile(*file_systems_, path, content, overwrite);
}

Result<bool> HadoopCatalog::NamespaceExists(const Namespace& ns) {
  SQE_RETURN_NOT_OK(ValidateNamespace(ns));
  std::string base = NamespacePath(ns);
  SQE_ASSIGN_OR_RETURN(auto files, ListAll(base));
  bool any = false;
  for (const io::FileInfo& f : files) {
    auto c = Components(f.path, base);
    if (IsTableFile(c, 0)) return false;  // the path is a table, not a namespace
    any |= !c.empty();
  }
  return any;
}

Status HadoopCatalog::CreateNamespace(const Namespace& ns,
                                      const std::map<std::string, std::string>& properties) {
  SQE_RETURN_NOT_OK(ValidateNamespace(ns));
  if (!properties.empty()) return Unsupported("store namespace properties");
  SQE_ASSIGN_OR_RETURN(bool exists, NamespaceExists(ns));
  if (exists)
    return Status::AlreadyExists("namespace '" + NamespaceToString(ns) + "' already exists");
  return WriteFile(Join(NamespacePath(ns), kMarker), "", /*overwrite=*/true);
}

Result<std::vector<Namespace>> HadoopCatalog::ListNamespaces(const Namespace& parent) {
  std::string base = NamespacePath(parent);
  if (!parent.empty()) {
    SQE_ASSIGN_OR_RETURN(bool exists, NamespaceExists(parent));
    if (!exists)
      return Status::NotFound("namespace '" + NamespaceToString(parent) + "' does not exist");
  }
  SQE_ASSIGN_OR_RETURN(auto files, ListAll(base));
  std::set<std::string> children, tables;
  for (const io::FileInfo& f : files) {
    auto c = Components(f.path, base);
    if (c.size() < 2) continue;  // a file directly in the parent
    if (IsTableFile(c, 1)) {
      tables.insert(c[0]);
    } else {
      children.insert(c[0]);
    }
  }
  std::vector<Namespace> out;
  for (const std::string& child : children) {
    if (tables.count(child)) continue;
    Namespace ns = parent;
    ns.push_back(child);
    out.push_back(std::move(ns));
  }
  return out;
}

Result<std::map<std::string, std::string>> HadoopCatalog::LoadNamespaceProperties(
    const Namespace& ns) {
  SQE_ASSIGN_OR_RETURN(bool exists, NamespaceExists(ns));
  if (!exists) return Status::NotFound("namespace '" + NamespaceToString(ns) + "' does not exist");
  return std::map<std::string, std::string>{{"location", NamespacePath(ns)}};
}

Status HadoopCatalog::UpdateNamespaceProperties(const Namespace&, const std::vector<std::string>&,
                                                const std::map<std::string, std::string>&) {
  return Unsupported("store namespace properties");
}

Status HadoopCatalog::DropNamespace(const Namespace& ns) {
  SQE_ASSIGN_OR_RETURN(bool exists, NamespaceExists(ns));
  if (!exists) return Status::NotFound("namespace '" + NamespaceToString(ns) + "' does not exist");
  std::string base = NamespacePath(ns);
  SQE_ASSIGN_OR_RETURN(auto files, ListAll(base));
  for (const io::FileInfo& f : files) {
    auto c = Components(f.path, base);
    if (!(c.size() == 1 && c[0] == kMarker)) {
      return Status::Conflict("namespace '" + NamespaceToString(ns) +
                              "' is not empty: drop its tables and namespaces first");
    }
  }
  SQE_ASSIGN_OR_RETURN(auto fs, file_systems_->ForUri(base + "/"));
  return fs->Delete({Join(base, kMarker)});
}

Result<std::vector<TableIdentifier>> HadoopCatalog::ListTables(const Namespace& ns) {
  SQE_ASSIGN_OR_RETURN(bool exists, NamespaceExists(ns));
  if (!exists) return Status::NotFound("namespace '" + NamespaceToString(ns) + "' does not exist");
  std::string base = NamespacePath(ns);
  SQE_ASSIGN_OR_RETURN(auto files, ListAll(base));
  std::set<std::string> names;
  for (const io::FileInfo& f : files) {
    auto c = Components(f.path, base);
    if (IsTableFile(c, 1)) names.insert(c[0]);
  }
  std::vector<TableIdentifier> out;
  for (const std::string& n : names) out.push_back({ns, n});
  return out;
}

Result<int> HadoopCatalog::CurrentVersion(const TableIdentifier& id) {
  SQE_RETURN_NOT_OK(ValidateTableIdentifier(id));
  std::string metadata_dir = Join(TablePath(id), "metadata");
  SQE_ASSIGN_OR_RETURN(auto files, ListAll(metadata_dir));
  // The listing is authoritative: the hint may lag a commit that crashed before it.
  int version = 0;
  for (const io::FileInfo& f : files) {
    auto c = Components(f.path, metadata_dir);
    if (c.size() == 1) version = std::max(version, VersionOfFile(c[0]));
  }
  if (version == 0) {
    return Status::NotFound("table '" + TableIdentifierToString(id) + "' does not exist");
  }
  return version;
}

Result<iceberg::TableMetadata> HadoopCatalog::ReadMetadata(const std::string& location) {
  return ReadMetadataFile(*file_systems_, location);
}

Result<LoadedTable> HadoopCatalog::LoadTable(const TableIdentifier& id) {
  SQE_ASSIGN_OR_RETURN(int version, CurrentVersion(id));
  std::string location = Join(Join(TablePath(id), "metadata"), VersionFile(version));
  SQE_ASSIGN_OR_RETURN(iceberg::TableMetadata metadata, ReadMetadata(location));
  return LoadedTable::Of(id, location, std::move(metadata));
}

Result<LoadedTable> HadoopCatalog::CreateTable(const TableIdentifier& id,
                                               const CreateTableRequest& request) {
  SQE_RETURN_NOT_OK(ValidateTableIdentifier(id));
  SQE_ASSIGN_OR_RETURN(bool ns_exists, NamespaceExists(id.ns));
  if (!ns_exists) {
    return Status::NotFound("namespace '" + NamespaceToString(id.ns) +
                            "' does not exist: create it first");
  }
  if (!request.location.empty() && request.location != TablePath(id)) {
    return Status::InvalidArgument("the hadoop catalog keeps table '" +
                                   TableIdentifierToString(id) + "' at " + TablePath(id) +
                                   "; it cannot be placed at " + request.location);
  }
  if (CurrentVersion(id).ok()) {
    return Status::AlreadyExists("table '" + TableIdentifierToString(id) + "' already exists");
  }
  iceberg::NewTableOptions options;
  options.schema = request.schema;
  options.spec = request.spec;
  options.sort_order = request.sort_order;
  options.properties = request.properties;
  options.location = TablePath(id);
  options.format_version = request.format_version.value_or(default_format_version_);
  SQE_ASSIGN_OR_RETURN(iceberg::TableMetadata metadata,
                       iceberg::NewTableMetadata(options, WallClockMillis()));
  SQE_ASSIGN_OR_RETURN(std::string text, iceberg::WriteTableMetadata(metadata));
  std::string metadata_dir = Join(TablePath(id), "metadata");
  std::string location = Join(metadata_dir, VersionFile(1));
  Status created = WriteFile(location, text, /*overwrite=*/false);
  if (created.code() == StatusCode::kAlreadyExists) {
    return Status::AlreadyExists("table '" + TableIdentifierToString(id) + "' already exists");
  }
  SQE_RETURN_NOT_OK(created);
  SQE_RETURN_NOT_OK(WriteFile(Join(metadata_dir, kHint), "1", /*overwrite=*/true));
  return LoadedTable::Of(id, location, std::move(metadata));
}

Result<LoadedTable> HadoopCatalog::CommitTable(
    const TableIdentifier& id, const std::vector<iceberg::TableRequirement>& requirements,
    const std::vector<iceberg::TableUpdate>& updates) {
  SQE_ASSIGN_OR_RETURN(int version, CurrentVersion(id));
  std::string metadata_dir = Join(TablePath(id), "metadata");
  std::string base_location = Join(metadata_dir, VersionFile(version));
  SQE_ASSIGN_OR_RETURN(iceberg::TableMetadata base, ReadMetadata(base_location));
  SQE_RETURN_NOT_OK(iceberg::CheckTableRequirements(&base, requirements));
  if (updates.empty()) return LoadedTable::Of(id, base_location, std::move(base));
  SQE_ASSIGN_OR_RETURN(iceberg::TableMetadata next,
                       iceberg::ApplyTableUpdates(base, updates, WallClockMillis()));
  iceberg::AppendMetadataLog(base, base_location, &next);
  SQE_ASSIGN_OR_RETURN(std::string text, iceberg::WriteTableMetadata(next));
  std::string location = Join(metadata_dir, VersionFile(version + 1));
  Status written = WriteFile(location, text, /*overwrite=*/false);
  if (written.code() == StatusCode::kAlreadyExists) {
    return Status::Conflict("commit to '" + TableIdentifierToString(id) +
                            "' lost a race: another writer created " + VersionFile(version + 1) +
                            " first; refresh and retry");
  }
  SQE_RETURN_NOT_OK(written);
  // Best effort: readers find the newest version by listing when the hint lags.
  (void)WriteFile(Join(metadata_dir, kHint), std::to_string(version + 1), /*overwrite=*/true);
  return LoadedTable::Of(id, location, std::move(next));
}

Status HadoopCatalog::DropTable(const TableIdentifier& id, bool purge) {
  SQE_RETURN_NOT_OK(CurrentVersion(id).status());
  // The table is its directory: dropping removes it (data included, as Java's does).
  std::string base = TablePath(id);
  SQE_ASSIGN_OR_RETURN(auto files, ListAll(base));
  std::vector<std::string> paths;
  for (const io::FileInfo& f : files) paths.push_back(f.path);
  SQE_ASSIGN_OR_RETURN(auto fs, file_systems_->ForUri(base + "/"));
  return fs->Delete(paths);
}

Status HadoopCatalog::RenameTable(const TableIdentifier&, const TableIdentifier&) {
  return Unsupported("rename tables");
}

Result<LoadedTable> HadoopCatalog::RegisterTable(const TableIdentifier&, const std::string&) {
  return Unsupported("register existing metadata files");
}

}  // namespace sqe::catalog
