// One test per validation rule and per warning: each asserts the diagnostic names its field.

#include <sys/stat.h>
#include <unistd.h>

#include "config/config_testing.h"

namespace sqe::config {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using testing::kLegacyAuth;
using testing::LoadInput;
using testing::LoadOutcome;
using testing::LoadWith;
using ::testing::Not;
using testing::ScratchDir;

class ConfigValidationTest : public ::testing::Test {
 protected:
  /// Loads kLegacyAuth + `toml` (hybrid mode unless the text says otherwise).
  LoadOutcome Load(const std::string& toml, const std::map<std::string, std::string>& env = {},
                   const std::vector<std::string>& sets = {},
                   std::optional<std::string> mode = std::nullopt) {
    return LoadWith(dir_, std::string(kLegacyAuth) + toml, env, sets, std::move(mode));
  }
  LoadOutcome LoadRaw(const std::string& toml, std::optional<std::string> mode = std::nullopt) {
    return LoadWith(dir_, toml, {}, {}, std::move(mode));
  }
  /// The message of the one error expected on `field` (fails the test if there is none).
  std::string ErrorOn(const LoadOutcome& out, const std::string& field) {
    EXPECT_FALSE(out.ok);
    const Diagnostic* d = out.ErrorOn(field);
    if (d == nullptr) {
      ADD_FAILURE() << "no error on " << field << "; got:\n" << out.ErrorText();
      return "";
    }
    EXPECT_THAT(d->message, HasSubstr(field));
    return d->message;
  }
  std::string WarningOn(const LoadOutcome& out, const std::string& field) {
    const Diagnostic* d = out.WarningOn(field);
    if (d == nullptr) {
      ADD_FAILURE() << "no warning on " << field << "; errors:\n" << out.ErrorText();
      return "";
    }
    EXPECT_THAT(d->message, HasSubstr(field));
    return d->message;
  }

