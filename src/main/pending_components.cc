#include "main/pending_components.h"

#include <string>

#include "common/logging.h"

namespace sqe::app {
namespace {

void Pending(const std::string& component, const std::string& type, const std::string& detail) {
  log::Warn("server.not_implemented",
            {{"component", component}, {"type", type}, {"detail", detail}});
}

}  // namespace

void LogPendingCoordinatorComponents(const config::Config& config) {
  // The catalog itself is opened at startup (process_catalog.h); only SQL over it is
  // pending, and that is the query engine's note, not the catalog's.
  for (const config::AuthProviderConfig& provider : config.auth.providers) {
    if (provider.type == "anonymous" || provider.type == "api_key") continue;  // src/auth
    Pending("auth.providers", provider.type,
            "the " + provider.type +
                " provider is validated but not implemented yet: the auth chain leaves it out, "
                "so callers it would accept are refused");
  }
  if (config.auth.providers.empty()) {
    Pending("auth", config.auth.keycloak_url.empty() ? "client_credentials" : "oidc_password",
            "the legacy [auth] provider is validated but not implemented yet");
  }
  if (config.access_control.backend != "none") {
    Pending("access_control.backend", config.access_control.backend,
            "GRANT/REVOKE backends are not implemented yet");
  }
  if (config.policy.engine != "passthrough") {
    Pending("policy.engine", config.policy.engine, "policy engines are not implemented yet");
  }
  if (config.maintenance.mode != "off") {
    Pending("maintenance.mode", config.maintenance.mode,
            "the maintenance subsystem is not implemented yet");
  }
  if (!config.metrics.otlp_endpoint.empty() || !config.metrics.traces_otlp_endpoint.empty()) {
    Pending("metrics.otlp_endpoint", "otlp", "OTLP export is not implemented yet");
  }
  if (!config.coordinator.worker_urls.empty()) {
    Pending("coordinator.worker_urls", config.coordinator.mode,
            "distributed execution is not implemented yet; queries would run locally");
  }
}

void LogPendingWorkerComponents(const config::Config& config) {
  Pending("worker.coordinator_url", "heartbeat",
          "worker registration and heartbeats to " + config.worker.coordinator_url +
              " are not implemented yet");
}

}  // namespace sqe::app
