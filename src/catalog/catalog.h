#pragma once
/// Catalog: where tables live (ARCHITECTURE.md, src/catalog). Every backend (embedded,
/// JDBC, Hadoop, REST client) implements this one interface and passes the same
/// conformance suite. Commits use the REST protocol's model (iceberg/table_update.h):
/// requirements checked against the current metadata, then updates applied; a commit
/// that lost a race is Conflict and the caller retries from fresh metadata.
///
/// Thread safety: every method may be called concurrently.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog/table_identifier.h"
#include "common/result.h"
#include "iceberg/table_metadata.h"
#include "iceberg/table_update.h"
#include "net/sigv4.h"

namespace sqe::catalog {

/// A table as loaded from the catalog: its current metadata and where it came from.
struct LoadedTable {
  TableIdentifier id;
  std::string metadata_location;
  std::shared_ptr<const iceberg::TableMetadata> metadata;
  /// Storage credentials the catalog vended for this table (REST access delegation).
  std::optional<net::AwsCredentials> storage_credentials;
  /// The catalog's per-table client properties (REST LoadTableResult `config`, with the
  /// `storage-credentials` entry for the table's location merged in): s3.endpoint,
  /// s3.region, ... Empty for catalogs that vend nothing.
  std::map<std::string, std::string> table_config;

  /// A table read from `location`, without vended credentials.
  static LoadedTable Of(TableIdentifier id, std::string location, iceberg::TableMetadata metadata) {
    return LoadedTable{std::move(id),
                       std::move(location),
                       std::make_shared<const iceberg::TableMetadata>(std::move(metadata)),
                       std::nullopt,
                       {}};
  }
};

struct CreateTableRequest {
  iceberg::Schema schema;
  iceberg::PartitionSpec spec;
  iceberg::SortOrder sort_order;
  std::map<std::string, std::string> properties;
  /// "" = the catalog's default (<warehouse>/<namespace levels>/<table>).
  std::string location;
  /// nullopt = the catalog's default ([catalog] default_table_format_version).
  std::optional<int> format_version;
};

class Catalog {
 public:
  virtual ~Catalog();

  /// The catalog's SQL name ([catalog] name).
  virtual const std::string& name() const = 0;

  virtual Status CreateNamespace(const Namespace& ns,
                                 const std::map<std::string, std::string>& properties) = 0;
  /// Namespaces one level below `parent` (top level for an empty parent).
  virtual Result<std::vector<Namespace>> ListNamespaces(const Namespace& parent) = 0;
  virtual Result<bool> NamespaceExists(const Namespace& ns) = 0;
  virtual Result<std::map<std::string, std::string>> LoadNamespaceProperties(
      const Namespace& ns) = 0;
  virtual Status UpdateNamespaceProperties(const Namespace& ns,
                                           const std::vector<std::string>& removals,
                                           const std::map<std::string, std::string>& updates) = 0;
  /// Conflict when the namespace is not empty.
  virtual Status DropNamespace(const Namespace& ns) = 0;

  virtual Result<std::vector<TableIdentifier>> ListTables(const Namespace& ns) = 0;
  /// NotFound when there is no such table.
  virtual Result<LoadedTable> LoadTable(const TableIdentifier& id) = 0;
  /// AlreadyExists when the name is taken; NotFound without the namespace.
  virtual Result<LoadedTable> CreateTable(const TableIdentifier& id,
                                          const CreateTableRequest& request) = 0;
  /// Applies `updates` if `requirements` hold for the current metadata: Conflict when
  /// they do not (or another commit won the race), InvalidArgument for a bad update.
  virtual Result<LoadedTable> CommitTable(
      const TableIdentifier& id, const std::vector<iceberg::TableRequirement>& requirements,
      const std::vector<iceberg::TableUpdate>& updates) = 0;
  /// Removes the table from the catalog; with `purge` also deletes every file under its
  /// location.
  virtual Status DropTable(const TableIdentifier& id, bool purge) = 0;
  virtual Status RenameTable(const TableIdentifier& from, const TableIdentifier& to) = 0;
  /// Adds an existing table by its metadata file.
  virtual Result<LoadedTable> RegisterTable(const TableIdentifier& id,
                                            const std::string& metadata_location) = 0;
};

}  // namespace sqe::catalog
