#include "catalog/catalog_factory.h"

#include <filesystem>
#include <system_error>

#include "catalog/hadoop_catalog.h"
#include "catalog/metastore_catalog.h"
#include "catalog/rest/rest_catalog.h"
#include "config/config_loader.h"

namespace sqe::catalog {
namespace {

// "user:password@" folded into a PostgreSQL URI from the separate fields.
std::string WithCredentials(std::string uri, const std::string& user, const std::string& password) {
  if (user.empty() || uri.find('@') != std::string::npos) return uri;
  size_t scheme_end = uri.find("://");
  if (scheme_end == std::string::npos) return uri;
  std::string auth = user + (password.empty() ? "" : ":" + password) + "@";
  return uri.insert(scheme_end + 3, auth);
}

Result<std::unique_ptr<SqlConnection>> OpenJdbc(const config::CatalogBackendConfig& backend) {
  std::string url = backend.url;
  if (url.starts_with("jdbc:")) url = url.substr(5);
  if (url.starts_with("postgresql://") || url.starts_with("postgres://")) {
    return OpenPostgres(WithCredentials(url, backend.user, std::string(backend.password.Expose())));
  }
  if (url.starts_with("sqlite:")) {
    std::string path = url.substr(7);
    if (path.starts_with("//")) path = path.substr(2);
    if (path.empty()) return Status::InvalidArgument("catalog.backend.url 'sqlite:' names no file");
    return OpenSqlite(path);
  }
  return Status::InvalidArgument(
      "catalog.backend.url must be a PostgreSQL URL (postgresql://user@host:5432/db) or a "
      "SQLite one (sqlite:/path/catalog.db); got a URL with another scheme");
}

}  // namespace

Result<std::unique_ptr<Catalog>> MakeEmbeddedCatalog(
    const std::string& warehouse, const std::string& name, int default_format_version,
    std::shared_ptr<io::s3::StorageFileSystems> file_systems) {
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::absolute(warehouse, ec);
  if (ec) return Status::InvalidArgument("bad warehouse directory '" + warehouse + "'");
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    return Status::IOError("cannot create the warehouse directory " + dir.string() + ": " +
                           ec.message() + " (catalog.backend.warehouse)");
  }
  SQE_ASSIGN_OR_RETURN(auto connection, OpenSqlite((dir / "sqe_catalog.db").string()));
  SQE_ASSIGN_OR_RETURN(auto store, JdbcCatalogStore::Open(std::move(connection), name));
  MetastoreCatalogOptions options;
  options.name = name;
  options.warehouse = dir.lexically_normal().string();
  options.default_format_version = default_format_version;
  return std::unique_ptr<Catalog>(
      std::make_unique<MetastoreCatalog>(std::move(store), std::move(file_systems), options));
}

Result<std::unique_ptr<Catalog>> MakeCatalog(
    const config::Config& config, std::shared_ptr<io::s3::StorageFileSystems> file_systems) {
  const config::CatalogConfig& catalog = config.catalog;
  const std::string& type =
      catalog.backend.type.empty() ? std::string("rest") : catalog.backend.type;
  if (type == "embedded") {
    std::string warehouse =
        catalog.backend.warehouse.empty() ? "./sqe-data" : catalog.backend.warehouse;
    return MakeEmbeddedCatalog(warehouse, catalog.name, catalog.default_table_format_version,
                               std::move(file_systems));
  }
  if (type == "jdbc") {
    if (catalog.backend.warehouse.empty()) {
      return Status::InvalidArgument(
          "catalog.backend.warehouse is required for the jdbc catalog (where new tables go, "
          "e.g. s3://bucket/warehouse)");
    }
    SQE_ASSIGN_OR_RETURN(auto connection, OpenJdbc(catalog.backend));
    SQE_ASSIGN_OR_RETURN(auto store, JdbcCatalogStore::Open(std::move(connection), catalog.name));
    MetastoreCatalogOptions options;
    options.name = catalog.name;
    options.warehouse = catalog.backend.warehouse;
    options.default_format_version = catalog.default_table_format_version;
    return std::unique_ptr<Catalog>(
        std::make_unique<MetastoreCatalog>(std::move(store), std::move(file_systems), options));
  }
  if (type == "hadoop") {
    if (catalog.backend.warehouse.empty()) {
      return Status::InvalidArgument(
          "catalog.backend.warehouse is required for the hadoop catalog (the directory or "
          "s3:// prefix that holds the tables)");
    }
    return std::unique_ptr<Catalog>(std::make_unique<HadoopCatalog>(
        catalog.name, catalog.backend.warehouse, catalog.default_table_format_version,
        std::move(file_systems)));
  }
  if (type == "rest") {
    SQE_ASSIGN_OR_RETURN(RestCatalogOptions options,
                         RestCatalogOptionsFromConfig(config, config::CurrentEnvironment()));
    SQE_ASSIGN_OR_RETURN(auto rest, RestCatalog::Make(std::move(options)));
    return std::unique_ptr<Catalog>(std::move(rest));
  }
  if (type == "hms" || type == "glue" || type == "s3tables") {
    return Status::NotImplemented("catalog.backend.type = \"" + type +
                                  "\" comes in a later release; use \"embedded\" or \"jdbc\"");
  }
  return Status::InvalidArgument("unknown catalog.backend.type \"" + type +
                                 "\": use embedded, jdbc, rest, hadoop, hms, glue or s3tables");
}

}  // namespace sqe::catalog
