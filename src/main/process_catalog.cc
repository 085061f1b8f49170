#include "main/process_catalog.h"

#include <filesystem>

#include "catalog/catalog_factory.h"
#include "common/logging.h"
#include "config/config_loader.h"
#include "io/s3/s3_options.h"
#include "io/s3/storage_file_systems.h"

namespace sqe::app {
namespace {

std::string WarehouseOf(const config::Config& config) {
  std::string warehouse = config.catalog.backend.warehouse;
  if (warehouse.find("://") != std::string::npos || warehouse.empty()) return warehouse;
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::absolute(warehouse, ec);
  return ec ? warehouse : dir.lexically_normal().string();
}

}  // namespace

ProcessCatalog MakeProcessCatalog(const config::Config& config) {
  ProcessCatalog out;
  auto file_systems = std::make_shared<io::s3::StorageFileSystems>(
      io::s3::S3OptionsFromConfig(config, config::CurrentEnvironment()));
  Result<std::unique_ptr<catalog::Catalog>> made = catalog::MakeCatalog(config, file_systems);
  out.warehouse = WarehouseOf(config);
  out.file_systems = file_systems;
  if (!made.ok()) {
    out.error = made.status();
    log::Warn("catalog.unavailable",
              {{"type", config.catalog.backend.type}, {"error", out.error.message()}});
    return out;
  }
  out.catalog = std::shared_ptr<catalog::Catalog>(std::move(*made));
  log::Info("catalog.ready", {{"type", config.catalog.backend.type},
                              {"name", config.catalog.name},
                              {"warehouse", out.warehouse}});
  return out;
}

}  // namespace sqe::app