  ScratchDir dir_;
};

// --- The reference's Validation section --------------------------------------------------

TEST_F(ConfigValidationTest, LegacyClientIdMustNotBeEmpty) {
  EXPECT_THAT(ErrorOn(Load("client_id = \"\"\n"), "auth.client_id"),
              HasSubstr("must not be empty"));
}

TEST_F(ConfigValidationTest, LegacyNeedsKeycloakUrlOrTokenEndpoint) {
  std::string msg = ErrorOn(LoadRaw("[auth]\nclient_id = \"x\"\n"), "auth.keycloak_url");
  EXPECT_THAT(msg, AllOf(HasSubstr("auth.token_endpoint"), HasSubstr("[[auth.providers]]")));
}

TEST_F(ConfigValidationTest, ProviderChainSatisfiesTheLegacyRule) {
  LoadOutcome out = LoadRaw(
      "[auth]\nclient_id = \"\"\n[[auth.providers]]\ntype = \"bearer_token\"\n"
      "jwks_url = \"https://idp/certs\"\n");
  EXPECT_TRUE(out.ok) << out.ErrorText();
}

TEST_F(ConfigValidationTest, KeycloakNeedsRealm) {
  LoadOutcome out = LoadRaw("[auth]\nkeycloak_url = \"https://kc\"\n");
  EXPECT_THAT(ErrorOn(out, "auth.realm"), HasSubstr("auth.keycloak_url"));
}

TEST_F(ConfigValidationTest, FlightSqlPortMustDifferFromTrinoPort) {
  std::string msg =
      ErrorOn(Load("[coordinator]\nflight_sql_port = 8080\n"), "coordinator.trino_http_port");
  EXPECT_THAT(msg, AllOf(HasSubstr("coordinator.flight_sql_port"), HasSubstr("8080")));
}

TEST_F(ConfigValidationTest, FlightSqlPortMustDifferFromMetricsPort) {
  std::string msg =
      ErrorOn(Load("[metrics]\nprometheus_port = 50051\n"), "metrics.prometheus_port");
  EXPECT_THAT(msg, HasSubstr("coordinator.flight_sql_port"));
}

TEST_F(ConfigValidationTest, RestCatalogPortClashNamesBothFields) {
  std::string msg =
      ErrorOn(Load("[catalog.rest_server]\nport = 9090\n"), "catalog.rest_server.port");
  EXPECT_THAT(msg, AllOf(HasSubstr("metrics.prometheus_port"), HasSubstr("rest_catalog")));
}

TEST_F(ConfigValidationTest, WorkerModeChecksWorkerPortAgainstMetrics) {
  LoadOutcome out = LoadRaw("[coordinator]\nmode = \"worker\"\n[worker]\nflight_port = 9090\n");
  EXPECT_THAT(ErrorOn(out, "metrics.prometheus_port"), HasSubstr("worker.flight_port"));
}

TEST_F(ConfigValidationTest, LocalModeNeverOpensTheWorkerPort) {
  // The worker port equals flight_sql_port, but local mode does not bind it.
  LoadOutcome out = LoadRaw("[worker]\nflight_port = 50051\n", "local");
  EXPECT_TRUE(out.ok) << out.ErrorText();
  std::vector<ListenerSpec> plan = PlannedListeners(out.config);
  ASSERT_EQ(plan.size(), 4u);
  EXPECT_EQ(plan[3].name, "rest_catalog");
  EXPECT_EQ(plan[3].port, 8181);
}

TEST_F(ConfigValidationTest, TlsCertWithoutKey) {
  std::string cert = dir_.Write("c.pem", "C");
  std::string msg = ErrorOn(Load("[coordinator.tls]\ncert_file = \"" + cert + "\"\n"),
                            "coordinator.tls.key_file");
  EXPECT_THAT(msg, HasSubstr("coordinator.tls.cert_file"));
}

TEST_F(ConfigValidationTest, TlsKeyWithoutCert) {
  std::string key = dir_.Write("k.pem", "K");
  ErrorOn(Load("[coordinator.tls]\nkey_file = \"" + key + "\"\n"), "coordinator.tls.cert_file");
}

TEST_F(ConfigValidationTest, TlsFilesMustExist) {
  LoadOutcome out =
      Load("[coordinator.tls]\ncert_file = \"/no/cert.pem\"\nkey_file = \"/no/key.pem\"\n");
  EXPECT_THAT(ErrorOn(out, "coordinator.tls.cert_file"),
              HasSubstr("'/no/cert.pem' does not exist"));
  EXPECT_THAT(ErrorOn(out, "coordinator.tls.key_file"), HasSubstr("'/no/key.pem' does not exist"));
}

TEST_F(ConfigValidationTest, TlsCaFileMustExist) {
  std::string cert = dir_.Write("c.pem", "C");
  std::string key = dir_.Write("k.pem", "K");
  LoadOutcome out = Load("[coordinator.tls]\ncert_file = \"" + cert + "\"\nkey_file = \"" + key +
                         "\"\nca_file = \"/no/ca.pem\"\n");
  EXPECT_THAT(ErrorOn(out, "coordinator.tls.ca_file"), HasSubstr("does not exist"));
}

TEST_F(ConfigValidationTest, TlsCaFileNeedsCertAndKey) {
  std::string ca = dir_.Write("ca.pem", "CA");
  std::string msg =
      ErrorOn(Load("[coordinator.tls]\nca_file = \"" + ca + "\"\n"), "coordinator.tls.ca_file");
  EXPECT_THAT(msg, AllOf(HasSubstr("mTLS"), HasSubstr("coordinator.tls.cert_file")));
}

TEST_F(ConfigValidationTest, TlsWithExistingFilesPasses) {
  std::string cert = dir_.Write("c.pem", "C");
  std::string key = dir_.Write("k.pem", "K");
  std::string ca = dir_.Write("ca.pem", "CA");
  LoadOutcome out = Load("[coordinator.tls]\ncert_file = \"" + cert + "\"\nkey_file = \"" + key +
                         "\"\nca_file = \"" + ca + "\"\n");
  EXPECT_TRUE(out.ok) << out.ErrorText();
}

TEST_F(ConfigValidationTest, TlsUnreadableKeyIsNamed) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads files whatever their mode";
  std::string cert = dir_.Write("c.pem", "C");
  std::string key = dir_.Write("k.pem", "K");
  ASSERT_EQ(::chmod(key.c_str(), 0), 0);
  LoadOutcome out =
      Load("[coordinator.tls]\ncert_file = \"" + cert + "\"\nkey_file = \"" + key + "\"\n");
  EXPECT_THAT(ErrorOn(out, "coordinator.tls.key_file"),
              AllOf(HasSubstr(key), HasSubstr("cannot be read")));
}

