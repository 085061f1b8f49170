// The schema itself, and the small pieces the loader is built from.

#include <set>

#include "config/config_source_internal.h"
#include "config/config_testing.h"
#include "config/name_suggestion_internal.h"
#include "config/schema_internal.h"
#include "config/url_credentials_internal.h"

namespace sqe::config {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(ConfigSchemaTest, EveryReferenceFieldIsInTheSchema) {
  // Every key of the reference's "Full Reference" block and those later issues name.
  const char* kPaths[] = {
      "access_control.backend",
      "auth.client_id",
      "auth.client_secret",
      "auth.keycloak_url",
      "auth.realm",
      "auth.ssl_verification",
      "auth.token_endpoint",
      "auth.token_refresh_buffer_secs",
      "catalog.backend.region",
      "catalog.backend.table_bucket_arn",
      "catalog.backend.type",
      "catalog.backend.uri",
      "catalog.backend.url",
      "catalog.backend.warehouse",
      "catalog.backend.endpoint",
      "catalog.backend.endpoint_url",
      "catalog.catalog_url",
      "catalog.default_table_format_version",
      "catalog.metadata_cache_ttl_secs",
      "catalog.parquet_compression",
      "catalog.small_file_threshold_mb",
      "catalog.trust_sort_order",
      "catalog.warehouse",
      "catalog.name",
      "catalog.rest_server.port",
      "coordinator.debug",
      "coordinator.flight_compression",
      "coordinator.flight_sql_port",
      "coordinator.mode",
      "coordinator.session_context_cache_ttl_secs",
      "coordinator.shuffle_compression",
      "coordinator.tls.ca_file",
      "coordinator.tls.cert_file",
      "coordinator.tls.key_file",
      "coordinator.trino_http_port",
      "coordinator.worker_secret",
      "coordinator.worker_urls",
      "maintenance.compaction.delete_file_threshold",
      "maintenance.compaction.min_input_files",
      "maintenance.compaction.strategy",
      "maintenance.compaction.target_file_size_bytes",
      "maintenance.distribution.group_attempts",
      "maintenance.distribution.group_heartbeat_timeout_secs",
      "maintenance.distribution.group_timeout_secs",
      "maintenance.distribution.max_inflight_groups_per_worker",
      "maintenance.distribution.min_workers",
      "maintenance.distribution.mode",
      "maintenance.distribution.partial_progress",
      "maintenance.distribution.partial_progress_batch",
      "maintenance.mode",
      "maintenance.principal.client_id",
      "maintenance.principal.client_secret",
      "maintenance.principal.refresh_skew_secs",
      "maintenance.principal.roles",
      "maintenance.principal.scope",
      "maintenance.principal.token_endpoint",
      "maintenance.principal.user_id",
      "maintenance.scheduler.enabled",
      "maintenance.scheduler.jitter_secs",
      "maintenance.scheduler.lease",
      "maintenance.scheduler.lease_ttl_secs",
      "maintenance.scheduler.max_concurrent_jobs",
      "maintenance.scheduler.schedule",
      "maintenance.scheduler.single_scheduler_acknowledged",
      "maintenance.scheduler.state_table",
      "maintenance.scheduler.tick_secs",
      "metrics.audit_log_path",
      "metrics.otlp_endpoint",
      "metrics.prometheus_port",
      "metrics.trace_sample_rate",
      "metrics.traces_otlp_endpoint",
      "policy.engine",
      "query.distribution_file_threshold",
      "query.distribution_threshold",
      "query.fanout_buffer_budget",
      "query.fanout_max_open_writers",
      "query.max_concurrent_queries",
      "query.max_query_memory",
      "query.max_result_rows",
      "query.merge_target_streaming",
      "query.role_overrides.admin",
      "query.slow_query_threshold_secs",
      "query.sort_mode",
      "query.target_task_size",
      "query.timeout_secs",
      "query.write_buffer_tracking",
      "query_cache.enabled",
      "query_cache.max_entry_mb",
      "query_cache.max_memory_mb",
      "query_cache.ttl_secs",
      "query_history.max_entries",
      "query_history.ttl_secs",
      "rate_limit.enabled",
      "rate_limit.global_queries_per_minute",
      "rate_limit.per_user_queries_per_minute",
      "session.absolute_timeout_secs",
      "session.idle_timeout_secs",
      "session.persistence",
      "session.persistence_path",
      "session.secrets_path",
      "session.snapshot_interval_secs",
      "storage.concurrent_requests_per_file",
      "storage.max_concurrent_files",
      "storage.prefetch_buffer",
      "storage.s3_access_key",
      "storage.s3_allow_http",
      "storage.s3_endpoint",
      "storage.s3_path_style",
      "storage.s3_region",
      "storage.s3_secret_key",
      "storage.coalesce_threshold",
      "storage.footer_cache_size",
      "worker.advertise_url",
      "worker.coordinator_url",
      "worker.flight_port",
      "worker.heartbeat_interval_secs",
      "worker.memory_limit",
      "worker.spill_dir",
      "worker.spill_to_disk",
      "auth.providers.0.type",
      "auth.providers.0.token_url",
      "auth.providers.0.client_id",
      "auth.providers.0.client_secret",
      "auth.providers.0.scope",
      "auth.providers.0.roles_claim",
      "auth.providers.0.jwks_url",
      "auth.providers.0.issuer",
      "auth.providers.0.keys_file",
      "auth.providers.0.key_prefix",
      "auth.providers.0.token_endpoint",
      "auth.providers.0.region",
      "auth.providers.0.validate_with_sts",
      "auth.providers.0.user",
      "auth.providers.0.roles",
      "auth.role_mappings.arn",
      "auth.external.issuer",
      "auth.external.client_id",
      "auth.external.scopes",
      "auth.external.device.client_id",
      "auth.external.device.scopes",
  };
  for (const char* path : kPaths) {
    Config scratch;
    std::vector<std::string> segments = SplitSetPath(path);
    auto resolved = ResolvePath(scratch, segments, /*create=*/true);
    ASSERT_TRUE(std::holds_alternative<ResolvedPath>(resolved)) << path;
    auto target = std::get<ResolvedPath>(resolved).target;
    EXPECT_TRUE(target == ResolvedPath::Target::kField || target == ResolvedPath::Target::kMapEntry)
        << path;
  }
}

TEST(ConfigSchemaTest, FieldsAreDescribedAndEnvNamesUnique) {
  std::set<std::string> env_names;
  for (const SchemaNode* field : AllFieldNodes()) {
    EXPECT_FALSE(field->description.empty()) << field->SchemaPath();
    EXPECT_TRUE(env_names.insert(field->EnvName()).second) << field->EnvName();
    EXPECT_EQ(field->EnvName().rfind("SQE_", 0), 0u);
  }
  EXPECT_GT(env_names.size(), 150u);
}

TEST(ConfigSchemaTest, EnumDefaultsAreAccepted) {
  Config defaults;
  defaults.auth.providers.resize(1);
  defaults.maintenance.principal.emplace();
  WalkFields(defaults, [](const FieldVisit& v) {
    if (v.node->enum_values.empty() || v.node->discriminator) return;
    const std::string& value = *std::get<std::string*>(v.value);
    EXPECT_NE(std::find(v.node->enum_values.begin(), v.node->enum_values.end(), value),
              v.node->enum_values.end())
        << v.path << " = " << value;
  });
}

TEST(ConfigSchemaTest, EnvNamesFollowTheRule) {
  const SchemaNode* tls_cert = nullptr;
  const SchemaNode* provider_secret = nullptr;
  for (const SchemaNode* f : AllFieldNodes()) {
    if (f->SchemaPath() == "coordinator.tls.cert_file") tls_cert = f;
    if (f->SchemaPath() == "auth.providers[N].client_secret") provider_secret = f;
  }
  ASSERT_NE(tls_cert, nullptr);
  ASSERT_NE(provider_secret, nullptr);
  EXPECT_EQ(tls_cert->EnvName(), "SQE_COORDINATOR__TLS__CERT_FILE");
  EXPECT_EQ(provider_secret->EnvName(), "SQE_AUTH__PROVIDERS__<N>__CLIENT_SECRET");
}

TEST(EnvLayerTest, OnlyPrefixedVariablesWithDoubleUnderscore) {
  Layer layer = EnvLayer({{"SQE_CONFIG", "/x"},
                          {"SQE_LOG_LEVEL", "debug"},
                          {"SQE_A__B__C", "v"},
                          {"XSQE_A__B", "v"},
                          {"SQE_QUERY__ROLE_OVERRIDES__Admin", "1"}});
  ASSERT_EQ(layer.entries.size(), 2u);
  EXPECT_THAT(layer.entries[0].path, ElementsAre("a", "b", "c"));
  EXPECT_EQ(layer.entries[0].origin, "env SQE_A__B__C");
  EXPECT_THAT(layer.entries[1].path, ElementsAre("query", "role_overrides", "admin"));
}

TEST(SetPathTest, SplitsDotsQuotesAndIndices) {
  EXPECT_THAT(SplitSetPath("a.b.c"), ElementsAre("a", "b", "c"));
  EXPECT_THAT(SplitSetPath("auth.providers[2].client_id"),
              ElementsAre("auth", "providers", "2", "client_id"));
  EXPECT_THAT(SplitSetPath("auth.role_mappings.\"arn:aws:iam::1:role/a.b\""),
              ElementsAre("auth", "role_mappings", "arn:aws:iam::1:role/a.b"));
  EXPECT_THAT(SplitSetPath("a.\"q\\\"x\""), ElementsAre("a", "q\"x"));
  for (const char* bad :
       {"", ".", "a.", ".a", "a..b", "a[x]", "a[]", "a[1]b", "\"open", "a\"b\""}) {
    EXPECT_THAT(SplitSetPath(bad), IsEmpty()) << bad;
  }
}

TEST(NameSuggestionTest, EditDistanceAndClosestName) {
  EXPECT_EQ(EditDistance("flight_sql_prot", "flight_sql_port"), 1u);  // transposition
  EXPECT_EQ(EditDistance("", "abc"), 3u);
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3u);
  EXPECT_EQ(ClosestName("tiemout_secs", {"ttl_secs", "timeout_secs"}), "timeout_secs");
  EXPECT_EQ(ClosestName("zzzzzzzz", {"timeout_secs", "ttl_secs"}), "");
}

