#pragma once
/// The configuration model of SQE: one struct per section of the reference
/// (shared/reference/sqe-configuration.txt), each field with its default. Values here are
/// already merged (CLI > env > file > defaults), type-checked and resolved for the mode
/// (see config_loader.h); validation rules live in config_validation.cc and the
/// *_validation.cc files beside it.
///
/// Plain data, no behaviour: copy freely. Secrets are SecretString and never print.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/secret_string.h"

namespace sqe::config {

/// [coordinator.tls]: TLS on the Flight SQL listener (enabled when cert+key are set).
struct TlsConfig {
  std::string cert_file;
  std::string key_file;
  std::string ca_file;  ///< optional; enables mTLS
  bool enabled() const { return !cert_file.empty() && !key_file.empty(); }

  bool operator==(const TlsConfig&) const = default;
};

/// [coordinator]: client-facing listeners and the process mode.
struct CoordinatorConfig {
  int flight_sql_port = 50051;
  int trino_http_port = 8080;   ///< 0 disables
  std::string mode = "hybrid";  ///< coordinator | worker | hybrid | local | distributed
  std::vector<std::string> worker_urls;
  SecretString worker_secret;
  bool debug = false;
  std::string flight_compression = "lz4";    ///< lz4 | zstd | none
  std::string shuffle_compression = "zstd";  ///< lz4 | zstd | none
  int64_t session_context_cache_ttl_secs = 60;
  TlsConfig tls;

  bool operator==(const CoordinatorConfig&) const = default;
};

/// [worker]: a worker process (mode worker, or the execution side of the others).
struct WorkerConfig {
  std::string coordinator_url = "http://coordinator:50051";
  int flight_port = 50052;
  std::string advertise_url;
  int64_t heartbeat_interval_secs = 5;
  uint64_t memory_limit = 8ull << 30;  ///< bytes ("8GB")
  bool spill_to_disk = true;
  std::string spill_dir = "/tmp/sqe-spill";

  bool operator==(const WorkerConfig&) const = default;
};

/// One [[auth.providers]] entry. `type` selects which of the fields apply; the loader
/// rejects fields that do not belong to the type.
struct AuthProviderConfig {
  std::string type;  ///< oidc_password | bearer_token | api_key | oidc_m2m | aws_iam | anonymous
  // oidc_password
  std::string token_url;
  // oidc_password, oidc_m2m
  std::string client_id;
  SecretString client_secret;
  std::string scope;
  // oidc_password, bearer_token
  std::string roles_claim = "realm_access.roles";
  std::string user_claim = "preferred_username";
  // bearer_token
  std::string jwks_url;
  std::string issuer;
  std::string audience;
  // api_key
  std::string keys_file;
  std::string key_prefix = "sqe_";
  // oidc_m2m
  std::string token_endpoint;
  int64_t refresh_buffer_secs = 60;
  // aws_iam
  std::string region;
  bool validate_with_sts = true;
  std::string sts_endpoint;
  // anonymous
  std::string user = "anonymous";
  std::vector<std::string> roles;

  bool operator==(const AuthProviderConfig&) const = default;
};

/// [auth.external.device]: the device-code flow for CLI logins.
struct AuthDeviceConfig {
  std::string client_id;
  std::vector<std::string> scopes;

  bool operator==(const AuthDeviceConfig&) const = default;
};

/// [auth.external]: the identity provider interactive CLIs log in against.
struct AuthExternalConfig {
  std::string issuer;
  std::string client_id;
  std::vector<std::string> scopes;
  std::optional<AuthDeviceConfig> device;

  bool operator==(const AuthExternalConfig&) const = default;
};

/// [auth]: the legacy single-provider fields, the provider chain and role mappings.
struct AuthConfig {
  std::string keycloak_url;
  std::string realm;
  std::string token_endpoint;
  std::string client_id = "sqe-client";
  SecretString client_secret;
  int64_t token_refresh_buffer_secs = 60;
  bool ssl_verification = true;
  std::vector<AuthProviderConfig> providers;
  /// Caller ARN (aws_iam) -> SQE roles.
  std::map<std::string, std::vector<std::string>> role_mappings;
  std::optional<AuthExternalConfig> external;