TEST_F(ConfigValidationTest, MaintenanceModeNeedsPrincipal) {
  std::string msg = ErrorOn(Load("[maintenance]\nmode = \"advisory\"\n"), "maintenance.principal");
  EXPECT_THAT(msg, HasSubstr("[maintenance.principal]"));
}

TEST_F(ConfigValidationTest, PrincipalNeedsTokenEndpointAndClientId) {
  LoadOutcome out =
      Load("[maintenance]\nmode = \"active\"\n[maintenance.principal]\nscope = \"x\"\n");
  ErrorOn(out, "maintenance.principal.token_endpoint");
  ErrorOn(out, "maintenance.principal.client_id");
}

TEST_F(ConfigValidationTest, SchedulerTickSecsMustBePositive) {
  EXPECT_THAT(
      ErrorOn(Load("[maintenance.scheduler]\ntick_secs = 0\n"), "maintenance.scheduler.tick_secs"),
      HasSubstr("greater than zero"));
}

TEST_F(ConfigValidationTest, SchedulerLeaseTtlMustBePositive) {
  ErrorOn(Load("[maintenance.scheduler]\nlease_ttl_secs = -1\n"),
          "maintenance.scheduler.lease_ttl_secs");
}

TEST_F(ConfigValidationTest, UnleasedSchedulerNeedsAcknowledgement) {
  LoadOutcome out = Load("[maintenance.scheduler]\nenabled = true\nlease = \"none\"\n");
  ErrorOn(out, "maintenance.scheduler.single_scheduler_acknowledged");
  LoadOutcome acked = Load(
      "[maintenance.scheduler]\nenabled = true\nlease = \"none\"\n"
      "single_scheduler_acknowledged = true\n");
  EXPECT_TRUE(acked.ok) << acked.ErrorText();
}

TEST_F(ConfigValidationTest, KubernetesLeaseRejectedWhenEnabled) {
  std::string msg =
      ErrorOn(Load("[maintenance.scheduler]\nenabled = true\nlease = \"kubernetes\"\n"),
              "maintenance.scheduler.lease");
  EXPECT_THAT(msg,
              AllOf(HasSubstr("\"catalog\""), HasSubstr("\"none\""), HasSubstr("not implemented")));
  EXPECT_TRUE(Load("[maintenance.scheduler]\nlease = \"kubernetes\"\n").ok);
}

TEST_F(ConfigValidationTest, PartialProgressNeedsBatchOfAtLeastOne) {
  std::string msg = ErrorOn(Load("[maintenance.distribution]\npartial_progress = true\n"
                                 "partial_progress_batch = 0\n"),
                            "maintenance.distribution.partial_progress_batch");
  EXPECT_THAT(msg, HasSubstr("at least 1"));
  EXPECT_TRUE(Load("[maintenance.distribution]\npartial_progress_batch = 0\n").ok);
}

// --- The additional rules ---------------------------------------------------------

TEST_F(ConfigValidationTest, PortsMustBeInRange) {
  LoadOutcome out = Load(
      "[coordinator]\nflight_sql_port = 70000\n[worker]\nflight_port = 0\n"
      "[metrics]\nprometheus_port = -1\n");
  EXPECT_THAT(ErrorOn(out, "coordinator.flight_sql_port"),
              HasSubstr("between 1 and 65535, got 70000"));
  ErrorOn(out, "worker.flight_port");
  ErrorOn(out, "metrics.prometheus_port");
}

