// Defaults that depend on the mode, resolved after every source is merged (a mode set by
// --mode changes the backend default of a file that never named one).

#include "config/config_merge_internal.h"

namespace sqe::config {

namespace {
constexpr int kLocalRestServerPort = 8181;
constexpr const char* kEmbeddedWarehouse = "./sqe-data";
}  // namespace

void ResolveModeDefaults(Config* config, const FieldOrigins& origins) {
  const bool local = config->coordinator.mode == "local";
  CatalogBackendConfig& backend = config->catalog.backend;
  if (backend.type.empty()) backend.type = local ? "embedded" : "rest";
  if (backend.type == "rest") {
    if (backend.uri.empty()) backend.uri = config->catalog.catalog_url;
    if (backend.warehouse.empty()) backend.warehouse = config->catalog.warehouse;
  } else if (backend.type == "embedded") {
    if (backend.warehouse.empty()) backend.warehouse = kEmbeddedWarehouse;
  }
  if (!origins.Has("catalog.rest_server.port")) {
    config->catalog.rest_server.port = local ? kLocalRestServerPort : 0;
  }
}

}  // namespace sqe::config
