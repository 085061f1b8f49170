#pragma once
/// The process's one catalog, made from [catalog] at startup and shared by every listener
/// that needs it (the Iceberg REST server today; sessions later). A catalog that cannot be
/// made does not stop the server: its error is kept so the listeners that need it can
/// answer with it (503 on the REST catalog port).

#include <memory>
#include <string>

#include "catalog/catalog.h"
#include "common/status.h"
#include "config/config.h"
#include "io/s3/storage_file_systems.h"

namespace sqe::app {

/// The catalog, or why there is none (then `catalog` is null and `error` not OK).
struct ProcessCatalog {
  std::shared_ptr<catalog::Catalog> catalog;
  Status error;
  /// Where the catalog puts new tables: the absolute embedded warehouse directory, or
  /// [catalog.backend] warehouse as written for the other backends.
  std::string warehouse;
  /// The storage the catalog reads and writes through (local and S3).
  std::shared_ptr<io::s3::StorageFileSystems> file_systems;
};

/// catalog::MakeCatalog over the storage file systems [storage] describes.
ProcessCatalog MakeProcessCatalog(const config::Config& config);

}  // namespace sqe::app