TEST_F(ConfigValidationTest, ZeroDisablesOnlyTrinoAndRestServer) {
  LoadOutcome out = Load("[coordinator]\ntrino_http_port = 0\n[catalog.rest_server]\nport = 0\n");
  ASSERT_TRUE(out.ok) << out.ErrorText();
  std::vector<ListenerSpec> plan = PlannedListeners(out.config);
  ASSERT_EQ(plan.size(), 2u);
  EXPECT_EQ(plan[0].field, "coordinator.flight_sql_port");
  EXPECT_EQ(plan[1].field, "metrics.prometheus_port");
  EXPECT_THAT(ErrorOn(Load("[coordinator]\nflight_sql_port = 0\n"), "coordinator.flight_sql_port"),
              Not(HasSubstr("or 0 to disable")));
}

TEST_F(ConfigValidationTest, NegativeValuesAreRejected) {
  LoadOutcome out = Load(
      "[query]\ntimeout_secs = -5\n[query_cache]\nmax_memory_mb = -1\n"
      "[query.role_overrides]\nadmin = -3\n");
  EXPECT_THAT(ErrorOn(out, "query.timeout_secs"), HasSubstr("must be >= 0, got -5"));
  ErrorOn(out, "query_cache.max_memory_mb");
  ErrorOn(out, "query.role_overrides.admin");
}

TEST_F(ConfigValidationTest, TraceSampleRateBetweenZeroAndOne) {
  EXPECT_THAT(ErrorOn(Load("[metrics]\ntrace_sample_rate = 1.5\n"), "metrics.trace_sample_rate"),
              HasSubstr("between 0 and 1, got 1.5"));
}

TEST_F(ConfigValidationTest, EnumValueNamesRejectedAndAccepted) {
  std::string msg = ErrorOn(Load("[coordinator]\nflight_compression = \"gzip\"\n"),
                            "coordinator.flight_compression");
  EXPECT_THAT(msg, AllOf(HasSubstr("'gzip'"), HasSubstr("accepted: lz4, zstd, none")));
}

TEST_F(ConfigValidationTest, OpaAndCedarAreDefinedButNotWired) {
  for (const char* engine : {"opa", "cedar"}) {
    std::string msg =
        ErrorOn(Load(std::string("[policy]\nengine = \"") + engine + "\"\n"), "policy.engine");
    EXPECT_THAT(msg, AllOf(HasSubstr("defined but not yet wired"),
                           HasSubstr("passthrough, in-memory, ranger")));
  }
}

TEST_F(ConfigValidationTest, UnparsableSizeNamesTheField) {
  EXPECT_THAT(
      ErrorOn(Load("[storage]\nprefetch_buffer = \"32 parsecs\"\n"), "storage.prefetch_buffer"),
      HasSubstr("'32 parsecs'"));
}

TEST_F(ConfigValidationTest, MergeTargetStreamingNeedsWriteBufferTracking) {
  std::string msg = ErrorOn(Load("[query]\nmerge_target_streaming = true\n"
                                 "write_buffer_tracking = false\n"),
                            "query.merge_target_streaming");
  EXPECT_THAT(msg, HasSubstr("query.write_buffer_tracking"));
}

TEST_F(ConfigValidationTest, ScheduleMustBeAFiveFieldCron) {
  std::string msg = ErrorOn(Load("[maintenance.scheduler]\nschedule = \"0 2 * *\"\n"),
                            "maintenance.scheduler.schedule");
  EXPECT_THAT(msg, HasSubstr("expected 5 fields"));
}

TEST_F(ConfigValidationTest, AdvertiseUrlNeverWildcard) {
  for (const char* url : {"http://0.0.0.0:50052", "0.0.0.0:50052", "grpc://[::]:50052"}) {
    std::string msg = ErrorOn(Load(std::string("[worker]\nadvertise_url = \"") + url + "\"\n"),
                              "worker.advertise_url");
    EXPECT_THAT(msg, HasSubstr("wildcard"));
  }
  EXPECT_TRUE(Load("[worker]\nadvertise_url = \"http://10.0.0.7:50052\"\n").ok);
}