  bool operator==(const AuthConfig&) const = default;
};

/// [catalog.backend]: which catalog implementation holds the tables. `type` selects the
/// fields that apply (the loader rejects the others).
struct CatalogBackendConfig {
  std::string type;  ///< rest | embedded | hms | glue | s3tables | jdbc | hadoop (mode default)
  std::string warehouse;  ///< embedded: a directory (default ./sqe-data); others: a location
  // rest (defaults to [catalog] catalog_url / warehouse), hms
  std::string uri;
  // rest
  SecretString credential;  ///< "client_id:client_secret" for the OAuth2 token exchange
  SecretString token;       ///< a pre-minted bearer token
  std::string oauth2_server_uri;
  std::string scope;
  std::string access_delegation = "vended-credentials";  ///< vended-credentials | none
  std::string signing_region;
  std::string signing_name = "execute-api";
  // glue, s3tables
  std::string region;
  // glue
  std::string endpoint;
  std::string catalog_id;
  // s3tables
  std::string table_bucket_arn;
  std::string endpoint_url;
  // jdbc: a password inside url ("postgresql://user:pass@host/db") is masked when printed
  std::string url;
  std::string user;
  SecretString password;

  bool operator==(const CatalogBackendConfig&) const = default;
};

/// [catalog.rest_server]: SQE serving its catalog over the Iceberg REST protocol.
struct RestServerConfig {
  int port = 0;  ///< 0 = off; resolved to 8181 in local mode when not set

  bool operator==(const RestServerConfig&) const = default;
};

/// [catalog]: the configured catalog and write defaults.
struct CatalogConfig {
  std::string name = "iceberg";  ///< the SQL name of this catalog
  std::string catalog_url = "http://polaris:8181/api/catalog";
  std::string warehouse = "iceberg";
  int64_t metadata_cache_ttl_secs = 30;
  int default_table_format_version = 2;
  bool trust_sort_order = false;
  int64_t small_file_threshold_mb = 3;
  std::string parquet_compression = "zstd";  ///< zstd | lz4 | snappy | none
  CatalogBackendConfig backend;
  RestServerConfig rest_server;

  bool operator==(const CatalogConfig&) const = default;
};

/// [storage]: object-store access and the read pipeline.
struct StorageConfig {
  std::string s3_endpoint = "http://s3:9000";
  std::string s3_region = "us-east-1";
  SecretString s3_access_key;
  SecretString s3_secret_key;
  bool s3_path_style = true;
  bool s3_allow_http = false;
  int64_t concurrent_requests_per_file = 4;
  int64_t max_concurrent_files = 8;
  uint64_t prefetch_buffer = 32ull << 20;
  uint64_t coalesce_threshold = 1ull << 20;
  uint64_t footer_cache_size = 64ull << 20;

  bool operator==(const StorageConfig&) const = default;
};

/// [access_control]: where GRANT/REVOKE live.
struct AccessControlConfig {
  std::string backend = "none";  ///< none | polaris | ranger | chameleon

  bool operator==(const AccessControlConfig&) const = default;
};

/// [policy]: row filters and column masks.
struct PolicyConfig {
  std::string engine = "passthrough";  ///< passthrough | in-memory | ranger (opa, cedar: not wired)

  bool operator==(const PolicyConfig&) const = default;
};

/// [session]: per-user session lifetime and persistence.
struct SessionConfig {
  int64_t idle_timeout_secs = 900;
  int64_t absolute_timeout_secs = 28800;
  std::string persistence = "memory";  ///< memory | file
  std::string persistence_path = "/tmp/sqe-sessions.json";
  int64_t snapshot_interval_secs = 60;
  std::string secrets_path;  ///< empty = CREATE SECRET kept in memory only

  bool operator==(const SessionConfig&) const = default;
};

/// [query]: per-query limits, distribution thresholds and write-path safety.
struct QueryConfig {
  int64_t timeout_secs = 300;
  int64_t max_result_rows = 1000000;     ///< 0 = unlimited
  int64_t max_concurrent_queries = 100;  ///< 0 = unlimited
  uint64_t max_query_memory = 256ull << 20;
  int64_t slow_query_threshold_secs = 30;
  uint64_t distribution_threshold = 128ull << 20;
  int64_t distribution_file_threshold = 4;
  uint64_t target_task_size = 256ull << 20;
  std::string sort_mode = "adaptive";  ///< adaptive | partition_only | strict
  bool write_buffer_tracking = true;
  int64_t fanout_max_open_writers = 0;
  uint64_t fanout_buffer_budget = 0;
  bool merge_target_streaming = false;
  /// Role -> timeout_secs for callers holding that role.
  std::map<std::string, int64_t> role_overrides;

  bool operator==(const QueryConfig&) const = default;
};

/// [query_cache]: the result cache.
struct QueryCacheConfig {
  bool enabled = false;
  int64_t max_memory_mb = 128;
  int64_t max_entry_mb = 5;
  int64_t ttl_secs = 300;

  bool operator==(const QueryCacheConfig&) const = default;
};

/// [query_history]: the in-memory history of recent queries.
struct QueryHistoryConfig {
  int64_t max_entries = 10000;
  int64_t ttl_secs = 1800;

