// ToToml: never prints a secret, however it was given, omits fields of other types, and
// its output loads back to the same configuration.

#include "config/config_testing.h"

namespace sqe::config {
namespace {

using ::testing::HasSubstr;
using testing::LoadInput;
using testing::LoadOutcome;
using testing::LoadWith;
using ::testing::Not;
using testing::ScratchDir;

/// A secret field: where it goes in TOML, its env var, and a value found nowhere else.
struct SecretField {
  std::string table;  ///< TOML table header the key lives under (its first occurrence)
  std::string key;
  std::string env;
  std::string value;
};

enum class How { kInline, kEnv, kFile };

/// Builds a config holding every secret `how`, around a backend of `backend_type`.
LoadInput SecretConfig(const ScratchDir& dir, How how, const std::string& backend_type,
                       std::vector<SecretField>* secrets) {
  *secrets = {
      {"coordinator", "worker_secret", "SQE_COORDINATOR__WORKER_SECRET", "Wk-7f1c2e-worker"},
      {"auth", "client_secret", "SQE_AUTH__CLIENT_SECRET", "Au-55e0a1-legacy"},
      {"provider0", "client_secret", "SQE_AUTH__PROVIDERS__0__CLIENT_SECRET", "Pv-0d9b77-pwd"},
      {"provider1", "client_secret", "SQE_AUTH__PROVIDERS__1__CLIENT_SECRET", "Pv-81aa3c-m2m"},
      {"storage", "s3_access_key", "SQE_STORAGE__S3_ACCESS_KEY", "AKIAQ7Z3X9DISTINCT"},
      {"storage", "s3_secret_key", "SQE_STORAGE__S3_SECRET_KEY", "S3-c0ffee-secret"},
      {"principal", "client_secret", "SQE_MAINTENANCE__PRINCIPAL__CLIENT_SECRET",
       "Mt-2b4d6f-maint"},
  };
  if (backend_type == "rest") {
    secrets->push_back(
        {"backend", "credential", "SQE_CATALOG__BACKEND__CREDENTIAL", "root:Cr-9e8d7c-cred"});
    secrets->push_back({"backend", "token", "SQE_CATALOG__BACKEND__TOKEN", "Tk-4a5b6c-token"});
  } else {
    secrets->push_back({"backend", "password", "SQE_CATALOG__BACKEND__PASSWORD", "Pw-1f2e3d-jdbc"});
  }
  std::map<std::string, std::string> lines;  // table -> its key lines
  LoadInput input;
  int n = 0;
  for (const SecretField& s : *secrets) {
    switch (how) {
      case How::kInline:
        lines[s.table] += s.key + " = \"" + s.value + "\"\n";
        break;
      case How::kEnv:
        input.env[s.env] = s.value;
        break;
      case How::kFile: {
        std::string file = "secrets/s" + std::to_string(n++);
        dir.Write(file, s.value + "\n");
        lines[s.table] += s.key + "_file = \"" + file + "\"\n";  // relative to the config
        break;
      }
    }
  }
  std::string backend =
      backend_type == "rest"
          ? "type = \"rest\"\n"
          : "type = \"jdbc\"\nurl = \"postgresql://etl:Url-6c5b4a-pw@db:5432/ice\"\n";
  input.toml = "[coordinator]\n" + lines["coordinator"] +
               "[auth]\ntoken_endpoint = \"https://idp/token\"\n" + lines["auth"] +
               "[[auth.providers]]\ntype = \"oidc_password\"\ntoken_url = \"https://idp/token\"\n"
               "client_id = \"sqe\"\n" +
               lines["provider0"] +
               "[[auth.providers]]\ntype = \"oidc_m2m\"\ntoken_endpoint = \"https://idp/token\"\n"
               "client_id = \"etl\"\n" +
               lines["provider1"] + "[storage]\n" + lines["storage"] + "[catalog.backend]\n" +
               backend + lines["backend"] +
               "[maintenance.principal]\ntoken_endpoint = \"https://idp/token\"\n"
               "client_id = \"maint\"\n" +
               lines["principal"];
  return input;
}

TEST(ConfigTomlWriterTest, NeverPrintsASecretGivenInlineByEnvOrByFile) {
  for (How how : {How::kInline, How::kEnv, How::kFile}) {
    for (const char* backend : {"rest", "jdbc"}) {
      SCOPED_TRACE(std::string(backend) + " how=" + std::to_string(static_cast<int>(how)));
      ScratchDir dir;
      std::vector<SecretField> secrets;
      LoadOutcome out = LoadWith(dir, SecretConfig(dir, how, backend, &secrets));
      ASSERT_TRUE(out.ok) << out.ErrorText();
      std::string toml = ToToml(out.config);
      for (const SecretField& s : secrets) {
        EXPECT_THAT(toml, Not(HasSubstr(s.value))) << s.env;
        // The half after "client_id:" must not leak either.
        std::string tail = s.value.substr(s.value.find(':') + 1);
        EXPECT_THAT(toml, Not(HasSubstr(tail))) << s.env;
      }
      EXPECT_THAT(toml, Not(HasSubstr("Url-6c5b4a-pw")));
      // Every secret was picked up (so "***" proves redaction, not absence).
      LoadOutcome reloaded = LoadWith(dir, toml);
      ASSERT_TRUE(reloaded.ok) << reloaded.ErrorText();
      const Config& c = reloaded.config;
      EXPECT_EQ(out.config.coordinator.worker_secret.Expose(), secrets[0].value);
      EXPECT_EQ(c.coordinator.worker_secret.Expose(), "***");
      EXPECT_EQ(c.auth.client_secret.Expose(), "***");
      EXPECT_EQ(c.auth.providers[0].client_secret.Expose(), "***");
      EXPECT_EQ(c.auth.providers[1].client_secret.Expose(), "***");
      EXPECT_EQ(c.storage.s3_access_key.Expose(), "***");
      EXPECT_EQ(c.storage.s3_secret_key.Expose(), "***");
      EXPECT_EQ(c.maintenance.principal->client_secret.Expose(), "***");
      if (std::string(backend) == "rest") {
        EXPECT_EQ(c.catalog.backend.credential.Expose(), "***");
        EXPECT_EQ(c.catalog.backend.token.Expose(), "***");
      } else {
        EXPECT_EQ(c.catalog.backend.password.Expose(), "***");
        EXPECT_EQ(c.catalog.backend.url, "postgresql://etl:***@db:5432/ice");
      }
      // Diagnostics never carry them either.
      for (const Diagnostic& d : reloaded.diagnostics) {
        for (const SecretField& s : secrets) EXPECT_THAT(d.message, Not(HasSubstr(s.value)));
      }
    }
  }
}

/// A configuration with a non-default value nearly everywhere, secrets left empty.
std::string RichConfig() {
  return R"([coordinator]
mode = "distributed"
flight_sql_port = 51000
trino_http_port = 0
worker_urls = ["grpc://w1:50052", "grpc://w-\"2\":50052"]
debug = true
flight_compression = "zstd"
shuffle_compression = "none"
session_context_cache_ttl_secs = 5

[worker]
coordinator_url = "grpc://coord:51000"
flight_port = 51001
advertise_url = "grpc://10.1.2.3:51001"
heartbeat_interval_secs = 2
memory_limit = "3GB"
spill_to_disk = false
spill_dir = "/var/tmp/sqe spill"

[auth]
keycloak_url = "https://kc.example.com"
realm = "iceberg"
client_id = "sqe-ü"
token_refresh_buffer_secs = 30
ssl_verification = true

[[auth.providers]]
type = "oidc_password"
token_url = "https://kc/token"
client_id = "sqe"
scope = "openid"
roles_claim = "groups"
user_claim = "email"

[[auth.providers]]
type = "bearer_token"
jwks_url = "https://kc/certs"
issuer = "https://kc"
audience = "sqe"

[[auth.providers]]
type = "aws_iam"
region = "eu-west-1"
validate_with_sts = false
sts_endpoint = "https://sts.eu-west-1.amazonaws.com"

[auth.role_mappings]
"arn:aws:iam::123456789012:role/DataAnalyst" = ["analyst", "reader"]
plain = []

[auth.external]
issuer = "https://kc/realms/iceberg"
client_id = "sqe-cli"
scopes = ["openid", "profile"]

[auth.external.device]
client_id = "sqe-cli-device"
scopes = ["openid"]

[catalog]
name = "lake"
catalog_url = "https://polaris/api/catalog"
warehouse = "wh"
metadata_cache_ttl_secs = 0
default_table_format_version = 3
trust_sort_order = true
small_file_threshold_mb = 0
parquet_compression = "snappy"

[catalog.backend]
type = "rest"
uri = "https://other/api/catalog"
oauth2_server_uri = "https://kc/token"
scope = "PRINCIPAL_ROLE:ALL"
access_delegation = "none"
signing_region = "eu-west-1"
signing_name = "glue"

[catalog.rest_server]
port = 8282

[storage]
s3_endpoint = "https://s3.eu-west-1.amazonaws.com"
s3_region = "eu-west-1"
s3_path_style = false
s3_allow_http = true
concurrent_requests_per_file = 16
max_concurrent_files = 32
prefetch_buffer = "1536B"
coalesce_threshold = "2MB"
footer_cache_size = "1GB"

[access_control]
backend = "polaris"

[policy]
engine = "ranger"

[session]
idle_timeout_secs = 60
absolute_timeout_secs = 3600
persistence = "file"
persistence_path = "/var/lib/sqe/sessions.json"
snapshot_interval_secs = 5
secrets_path = "/var/lib/sqe/secrets.json"

[query]
timeout_secs = 0
max_result_rows = 0
max_concurrent_queries = 7
max_query_memory = "1TB"
slow_query_threshold_secs = 1
distribution_threshold = "0"
distribution_file_threshold = 0
target_task_size = "64MB"
sort_mode = "strict"
write_buffer_tracking = true
fanout_max_open_writers = 12
fanout_buffer_budget = "512MB"
merge_target_streaming = true

[query.role_overrides]
admin = 3600
"data engineer" = 600

[query_cache]
enabled = true
max_memory_mb = 1
max_entry_mb = 1
ttl_secs = 1

[query_history]
max_entries = 1
ttl_secs = 1

[rate_limit]
enabled = true
per_user_queries_per_minute = 1
global_queries_per_minute = 2

[metrics]
prometheus_port = 9191
otlp_endpoint = "http://otel:4317"
traces_otlp_endpoint = "http://otel:4318"
trace_sample_rate = 0.123456789
audit_log_path = "/var/log/sqe/audit.jsonl"

[maintenance]
mode = "active"

[maintenance.principal]
token_endpoint = "https://kc/token"
client_id = "sqe-maint"
scope = "PRINCIPAL_ROLE:maint"
user_id = "svc-maint"
roles = ["maintenance"]
refresh_skew_secs = 10

[maintenance.scheduler]
enabled = true
tick_secs = 15
schedule = "*/30 1-5 * * MON-FRI"
jitter_secs = 0
max_concurrent_jobs = 3
lease = "none"
lease_ttl_secs = 60
state_table = "ops.maintenance_log"
single_scheduler_acknowledged = true

[maintenance.compaction]
target_file_size_bytes = 134217728
min_input_files = 2
delete_file_threshold = 0
strategy = "zorder"

[maintenance.distribution]
mode = "require"
min_workers = 0
max_inflight_groups_per_worker = 4
group_attempts = 5
group_timeout_secs = 60
group_heartbeat_timeout_secs = 10
partial_progress = true
partial_progress_batch = 1
)";
}

TEST(ConfigTomlWriterTest, OutputReloadsToTheSameConfig) {
  ScratchDir dir;
  LoadOutcome original = LoadWith(dir, RichConfig());
  ASSERT_TRUE(original.ok) << original.ErrorText();
  std::string toml = ToToml(original.config);
  LoadOutcome reloaded = LoadWith(dir, toml);
  ASSERT_TRUE(reloaded.ok) << reloaded.ErrorText() << "\n" << toml;
  EXPECT_EQ(reloaded.config, original.config) << toml;
  EXPECT_EQ(ToToml(reloaded.config), toml);
}

TEST(ConfigTomlWriterTest, EveryBackendTypeRoundTrips) {
  const std::map<std::string, std::string> backends = {
      {"embedded", "warehouse = \"/data/wh\"\n"},
      {"rest", "uri = \"https://cat\"\nwarehouse = \"w\"\n"},
      {"hms", "uri = \"metastore:9083\"\nwarehouse = \"s3a://b/wh\"\n"},
      {"glue",
       "region = \"eu-west-1\"\nwarehouse = \"s3://b/wh\"\nendpoint = \"http://ls:4566\"\n"
       "catalog_id = \"123456789012\"\n"},
      {"s3tables",
       "region = \"eu-west-1\"\n"
       "table_bucket_arn = \"arn:aws:s3tables:eu-west-1:123456789012:bucket/b\"\n"
       "endpoint_url = \"http://ls:4566\"\n"},
      {"jdbc",
       "url = \"postgresql://db:5432/iceberg\"\nuser = \"iceberg\"\nwarehouse = \"s3://b/w\"\n"},
      {"hadoop", "warehouse = \"s3://b/wh\"\n"},
  };
  for (const auto& [type, fields] : backends) {
    SCOPED_TRACE(type);
    ScratchDir dir;
    LoadOutcome original =
        LoadWith(dir, "[[auth.providers]]\ntype = \"anonymous\"\n[catalog.backend]\ntype = \"" +
                          type + "\"\n" + fields);
    ASSERT_TRUE(original.ok) << original.ErrorText();
    std::string toml = ToToml(original.config);
    LoadOutcome reloaded = LoadWith(dir, toml);
    ASSERT_TRUE(reloaded.ok) << reloaded.ErrorText();
    EXPECT_EQ(reloaded.config, original.config);
  }
}

TEST(ConfigTomlWriterTest, SecretsRoundTripAsPlaceholdersOnly) {
  ScratchDir dir;
  std::vector<SecretField> secrets;
  LoadOutcome original = LoadWith(dir, SecretConfig(dir, How::kEnv, "rest", &secrets));
  ASSERT_TRUE(original.ok) << original.ErrorText();
  LoadOutcome reloaded = LoadWith(dir, ToToml(original.config));
  ASSERT_TRUE(reloaded.ok) << reloaded.ErrorText();
  Config expected = original.config;
  const SecretString redacted("***");
  expected.coordinator.worker_secret = redacted;
  expected.auth.client_secret = redacted;
  for (AuthProviderConfig& p : expected.auth.providers) p.client_secret = redacted;
  expected.storage.s3_access_key = redacted;
  expected.storage.s3_secret_key = redacted;
  expected.maintenance.principal->client_secret = redacted;
  expected.catalog.backend.credential = redacted;
  expected.catalog.backend.token = redacted;
  EXPECT_EQ(reloaded.config, expected);
  // Loading a dump back warns about each placeholder.
  EXPECT_NE(reloaded.WarningOn("storage.s3_secret_key"), nullptr);
}

TEST(ConfigTomlWriterTest, OmitsFieldsOfOtherTypes) {
  ScratchDir dir;
  LoadOutcome out = LoadWith(dir,
                             "[[auth.providers]]\ntype = \"anonymous\"\nuser = \"dev\"\n"
                             "[catalog.backend]\ntype = \"embedded\"\n",
                             {}, {}, "local");
  ASSERT_TRUE(out.ok) << out.ErrorText();
  std::string toml = ToToml(out.config);
  EXPECT_THAT(toml,
              HasSubstr("[[auth.providers]]\ntype = \"anonymous\"\nuser = \"dev\"\nroles = []\n"));
  EXPECT_THAT(toml,
              HasSubstr("[catalog.backend]\ntype = \"embedded\"\nwarehouse = \"./sqe-data\"\n\n"));
  EXPECT_THAT(toml, Not(HasSubstr("token_url")));
  EXPECT_THAT(toml, Not(HasSubstr("table_bucket_arn")));
  // Every top-level section is present.
  for (const char* section : {"[coordinator]",
                              "[coordinator.tls]",
                              "[worker]",
                              "[auth]",
                              "[catalog]",
                              "[catalog.rest_server]",
                              "[storage]",
                              "[access_control]",
                              "[policy]",
                              "[session]",
                              "[query]",
                              "[query.role_overrides]",
                              "[query_cache]",
                              "[query_history]",
                              "[rate_limit]",
                              "[metrics]",
                              "[maintenance]",
                              "[maintenance.scheduler]",
                              "[maintenance.compaction]",
                              "[maintenance.distribution]",
                              "[auth.role_mappings]"}) {
    EXPECT_THAT(toml, HasSubstr(std::string("\n") + section + "\n")) << section;
  }
}

TEST(ConfigTomlWriterTest, DefaultConfigDumpsAndReloads) {
  Config defaults;
  std::string toml = ToToml(defaults);
  ScratchDir dir;
  LoadInput input;
  input.toml = toml;
  input.server_validation = false;  // the bare defaults have no auth configured
  LoadOutcome out = LoadWith(dir, input);
  ASSERT_TRUE(out.ok) << out.ErrorText();
  // The unresolved backend type is dumped as "" and resolves to the mode default.
  EXPECT_THAT(toml, HasSubstr("[catalog.backend]\ntype = \"\"\n\n"));
  EXPECT_EQ(out.config.catalog.backend.type, "rest");
  EXPECT_EQ(out.config.catalog.backend.uri, defaults.catalog.catalog_url);
}

}  // namespace
}  // namespace sqe::config
