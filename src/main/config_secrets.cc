#include "main/config_secrets.h"

#include "common/logging.h"

namespace sqe::app {
namespace {

void Register(const SecretString& secret) {
  if (!secret.empty()) log::RegisterSecret(secret.Expose());
}

}  // namespace

void RegisterConfigSecrets(const config::Config& config) {
  Register(config.coordinator.worker_secret);
  Register(config.auth.client_secret);
  for (const config::AuthProviderConfig& provider : config.auth.providers) {
    Register(provider.client_secret);
  }
  Register(config.catalog.backend.credential);
  // "client_id:client_secret": the secret half may travel alone (token requests).
  std::string_view credential = config.catalog.backend.credential.Expose();
  if (size_t colon = credential.find(':'); colon != std::string_view::npos) {
    log::RegisterSecret(credential.substr(colon + 1));
  }
  Register(config.catalog.backend.token);
  Register(config.catalog.backend.password);
  Register(config.storage.s3_access_key);
  Register(config.storage.s3_secret_key);
  if (config.maintenance.principal) Register(config.maintenance.principal->client_secret);
}

}  // namespace sqe::app