TEST_F(ConfigValidationTest, ProviderRequiredFieldsPerType) {
  struct Case {
    const char* type;
    std::vector<const char*> missing;
  };
  const Case cases[] = {
      {"oidc_password", {"token_url", "client_id"}},
      {"bearer_token", {"jwks_url"}},
      {"api_key", {"keys_file"}},
      {"oidc_m2m", {"token_endpoint", "client_id", "client_secret"}},
      {"aws_iam", {"region"}},
  };
  for (const Case& c : cases) {
    LoadOutcome out = LoadRaw(std::string("[[auth.providers]]\ntype = \"") + c.type + "\"\n");
    for (const char* field : c.missing) {
      std::string msg = ErrorOn(out, std::string("auth.providers[0].") + field);
      EXPECT_THAT(msg, HasSubstr(c.type));
    }
  }
}

TEST_F(ConfigValidationTest, ApiKeysFileMustExistAndParse) {
  LoadOutcome missing =
      LoadRaw("[[auth.providers]]\ntype = \"api_key\"\nkeys_file = \"/no/keys.toml\"\n");
  EXPECT_THAT(ErrorOn(missing, "auth.providers[0].keys_file"), HasSubstr("/no/keys.toml"));

  dir_.Write("keys.toml",
             "[[keys]]\nkey = \"sqe_one\"\nuser = \"a\"\n"
             "[[keys]]\nkey = \"sqe_one\"\nuser = \"b\"\n"
             "[[keys]]\nkey = \"other_two\"\nuser = \"c\"\n"
             "[[keys]]\nkey = \"sqe_three\"\nuser = \"\"\n");
  LoadOutcome bad = LoadRaw("[[auth.providers]]\ntype = \"api_key\"\nkeys_file = \"keys.toml\"\n");
  std::string msg = ErrorOn(bad, "auth.providers[0].keys_file");
  EXPECT_THAT(msg, AllOf(HasSubstr("keys[1]: duplicate key"),
                         HasSubstr("keys[2]: the key does not start with"),
                         HasSubstr("keys[3]: 'user' must be a non-empty string")));
  EXPECT_THAT(msg, Not(HasSubstr("other_two")));
}

TEST_F(ConfigValidationTest, ProviderFieldOfAnotherTypeIsRejected) {
  LoadOutcome out = LoadRaw(
      "[[auth.providers]]\ntype = \"oidc_password\"\ntoken_url = \"t\"\n"
      "client_id = \"c\"\njwks_url = \"https://idp/certs\"\n");
  std::string msg = ErrorOn(out, "auth.providers[0].jwks_url");
  EXPECT_THAT(msg,
              AllOf(HasSubstr("provider type 'oidc_password'"),
                    HasSubstr("token_url, client_id, client_secret, client_secret_file, scope")));
}

TEST_F(ConfigValidationTest, BackendFieldOfAnotherTypeIsRejected) {
  LoadOutcome out = Load("[catalog.backend]\ntype = \"glue\"\ntable_bucket_arn = \"arn:x\"\n");
  std::string msg = ErrorOn(out, "catalog.backend.table_bucket_arn");
  EXPECT_THAT(msg, AllOf(HasSubstr("backend type 'glue'"),
                         HasSubstr("type, warehouse, region, endpoint, catalog_id")));
  // With the type left to the mode default, the message says so.
  LoadOutcome local = LoadRaw("[catalog.backend]\nuri = \"thrift://hms:9083\"\n", "local");
  EXPECT_THAT(ErrorOn(local, "catalog.backend.uri"),
              AllOf(HasSubstr("backend type 'embedded' (the default in local mode)"),
                    HasSubstr("type, warehouse")));
}

