#pragma once
/// HadoopCatalog: the file-system catalog of Iceberg's Java HadoopCatalog, with no
/// database: a table is <warehouse>/<namespace levels>/<table>/ holding
/// metadata/v<N>.metadata.json files and metadata/version-hint.text (the current N).
/// A commit writes v<N+1>.metadata.json with an atomic create (link(2) locally,
/// If-None-Match on S3): the writer that creates it first wins, the other gets Conflict;
/// the hint is then updated (readers also look past a stale hint). Namespaces are the
/// directories (prefixes) between the warehouse and the tables; an empty namespace
/// is kept alive by a `.namespace` marker file. No namespace properties, no rename
/// (as in Java's HadoopCatalog): those calls are NotImplemented.

#include <memory>
#include <string>

#include "catalog/catalog.h"
#include "io/s3/storage_file_systems.h"

namespace sqe::catalog {

class HadoopCatalog final : public Catalog {
 public:
  HadoopCatalog(std::string name, std::string warehouse, int default_format_version,
                std::shared_ptr<io::s3::StorageFileSystems> file_systems);

  const std::string& name() const override { return name_; }

  Status CreateNamespace(const Namespace& ns,
                         const std::map<std::string, std::string>& properties) override;
  Result<std::vector<Namespace>> ListNamespaces(const Namespace& parent) override;
  Result<bool> NamespaceExists(const Namespace& ns) override;
  Result<std::map<std::string, std::string>> LoadNamespaceProperties(const Namespace& ns) override;
  Status UpdateNamespaceProperties(const Namespace& ns, const std::vector<std::string>& removals,
                                   const std::map<std::string, std::string>& updates) override;
  Status DropNamespace(const Namespace& ns) override;

  Result<std::vector<TableIdentifier>> ListTables(const Namespace& ns) override;
  Result<LoadedTable> LoadTable(const TableIdentifier& id) override;
  Result<LoadedTable> CreateTable(const TableIdentifier& id,
                                  const CreateTableRequest& request) override;
  Result<LoadedTable> CommitTable(const TableIdentifier& id,
                                  const std::vector<iceberg::TableRequirement>& requirements,
                                  const std::vector<iceberg::TableUpdate>& updates) override;
  Status DropTable(const TableIdentifier& id, bool purge) override;
  Status RenameTable(const TableIdentifier& from, const TableIdentifier& to) override;
  Result<LoadedTable> RegisterTable(const TableIdentifier& id,
                                    const std::string& metadata_location) override;

 private:
  std::string NamespacePath(const Namespace& ns) const;
  std::string TablePath(const TableIdentifier& id) const;
  /// Every file under the warehouse (one listing).
  Result<std::vector<io::FileInfo>> ListAll(const std::string& prefix);
  /// The current version and its metadata file; NotFound when `id` is not a table.
  Result<int> CurrentVersion(const TableIdentifier& id);
  Result<iceberg::TableMetadata> ReadMetadata(const std::string& location);
  Status WriteFile(const std::string& path, const std::string& content, bool overwrite);

  std::string name_;
  std::string warehouse_;
  int default_format_version_;
  std::shared_ptr<io::s3::StorageFileSystems> file_systems_;
};

}  // namespace sqe::catalog
