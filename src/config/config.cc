#include "config/config.h"

namespace sqe::config {

std::vector<ListenerSpec> PlannedListeners(const Config& config) {
  std::vector<ListenerSpec> all;
  if (config.coordinator.mode == "worker") {
    all = {
        {"worker_flight", "worker.flight_port", config.worker.flight_port},
        {"metrics", "metrics.prometheus_port", config.metrics.prometheus_port},
    };
  } else {
    // local, coordinator, hybrid, distributed: the client-facing set. local never opens a
    // worker port (its execution is in-process).
    all = {
        {"flight_sql", "coordinator.flight_sql_port", config.coordinator.flight_sql_port},
        {"trino_http", "coordinator.trino_http_port", config.coordinator.trino_http_port},
        {"metrics", "metrics.prometheus_port", config.metrics.prometheus_port},
        {"rest_catalog", "catalog.rest_server.port", config.catalog.rest_server.port},
    };
  }
  std::vector<ListenerSpec> open;
  for (ListenerSpec& listener : all) {
    if (listener.port > 0) open.push_back(std::move(listener));
  }
  return open;
}

}  // namespace sqe::config
