#include "catalog/jdbc_catalog_store.h"

#include <algorithm>
#include <set>

namespace sqe::catalog {
namespace {

using Params = std::vector<std::optional<std::string>>;

Status CheckStorable(const Namespace& ns) {
  SQE_RETURN_NOT_OK(ValidateNamespace(ns));
  for (const std::string& level : ns) {
    if (level.find('.') != std::string::npos) {
      return Status::InvalidArgument("namespace level '" + level +
                                     "' contains '.', which the JDBC catalog layout uses to "
                                     "join levels: rename it");
    }
  }
  return Status::OK();
}

Namespace SplitNamespace(const std::string& text) {
  Namespace ns;
  size_t start = 0;
  while (true) {
    size_t dot = text.find('.', start);
    ns.push_back(text.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return ns;
}

std::string Quoted(const Namespace& ns) { return "'" + NamespaceToString(ns) + "'"; }
std::string Quoted(const TableIdentifier& id) { return "'" + TableIdentifierToString(id) + "'"; }

}  // namespace

Result<std::unique_ptr<JdbcCatalogStore>> JdbcCatalogStore::Open(
    std::unique_ptr<SqlConnection> connection, std::string catalog_name) {
  SQE_RETURN_NOT_OK(ValidateName(catalog_name, "catalog name"));
  std::unique_ptr<JdbcCatalogStore> store(
      new JdbcCatalogStore(std::move(connection), std::move(catalog_name)));
  Status ensured = store->EnsureTables();
  // Two processes creating the tables at once: PostgreSQL's IF NOT EXISTS can still
  // report the loser's duplicate; the tables exist then, and a second try sees them.
  if (ensured.code() == StatusCode::kAlreadyExists) ensured = store->EnsureTables();
  SQE_RETURN_NOT_OK(ensured);
  return store;
}

Status JdbcCatalogStore::EnsureTables() {
  SQE_RETURN_NOT_OK(connection_
                        ->Execute("CREATE TABLE IF NOT EXISTS iceberg_tables ("
                                  "catalog_name VARCHAR(255) NOT NULL, "
                                  "table_namespace VARCHAR(255) NOT NULL, "
                                  "table_name VARCHAR(255) NOT NULL, "
                                  "metadata_location VARCHAR(1000), "
                                  "previous_metadata_location VARCHAR(1000), "
                                  "iceberg_type VARCHAR(5), "
                                  "PRIMARY KEY (catalog_name, table_namespace, table_name))",
                                  {})
                        .status());
  return connection_
      ->Execute(
          "CREATE TABLE IF NOT EXISTS iceberg_namespace_properties ("
          "catalog_name VARCHAR(255) NOT NULL, "
          "namespace VARCHAR(255) NOT NULL, "
          "property_key VARCHAR(255), "
          "property_value VARCHAR(1000), "
          "PRIMARY KEY (catalog_name, namespace, property_key))",
          {})
      .status();
}

Result<std::vector<std::string>> JdbcCatalogStore::AllNamespacesLocked() {
  std::set<std::string> all;
  for (const char* sql :
       {"SELECT DISTINCT table_namespace FROM iceberg_tables WHERE catalog_name = ?",
        "SELECT DISTINCT namespace FROM iceberg_namespace_properties WHERE catalog_name = ?"}) {
    SQE_ASSIGN_OR_RETURN(SqlResult r, connection_->Execute(sql, {catalog_name_}));
    for (const SqlRow& row : r.rows) {
      if (row[0]) all.insert(*row[0]);
    }
  }
  return std::vector<std::string>(all.begin(), all.end());
}

Result<bool> JdbcCatalogStore::NamespaceExistsLocked(const std::string& ns) {
  // A namespace exists when it, or a namespace below it, has a table or properties.
  SQE_ASSIGN_OR_RETURN(auto all, AllNamespacesLocked());
  for (const std::string& candidate : all) {
    if (candidate == ns || candidate.starts_with(ns + ".")) return true;
  }
  return false;
}

Result<bool> JdbcCatalogStore::NamespaceExists(const Namespace& ns) {
  SQE_RETURN_NOT_OK(CheckStorable(ns));
  std::lock_guard lock(mutex_);
  return NamespaceExistsLocked(NamespaceToString(ns));
}

Status JdbcCatalogStore::CreateNamespace(const Namespace& ns,
                                         const std::map<std::string, std::string>& properties) {
  SQE_RETURN_NOT_OK(CheckStorable(ns));
  for (const auto& [key, value] : properties) {
    SQE_RETURN_NOT_OK(ValidateName(key, "namespace property name"));
  }
  std::lock_guard lock(mutex_);
  std::string name = NamespaceToString(ns);
  return connection_->InTransaction([&]() -> Status {
    SQE_ASSIGN_OR_RETURN(bool exists, NamespaceExistsLocked(name));
    if (exists) return Status::AlreadyExists("namespace " + Quoted(ns) + " already exists");
    std::map<std::string, std::string> rows = properties;
    if (rows.empty()) rows["exists"] = "true";
    for (const auto& [key, value] : rows) {
      SQE_RETURN_NOT_OK(connection_
                            ->Execute("INSERT INTO iceberg_namespace_properties (catalog_name, "
                                      "namespace, property_key, property_value) VALUES (?,?,?,?)",
                                      {catalog_name_, name, key, value})
                            .status());
    }
    return Status::OK();
  });
}

Result<std::vector<Namespace>> JdbcCatalogStore::ListNamespaces(const Namespace& parent) {
  if (!parent.empty()) SQE_RETURN_NOT_OK(CheckStorable(parent));
  std::lock_guard lock(mutex_);
  std::string prefix = parent.empty() ? "" : NamespaceToString(parent) + ".";
  if (!parent.empty()) {
    SQE_ASSIGN_OR_RETURN(bool exists, NamespaceExistsLocked(NamespaceToString(parent)));
    if (!exists) return Status::NotFound("namespace " + Quoted(parent) + " does not exist");
  }
  SQE_ASSIGN_OR_RETURN(auto all, AllNamespacesLocked());
  std::set<Namespace> children;
  for (const std::string& candidate : all) {
    if (!candidate.starts_with(prefix) || candidate.size() == prefix.size()) continue;
    Namespace levels = SplitNamespace(candidate);
    if (levels.size() <= parent.size()) continue;
    levels.resize(parent.size() + 1);
    children.insert(std::move(levels));
  }
  return std::vector<Namespace>(children.begin(), children.end());
}

Result<std::map<std::string, std::string>> JdbcCatalogStore::LoadNamespaceProperties(
    const Namespace& ns) {
  SQE_RETURN_NOT_OK(CheckStorable(ns));
  std::lock_guard lock(mutex_);
  std::string name = NamespaceToString(ns);
  SQE_ASSIGN_OR_RETURN(bool exists, NamespaceExistsLocked(name));
  if (!exists) return Status::NotFound("namespace " + Quoted(ns) + " does not exist");
  SQE_ASSIGN_OR_RETURN(
      SqlResult r, connection_->Execute("SELECT property_key, property_value FROM "
                                        "iceberg_namespace_properties WHERE catalog_name = ? AND "
                                        "namespace = ?",
                                        {catalog_name_, name}));
  std::map<std::string, std::string> properties;
  for (const SqlRow& row : r.rows) {
    if (row[0]) properties[*row[0]] = row[1].value_or("");
  }
  return properties;
}

Status JdbcCatalogStore::UpdateNamespaceProperties(
    const Namespace& ns, const std::vector<std::string>& removals,
    const std::map<std::string, std::string>& updates) {
  SQE_RETURN_NOT_OK(CheckStorable(ns));
  for (const std::string& key : removals) {
    if (updates.count(key)) {
      return Status::InvalidArgument("property '" + key + "' is both updated and removed");
    }
  }
  for (const auto& [key, value] : updates) SQE_RETURN_NOT_OK(ValidateName(key, "property name"));
  std::lock_guard lock(mutex_);
  std::string name = NamespaceToString(ns);
  return connection_->InTransaction([&]() -> Status {
    SQE_ASSIGN_OR_RETURN(bool exists, NamespaceExistsLocked(name));
    if (!exists) return Status::NotFound("namespace " + Quoted(ns) + " does not exist");
    for (const std::string& key : removals) {
      SQE_RETURN_NOT_OK(connection_
                            ->Execute("DELETE FROM iceberg_namespace_properties WHERE "
                                      "catalog_name = ? AND namespace = ? AND property_key = ?",
                                      {catalog_name_, name, key})
                            .status());
    }
    for (const auto& [key, value] : updates) {
      SQE_ASSIGN_OR_RETURN(SqlResult updated,
                           connection_->Execute("UPDATE iceberg_namespace_properties SET "
                                                "property_value = ? WHERE catalog_name = ? AND "
                                                "namespace = ? AND property_key = ?",
                                                {value, catalog_name_, name, key}));
      if (updated.changed_rows == 0) {
        SQE_RETURN_NOT_OK(connection_
                              ->Execute("INSERT INTO iceberg_namespace_properties (catalog_name, "
                                        "namespace, property_key, property_value) VALUES "
                                        "(?,?,?,?)",
                                        {catalog_name_, name, key, value})
                              .status());
      }
    }
    return Status::OK();
  });
}

Status JdbcCatalogStore::DropNamespace(const Namespace& ns) {
  SQE_RETURN_NOT_OK(CheckStorable(ns));
  std::lock_guard lock(mutex_);
  std::string name = NamespaceToString(ns);
  return connection_->InTransaction([&]() -> Status {
    SQE_ASSIGN_OR_RETURN(auto all, AllNamespacesLocked());
    bool exists = false, has_children = false;
    for (const std::string& candidate : all) {
      exists |= candidate == name || candidate.starts_with(name + ".");
      has_children |= candidate.starts_with(name + ".");
    }
    if (!exists) return Status::NotFound("namespace " + Quoted(ns) + " does not exist");
    SQE_ASSIGN_OR_RETURN(SqlResult tables,
                         connection_->Execute("SELECT table_name FROM iceberg_tables WHERE "
                                              "catalog_name = ? AND table_namespace = ? LIMIT 1",
                                              {catalog_name_, name}));
    if (!tables.rows.empty() || has_children) {
      return Status::Conflict("namespace " + Quoted(ns) + " is not empty: drop its " +
                              (tables.rows.empty() ? "namespaces" : "tables") + " first");
    }
    return connection_
        ->Execute(
            "DELETE FROM iceberg_namespace_properties WHERE catalog_name = ? AND "
            "namespace = ?",
            {catalog_name_, name})
        .status();
  });
}

Status JdbcCatalogStore::CreateTable(const TableIdentifier& id,
                                     const std::string& metadata_location) {
  SQE_RETURN_NOT_OK(CheckStorable(id.ns));
  SQE_RETURN_NOT_OK(ValidateName(id.name, "table name"));
  if (metadata_location.empty()) return Status::InvalidArgument("empty metadata location");
  std::lock_guard lock(mutex_);
  std::string ns = NamespaceToString(id.ns);
  return connection_->InTransaction([&]() -> Status {
    SQE_ASSIGN_OR_RETURN(bool exists, NamespaceExistsLocked(ns));
    if (!exists) {
      return Status::NotFound("namespace " + Quoted(id.ns) + " does not exist: create it first");
    }
    Status inserted =
        connection_
            ->Execute(
                "INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, "
                "metadata_location, previous_metadata_location, iceberg_type) VALUES "
                "(?,?,?,?,NULL,'TABLE')",
                {catalog_name_, ns, id.name, metadata_location})
            .status();
    if (inserted.code() == StatusCode::kAlreadyExists) {
      return Status::AlreadyExists("table " + Quoted(id) + " already exists");
    }
    return inserted;
  });
}

Result<TablePointer> JdbcCatalogStore::LoadTable(const TableIdentifier& id) {
  SQE_RETURN_NOT_OK(CheckStorable(id.ns));
  std::lock_guard lock(mutex_);
  SQE_ASSIGN_OR_RETURN(
      SqlResult r,
      connection_->Execute("SELECT metadata_location, previous_metadata_location FROM "
                           "iceberg_tables WHERE catalog_name = ? AND table_namespace = ? AND "
                           "table_name = ? AND (iceberg_type = 'TABLE' OR iceberg_type IS NULL)",
                           {catalog_name_, NamespaceToString(id.ns), id.name}));
  if (r.rows.empty()) return Status::NotFound("table " + Quoted(id) + " does not exist");
  if (!r.rows[0][0] || r.rows[0][0]->empty()) {
    return Status::Corruption("table " + Quoted(id) + " has no metadata location in the catalog");
  }
  return TablePointer{*r.rows[0][0], r.rows[0][1].value_or("")};
}

Result<std::vector<TableIdentifier>> JdbcCatalogStore::ListTables(const Namespace& ns) {
  SQE_RETURN_NOT_OK(CheckStorable(ns));
  std::lock_guard lock(mutex_);
  std::string name = NamespaceToString(ns);
  SQE_ASSIGN_OR_RETURN(bool exists, NamespaceExistsLocked(name));
  if (!exists) return Status::NotFound("namespace " + Quoted(ns) + " does not exist");
  SQE_ASSIGN_OR_RETURN(
      SqlResult r,
      connection_->Execute("SELECT table_name FROM iceberg_tables WHERE catalog_name = ? AND "
                           "table_namespace = ? AND (iceberg_type = 'TABLE' OR iceberg_type IS "
                           "NULL) ORDER BY table_name",
                           {catalog_name_, name}));
  std::vector<TableIdentifier> tables;
  for (const SqlRow& row : r.rows) {
    if (row[0]) tables.push_back({ns, *row[0]});
  }
  std::sort(tables.begin(), tables.end());
  return tables;
}

Status JdbcCatalogStore::RenameTable(const TableIdentifier& from, const TableIdentifier& to) {
  SQE_RETURN_NOT_OK(CheckStorable(from.ns));
  SQE_RETURN_NOT_OK(CheckStorable(to.ns));
  SQE_RETURN_NOT_OK(ValidateName(to.name, "table name"));
  std::lock_guard lock(mutex_);
  return connection_->InTransaction([&]() -> Status {
    SQE_ASSIGN_OR_RETURN(bool target_ns, NamespaceExistsLocked(NamespaceToString(to.ns)));
    if (!target_ns) return Status::NotFound("namespace " + Quoted(to.ns) + " does not exist");
    auto renamed = connection_->Execute(
        "UPDATE iceberg_tables SET table_namespace = ?, table_name = ? WHERE catalog_name = ? "
        "AND table_namespace = ? AND table_name = ?",
        {NamespaceToString(to.ns), to.name, catalog_name_, NamespaceToString(from.ns), from.name});
    if (!renamed.ok()) {
      if (renamed.status().code() == StatusCode::kAlreadyExists) {
        return Status::AlreadyExists("cannot rename " + Quoted(from) + " to " + Quoted(to) +
                                     ": a table of that name exists");
      }
      return renamed.status();
    }
    if (renamed->changed_rows == 0) {
      return Status::NotFound("table " + Quoted(from) + " does not exist");
    }
    return Status::OK();
  });
}

Status JdbcCatalogStore::DropTable(const TableIdentifier& id) {
  SQE_RETURN_NOT_OK(CheckStorable(id.ns));
  std::lock_guard lock(mutex_);
  SQE_ASSIGN_OR_RETURN(SqlResult r,
                       connection_->Execute("DELETE FROM iceberg_tables WHERE catalog_name = ? AND "
                                            "table_namespace = ? AND table_name = ?",
                                            {catalog_name_, NamespaceToString(id.ns), id.name}));
  if (r.changed_rows == 0) return Status::NotFound("table " + Quoted(id) + " does not exist");
  return Status::OK();
}

Status JdbcCatalogStore::CommitTable(const TableIdentifier& id,
                                     const std::string& expected_location,
                                     const std::string& new_location) {
  SQE_RETURN_NOT_OK(CheckStorable(id.ns));
  if (new_location.empty()) return Status::InvalidArgument("empty metadata location");
  std::lock_guard lock(mutex_);
  SQE_ASSIGN_OR_RETURN(
      SqlResult r,
      connection_->Execute("UPDATE iceberg_tables SET metadata_location = ?, "
                           "previous_metadata_location = ? WHERE catalog_name = ? AND "
                           "table_namespace = ? AND table_name = ? AND metadata_location = ?",
                           {new_location, expected_location, catalog_name_,
                            NamespaceToString(id.ns), id.name, expected_location}));
  if (r.changed_rows == 1) return Status::OK();
  SQE_ASSIGN_OR_RETURN(
      SqlResult current,
      connection_->Execute("SELECT metadata_location FROM iceberg_tables WHERE catalog_name = ? "
                           "AND table_namespace = ? AND table_name = ?",
                           {catalog_name_, NamespaceToString(id.ns), id.name}));
  if (current.rows.empty()) return Status::NotFound("table " + Quoted(id) + " does not exist");
  return Status::Conflict("commit to " + Quoted(id) +
                          " lost a race: the table moved on from the metadata it was based on "
                          "(now at " +
                          current.rows[0][0].value_or("?") + "); refresh and retry");
}

}  // namespace sqe::catalog