TEST_F(ConfigValidationTest, CatalogUrlRequiredOnlyForRest) {
  std::string msg = ErrorOn(Load("[catalog]\ncatalog_url = \"\"\n"), "catalog.catalog_url");
  EXPECT_THAT(msg, HasSubstr("rest"));
  LoadOutcome hadoop = Load(
      "[catalog]\ncatalog_url = \"\"\n[catalog.backend]\ntype = \"hadoop\"\n"
      "warehouse = \"s3://b/wh\"\n");
  EXPECT_TRUE(hadoop.ok) << hadoop.ErrorText();
}

TEST_F(ConfigValidationTest, TableFormatVersionTwoOrThree) {
  EXPECT_THAT(ErrorOn(Load("[catalog]\ndefault_table_format_version = 1\n"),
                      "catalog.default_table_format_version"),
              HasSubstr("must be 2 or 3, got 1"));
  EXPECT_TRUE(Load("[catalog]\ndefault_table_format_version = 3\n").ok);
}

TEST_F(ConfigValidationTest, BackendRequiredFields) {
  EXPECT_THAT(ErrorOn(Load("[catalog.backend]\ntype = \"hms\"\n"), "catalog.backend.uri"),
              HasSubstr("'hms'"));
  ErrorOn(Load("[catalog.backend]\ntype = \"jdbc\"\n"), "catalog.backend.url");
  ErrorOn(Load("[catalog.backend]\ntype = \"hadoop\"\n"), "catalog.backend.warehouse");
  ErrorOn(Load("[catalog.backend]\ntype = \"s3tables\"\n"), "catalog.backend.table_bucket_arn");
  EXPECT_THAT(
      ErrorOn(Load("[catalog.backend]\ntype = \"s3tables\"\ntable_bucket_arn = \"bucket\"\n"),
              "catalog.backend.table_bucket_arn"),
      HasSubstr("not an S3 Tables bucket ARN"));
}

TEST_F(ConfigValidationTest, FilePersistenceNeedsPath) {
  ErrorOn(Load("[session]\npersistence = \"file\"\npersistence_path = \"\"\n"),
          "session.persistence_path");
}

TEST_F(ConfigValidationTest, AuthExternalNeedsIssuerAndClientId) {
  LoadOutcome out = Load("[auth.external]\nscopes = [\"openid\"]\n");
  ErrorOn(out, "auth.external.issuer");
  ErrorOn(out, "auth.external.client_id");
}

TEST_F(ConfigValidationTest, ShellSkipsServerOnlyRules) {
  LoadInput input;
  input.toml =
      "[coordinator]\nflight_sql_port = 9090\ntrino_http_port = 70000\n"
      "[[auth.providers]]\ntype = \"oidc_m2m\"\n";
  input.server_validation = false;
  LoadOutcome shell = LoadWith(dir_, input);
  EXPECT_TRUE(shell.ok) << shell.ErrorText();
  input.server_validation = true;
  LoadOutcome server = LoadWith(dir_, input);
  EXPECT_FALSE(server.ok);
  EXPECT_NE(server.ErrorOn("coordinator.trino_http_port"), nullptr) << server.ErrorText();
  EXPECT_NE(server.ErrorOn("auth.providers[0].token_endpoint"), nullptr);
}

TEST_F(ConfigValidationTest, WorkerAndLocalModesSkipTheLegacyAuthRule) {
  EXPECT_TRUE(LoadRaw("[coordinator]\nmode = \"worker\"\n").ok);
  LoadOutcome local = LoadRaw("", "local");
  ASSERT_TRUE(local.ok) << local.ErrorText();
  EXPECT_THAT(WarningOn(local, "auth.providers"), HasSubstr("no identity provider"));
}