  bool operator==(const QueryHistoryConfig&) const = default;
};

/// [rate_limit]: per-user and global query admission.
struct RateLimitConfig {
  bool enabled = false;
  int64_t per_user_queries_per_minute = 60;
  int64_t global_queries_per_minute = 1000;

  bool operator==(const RateLimitConfig&) const = default;
};

/// [metrics]: Prometheus, OTLP, tracing and the audit log.
struct MetricsConfig {
  int prometheus_port = 9090;
  std::string otlp_endpoint;
  std::string traces_otlp_endpoint;
  double trace_sample_rate = 0.01;
  std::string audit_log_path;

  bool operator==(const MetricsConfig&) const = default;
};

/// [maintenance.principal]: the M2M identity of the maintenance scheduler.
struct MaintenancePrincipalConfig {
  std::string token_endpoint;
  std::string client_id;
  SecretString client_secret;
  std::string scope;
  std::string user_id;
  std::vector<std::string> roles;
  int64_t refresh_skew_secs = 60;

  bool operator==(const MaintenancePrincipalConfig&) const = default;
};

/// [maintenance.scheduler]: the in-coordinator tick loop.
struct MaintenanceSchedulerConfig {
  bool enabled = false;
  int64_t tick_secs = 60;
  std::string schedule = "0 2 * * *";  ///< 5-field cron, evaluated in UTC
  int64_t jitter_secs = 900;
  int64_t max_concurrent_jobs = 1;
  std::string lease = "catalog";  ///< none | catalog | kubernetes
  int64_t lease_ttl_secs = 300;
  std::string state_table = "sqe_system.maintenance_log";
  bool single_scheduler_acknowledged = false;

  bool operator==(const MaintenanceSchedulerConfig&) const = default;
};

/// [maintenance.compaction]: sizing knobs for rewrite_data_files / table_health.
struct MaintenanceCompactionConfig {
  int64_t target_file_size_bytes = 536870912;
  int64_t min_input_files = 5;
  int64_t delete_file_threshold = 2;
  std::string strategy = "binpack";  ///< binpack | sort | zorder

  bool operator==(const MaintenanceCompactionConfig&) const = default;
};

/// [maintenance.distribution]: coordinator-local vs worker-fleet compaction.
struct MaintenanceDistributionConfig {
  std::string mode = "auto";  ///< auto | local | require
  int64_t min_workers = 2;
  int64_t max_inflight_groups_per_worker = 1;
  int64_t group_attempts = 2;
  int64_t group_timeout_secs = 3600;
  int64_t group_heartbeat_timeout_secs = 120;
  bool partial_progress = false;
  int64_t partial_progress_batch = 10;

  bool operator==(const MaintenanceDistributionConfig&) const = default;
};

/// [maintenance]: the auto-compaction subsystem.
struct MaintenanceConfig {
  std::string mode = "off";  ///< off | advisory | active
  std::optional<MaintenancePrincipalConfig> principal;
  MaintenanceSchedulerConfig scheduler;
  MaintenanceCompactionConfig compaction;
  MaintenanceDistributionConfig distribution;

  bool operator==(const MaintenanceConfig&) const = default;
};

/// The whole configuration.
struct Config {
  CoordinatorConfig coordinator;
  WorkerConfig worker;
  AuthConfig auth;
  CatalogConfig catalog;
  StorageConfig storage;
  AccessControlConfig access_control;
  PolicyConfig policy;
  SessionConfig session;
  QueryConfig query;
  QueryCacheConfig query_cache;
  QueryHistoryConfig query_history;
  RateLimitConfig rate_limit;
  MetricsConfig metrics;
  MaintenanceConfig maintenance;

  bool operator==(const Config&) const = default;
};

/// One entry of an api-keys TOML file (`[[keys]]` with key, user, roles).
struct ApiKeyEntry {
  SecretString key;
  std::string user;
  std::vector<std::string> roles;

  bool operator==(const ApiKeyEntry&) const = default;
};

/// A TCP listener the process opens in its mode, named by the field that sets its port.
struct ListenerSpec {
  std::string name;   ///< "flight_sql", "trino_http", "metrics", "rest_catalog", "worker_flight"
  std::string field;  ///< "coordinator.flight_sql_port", ...
  int port = 0;

  bool operator==(const ListenerSpec&) const = default;
};

/// The listeners `config.coordinator.mode` opens, in bind order; disabled ones (port 0)
/// are left out. `local` never opens a worker port; `worker` opens only the worker
/// Flight port and metrics.
std::vector<ListenerSpec> PlannedListeners(const Config& config);

}  // namespace sqe::config
