// Table-driven: each broken configuration fails with its own message naming the field (and,
// for enum and unknown-key errors, the rejected value and the accepted ones / a suggestion).

#include "config/config_testing.h"

namespace sqe::config {
namespace {

using testing::kLegacyAuth;
using testing::LoadInput;
using testing::LoadOutcome;
using testing::LoadWith;
using testing::ScratchDir;

/// One broken configuration and what its error must say.
struct BrokenCase {
  BrokenCase(std::string name, std::string toml, std::string field, std::vector<std::string> expect)
      : name(std::move(name)),
        toml(std::move(toml)),
        field(std::move(field)),
        expect(std::move(expect)) {}
  BrokenCase& Env(std::string key, std::string value) {
    env[std::move(key)] = std::move(value);
    return *this;
  }
  BrokenCase& Set(std::string arg) {
    sets.push_back(std::move(arg));
    return *this;
  }
  BrokenCase& WithoutLegacyAuth() {
    legacy_auth = false;
    return *this;
  }

  std::string name;
  std::string toml;
  std::string field;                ///< the Diagnostic::field of the expected error
  std::vector<std::string> expect;  ///< substrings of its message
  std::map<std::string, std::string> env;
  std::vector<std::string> sets;
  bool legacy_auth = true;
};

std::vector<BrokenCase> Cases() {
  const std::string provider = "[[auth.providers]]\n";
  std::vector<BrokenCase> c;
  // Unknown keys: the full path, the source, a suggestion or the accepted keys.
  c.emplace_back(
      "typo_in_field", "[coordinator]\nflight_sql_prot = 1\n", "coordinator.flight_sql_prot",
      std::vector<std::string>{"unknown key 'coordinator.flight_sql_prot'",
                               "sqe.toml:", "did you mean 'coordinator.flight_sql_port'?"});
  c.emplace_back(
      "typo_in_section", "[coordinater]\nmode = \"local\"\n", "coordinater",
      std::vector<std::string>{"unknown key 'coordinater'", "did you mean 'coordinator'?"});
  c.emplace_back("field_in_wrong_section", "[storage]\nflight_sql_port = 1\n",
                 "storage.flight_sql_port",
                 std::vector<std::string>{"did you mean 'coordinator.flight_sql_port'?"});
  c.emplace_back("unknown_without_suggestion", "[query]\nzzzzzzzzzz = 1\n", "query.zzzzzzzzzz",
                 std::vector<std::string>{"unknown key 'query.zzzzzzzzzz'",
                                          "accepted keys here: timeout_secs, max_result_rows"});
  c.emplace_back("typo_in_provider_field",
                 provider + "type = \"bearer_token\"\njwks_ulr = \"https://idp/certs\"\n",
                 "auth.providers[0].jwks_ulr",
                 std::vector<std::string>{"did you mean 'auth.providers[0].jwks_url'?"});
  c.emplace_back("typo_in_env_var", "", "query.timeout_sec",
                 std::vector<std::string>{"env SQE_QUERY__TIMEOUT_SEC",
                                          "did you mean SQE_QUERY__TIMEOUT_SECS?"})
      .Env("SQE_QUERY__TIMEOUT_SEC", "5");
  c.emplace_back("typo_in_set", "", "catalog.nmae",
                 std::vector<std::string>{"--set catalog.nmae", "did you mean 'catalog.name'?"})
      .Set("catalog.nmae=lake");
  c.emplace_back("entry_index_not_a_number", "", "auth.providers.first",
                 std::vector<std::string>{"is not an entry index"})
      .Env("SQE_AUTH__PROVIDERS__FIRST__TYPE", "anonymous");
  // Enum values: rejected value, accepted values.
  c.emplace_back("coordinator_mode", "[coordinator]\nmode = \"hybird\"\n", "coordinator.mode",
                 std::vector<std::string>{
                     "'hybird'", "accepted: coordinator, worker, hybrid, local, distributed",
                     "did you mean 'hybrid'?"});
  c.emplace_back("shuffle_compression", "[coordinator]\nshuffle_compression = \"snappy\"\n",
                 "coordinator.shuffle_compression",
                 std::vector<std::string>{"'snappy'", "accepted: lz4, zstd, none"});
  c.emplace_back("parquet_compression", "[catalog]\nparquet_compression = \"gzip\"\n",
                 "catalog.parquet_compression",
                 std::vector<std::string>{"'gzip'", "accepted: zstd, lz4, snappy, none"});
  c.emplace_back("access_control_backend", "[access_control]\nbackend = \"opa\"\n",
                 "access_control.backend",
                 std::vector<std::string>{"'opa'", "accepted: none, polaris, ranger, chameleon"});
  c.emplace_back("policy_engine_unwired", "[policy]\nengine = \"cedar\"\n", "policy.engine",
                 std::vector<std::string>{"'cedar'", "defined but not yet wired",
                                          "passthrough, in-memory, ranger"});
  c.emplace_back("policy_engine_typo", "[policy]\nengine = \"ranjer\"\n", "policy.engine",
                 std::vector<std::string>{"'ranjer'", "accepted: passthrough, in-memory, ranger",
                                          "did you mean 'ranger'?"});
  c.emplace_back("session_persistence", "[session]\npersistence = \"redis\"\n",
                 "session.persistence",
                 std::vector<std::string>{"'redis'", "accepted: memory, file"});
  c.emplace_back(
      "sort_mode", "[query]\nsort_mode = \"sideways\"\n", "query.sort_mode",
      std::vector<std::string>{"'sideways'", "accepted: adaptive, partition_only, strict"});
  c.emplace_back("maintenance_mode", "[maintenance]\nmode = \"on\"\n", "maintenance.mode",
                 std::vector<std::string>{"'on'", "accepted: off, advisory, active"});
  c.emplace_back("scheduler_lease", "[maintenance.scheduler]\nlease = \"etcd\"\n",
                 "maintenance.scheduler.lease",
                 std::vector<std::string>{"'etcd'", "accepted: none, catalog, kubernetes"});
  c.emplace_back("compaction_strategy", "[maintenance.compaction]\nstrategy = \"hilbert\"\n",
                 "maintenance.compaction.strategy",
                 std::vector<std::string>{"'hilbert'", "accepted: binpack, sort, zorder"});
  c.emplace_back("distribution_mode", "", "maintenance.distribution.mode",
                 std::vector<std::string>{"'always'", "accepted: auto, local, require",
                                          "--set maintenance.distribution.mode"})
      .Set("maintenance.distribution.mode=always");
  c.emplace_back("provider_type", provider + "type = \"oidc\"\n", "auth.providers[0].type",
                 std::vector<std::string>{"'oidc'",
                                          "accepted: oidc_password, bearer_token, api_key, "
                                          "oidc_m2m, aws_iam, anonymous"})
      .WithoutLegacyAuth();
  c.emplace_back("provider_type_missing", provider + "user = \"dev\"\n", "auth.providers[0].type",
                 std::vector<std::string>{"auth.providers[0].type is required", "anonymous"})
      .WithoutLegacyAuth();
  c.emplace_back("backend_type", "[catalog.backend]\ntype = \"nessie\"\n", "catalog.backend.type",
                 std::vector<std::string>{
                     "'nessie'", "accepted: rest, embedded, hms, glue, s3tables, jdbc, hadoop"});
  c.emplace_back(
      "access_delegation", "[catalog.backend]\naccess_delegation = \"remote-signing\"\n",
      "catalog.backend.access_delegation",
      std::vector<std::string>{"'remote-signing'", "accepted: vended-credentials, none"});
  // Type errors: field, expected type, value.
  c.emplace_back("integer_given_string", "[query]\nmax_result_rows = \"lots\"\n",
                 "query.max_result_rows",
                 std::vector<std::string>{"expected an integer, got the string \"lots\""});
  c.emplace_back("port_out_of_int_range", "[coordinator]\nflight_sql_port = 99999999999\n",
                 "coordinator.flight_sql_port",
                 std::vector<std::string>{"99999999999", "out of range"});
  c.emplace_back("bool_from_env", "", "storage.s3_allow_http",
                 std::vector<std::string>{"expected a boolean (true/false, 1/0, yes/no), got "
                                          "\"sometimes\""})
      .Env("SQE_STORAGE__S3_ALLOW_HTTP", "sometimes");
  c.emplace_back("size_unparsable", "[worker]\nmemory_limit = \"8 GiBs\"\n", "worker.memory_limit",
                 std::vector<std::string>{"'8 GiBs'", "1024-based"});
  c.emplace_back("size_negative", "[storage]\nprefetch_buffer = -1\n", "storage.prefetch_buffer",
                 std::vector<std::string>{"negative integer -1"});
  c.emplace_back("list_given_string", "[coordinator]\nworker_urls = \"grpc://w1\"\n",
                 "coordinator.worker_urls",
                 std::vector<std::string>{"expected an array of strings, got the string"});
  c.emplace_back("secret_given_integer", "client_secret = 12345678\n", "auth.client_secret",
                 std::vector<std::string>{"expected a string (secret), got a non-string value"});
  c.emplace_back("section_given_value", "", "coordinator",
                 std::vector<std::string>{"'coordinator' is a section", "coordinator.<field>"})
      .Set("coordinator=5");
  c.emplace_back("field_given_table", "[coordinator.mode]\nname = \"local\"\n", "coordinator.mode",
                 std::vector<std::string>{"'coordinator.mode' is a value, not a table"});
  c.emplace_back("toml_date", "[query]\ntimeout_secs = 1979-05-27\n", "query.timeout_secs",
                 std::vector<std::string>{"expected an integer, got a TOML date"});
  c.emplace_back("map_value_type", "[query.role_overrides]\nadmin = \"1h\"\n",
                 "query.role_overrides.admin",
                 std::vector<std::string>{"expected an integer, got the string \"1h\""});
  // Rules.
  c.emplace_back("trace_sample_rate", "[metrics]\ntrace_sample_rate = -0.1\n",
                 "metrics.trace_sample_rate",
                 std::vector<std::string>{"between 0 and 1, got -0.1"});
  c.emplace_back("format_version", "[catalog]\ndefault_table_format_version = 4\n",
                 "catalog.default_table_format_version", std::vector<std::string>{"2 or 3, got 4"});
  c.emplace_back("heartbeat_zero", "[worker]\nheartbeat_interval_secs = 0\n",
                 "worker.heartbeat_interval_secs", std::vector<std::string>{">= 1, got 0"});
  c.emplace_back("merge_streaming", "[query]\nwrite_buffer_tracking = false\n",
                 "query.merge_target_streaming", std::vector<std::string>{"write_buffer_tracking"})
      .Env("SQE_QUERY__MERGE_TARGET_STREAMING", "true");
  c.emplace_back("active_without_principal", "[maintenance]\nmode = \"active\"\n",
                 "maintenance.principal",
                 std::vector<std::string>{"\"active\"", "[maintenance.principal]"});
  c.emplace_back("cron_minute", "[maintenance.scheduler]\nschedule = \"61 * * * *\"\n",
                 "maintenance.scheduler.schedule", std::vector<std::string>{"minute field"});
  c.emplace_back("advertise_wildcard", "[worker]\nadvertise_url = \"http://0.0.0.0:50052\"\n",
                 "worker.advertise_url", std::vector<std::string>{"0.0.0.0"});
  c.emplace_back("provider_field_of_other_type",
                 provider + "type = \"aws_iam\"\nregion = \"eu-west-1\"\njwks_url = \"u\"\n",
                 "auth.providers[0].jwks_url",
                 std::vector<std::string>{"provider type 'aws_iam'",
                                          "type, region, validate_with_sts, sts_endpoint"})
      .WithoutLegacyAuth();
  c.emplace_back("backend_field_of_other_type",
                 "[catalog.backend]\ntype = \"glue\"\nurl = \"postgresql://h/db\"\n",
                 "catalog.backend.url", std::vector<std::string>{"backend type 'glue'"});
  c.emplace_back("trino_metrics_clash", "[coordinator]\ntrino_http_port = 9090\n",
                 "metrics.prometheus_port",
                 std::vector<std::string>{"coordinator.trino_http_port", "cannot share a port"});
  c.emplace_back("secret_and_file_in_file",
                 "client_secret = \"abcd\"\nclient_secret_file = \"/etc/hostname\"\n",
                 "auth.client_secret", std::vector<std::string>{"both set in", "sqe.toml"});
  c.emplace_back("secret_file_missing", "client_secret_file = \"missing.secret\"\n",
                 "auth.client_secret_file",
                 std::vector<std::string>{"missing.secret", "cannot read"});
  return c;
}

TEST(BrokenConfigsTest, EachFailsWithItsOwnMessageNamingTheField) {
  std::vector<BrokenCase> cases = Cases();
  ASSERT_GE(cases.size(), 30u);
  for (const BrokenCase& c : cases) {
    SCOPED_TRACE(c.name);
    ScratchDir dir;
    LoadInput input;
    input.toml = (c.legacy_auth ? std::string(kLegacyAuth) : std::string()) + c.toml;
    input.env = c.env;
    input.sets = c.sets;
    LoadOutcome out = LoadWith(dir, input);
    ASSERT_FALSE(out.ok) << "loaded without error";
    const Diagnostic* d = out.ErrorOn(c.field);
    ASSERT_NE(d, nullptr) << "no error on " << c.field << "; got:\n" << out.ErrorText();
    if (c.field.find('.') != std::string::npos || c.field == "coordinator") {
      EXPECT_NE(d->message.find(c.field.substr(0, c.field.find('['))), std::string::npos)
          << d->message;
    }
    for (const std::string& part : c.expect) {
      EXPECT_NE(d->message.find(part), std::string::npos)
          << "message: " << d->message << "\nmissing: " << part;
    }
    EXPECT_THAT(out.status_message, ::testing::HasSubstr("error: "));
  }
}

}  // namespace
}  // namespace sqe::config
