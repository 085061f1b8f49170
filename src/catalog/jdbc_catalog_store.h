#pragma once
/// JdbcCatalogStore: the table pointers and namespace properties of a catalog, kept in
/// the two tables of Iceberg's JDBC catalog layout, so Spark, Trino and Iceberg's Java
/// JdbcCatalog share a catalog with SQE:
///
///   iceberg_tables(catalog_name, table_namespace, table_name, metadata_location,
///                  previous_metadata_location, iceberg_type)      -- PK: the first three
///   iceberg_namespace_properties(catalog_name, namespace, property_key, property_value)
///
/// Namespaces are stored with their levels joined by '.', so a level may not contain '.';
/// a namespace without properties holds the row ("exists", "true") as Java's does. A commit
/// is a compare-and-swap of metadata_location (UPDATE ... WHERE metadata_location = the
/// expected one): a concurrent writer makes it Conflict, never a lost update.
///
/// Backed by SQLite (embedded and JDBC-SQLite catalogs) or PostgreSQL (JDBC-PostgreSQL).
/// Thread safety: every method may be called concurrently (one connection, serialized).

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "catalog/sql_connection.h"
#include "catalog/table_identifier.h"
#include "common/result.h"

namespace sqe::catalog {

struct TablePointer {
  std::string metadata_location;
  std::string previous_metadata_location;  // "" for a new table
};

class JdbcCatalogStore {
 public:
  /// Creates the two tables when missing (a database Java's catalog made is used as is).
  static Result<std::unique_ptr<JdbcCatalogStore>> Open(std::unique_ptr<SqlConnection> connection,
                                                        std::string catalog_name);

  const std::string& catalog_name() const { return catalog_name_; }

  /// AlreadyExists when it exists.
  Status CreateNamespace(const Namespace& ns, const std::map<std::string, std::string>& properties);
  Result<bool> NamespaceExists(const Namespace& ns);
  /// The namespaces one level below `parent` (top-level ones for an empty parent), sorted.
  Result<std::vector<Namespace>> ListNamespaces(const Namespace& parent);
  /// NotFound when the namespace does not exist.
  Result<std::map<std::string, std::string>> LoadNamespaceProperties(const Namespace& ns);
  Status UpdateNamespaceProperties(const Namespace& ns, const std::vector<std::string>& removals,
                                   const std::map<std::string, std::string>& updates);
  /// NotFound when missing; Conflict when it still holds tables or namespaces.
  Status DropNamespace(const Namespace& ns);

  /// Registers a table at `metadata_location`. NotFound without its namespace,
  /// AlreadyExists when the name is taken.
  Status CreateTable(const TableIdentifier& id, const std::string& metadata_location);
  /// NotFound when there is no such table.
  Result<TablePointer> LoadTable(const TableIdentifier& id);
  Result<std::vector<TableIdentifier>> ListTables(const Namespace& ns);
  /// NotFound for a missing source or target namespace, AlreadyExists for a taken target.
  Status RenameTable(const TableIdentifier& from, const TableIdentifier& to);
  /// NotFound when there is no such table.
  Status DropTable(const TableIdentifier& id);
  /// Points the table at `new_location` if it still points at `expected_location`:
  /// Conflict when another commit came first, NotFound when the table is gone.
  Status CommitTable(const TableIdentifier& id, const std::string& expected_location,
                     const std::string& new_location);

 private:
  JdbcCatalogStore(std::unique_ptr<SqlConnection> connection, std::string catalog_name)
      : connection_(std::move(connection)), catalog_name_(std::move(catalog_name)) {}
  Status EnsureTables();
  Result<bool> NamespaceExistsLocked(const std::string& ns);
  Result<std::vector<std::string>> AllNamespacesLocked();

  std::mutex mutex_;
  std::unique_ptr<SqlConnection> connection_;
  const std::string catalog_name_;
};

}  // namespace sqe::catalog
