#pragma once
/// The catalog the configuration describes ([catalog] and [catalog.backend]):
///  - embedded: a SQLite database (<warehouse>/sqe_catalog.db) beside a local warehouse
///    directory (default ./sqe-data), created on first use: no setup;
///  - jdbc: Iceberg's JDBC layout on PostgreSQL (url "postgresql://..." or
///    "jdbc:postgresql://...", with `user` / `password`) or SQLite ("sqlite:PATH",
///    "jdbc:sqlite:PATH"); new tables under `warehouse`;
///  - hadoop: Iceberg's file-system layout (version-hint.text) under `warehouse`;
///  - rest: the Iceberg REST client (rest/rest_catalog.h) on catalog_url / backend.uri; it
///    contacts the server on first use, not here;
///  - hms, glue, s3tables: NotImplemented naming what exists today.

#include <memory>

#include "catalog/catalog.h"
#include "config/config.h"
#include "io/s3/storage_file_systems.h"

namespace sqe::catalog {

Result<std::unique_ptr<Catalog>> MakeCatalog(
    const config::Config& config, std::shared_ptr<io::s3::StorageFileSystems> file_systems);

/// The embedded catalog over `warehouse` (a directory; created when missing).
Result<std::unique_ptr<Catalog>> MakeEmbeddedCatalog(
    const std::string& warehouse, const std::string& name, int default_format_version,
    std::shared_ptr<io::s3::StorageFileSystems> file_systems);

}  // namespace sqe::catalog