TEST_F(ConfigValidationTest, AllErrorsAreCollected) {
  LoadOutcome out = Load(
      "[query]\nsort_mode = \"sideways\"\n[metrics]\ntrace_sample_rate = 2.0\n"
      "[maintenance.scheduler]\ntick_secs = 0\n");
  ASSERT_FALSE(out.ok);
  EXPECT_EQ(out.errors().size(), 3u) << out.ErrorText();
  EXPECT_THAT(out.status_message, HasSubstr("configuration has 3 errors:"));
  EXPECT_THAT(out.status_message, AllOf(HasSubstr("error: query.sort_mode"),
                                        HasSubstr("error: metrics.trace_sample_rate"),
                                        HasSubstr("error: maintenance.scheduler.tick_secs")));
}

TEST_F(ConfigValidationTest, ValidationErrorsNameTheSource) {
  LoadOutcome out = Load("", {{"SQE_MAINTENANCE__DISTRIBUTION__MODE", "sometimes"}});
  EXPECT_THAT(ErrorOn(out, "maintenance.distribution.mode"),
              AllOf(HasSubstr("'sometimes' (set in env SQE_MAINTENANCE__DISTRIBUTION__MODE)"),
                    HasSubstr("accepted: auto, local, require")));
}

// --- Warnings ------------------------------------------------------------------------------

TEST_F(ConfigValidationTest, WarnsAboutTheAnonymousProvider) {
  LoadOutcome out = LoadRaw(
      "[[auth.providers]]\ntype = \"anonymous\"\nuser = \"dev-user\"\n"
      "roles = [\"admin\"]\n");
  ASSERT_TRUE(out.ok) << out.ErrorText();
  EXPECT_THAT(WarningOn(out, "auth.providers[0].type"),
              AllOf(HasSubstr("'dev-user'"), HasSubstr("[admin]")));
}

TEST_F(ConfigValidationTest, WarnsWhenPrincipalSharesAProviderClientId) {
  LoadOutcome out = LoadRaw(
      "[[auth.providers]]\ntype = \"oidc_m2m\"\ntoken_endpoint = \"https://idp/token\"\n"
      "client_id = \"shared\"\nclient_secret = \"s3cr3t-value\"\n"
      "[maintenance.principal]\ntoken_endpoint = \"https://idp/token\"\nclient_id = \"shared\"\n");
  ASSERT_TRUE(out.ok) << out.ErrorText();
  EXPECT_THAT(WarningOn(out, "maintenance.principal.client_id"),
              HasSubstr("auth.providers[0].client_id"));
}

TEST_F(ConfigValidationTest, WarnsWhenPrincipalSharesTheLegacyClientId) {
  LoadOutcome out = Load(
      "client_id = \"sqe-client\"\n[maintenance.principal]\n"
      "token_endpoint = \"https://idp/token\"\nclient_id = \"sqe-client\"\n");
  ASSERT_TRUE(out.ok) << out.ErrorText();
  EXPECT_THAT(WarningOn(out, "maintenance.principal.client_id"), HasSubstr("auth.client_id"));
  // Not when a provider chain replaces the legacy form.
  LoadOutcome chain = LoadRaw(
      "[[auth.providers]]\ntype = \"bearer_token\"\njwks_url = \"u\"\n"
      "[maintenance.principal]\nclient_id = \"sqe-client\"\n");
  ASSERT_TRUE(chain.ok) << chain.ErrorText();
  EXPECT_EQ(chain.WarningOn("maintenance.principal.client_id"), nullptr);
}

TEST_F(ConfigValidationTest, WarnsWhenSslVerificationIsOff) {
  LoadOutcome out = Load("ssl_verification = false\n");
  ASSERT_TRUE(out.ok) << out.ErrorText();
  EXPECT_THAT(WarningOn(out, "auth.ssl_verification"), HasSubstr("not verified"));
}

TEST_F(ConfigValidationTest, WarnsAboutARedactedPlaceholderSecret) {
  LoadOutcome out = Load("", {{"SQE_STORAGE__S3_SECRET_KEY", "***"}});
  ASSERT_TRUE(out.ok) << out.ErrorText();
  EXPECT_THAT(WarningOn(out, "storage.s3_secret_key"), HasSubstr("placeholder"));
}

}  // namespace
}  // namespace sqe::config
