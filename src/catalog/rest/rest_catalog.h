#pragma once
/// RestCatalog: a client of the Iceberg REST catalog protocol (apache/iceberg
/// open-api/rest-catalog-open-api.yaml) behind the Catalog interface, for Polaris, Nessie,
/// Unity, AWS Glue / S3 Tables REST, Iceberg's own REST fixture, or another sqe-server.
///
/// On first use it reads GET /v1/config?warehouse=..., merging the server's defaults, the
/// local properties and the server's overrides (in that order of precedence, lowest
/// first); the overrides may set `uri`, `prefix` (every later path is /v1/{prefix}/...),
/// `rest.sigv4-enabled` / `rest.signing-region` / `rest.signing-name` and
/// `rest-page-size`. When the server lists `endpoints`, an operation it does not list is
/// NotImplemented without a request (HEAD existence checks fall back to GET).
///
/// Authentication: a static bearer token, or OAuth2 client credentials against
/// oauth2_server_uri (default {uri}/v1/oauth/tokens), refreshed before expiry and once on
/// 401; or SigV4 signatures. LoadTable asks for vended credentials
/// (X-Iceberg-Access-Delegation) unless access_delegation is "none" and returns them in
/// LoadedTable::storage_credentials and table_config.
///
/// Commits: 409 is Conflict (the caller retries from fresh metadata); a 5xx or a lost
/// connection after the request was sent is IOError "commit state unknown", never retried
/// here. LoadTable results are cached for metadata_cache_ttl_secs (0: off); this client's
/// own commits, conflicts, drops and renames invalidate its entries.
///
/// Thread safety: every method may be called concurrently.

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "catalog/rest/oauth2_token_source.h"
#include "catalog/rest/rest_session.h"
#include "common/clock.h"
#include "config/config.h"
#include "net/http_client.h"

namespace sqe::catalog {

struct RestCatalogOptions {
  std::string name = "iceberg";
  /// http(s)://host[:port][/path]; /v1/... is appended.
  std::string uri;
  /// Sent as ?warehouse= to /v1/config and as the `warehouse` property ("": none).
  std::string warehouse;
  SecretString credential;  // "client_id:client_secret"
  SecretString token;
  std::string oauth2_server_uri;  // "": {uri}/v1/oauth/tokens
  std::string scope = "catalog";
  /// Fetch a new token this long before the current one expires.
  int64_t token_refresh_margin_secs = 60;
  std::string access_delegation = "vended-credentials";  // or "none"
  /// Non-empty: sign requests with SigV4 (also when the server's config asks for it).
  std::string signing_region;
  std::string signing_name = "execute-api";
  net::AwsCredentials signing_credentials;
  int64_t metadata_cache_ttl_secs = 30;
  /// Extra client properties, merged between the server's defaults and overrides.
  std::map<std::string, std::string> properties;
  net::HttpClientOptions http;
  net::RetryPolicy retry{4, 50, 2'000};
  /// Token expiry and cache TTL; null = the system clock.
  std::shared_ptr<Clock> clock;
};

/// The options [catalog] / [catalog.backend] (type "rest") describe; SigV4 credentials
/// from [storage] or the AWS_* variables in `env`. Without backend.credential or
/// backend.token, the token comes from an [[auth.providers]] oidc_m2m entry, else from
/// [auth] token_endpoint + client_id + client_secret (client credentials).
Result<RestCatalogOptions> RestCatalogOptionsFromConfig(
    const config::Config& config, const std::map<std::string, std::string>& env);

class RestCatalog final : public Catalog {
 public:
  /// Checks the options (an http(s) URI) without contacting the server.
  static Result<std::unique_ptr<RestCatalog>> Make(RestCatalogOptions options);
  ~RestCatalog() override;

  const std::string& name() const override { return options_.name; }

  Status CreateNamespace(const Namespace& ns,
                         const std::map<std::string, std::string>& properties) override;
  Result<std::vector<Namespace>> ListNamespaces(const Namespace& parent) override;
  Result<bool> NamespaceExists(const Namespace& ns) override;
  Result<std::map<std::string, std::string>> LoadNamespaceProperties(const Namespace& ns) override;
  Status UpdateNamespaceProperties(const Namespace& ns, const std::vector<std::string>& removals,
                                   const std::map<std::string, std::string>& updates) override;
  Status DropNamespace(const Namespace& ns) override;

  Result<std::vector<TableIdentifier>> ListTables(const Namespace& ns) override;
  Result<LoadedTable> LoadTable(const TableIdentifier& id) override;
  Result<LoadedTable> CreateTable(const TableIdentifier& id,
                                  const CreateTableRequest& request) override;
  Result<LoadedTable> CommitTable(const TableIdentifier& id,
                                  const std::vector<iceberg::TableRequirement>& requirements,
                                  const std::vector<iceberg::TableUpdate>& updates) override;
  Status DropTable(const TableIdentifier& id, bool purge) override;
  Status RenameTable(const TableIdentifier& from, const TableIdentifier& to) override;
  Result<LoadedTable> RegisterTable(const TableIdentifier& id,
                                    const std::string& metadata_location) override;

  /// The merged properties after /v1/config (contacting the server on first call).
  Result<std::map<std::string, std::string>> EffectiveProperties();
  /// Token requests made so far (for tests).
  int token_fetches() const { return tokens_->fetches(); }

 private:
  struct Cached {
    LoadedTable table;
    Clock::MonoTime expires;
  };
  /// What /v1/config settled: the session and paths every call uses.
  struct Settled {
    std::shared_ptr<RestSession> session;
    std::string prefix_path;  // "/v1" or "/v1/<prefix>"
    std::map<std::string, std::string> properties;
    std::optional<std::set<std::string>> endpoints;
    int64_t page_size = 0;
  };

  explicit RestCatalog(RestCatalogOptions options);
  Result<std::shared_ptr<const Settled>> Settle();
  /// NotImplemented when the server listed its endpoints and `endpoint` is not one.
  Status CheckEndpoint(const Settled& settled, const std::string& endpoint,
                       const std::string& what) const;
  /// Sends and maps a non-2xx answer (or no answer) to a Status.
  Result<net::HttpResponse> Call(const Settled& settled, RestCall call);
  /// GETs every page of a list under `key`.
  Result<std::vector<nlohmann::json>> ListAll(const Settled& settled, RestCall call,
                                              const std::string& key);
  Result<LoadedTable> ParseLoadResult(const TableIdentifier& id, const std::string& body,
                                      const std::string& what);
  void Remember(const LoadedTable& table);
  void Forget(const TableIdentifier& id);
  std::optional<LoadedTable> Recall(const TableIdentifier& id);

  std::string NamespacePath(const Settled& s, const Namespace& ns) const;
  std::string TablePath(const Settled& s, const TableIdentifier& id) const;

  RestCatalogOptions options_;
  std::shared_ptr<net::HttpClient> http_;
  std::shared_ptr<OAuth2TokenSource> tokens_;
  std::mutex mu_;
  std::shared_ptr<const Settled> settled_;
  std::map<TableIdentifier, Cached> cache_;
  std::map<TableIdentifier, int> format_versions_;
};

}  // namespace sqe::catalog
