#pragma once
/// MetastoreCatalog: a Catalog whose table pointers live in a JdbcCatalogStore (SQLite or
/// PostgreSQL) and whose metadata files live with the table (local disk or S3): the
/// embedded catalog of `local` mode and the JDBC catalogs. A commit reads the current
/// metadata, checks the requirements, applies the updates, writes the next metadata file
/// (never overwriting one) and swaps the pointer; a lost race deletes the file it wrote
/// and is Conflict.

#include <memory>
#include <string>

#include "catalog/catalog.h"
#include "catalog/jdbc_catalog_store.h"
#include "io/s3/storage_file_systems.h"

namespace sqe::catalog {

struct MetastoreCatalogOptions {
  std::string name = "iceberg";
  /// Where new tables go: <warehouse>/<namespace levels>/<table> (a directory or s3:// URI).
  std::string warehouse;
  int default_format_version = 2;
  /// The largest metadata.json read (hostile or broken files fail clearly instead).
  int64_t max_metadata_size = int64_t{256} << 20;
};

class MetastoreCatalog final : public Catalog {
 public:
  MetastoreCatalog(std::unique_ptr<JdbcCatalogStore> store,
                   std::shared_ptr<io::s3::StorageFileSystems> file_systems,
                   MetastoreCatalogOptions options);

  const std::string& name() const override { return options_.name; }

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

  /// The location a new table gets when the request names none.
  std::string DefaultTableLocation(const TableIdentifier& id) const;

 private:
  Result<iceberg::TableMetadata> ReadMetadata(const std::string& location);
  Status WriteMetadata(const std::string& location, const iceberg::TableMetadata& metadata);
  void DeleteQuietly(const std::string& location);

  std::unique_ptr<JdbcCatalogStore> store_;
  std::shared_ptr<io::s3::StorageFileSystems> file_systems_;
  MetastoreCatalogOptions options_;
};

}  // namespace sqe::catalog