TEST(UrlCredentialsTest, FindsAndMasksPasswords) {
  EXPECT_EQ(MaskUrlPasswords("postgresql://user:pass@host:5432/iceberg"),
            "postgresql://user:***@host:5432/iceberg");
  EXPECT_THAT(UrlPasswords("postgresql://user:pa:ss@host/db"), ElementsAre("pa:ss"));
  EXPECT_EQ(MaskUrlPasswords("jdbc:postgresql://host/db?user=u&password=p1&ssl=true"),
            "jdbc:postgresql://host/db?user=u&password=***&ssl=true");
  EXPECT_EQ(MaskUrlPasswords("postgresql://user@host/db"), "postgresql://user@host/db");
  EXPECT_EQ(MaskUrlPasswords("user:pw@host:5432/db"), "user:***@host:5432/db");
  EXPECT_EQ(MaskUrlPasswords("https://host/path@x"), "https://host/path@x");
}

TEST(PlannedListenersTest, PerMode) {
  Config c;
  c.catalog.rest_server.port = 8181;
  auto names = [](const Config& config) {
    std::vector<std::string> out;
    for (const ListenerSpec& l : PlannedListeners(config)) out.push_back(l.name);
    return out;
  };
  for (const char* mode : {"local", "coordinator", "hybrid", "distributed"}) {
    c.coordinator.mode = mode;
    EXPECT_THAT(names(c), ElementsAre("flight_sql", "trino_http", "metrics", "rest_catalog"))
        << mode;
  }
  c.coordinator.mode = "worker";
  EXPECT_THAT(names(c), ElementsAre("worker_flight", "metrics"));
  c.coordinator.mode = "hybrid";
  c.coordinator.trino_http_port = 0;
  c.catalog.rest_server.port = 0;
  EXPECT_THAT(names(c), ElementsAre("flight_sql", "metrics"));
  EXPECT_EQ(PlannedListeners(c)[0].field, "coordinator.flight_sql_port");
}

TEST(DiagnosticTest, ToStringPrefixesTheSeverity) {
  Diagnostic error{Diagnostic::Severity::kError, "a.b", "a.b is broken"};
  Diagnostic warning{Diagnostic::Severity::kWarning, "a.b", "a.b is odd"};
  EXPECT_EQ(error.ToString(), "error: a.b is broken");
  EXPECT_EQ(warning.ToString(), "warning: a.b is odd");
}

TEST(RawValueTest, InlineArrays) {
  auto array = ParseInlineArray("[\"a\", \"b\"]");
  ASSERT_TRUE(array.ok());
  ASSERT_EQ(array->items.size(), 2u);
  EXPECT_EQ(array->items[1].text, "b");
  EXPECT_FALSE(ParseInlineArray("[\"a\",").ok());
}

}  // namespace
}  // namespace sqe::config
