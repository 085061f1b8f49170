// Rules about authentication: the legacy [auth] form, each provider's required fields,
// the CLI login block, and the risky settings that deserve a warning.

#include <filesystem>

#include "config/config_validation_internal.h"

namespace sqe::config {
namespace {

/// Modes whose listeners authenticate clients. A worker only serves its coordinator; a
/// local server is a single-node dev setup that may run without an identity provider.
bool RequiresClientAuth(const std::string& mode) { return mode != "worker" && mode != "local"; }

bool LegacyFormInUse(const AuthConfig& auth) {
  return auth.providers.empty() && (!auth.keycloak_url.empty() || !auth.token_endpoint.empty());
}

struct RequiredField {
  const char* type;
  const char* field;
  std::string AuthProviderConfig::*member;
};

const RequiredField kRequiredStrings[] = {
    {"oidc_password", "token_url", &AuthProviderConfig::token_url},
    {"oidc_password", "client_id", &AuthProviderConfig::client_id},
    {"bearer_token", "jwks_url", &AuthProviderConfig::jwks_url},
    {"api_key", "keys_file", &AuthProviderConfig::keys_file},
    {"oidc_m2m", "token_endpoint", &AuthProviderConfig::token_endpoint},
    {"oidc_m2m", "client_id", &AuthProviderConfig::client_id},
    {"aws_iam", "region", &AuthProviderConfig::region},
    {"anonymous", "user", &AuthProviderConfig::user},
};

}  // namespace

void CheckLegacyAuth(ValidationContext& ctx) {
  const AuthConfig& auth = ctx.config().auth;
  // A non-empty provider chain replaces the legacy fields entirely.
  if (!auth.providers.empty() || !RequiresClientAuth(ctx.config().coordinator.mode)) return;
  if (auth.client_id.empty()) {
    ctx.Error("auth.client_id", "auth.client_id must not be empty" + ctx.SetBy("auth.client_id") +
                                    " (the legacy [auth] form needs the OIDC client ID)");
  }
  if (auth.keycloak_url.empty() && auth.token_endpoint.empty()) {
    ctx.Error("auth.keycloak_url",
              "at least one of auth.keycloak_url (OIDC password grant) or auth.token_endpoint "
              "(client credentials) must be set, or configure an [[auth.providers]] chain");
  }
  if (!auth.keycloak_url.empty() && auth.realm.empty()) {
    ctx.Error("auth.realm",
              "auth.realm must be set when auth.keycloak_url is (the Keycloak "
              "realm whose token endpoint SQE calls)");
  }
}

void CheckProviders(ValidationContext& ctx) {
  const AuthConfig& auth = ctx.config().auth;
  for (size_t i = 0; i < auth.providers.size(); ++i) {
    const AuthProviderConfig& p = auth.providers[i];
    const std::string prefix = IndexPath("auth.providers", i);
    for (const RequiredField& req : kRequiredStrings) {
      if (p.type != req.type || !(p.*req.member).empty()) continue;
      std::string field = prefix + "." + req.field;
      ctx.Error(field, field + " is required for provider type '" + p.type + "'");
    }
    if (p.type == "oidc_m2m" && p.client_secret.empty()) {
      std::string field = prefix + ".client_secret";
      ctx.Error(field, field + " is required for provider type 'oidc_m2m' (set it via " +
                           "SQE_AUTH__PROVIDERS__" + std::to_string(i) +
                           "__CLIENT_SECRET or client_secret_file)");
    }
    if (p.type == "api_key" && !p.keys_file.empty()) {
      std::string field = prefix + ".keys_file";
      auto keys = LoadApiKeysFile(p.keys_file, p.key_prefix);
      if (!keys.ok()) ctx.Error(field, field + ": " + keys.status().message());
    }
  }
}

void CheckAuthExternal(ValidationContext& ctx) {
  const auto& external = ctx.config().auth.external;
  if (!external.has_value()) return;
  if (external->issuer.empty()) {
    ctx.Error("auth.external.issuer",
              "auth.external.issuer is required when [auth.external] is configured");
  }
  if (external->client_id.empty()) {
    ctx.Error("auth.external.client_id",
              "auth.external.client_id is required when [auth.external] is configured");
  }
}

void WarnAuthRisks(ValidationContext& ctx) {
  const Config& config = ctx.config();
  const AuthConfig& auth = config.auth;
  for (size_t i = 0; i < auth.providers.size(); ++i) {
    const AuthProviderConfig& p = auth.providers[i];
    if (p.type != "anonymous") continue;
    std::string roles;
    for (const std::string& r : p.roles) roles += (roles.empty() ? "" : ", ") + r;
    std::string field = IndexPath("auth.providers", i) + ".type";
    ctx.Warning(field, field +
                           " is 'anonymous': callers no earlier provider authenticates get the "
                           "fixed identity '" +
                           p.user + "' with roles [" + roles + "]; use it for dev and test only");
  }
  if (!auth.ssl_verification) {
    ctx.Warning("auth.ssl_verification",
                "auth.ssl_verification is false" + ctx.SetBy("auth.ssl_verification") +
                    ": TLS certificates of the identity provider are not verified (dev only)");
  }
  if (config.coordinator.mode == "local" && auth.providers.empty() && !LegacyFormInUse(auth)) {
    ctx.Warning("auth.providers",
                "local mode without [[auth.providers]], auth.keycloak_url or "
                "auth.token_endpoint: no identity provider is configured; add an anonymous "
                "provider to make the dev identity explicit");
  }
}

void WarnSharedPrincipalClientId(ValidationContext& ctx) {
  const Config& config = ctx.config();
  const auto& principal = config.maintenance.principal;
  if (!principal.has_value() || principal->client_id.empty()) return;
  const std::string& id = principal->client_id;
  std::string other;
  const AuthConfig& auth = config.auth;
  for (size_t i = 0; i < auth.providers.size() && other.empty(); ++i) {
    const AuthProviderConfig& p = auth.providers[i];
    bool has_client_id = p.type == "oidc_password" || p.type == "oidc_m2m";
    if (has_client_id && p.client_id == id) other = IndexPath("auth.providers", i) + ".client_id";
  }
  if (other.empty() && LegacyFormInUse(auth) && auth.client_id == id) other = "auth.client_id";
  if (other.empty()) return;
  ctx.Warning("maintenance.principal.client_id",
              "maintenance.principal.client_id '" + id + "' is also " + other +
                  ": sharing one identity between the interactive and the maintenance paths "
                  "makes audit trails ambiguous about which one acted");
}

}  // namespace sqe::config
