// The one description of every configuration field. Defaults come from the structs in
// config.h; everything else a field needs (type, description, accepted values, bounds,
// which provider/backend type it belongs to) is stated here once. To add a field: add it
// to the struct, add one line here, regenerate docs/configuration.md (see
// src/config/README.md, "Adding a field").

#include "config/schema_builder_internal.h"

namespace sqe::config {
namespace {

void DescribeCoordinator(SchemaBuilder<Config>& root) {
  auto c = root.Section("coordinator", &Config::coordinator,
                        "Client-facing listeners and the process mode.");
  c.Port("flight_sql_port", &CoordinatorConfig::flight_sql_port, "Flight SQL gRPC port.");
  c.Port("trino_http_port", &CoordinatorConfig::trino_http_port,
         "Trino-compatible HTTP port (0 disables the listener).")
      .ZeroDisables();
  c.Field("mode", &CoordinatorConfig::mode,
          "Process mode: a coordinator, a worker, both in one process (hybrid), a "
          "single-node local server, or a coordinator of a distributed fleet.")
      .Enum({"coordinator", "worker", "hybrid", "local", "distributed"});
  c.Field("worker_urls", &CoordinatorConfig::worker_urls,
          "Worker Flight URLs for distributed mode.");
  c.Field("worker_secret", &CoordinatorConfig::worker_secret,
          "Shared secret for worker heartbeat auth (empty disables the check).");
  c.Field("debug", &CoordinatorConfig::debug,
          "When true, error messages include internal details (dev only).");
  c.Field("flight_compression", &CoordinatorConfig::flight_compression,
          "IPC compression for client DoGet responses.")
      .Enum({"lz4", "zstd", "none"});
  c.Field("shuffle_compression", &CoordinatorConfig::shuffle_compression,
          "IPC compression for the internal DoExchange shuffle.")
      .Enum({"lz4", "zstd", "none"});
  c.Field("session_context_cache_ttl_secs", &CoordinatorConfig::session_context_cache_ttl_secs,
          "Per-user SessionContext cache TTL; also the passive backstop for catalog-set "
          "discovery (POST /api/v1/catalogs/refresh is the instant path).")
      .Min(0);

  auto tls = c.Section("tls", &CoordinatorConfig::tls,
                       "TLS on the Flight SQL listener: enabled when both cert_file and "
                       "key_file are set; ca_file adds mTLS.");
  tls.ServerOnly();
  tls.Field("cert_file", &TlsConfig::cert_file, "PEM certificate.").RelativePath();
  tls.Field("key_file", &TlsConfig::key_file, "PEM private key.").RelativePath();
  tls.Field("ca_file", &TlsConfig::ca_file,
            "Optional PEM CA bundle; clients must present a certificate it signed (mTLS).")
      .RelativePath();
}

void DescribeWorker(SchemaBuilder<Config>& root) {
  auto w = root.Section("worker", &Config::worker, "A worker process.");
  w.Field("coordinator_url", &WorkerConfig::coordinator_url,
          "Flight URL of the coordinator this worker registers with.");
  w.Port("flight_port", &WorkerConfig::flight_port, "Worker Flight port.");
  w.Field("advertise_url", &WorkerConfig::advertise_url,
          "URL the coordinator uses to reach this worker; empty = auto-derived (POD_IP, else "
          "HOSTNAME if an IP, else the first non-loopback interface). Never 0.0.0.0.");
  w.Field("heartbeat_interval_secs", &WorkerConfig::heartbeat_interval_secs,
          "Heartbeat / health-check interval.")
      .Min(1);
  w.Size("memory_limit", &WorkerConfig::memory_limit, "Worker memory limit.");
  w.Field("spill_to_disk", &WorkerConfig::spill_to_disk,
          "Allow spilling large sorts and joins to disk.");
  w.Field("spill_dir", &WorkerConfig::spill_dir, "Temp directory for spilling.");
}

void DescribeAuthProviders(SchemaBuilder<AuthConfig>& auth) {
  auto p = auth.TableArray("providers", &AuthConfig::providers,
                           "The provider chain, tried in order; the first that authenticates a "
                           "request wins. A non-empty chain takes precedence over the legacy "
                           "[auth] fields.");
  p.TypeLabel("provider type");
  p.Field("type", &AuthProviderConfig::type, "Provider type; selects the fields that apply.")
      .Enum({"oidc_password", "bearer_token", "api_key", "oidc_m2m", "aws_iam", "anonymous"})
      .Discriminator();
  p.Field("token_url", &AuthProviderConfig::token_url,
          "OAuth2 token endpoint for the password grant.")
      .AppliesTo({"oidc_password"});
  p.Field("client_id", &AuthProviderConfig::client_id, "OAuth2 client ID.")
      .AppliesTo({"oidc_password", "oidc_m2m"});
  p.Field("client_secret", &AuthProviderConfig::client_secret, "OAuth2 client secret.")
      .AppliesTo({"oidc_password", "oidc_m2m"});
  p.Field("scope", &AuthProviderConfig::scope, "OAuth2 scope requested with the token.")
      .AppliesTo({"oidc_password", "oidc_m2m"});
  p.Field("roles_claim", &AuthProviderConfig::roles_claim,
          "Dotted path of the JWT claim holding the caller's roles (Okta: groups).")
      .AppliesTo({"oidc_password", "bearer_token"});
  p.Field("user_claim", &AuthProviderConfig::user_claim, "JWT claim holding the user name.")
      .AppliesTo({"oidc_password", "bearer_token"});
  p.Field("jwks_url", &AuthProviderConfig::jwks_url, "JWKS endpoint that verifies tokens.")
      .AppliesTo({"bearer_token"});
  p.Field("issuer", &AuthProviderConfig::issuer, "Expected `iss` claim (empty = not checked).")
      .AppliesTo({"bearer_token"});
  p.Field("audience", &AuthProviderConfig::audience, "Expected `aud` claim (empty = not checked).")
      .AppliesTo({"bearer_token"});
  p.Field("keys_file", &AuthProviderConfig::keys_file,
          "TOML file of [[keys]] entries (key, user, roles).")
      .AppliesTo({"api_key"})
      .RelativePath();
  p.Field("key_prefix", &AuthProviderConfig::key_prefix, "Prefix every API key must start with.")
      .AppliesTo({"api_key"});
  p.Field("token_endpoint", &AuthProviderConfig::token_endpoint,
          "OAuth2 token endpoint for the client-credentials grant.")
      .AppliesTo({"oidc_m2m"});
  p.Field("refresh_buffer_secs", &AuthProviderConfig::refresh_buffer_secs,
          "Refresh the cached token this many seconds before it expires.")
      .AppliesTo({"oidc_m2m"})
      .Min(0);
  p.Field("region", &AuthProviderConfig::region, "AWS region of STS.").AppliesTo({"aws_iam"});
  p.Field("validate_with_sts", &AuthProviderConfig::validate_with_sts,
          "Verify the caller's signed identity with STS GetCallerIdentity.")
      .AppliesTo({"aws_iam"});
  p.Field("sts_endpoint", &AuthProviderConfig::sts_endpoint,
          "STS endpoint override (empty = the regional default).")
      .AppliesTo({"aws_iam"});
  p.Field("user", &AuthProviderConfig::user, "The fixed identity every caller gets.")
      .AppliesTo({"anonymous"});
  p.Field("roles", &AuthProviderConfig::roles, "Roles of that identity.").AppliesTo({"anonymous"});
}

void DescribeAuth(SchemaBuilder<Config>& root) {
  auto a = root.Section("auth", &Config::auth,
                        "Authentication: the legacy single-provider fields, the provider "
                        "chain, role mappings and the CLI login flow.");
  a.ServerOnly();
  a.Field("keycloak_url", &AuthConfig::keycloak_url,
          "Legacy: Keycloak base URL (OIDC password grant; wins over token_endpoint).");
  a.Field("realm", &AuthConfig::realm, "Legacy: Keycloak realm name.");
  a.Field("token_endpoint", &AuthConfig::token_endpoint,
          "Legacy: generic OAuth2 token endpoint (client-credentials grant).");
  a.Field("client_id", &AuthConfig::client_id, "Legacy: OIDC client ID.");
  a.Field("client_secret", &AuthConfig::client_secret, "Legacy: OIDC client secret.");
  a.Field("token_refresh_buffer_secs", &AuthConfig::token_refresh_buffer_secs,
          "Refresh tokens this many seconds before expiry.")
      .Min(0);
  a.Field("ssl_verification", &AuthConfig::ssl_verification,
          "Verify the TLS certificates of every outgoing HTTPS connection (identity "
          "provider, S3, catalogs); false (dev only) logs a warning.");
  DescribeAuthProviders(a);
  a.Map("role_mappings", &AuthConfig::role_mappings, FieldType::kStringList, "<arn>",
        "Caller ARN (aws_iam) to SQE roles.");
  auto e = a.OptionalSection("external", &AuthConfig::external,
                             "The identity provider interactive CLIs log in against.");
  e.Field("issuer", &AuthExternalConfig::issuer, "OIDC issuer URL.");
  e.Field("client_id", &AuthExternalConfig::client_id, "Public client ID of the CLI.");
  e.Field("scopes", &AuthExternalConfig::scopes, "Scopes requested at login.");
  auto d = e.OptionalSection("device", &AuthExternalConfig::device,
                             "The device-code flow for logins without a browser on the host.");
  d.Field("client_id", &AuthDeviceConfig::client_id,
          "Client ID for the device flow (empty = auth.external.client_id).");
  d.Field("scopes", &AuthDeviceConfig::scopes, "Scopes requested by the device flow.");
}

void DescribeCatalog(SchemaBuilder<Config>& root) {
  auto c = root.Section("catalog", &Config::catalog, "The catalog and table write defaults.");
  c.Field("name", &CatalogConfig::name, "SQL name of this catalog.");
  c.Field("catalog_url", &CatalogConfig::catalog_url,
          "Iceberg REST endpoint (the default catalog.backend.uri of the rest backend).");
  c.Field("warehouse", &CatalogConfig::warehouse,
          "Warehouse identifier the REST catalog expects (the rest backend's default).");
  c.Field("metadata_cache_ttl_secs", &CatalogConfig::metadata_cache_ttl_secs,
          "Table metadata cache TTL.")
      .Min(0);
  c.Field("default_table_format_version", &CatalogConfig::default_table_format_version,
          "Iceberg table format version of new tables: 2 or 3.");
  c.Field("trust_sort_order", &CatalogConfig::trust_sort_order,
          "Trust the Iceberg sort order for all columns, not just partition keys.");
  c.Field("small_file_threshold_mb", &CatalogConfig::small_file_threshold_mb,
          "Max file size (MB) for the direct-read fast path: such a file is fetched whole by "
          "its first read, in one request (0 disables; capped by storage.prefetch_buffer).")
      .Min(0);
  c.Field("parquet_compression", &CatalogConfig::parquet_compression, "Write-path Parquet codec.")
      .Enum({"zstd", "lz4", "snappy", "none"});

  auto b = c.Section("backend", &CatalogConfig::backend,
                     "Which catalog implementation holds the tables; `type` selects the "
                     "fields that apply.");
  b.TypeLabel("backend type");
  b.Field("type", &CatalogBackendConfig::type, "Backend type.")
      .Enum({"rest", "embedded", "hms", "glue", "s3tables", "jdbc", "hadoop"})
      .Discriminator()
      .DefaultDoc("`embedded` in local mode, else `rest`");
  b.Field("warehouse", &CatalogBackendConfig::warehouse,
          "embedded: the warehouse directory; rest: the warehouse identifier; others: the "
          "warehouse location (s3://..., s3a://...).")
      .AppliesTo({"rest", "embedded", "hms", "glue", "jdbc", "hadoop"})
      .DefaultDoc("rest: `catalog.warehouse`; embedded: `./sqe-data`; others: `\"\"`");
  b.Field("uri", &CatalogBackendConfig::uri,
          "rest: the REST endpoint; hms: host:port of the metastore.")
      .AppliesTo({"rest", "hms"})
      .DefaultDoc("rest: `catalog.catalog_url`; hms: `\"\"`");
  b.Field("credential", &CatalogBackendConfig::credential,
          "\"client_id:client_secret\" for the REST OAuth2 token exchange.")
      .AppliesTo({"rest"});
  b.Field("token", &CatalogBackendConfig::token, "A pre-minted bearer token for the REST catalog.")
      .AppliesTo({"rest"});
  b.Field("oauth2_server_uri", &CatalogBackendConfig::oauth2_server_uri,
          "OAuth2 token endpoint (empty = the catalog's own /v1/oauth/tokens).")
      .AppliesTo({"rest"});
  b.Field("scope", &CatalogBackendConfig::scope, "OAuth2 scope for the token exchange.")
      .AppliesTo({"rest"});
  b.Field("access_delegation", &CatalogBackendConfig::access_delegation,
          "X-Iceberg-Access-Delegation mode requested from the catalog.")
      .AppliesTo({"rest"})
      .Enum({"vended-credentials", "none"});
  b.Field("signing_region", &CatalogBackendConfig::signing_region,
          "SigV4 signing region (AWS REST endpoints; empty = no signing unless advertised).")
      .AppliesTo({"rest"});
  b.Field("signing_name", &CatalogBackendConfig::signing_name, "SigV4 service name.")
      .AppliesTo({"rest"});
  b.Field("region", &CatalogBackendConfig::region, "AWS region.").AppliesTo({"glue", "s3tables"});
  b.Field("endpoint", &CatalogBackendConfig::endpoint, "Glue endpoint override (e.g. LocalStack).")
      .AppliesTo({"glue"});
  b.Field("catalog_id", &CatalogBackendConfig::catalog_id,
          "Glue catalog ID (AWS account; empty = the caller's).")
      .AppliesTo({"glue"});
  b.Field("table_bucket_arn", &CatalogBackendConfig::table_bucket_arn, "S3 Tables bucket ARN.")
      .AppliesTo({"s3tables"});
  b.Field("endpoint_url", &CatalogBackendConfig::endpoint_url,
          "S3 Tables endpoint override (e.g. LocalStack).")
      .AppliesTo({"s3tables"});
  b.Field("url", &CatalogBackendConfig::url,
          "JDBC database URL, e.g. postgresql://user@host:5432/iceberg (a password in it is "
          "masked when printed; prefer `password`).")
      .AppliesTo({"jdbc"})
      .UrlWithCredentials();
  b.Field("user", &CatalogBackendConfig::user, "JDBC database user.").AppliesTo({"jdbc"});
  b.Field("password", &CatalogBackendConfig::password, "JDBC database password.")
      .AppliesTo({"jdbc"});

  auto r = c.Section("rest_server", &CatalogConfig::rest_server,
                     "SQE serving its catalog over the Iceberg REST protocol.");
  r.Port("port", &RestServerConfig::port, "Iceberg REST catalog listener port (0 = off).")
      .ZeroDisables()
      .DefaultDoc("`8181` in local mode, else `0`");
}

void DescribeStorage(SchemaBuilder<Config>& root) {
  auto s = root.Section("storage", &Config::storage, "Object-store access and the read pipeline.");
  s.Field("s3_endpoint", &StorageConfig::s3_endpoint,
          "S3 endpoint, scheme://host[:port]; empty: AWS S3 in s3_region. An http:// "
          "endpoint needs s3_allow_http.");
  s.Field("s3_region", &StorageConfig::s3_region, "S3 region.");
  s.Field("s3_access_key", &StorageConfig::s3_access_key,
          "S3 access key ID. Empty (with s3_secret_key): AWS_ACCESS_KEY_ID, "
          "AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN from the environment, else unsigned "
          "requests. Credentials a catalog vends for a table replace both.");
  s.Field("s3_secret_key", &StorageConfig::s3_secret_key, "S3 secret access key.");
  s.Field("s3_path_style", &StorageConfig::s3_path_style,
          "Path-style addressing (host/bucket/key): true for MinIO/Ceph; false: "
          "virtual-host (bucket.host/key), as AWS S3 prefers.");
  s.Field("s3_allow_http", &StorageConfig::s3_allow_http,
          "Allow a plaintext http:// S3 endpoint (dev/test only); otherwise it is refused, "
          "with this fix named, at the first S3 access.");
  s.Field("concurrent_requests_per_file", &StorageConfig::concurrent_requests_per_file,
          "Max concurrent ranged GETs per file: the ranges of one read (after coalescing; "
          "reads over 8 MiB split in pieces) run in parallel.")
      .Min(1);
  s.Field("max_concurrent_files", &StorageConfig::max_concurrent_files,
          "Max files with S3 requests in flight at once (process-wide); other reads wait "
          "for a slot.")
      .Min(1);
  s.Size("prefetch_buffer", &StorageConfig::prefetch_buffer,
         "Bound on speculative read-ahead per file: the tail read that brings the Parquet "
         "footer with the file's first request (64 KiB, less if this is smaller) and "
         "whole-file fetches of small files.");
  s.Size("coalesce_threshold", &StorageConfig::coalesce_threshold,
         "Byte ranges of one read whose gap is at most this are fetched with one request "
         "(0: never merged); a merged request stays within 64 MiB.");
  s.Size("footer_cache_size", &StorageConfig::footer_cache_size,
         "Memory budget of the LRU cache of decoded Parquet footers, keyed by path and "
         "size (0 disables); a hit skips the footer read.");
}

void DescribeAccessAndPolicy(SchemaBuilder<Config>& root) {
  auto a = root.Section("access_control", &Config::access_control,
                        "Where GRANT and REVOKE are stored and resolved.");
  a.Field("backend", &AccessControlConfig::backend, "Access-control backend.")
      .Enum({"none", "polaris", "ranger", "chameleon"});
  auto p = root.Section("policy", &Config::policy,
                        "Fine-grained enforcement (row filters and column masks).");
  p.Field("engine", &PolicyConfig::engine, "Policy engine (opa and cedar are not wired yet).")
      .Enum({"passthrough", "in-memory", "ranger"})
      .Unwired({"opa", "cedar"});
}

void DescribeSession(SchemaBuilder<Config>& root) {
  auto s = root.Section("session", &Config::session, "Per-user session lifetime and persistence.");
  s.Field("idle_timeout_secs", &SessionConfig::idle_timeout_secs,
          "Sessions idle longer than this expire.")
      .Min(1);
  s.Field("absolute_timeout_secs", &SessionConfig::absolute_timeout_secs,
          "Hard cap on a session's lifetime.")
      .Min(1);
  s.Field("persistence", &SessionConfig::persistence, "Where sessions are kept.")
      .Enum({"memory", "file"});
  s.Field("persistence_path", &SessionConfig::persistence_path,
          "File of the file-based persistence.");
  s.Field("snapshot_interval_secs", &SessionConfig::snapshot_interval_secs,
          "How often file persistence snapshots sessions to disk.")
      .Min(1);
  s.Field("secrets_path", &SessionConfig::secrets_path,
          "Optional CREATE SECRET snapshot (plaintext JSON, mode 0600); empty = memory only.");
}

void DescribeQuery(SchemaBuilder<Config>& root) {
  auto q = root.Section("query", &Config::query,
                        "Per-query limits, distribution thresholds and write-path safety.");
  q.Field("timeout_secs", &QueryConfig::timeout_secs, "Max execution time per query.").Min(0);
  q.Field("max_result_rows", &QueryConfig::max_result_rows, "Max rows per query (0 = unlimited).")
      .Min(0);
  q.Field("max_concurrent_queries", &QueryConfig::max_concurrent_queries,
          "Concurrency limit (0 = unlimited).")
      .Min(0);
  q.Size("max_query_memory", &QueryConfig::max_query_memory, "Per-query memory limit.");
  q.Field("slow_query_threshold_secs", &QueryConfig::slow_query_threshold_secs,
          "Queries slower than this are logged at WARN.")
      .Min(0);
  q.Size("distribution_threshold", &QueryConfig::distribution_threshold,
         "Min scan size to distribute to workers.");
  q.Field("distribution_file_threshold", &QueryConfig::distribution_file_threshold,
          "Min file count to distribute.")
      .Min(0);
  q.Size("target_task_size", &QueryConfig::target_task_size,
         "Target scan task size for bin-packing.");
  q.Field("sort_mode", &QueryConfig::sort_mode, "How far sort-order metadata is trusted.")
      .Enum({"adaptive", "partition_only", "strict"});
  q.Field("write_buffer_tracking", &QueryConfig::write_buffer_tracking,
          "Pool-track write buffers, so big writes fail with ResourceExhausted, not OOM.");
  q.Field("fanout_max_open_writers", &QueryConfig::fanout_max_open_writers,
          "Cap on open per-partition writers (0 = auto: pool-derived, 8..64).")
      .Min(0);
  q.Size("fanout_buffer_budget", &QueryConfig::fanout_buffer_budget,
         "Byte budget for buffered fanout memory (0 = auto).");
  q.Field("merge_target_streaming", &QueryConfig::merge_target_streaming,
          "Stream the copy-on-write MERGE target from files instead of buffering it (needs "
          "write_buffer_tracking).");
  q.Map("role_overrides", &QueryConfig::role_overrides, FieldType::kInt, "<role>",
        "Per-role query timeout overrides in seconds, e.g. admin = 3600.")
      .Min(0);
}

void DescribeCachesAndLimits(SchemaBuilder<Config>& root) {
  auto c = root.Section("query_cache", &Config::query_cache, "The query result cache.");
  c.Field("enabled", &QueryCacheConfig::enabled, "Enable query result caching.");
  c.Field("max_memory_mb", &QueryCacheConfig::max_memory_mb, "Total cache memory budget.").Min(0);
  c.Field("max_entry_mb", &QueryCacheConfig::max_entry_mb, "Max size of one cached result.").Min(0);
  c.Field("ttl_secs", &QueryCacheConfig::ttl_secs, "Cache entry TTL.").Min(0);

  auto h = root.Section("query_history", &Config::query_history,
                        "The in-memory history of recent queries.");
  h.Field("max_entries", &QueryHistoryConfig::max_entries, "Max queries retained.").Min(0);
  h.Field("ttl_secs", &QueryHistoryConfig::ttl_secs, "History entry TTL.").Min(0);

  auto r = root.Section("rate_limit", &Config::rate_limit, "Per-user and global query admission.");
  r.Field("enabled", &RateLimitConfig::enabled, "Enable rate limiting.");
  r.Field("per_user_queries_per_minute", &RateLimitConfig::per_user_queries_per_minute,
          "Queries per minute one user may start.")
      .Min(0);
  r.Field("global_queries_per_minute", &RateLimitConfig::global_queries_per_minute,
          "Queries per minute all users together may start.")
      .Min(0);
}

void DescribeMetrics(SchemaBuilder<Config>& root) {
  auto m = root.Section("metrics", &Config::metrics,
                        "Prometheus, OTLP export, tracing and the audit log.");
  m.Port("prometheus_port", &MetricsConfig::prometheus_port, "Prometheus /metrics port.");
  m.Field("otlp_endpoint", &MetricsConfig::otlp_endpoint, "OTLP gRPC endpoint (empty = disabled).");
  m.Field("traces_otlp_endpoint", &MetricsConfig::traces_otlp_endpoint,
          "Trace-only OTLP gRPC endpoint (empty = otlp_endpoint).");
  m.Field("trace_sample_rate", &MetricsConfig::trace_sample_rate,
          "Fraction of queries traced, 0.0 to 1.0.")
      .Min(0)
      .Max(1);
  m.Field("audit_log_path", &MetricsConfig::audit_log_path, "Audit JSONL file (empty = disabled).");
}

void DescribeMaintenance(SchemaBuilder<Config>& root) {
  auto m = root.Section("maintenance", &Config::maintenance,
                        "Background compaction: the mode ladder, its principal, scheduler and "
                        "sizing knobs.");
  m.Field("mode", &MaintenanceConfig::mode,
          "off: nothing runs; advisory: report compaction debt; active: rewrite opted-in "
          "tables.")
      .Enum({"off", "advisory", "active"});

  auto p = m.OptionalSection("principal", &MaintenanceConfig::principal,
                             "The OAuth2 client-credentials identity of the maintenance "
                             "scheduler; required when mode is not off.");
  p.Field("token_endpoint", &MaintenancePrincipalConfig::token_endpoint, "OAuth2 token endpoint.");
  p.Field("client_id", &MaintenancePrincipalConfig::client_id, "OAuth2 client ID.");
  p.Field("client_secret", &MaintenancePrincipalConfig::client_secret, "OAuth2 client secret.");
  p.Field("scope", &MaintenancePrincipalConfig::scope, "OAuth2 scope.");
  p.Field("user_id", &MaintenancePrincipalConfig::user_id,
          "Audit display identity of this principal.");
  p.Field("roles", &MaintenancePrincipalConfig::roles, "Roles of this principal.");
  p.Field("refresh_skew_secs", &MaintenancePrincipalConfig::refresh_skew_secs,
          "Refresh the token this many seconds before expiry.")
      .Min(0);

  auto s = m.Section("scheduler", &MaintenanceConfig::scheduler, "The in-coordinator tick loop.");
  s.Field("enabled", &MaintenanceSchedulerConfig::enabled,
          "Run the tick loop in the coordinator (false: drive it from an external CronJob).");
  s.Field("tick_secs", &MaintenanceSchedulerConfig::tick_secs,
          "How often the loop wakes up; must be > 0.");
  s.Field("schedule", &MaintenanceSchedulerConfig::schedule,
          "Global 5-field cron schedule (minute hour day-of-month month day-of-week), UTC.");
  s.Field("jitter_secs", &MaintenanceSchedulerConfig::jitter_secs,
          "Deterministic per-table delay added to each fire time.")
      .Min(0);
  s.Field("max_concurrent_jobs", &MaintenanceSchedulerConfig::max_concurrent_jobs,
          "Max compaction jobs running at once.")
      .Min(1);
  s.Field("lease", &MaintenanceSchedulerConfig::lease,
          "Double-fire guard between coordinators (kubernetes is not implemented).")
      .Enum({"none", "catalog", "kubernetes"});
  s.Field("lease_ttl_secs", &MaintenanceSchedulerConfig::lease_ttl_secs,
          "How long a crashed holder's lease stays valid; must be > 0.");
  s.Field("state_table", &MaintenanceSchedulerConfig::state_table,
          "Operator-created table of job history and lease rows.");
  s.Field("single_scheduler_acknowledged",
          &MaintenanceSchedulerConfig::single_scheduler_acknowledged,
          "Must be true to run enabled = true with lease = \"none\".");

  auto c = m.Section("compaction", &MaintenanceConfig::compaction,
                     "Sizing knobs of rewrite_data_files and table_health.");
  c.Field("target_file_size_bytes", &MaintenanceCompactionConfig::target_file_size_bytes,
          "Target size of rewritten data files in bytes.")
      .Min(1);
  c.Field("min_input_files", &MaintenanceCompactionConfig::min_input_files,
          "Min small files before a partition is compacted.")
      .Min(1);
  c.Field("delete_file_threshold", &MaintenanceCompactionConfig::delete_file_threshold,
          "Delete files per data file that make it eligible for rewrite.")
      .Min(0);
  c.Field("strategy", &MaintenanceCompactionConfig::strategy, "Rewrite strategy.")
      .Enum({"binpack", "sort", "zorder"});

  auto d = m.Section("distribution", &MaintenanceConfig::distribution,
                     "Coordinator-local versus worker-fleet compaction.");
  d.Field("mode", &MaintenanceDistributionConfig::mode,
          "auto: fan out from min_workers healthy workers; local: never; require: always.")
      .Enum({"auto", "local", "require"});
  d.Field("min_workers", &MaintenanceDistributionConfig::min_workers,
          "Healthy-worker floor of auto and require.")
      .Min(0);
  d.Field("max_inflight_groups_per_worker",
          &MaintenanceDistributionConfig::max_inflight_groups_per_worker,
          "Per-worker cap on concurrently dispatched file groups.")
      .Min(1);
  d.Field("group_attempts", &MaintenanceDistributionConfig::group_attempts,
          "Attempts for one file group, each on a different worker.")
      .Min(1);
  d.Field("group_timeout_secs", &MaintenanceDistributionConfig::group_timeout_secs,
          "End-to-end bound on one group dispatch attempt.")
      .Min(1);
  d.Field("group_heartbeat_timeout_secs",
          &MaintenanceDistributionConfig::group_heartbeat_timeout_secs,
          "Max wait between progress frames once a worker responds.")
      .Min(1);
  d.Field("partial_progress", &MaintenanceDistributionConfig::partial_progress,
          "Commit successful groups in batches instead of all-or-nothing.");
  d.Field("partial_progress_batch", &MaintenanceDistributionConfig::partial_progress_batch,
          "Groups per commit when partial_progress is true (>= 1 then).")
      .Min(0);
}

std::unique_ptr<SchemaNode> BuildSchema() {
  auto root_node = std::make_unique<SchemaNode>();
  root_node->kind = NodeKind::kSection;
  root_node->section = [](void* owner, bool) { return owner; };
  SchemaBuilder<Config> root(root_node.get());
  DescribeCoordinator(root);
  DescribeWorker(root);
  DescribeAuth(root);
  DescribeCatalog(root);
  DescribeStorage(root);
  DescribeAccessAndPolicy(root);
  DescribeSession(root);
  DescribeQuery(root);
  DescribeCachesAndLimits(root);
  DescribeMetrics(root);
  DescribeMaintenance(root);
  return root_node;
}

}  // namespace

const SchemaNode& ConfigSchema() {
  static const std::unique_ptr<SchemaNode> root = BuildSchema();
  return *root;
}

}  // namespace sqe::config
