// Sources and their priority: defaults < file < environment < command line, the env-name
// rule, value coercion, *_file secrets and paths relative to the config file.

#include "common/logging.h"
#include "config/config_testing.h"

namespace sqe::config {
namespace {

using ::testing::HasSubstr;
using testing::kLegacyAuth;
using testing::LoadInput;
using testing::LoadOutcome;
using testing::LoadWith;
using ::testing::Not;
using testing::ScopedWorkingDirectory;
using testing::ScratchDir;

TEST(ConfigSourcesTest, BuiltInDefaultsWhenNothingIsConfigured) {
  ScratchDir dir;
  ScopedWorkingDirectory cwd(dir.path());  // no ./sqe.toml here
  LoadOptions options;
  options.mode = "local";
  auto loaded = LoadConfig(options);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_EQ(loaded->source_path, "");
  Config expected;
  expected.coordinator.mode = "local";
  expected.catalog.backend.type = "embedded";
  expected.catalog.backend.warehouse = "./sqe-data";
  expected.catalog.rest_server.port = 8181;
  EXPECT_EQ(loaded->config, expected);
  // Spot-check the reference's defaults.
  const Config& c = loaded->config;
  EXPECT_EQ(c.coordinator.flight_sql_port, 50051);
  EXPECT_EQ(c.worker.memory_limit, 8ull << 30);
  EXPECT_EQ(c.storage.coalesce_threshold, 1ull << 20);
  EXPECT_EQ(c.storage.footer_cache_size, 64ull << 20);
  EXPECT_EQ(c.catalog.name, "iceberg");
  EXPECT_EQ(c.maintenance.scheduler.schedule, "0 2 * * *");
  EXPECT_DOUBLE_EQ(c.metrics.trace_sample_rate, 0.01);
}

TEST(ConfigSourcesTest, DiscoversSqeTomlInTheWorkingDirectory) {
  ScratchDir dir;
  dir.Write("sqe.toml", std::string(kLegacyAuth) + "[query]\ntimeout_secs = 11\n");
  ScopedWorkingDirectory cwd(dir.path());
  auto loaded = LoadConfig(LoadOptions{});
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_EQ(loaded->source_path, "sqe.toml");
  EXPECT_EQ(loaded->config.query.timeout_secs, 11);
}

TEST(ConfigSourcesTest, ConfigFlagBeatsSqeConfigBeatsWorkingDirectory) {
  ScratchDir dir;
  dir.Write("sqe.toml", std::string(kLegacyAuth) + "[query]\ntimeout_secs = 1\n");
  std::string from_env =
      dir.Write("env.toml", std::string(kLegacyAuth) + "[query]\ntimeout_secs = 2\n");
  std::string from_flag =
      dir.Write("flag.toml", std::string(kLegacyAuth) + "[query]\ntimeout_secs = 3\n");
  ScopedWorkingDirectory cwd(dir.path());

  LoadOptions options;
  options.env = {{"SQE_CONFIG", from_env}};
  auto loaded = LoadConfig(options);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_EQ(loaded->config.query.timeout_secs, 2);
  EXPECT_EQ(loaded->source_path, from_env);

  options.config_path = from_flag;
  loaded = LoadConfig(options);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_EQ(loaded->config.query.timeout_secs, 3);
}

TEST(ConfigSourcesTest, ExplicitConfigFileMustExist) {
  LoadOptions options;
  options.config_path = "/nonexistent/sqe.toml";
  auto loaded = LoadConfig(options);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(loaded.status().message(), HasSubstr("'/nonexistent/sqe.toml' (from --config)"));

  LoadOptions by_env;
  by_env.env = {{"SQE_CONFIG", "/nonexistent/env.toml"}};
  loaded = LoadConfig(by_env);
  ASSERT_FALSE(loaded.ok());
  EXPECT_THAT(loaded.status().message(), HasSubstr("'/nonexistent/env.toml' (from SQE_CONFIG)"));
}

TEST(ConfigSourcesTest, PriorityIsCliThenEnvThenFileThenDefault) {
  ScratchDir dir;
  const std::string file = std::string(kLegacyAuth) + "[query]\ntimeout_secs = 10\n";
  LoadInput input;
  input.toml = file;
  input.env = {{"SQE_QUERY__TIMEOUT_SECS", "20"}};
  input.sets = {"query.timeout_secs=30"};
  EXPECT_EQ(LoadWith(dir, input).config.query.timeout_secs, 30);
  input.sets.clear();
  EXPECT_EQ(LoadWith(dir, input).config.query.timeout_secs, 20);
  input.env.clear();
  EXPECT_EQ(LoadWith(dir, input).config.query.timeout_secs, 10);
  input.toml = kLegacyAuth;
  EXPECT_EQ(LoadWith(dir, input).config.query.timeout_secs, 300);

  // --mode is a CLI source too: it beats env and file.
  LoadInput mode;
  mode.toml = std::string(kLegacyAuth) + "[coordinator]\nmode = \"coordinator\"\n";
  mode.env = {{"SQE_COORDINATOR__MODE", "distributed"}};
  mode.mode = "hybrid";
  EXPECT_EQ(LoadWith(dir, mode).config.coordinator.mode, "hybrid");
  mode.mode.reset();
  EXPECT_EQ(LoadWith(dir, mode).config.coordinator.mode, "distributed");
}

TEST(ConfigSourcesTest, RepeatedSetLaterWins) {
  ScratchDir dir;
  LoadOutcome out =
      LoadWith(dir, kLegacyAuth, {}, {"query.timeout_secs=1", "query.timeout_secs=2"});
  ASSERT_TRUE(out.ok) << out.ErrorText();
  EXPECT_EQ(out.config.query.timeout_secs, 2);
}

TEST(ConfigSourcesTest, OneEnvironmentVariablePerSection) {
  ScratchDir dir;
  std::string cert = dir.Write("tls/server.crt", "CERT");
  std::string key = dir.Write("tls/server.key", "KEY");
  std::string file = std::string(kLegacyAuth) +
                     "[[auth.providers]]\n"
                     "type = \"oidc_password\"\n"
                     "token_url = \"https://idp.example.com/token\"\n"
                     "client_id = \"sqe-client\"\n"
                     "[maintenance.principal]\n"
                     "token_endpoint = \"https://idp.example.com/token\"\n"
                     "client_id = \"sqe-maintenance\"\n";
  std::map<std::string, std::string> env = {
      {"SQE_COORDINATOR__DEBUG", "yes"},
      {"SQE_COORDINATOR__TLS__CERT_FILE", cert},
      {"SQE_COORDINATOR__TLS__KEY_FILE", key},
      {"SQE_WORKER__MEMORY_LIMIT", "2GB"},
      {"SQE_AUTH__SSL_VERIFICATION", "No"},
      {"SQE_AUTH__PROVIDERS__0__CLIENT_SECRET", "provider-secret-from-env"},
      {"SQE_AUTH__ROLE_MAPPINGS__ANALYST", "reader, writer"},
      {"SQE_AUTH__EXTERNAL__ISSUER", "https://idp.example.com/realms/sqe"},
      {"SQE_AUTH__EXTERNAL__CLIENT_ID", "sqe-cli"},
      {"SQE_AUTH__EXTERNAL__DEVICE__SCOPES", "[\"openid\", \"profile\"]"},
      {"SQE_CATALOG__NAME", "lake"},
      {"SQE_CATALOG__BACKEND__TYPE", "hadoop"},
      {"SQE_CATALOG__BACKEND__WAREHOUSE", "s3://bucket/wh"},
      {"SQE_CATALOG__REST_SERVER__PORT", "9181"},
      {"SQE_STORAGE__S3_PATH_STYLE", "FALSE"},
      {"SQE_STORAGE__COALESCE_THRESHOLD", "2MB"},
      {"SQE_ACCESS_CONTROL__BACKEND", "polaris"},
      {"SQE_POLICY__ENGINE", "in-memory"},
      {"SQE_SESSION__SECRETS_PATH", "/var/lib/sqe/secrets.json"},
      {"SQE_QUERY__ROLE_OVERRIDES__ADMIN", "3600"},
      {"SQE_QUERY__MERGE_TARGET_STREAMING", "1"},
      {"SQE_QUERY_CACHE__ENABLED", "TRUE"},
      {"SQE_QUERY_HISTORY__TTL_SECS", "60"},
      {"SQE_RATE_LIMIT__ENABLED", "Yes"},
      {"SQE_METRICS__TRACE_SAMPLE_RATE", "0.5"},
      {"SQE_MAINTENANCE__MODE", "advisory"},
      {"SQE_MAINTENANCE__PRINCIPAL__CLIENT_SECRET", "maintenance-secret-from-env"},
      {"SQE_MAINTENANCE__SCHEDULER__TICK_SECS", "30"},
      {"SQE_MAINTENANCE__COMPACTION__STRATEGY", "sort"},
      {"SQE_MAINTENANCE__DISTRIBUTION__PARTIAL_PROGRESS", "0"},
      // Not field overrides: no "__", or not SQE_.
      {"SQE_LOG_LEVEL", "debug"},
      {"SQE_COORDINATOR_DEBUG", "not-a-bool"},
      {"OTHER__THING", "x"},
  };
  LoadOutcome out = LoadWith(dir, file, env);
  ASSERT_TRUE(out.ok) << out.ErrorText();
  const Config& c = out.config;
  EXPECT_TRUE(c.coordinator.debug);
  EXPECT_EQ(c.coordinator.tls.cert_file, cert);
  EXPECT_TRUE(c.coordinator.tls.enabled());
  EXPECT_EQ(c.worker.memory_limit, 2ull << 30);
  EXPECT_FALSE(c.auth.ssl_verification);
  ASSERT_EQ(c.auth.providers.size(), 1u);
  EXPECT_EQ(c.auth.providers[0].client_secret.Expose(), "provider-secret-from-env");
  EXPECT_EQ(c.auth.providers[0].token_url, "https://idp.example.com/token");  // file kept
  EXPECT_EQ(c.auth.role_mappings.at("analyst"), (std::vector<std::string>{"reader", "writer"}));
  ASSERT_TRUE(c.auth.external.has_value());
  EXPECT_EQ(c.auth.external->issuer, "https://idp.example.com/realms/sqe");
  ASSERT_TRUE(c.auth.external->device.has_value());
  EXPECT_EQ(c.auth.external->device->scopes, (std::vector<std::string>{"openid", "profile"}));
  EXPECT_EQ(c.catalog.name, "lake");
  EXPECT_EQ(c.catalog.backend.type, "hadoop");
  EXPECT_EQ(c.catalog.rest_server.port, 9181);
  EXPECT_FALSE(c.storage.s3_path_style);
  EXPECT_EQ(c.storage.coalesce_threshold, 2ull << 20);
  EXPECT_EQ(c.access_control.backend, "polaris");
  EXPECT_EQ(c.policy.engine, "in-memory");
  EXPECT_EQ(c.session.secrets_path, "/var/lib/sqe/secrets.json");
  EXPECT_EQ(c.query.role_overrides.at("admin"), 3600);
  EXPECT_TRUE(c.query.merge_target_streaming);
  EXPECT_TRUE(c.query_cache.enabled);
  EXPECT_EQ(c.query_history.ttl_secs, 60);
  EXPECT_TRUE(c.rate_limit.enabled);
  EXPECT_DOUBLE_EQ(c.metrics.trace_sample_rate, 0.5);
  EXPECT_EQ(c.maintenance.mode, "advisory");
  ASSERT_TRUE(c.maintenance.principal.has_value());
  EXPECT_EQ(c.maintenance.principal->client_secret.Expose(), "maintenance-secret-from-env");
  EXPECT_EQ(c.maintenance.principal->client_id, "sqe-maintenance");
  EXPECT_EQ(c.maintenance.scheduler.tick_secs, 30);
  EXPECT_EQ(c.maintenance.compaction.strategy, "sort");
  EXPECT_FALSE(c.maintenance.distribution.partial_progress);
}

TEST(ConfigSourcesTest, EveryBooleanSpellingFromEnvAndSet) {
  ScratchDir dir;
  const std::pair<const char*, bool> spellings[] = {
      {"true", true}, {"TRUE", true}, {"True", true},   {"1", true},      {"yes", true},
      {"YES", true},  {"Yes", true},  {"false", false}, {"FALSE", false}, {"False", false},
      {"0", false},   {"no", false},  {"NO", false},    {"No", false},    {" yes ", true},
  };
  for (const auto& [text, value] : spellings) {
    LoadOutcome env = LoadWith(dir, kLegacyAuth, {{"SQE_QUERY_CACHE__ENABLED", text}});
    ASSERT_TRUE(env.ok) << text << ": " << env.ErrorText();
    EXPECT_EQ(env.config.query_cache.enabled, value) << text;
    LoadOutcome set = LoadWith(dir, kLegacyAuth, {}, {std::string("query_cache.enabled=") + text});
    ASSERT_TRUE(set.ok) << text << ": " << set.ErrorText();
    EXPECT_EQ(set.config.query_cache.enabled, value) << text;
  }
  LoadOutcome bad = LoadWith(dir, kLegacyAuth, {{"SQE_QUERY_CACHE__ENABLED", "maybe"}});
  ASSERT_FALSE(bad.ok);
  const Diagnostic* d = bad.ErrorOn("query_cache.enabled");
  ASSERT_NE(d, nullptr) << bad.ErrorText();
  EXPECT_THAT(d->message, HasSubstr("true/false, 1/0, yes/no"));
  EXPECT_THAT(d->message, HasSubstr("\"maybe\""));
  EXPECT_THAT(d->message, HasSubstr("env SQE_QUERY_CACHE__ENABLED"));
}

TEST(ConfigSourcesTest, FileBooleansMustBeTomlBooleans) {
  ScratchDir dir;
  LoadOutcome out = LoadWith(dir, std::string(kLegacyAuth) + "[query_cache]\nenabled = \"yes\"\n");
  const Diagnostic* d = out.ErrorOn("query_cache.enabled");
  ASSERT_NE(d, nullptr) << out.ErrorText();
  EXPECT_THAT(d->message, HasSubstr("expected a boolean (true or false), got the string \"yes\""));
}

TEST(ConfigSourcesTest, ListsFromEnvSetAndFile) {
  ScratchDir dir;
  LoadOutcome comma = LoadWith(
      dir, kLegacyAuth, {{"SQE_COORDINATOR__WORKER_URLS", "grpc://w1:50052, grpc://w2:50052,"}});
  ASSERT_TRUE(comma.ok) << comma.ErrorText();
  EXPECT_EQ(comma.config.coordinator.worker_urls,
            (std::vector<std::string>{"grpc://w1:50052", "grpc://w2:50052"}));
  LoadOutcome inline_array =
      LoadWith(dir, kLegacyAuth, {}, {"coordinator.worker_urls=[\"a,b\", \"c\"]"});
  ASSERT_TRUE(inline_array.ok) << inline_array.ErrorText();
  EXPECT_EQ(inline_array.config.coordinator.worker_urls, (std::vector<std::string>{"a,b", "c"}));
  LoadOutcome empty =
      LoadWith(dir, std::string(kLegacyAuth) + "[coordinator]\nworker_urls = [\"x\"]\n", {},
               {"coordinator.worker_urls="});
  ASSERT_TRUE(empty.ok) << empty.ErrorText();
  EXPECT_TRUE(empty.config.coordinator.worker_urls.empty());
  LoadOutcome bad =
      LoadWith(dir, std::string(kLegacyAuth) + "[coordinator]\nworker_urls = [1, 2]\n");
  const Diagnostic* d = bad.ErrorOn("coordinator.worker_urls");
  ASSERT_NE(d, nullptr) << bad.ErrorText();
  EXPECT_THAT(d->message,
              HasSubstr("expected an array of strings, got an array containing the integer 1"));
}

TEST(ConfigSourcesTest, TypeErrorsNameFieldTypeAndValue) {
  ScratchDir dir;
  LoadOutcome out = LoadWith(dir, std::string(kLegacyAuth) + "[worker]\nflight_port = \"50052\"\n",
                             {{"SQE_QUERY__TIMEOUT_SECS", "five"}},
                             {"metrics.trace_sample_rate=lots", "worker.memory_limit=1.5GB"});
  ASSERT_FALSE(out.ok);
  const Diagnostic* port = out.ErrorOn("worker.flight_port");
  ASSERT_NE(port, nullptr) << out.ErrorText();
  EXPECT_THAT(port->message, HasSubstr("worker.flight_port: expected a port number (integer), got "
                                       "the string \"50052\""));
  EXPECT_THAT(port->message, HasSubstr("sqe.toml:4:"));
  const Diagnostic* timeout = out.ErrorOn("query.timeout_secs");
  ASSERT_NE(timeout, nullptr);
  EXPECT_THAT(timeout->message,
              HasSubstr("expected an integer, got \"five\" (env SQE_QUERY__TIMEOUT_SECS)"));
  const Diagnostic* rate = out.ErrorOn("metrics.trace_sample_rate");
  ASSERT_NE(rate, nullptr);
  EXPECT_THAT(rate->message,
              HasSubstr("expected a number, got \"lots\" (--set metrics.trace_sample_rate)"));
  const Diagnostic* size = out.ErrorOn("worker.memory_limit");
  ASSERT_NE(size, nullptr);
  EXPECT_THAT(size->message, HasSubstr("'1.5GB'"));
}

TEST(ConfigSourcesTest, SizesAreBytesOrUnitStrings) {
  ScratchDir dir;
  LoadOutcome out =
      LoadWith(dir, std::string(kLegacyAuth) +
                        "[query]\nmax_query_memory = 1048576\nfanout_buffer_budget = \"512MB\"\n"
                        "target_task_size = \"1 gb\"\n");
  ASSERT_TRUE(out.ok) << out.ErrorText();
  EXPECT_EQ(out.config.query.max_query_memory, 1u << 20);
  EXPECT_EQ(out.config.query.fanout_buffer_budget, 512ull << 20);
  EXPECT_EQ(out.config.query.target_task_size, 1ull << 30);
}

TEST(ConfigSourcesTest, UnknownEnvVariableSuggestsTheEnvName) {
  ScratchDir dir;
  LoadOutcome out = LoadWith(dir, kLegacyAuth, {{"SQE_COORDINATOR__FLIGHT_SQL_PROT", "1"}});
  ASSERT_FALSE(out.ok);
  ASSERT_EQ(out.errors().size(), 1u) << out.ErrorText();
  EXPECT_THAT(out.errors()[0].message, HasSubstr("unknown key 'coordinator.flight_sql_prot' (env "
                                                 "SQE_COORDINATOR__FLIGHT_SQL_PROT); did you mean "
                                                 "SQE_COORDINATOR__FLIGHT_SQL_PORT?"));
}

TEST(ConfigSourcesTest, UnknownSetKeyAndMalformedSet) {
  ScratchDir dir;
  LoadOutcome out =
      LoadWith(dir, kLegacyAuth, {}, {"query.timeot_secs=5", "novalue", "=3", "a..b=1"});
  ASSERT_FALSE(out.ok);
  EXPECT_EQ(out.errors().size(), 4u) << out.ErrorText();
  const Diagnostic* d = out.ErrorOn("query.timeot_secs");
  ASSERT_NE(d, nullptr) << out.ErrorText();
  EXPECT_THAT(d->message,
              HasSubstr("(--set query.timeot_secs); did you mean 'query.timeout_secs'?"));
  EXPECT_THAT(out.status_message, HasSubstr("--set expects section.field=value"));
}

TEST(ConfigSourcesTest, SetAddressesEntriesAndQuotedMapKeys) {
  ScratchDir dir;
  LoadOutcome out = LoadWith(dir, kLegacyAuth, {},
                             {"auth.providers[0].type=anonymous", "auth.providers.0.user=dev",
                              "auth.providers[0].roles=admin",
                              "auth.role_mappings.\"arn:aws:iam::1:role/Ana.lyst\"=reader"});
  ASSERT_TRUE(out.ok) << out.ErrorText();
  ASSERT_EQ(out.config.auth.providers.size(), 1u);
  EXPECT_EQ(out.config.auth.providers[0].type, "anonymous");
  EXPECT_EQ(out.config.auth.providers[0].user, "dev");
  EXPECT_EQ(out.config.auth.providers[0].roles, std::vector<std::string>{"admin"});
  EXPECT_EQ(out.config.auth.role_mappings.at("arn:aws:iam::1:role/Ana.lyst"),
            std::vector<std::string>{"reader"});
}

TEST(ConfigSourcesTest, EnvCreatesProvidersAndOptionalSections) {
  ScratchDir dir;
  LoadOutcome out = LoadWith(dir, "",
                             {{"SQE_AUTH__PROVIDERS__0__TYPE", "bearer_token"},
                              {"SQE_AUTH__PROVIDERS__0__JWKS_URL", "https://idp/certs"},
                              {"SQE_AUTH__PROVIDERS__1__TYPE", "anonymous"}});
  ASSERT_TRUE(out.ok) << out.ErrorText();
  ASSERT_EQ(out.config.auth.providers.size(), 2u);
  EXPECT_EQ(out.config.auth.providers[0].jwks_url, "https://idp/certs");
  EXPECT_EQ(out.config.auth.providers[1].type, "anonymous");

  // A higher source can clear a lower source's chain.
  LoadOutcome cleared = LoadWith(dir, "[[auth.providers]]\ntype = \"anonymous\"\n", {},
                                 {"auth.providers=[]"}, "local");
  ASSERT_TRUE(cleared.ok) << cleared.ErrorText();
  EXPECT_TRUE(cleared.config.auth.providers.empty());
}

TEST(ConfigSourcesTest, SecretFilesFromEveryLayer) {
  ScratchDir dir;
  dir.Write("secrets/client", "file-secret-1\n\n");
  std::string s3 = dir.Write("s3-key", "file-secret-2\r\n");
  std::string worker = dir.Write("worker", "file-secret-3");
  LoadOutcome out = LoadWith(
      dir, std::string(kLegacyAuth) + "client_secret_file = \"secrets/client\"\n",
      {{"SQE_STORAGE__S3_SECRET_KEY_FILE", s3}}, {"coordinator.worker_secret_file=" + worker});
  ASSERT_TRUE(out.ok) << out.ErrorText();
  // One trailing newline is trimmed, not all of them.
  EXPECT_EQ(out.config.auth.client_secret.Expose(), "file-secret-1\n");
  EXPECT_EQ(out.config.storage.s3_secret_key.Expose(), "file-secret-2");
  EXPECT_EQ(out.config.coordinator.worker_secret.Expose(), "file-secret-3");
}

TEST(ConfigSourcesTest, HigherSourceValueBeatsLowerSourceFileAndViceVersa) {
  ScratchDir dir;
  std::string from_file = dir.Write("secret", "from-file");
  LoadOutcome value_wins =
      LoadWith(dir, std::string(kLegacyAuth) + "client_secret_file = \"" + from_file + "\"\n",
               {{"SQE_AUTH__CLIENT_SECRET", "from-env"}});
  ASSERT_TRUE(value_wins.ok) << value_wins.ErrorText();
  EXPECT_EQ(value_wins.config.auth.client_secret.Expose(), "from-env");

  LoadOutcome file_wins = LoadWith(dir, std::string(kLegacyAuth) + "client_secret = \"inline\"\n",
                                   {{"SQE_AUTH__CLIENT_SECRET_FILE", from_file}});
  ASSERT_TRUE(file_wins.ok) << file_wins.ErrorText();
  EXPECT_EQ(file_wins.config.auth.client_secret.Expose(), "from-file");
}

TEST(ConfigSourcesTest, SecretAndItsFileInOneSourceIsAnError) {
  ScratchDir dir;
  std::string secret = dir.Write("secret", "x");
  LoadOutcome out = LoadWith(dir, kLegacyAuth,
                             {{"SQE_STORAGE__S3_ACCESS_KEY", "inline-access-key"},
                              {"SQE_STORAGE__S3_ACCESS_KEY_FILE", secret}});
  const Diagnostic* d = out.ErrorOn("storage.s3_access_key");
  ASSERT_NE(d, nullptr) << out.ErrorText();
  EXPECT_THAT(d->message, HasSubstr("storage.s3_access_key and storage.s3_access_key_file are "
                                    "both set in the environment"));
  EXPECT_THAT(d->message, Not(HasSubstr("inline-access-key")));
}

TEST(ConfigSourcesTest, UnreadableSecretFileNamesFieldAndPathNotContents) {
  ScratchDir dir;
  LoadOutcome out = LoadWith(
      dir, kLegacyAuth, {{"SQE_MAINTENANCE__PRINCIPAL__CLIENT_SECRET_FILE", "/no/such/secret"}});
  const Diagnostic* d = out.ErrorOn("maintenance.principal.client_secret_file");
  ASSERT_NE(d, nullptr) << out.ErrorText();
  EXPECT_THAT(d->message, HasSubstr("'/no/such/secret'"));
  EXPECT_THAT(d->message, HasSubstr("SQE_MAINTENANCE__PRINCIPAL__CLIENT_SECRET_FILE"));

  std::string dir_path = dir.path();
  LoadOutcome directory = LoadWith(dir, kLegacyAuth, {}, {"auth.client_secret_file=" + dir_path});
  const Diagnostic* dd = directory.ErrorOn("auth.client_secret_file");
  ASSERT_NE(dd, nullptr) << directory.ErrorText();
  EXPECT_THAT(dd->message, HasSubstr("is a directory"));
}

TEST(ConfigSourcesTest, RelativePathsInTheFileResolveAgainstItsDirectory) {
  ScratchDir dir;
  dir.Write("conf/keys.toml", "[[keys]]\nkey = \"sqe_k1\"\nuser = \"etl\"\n");
  dir.Write("conf/tls/server.crt", "C");
  dir.Write("conf/tls/server.key", "K");
  std::string config =
      dir.Write("conf/sqe.toml",
                "[coordinator.tls]\ncert_file = \"tls/server.crt\"\n"
                "key_file = \"./tls/server.key\"\n"
                "[[auth.providers]]\ntype = \"api_key\"\nkeys_file = \"keys.toml\"\n");
  LoadOptions options;
  options.config_path = config;
  auto loaded = LoadConfig(options);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_EQ(loaded->config.coordinator.tls.cert_file, dir.path() + "/conf/tls/server.crt");
  EXPECT_EQ(loaded->config.coordinator.tls.key_file, dir.path() + "/conf/tls/server.key");
  EXPECT_EQ(loaded->config.auth.providers[0].keys_file, dir.path() + "/conf/keys.toml");
}

TEST(ConfigSourcesTest, ModeDefaultsResolveAfterTheMerge) {
  ScratchDir dir;
  // No backend named: local -> embedded in ./sqe-data with the REST catalog server on.
  LoadOutcome local = LoadWith(dir, "[catalog]\nname = \"lake\"\n", {}, {}, "local");
  ASSERT_TRUE(local.ok) << local.ErrorText();
  EXPECT_EQ(local.config.catalog.backend.type, "embedded");
  EXPECT_EQ(local.config.catalog.backend.warehouse, "./sqe-data");
  EXPECT_EQ(local.config.catalog.rest_server.port, 8181);

  // Otherwise rest, inheriting catalog_url and warehouse; no REST catalog server.
  LoadOutcome hybrid =
      LoadWith(dir, std::string(kLegacyAuth) +
                        "[catalog]\ncatalog_url = \"http://polaris:8181/api/catalog\"\n"
                        "warehouse = \"analytics\"\n");
  ASSERT_TRUE(hybrid.ok) << hybrid.ErrorText();
  EXPECT_EQ(hybrid.config.catalog.backend.type, "rest");
  EXPECT_EQ(hybrid.config.catalog.backend.uri, "http://polaris:8181/api/catalog");
  EXPECT_EQ(hybrid.config.catalog.backend.warehouse, "analytics");
  EXPECT_EQ(hybrid.config.catalog.rest_server.port, 0);

  // An explicit port wins over the mode default, even 0 in local mode.
  LoadOutcome off = LoadWith(dir, "", {{"SQE_CATALOG__REST_SERVER__PORT", "0"}}, {}, "local");
  ASSERT_TRUE(off.ok) << off.ErrorText();
  EXPECT_EQ(off.config.catalog.rest_server.port, 0);
}

TEST(ConfigSourcesTest, TomlSyntaxErrorNamesFileLineAndColumn) {
  ScratchDir dir;
  LoadOutcome out = LoadWith(dir, "[coordinator]\nflight_sql_port = = 5\n");
  ASSERT_FALSE(out.ok);
  EXPECT_THAT(out.status_message, HasSubstr("sqe.toml:2:"));
  EXPECT_THAT(out.status_message, HasSubstr("invalid TOML"));
}

TEST(ConfigSourcesTest, WarningsAreReturnedWithTheConfig) {
  ScratchDir dir;
  LoadOptions options;
  options.config_path =
      dir.Write("sqe.toml", std::string(kLegacyAuth) + "ssl_verification = false\n");
  auto loaded = LoadConfig(options);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  ASSERT_EQ(loaded->warnings.size(), 1u);
  EXPECT_EQ(loaded->warnings[0].field, "auth.ssl_verification");
  EXPECT_EQ(loaded->warnings[0].ToString().rfind("warning: auth.ssl_verification", 0), 0u);
}

TEST(ConfigSourcesTest, LoadedSecretsAreRedactedFromLogs) {
  ScratchDir dir;
  std::string file = dir.Write("pw", "Ps-from-a-file-77\n");
  LoadOutcome out = LoadWith(dir,
                             std::string(kLegacyAuth) +
                                 "[catalog.backend]\ntype = \"rest\"\n"
                                 "credential = \"client:Cs-inline-half-42\"\n",
                             {{"SQE_STORAGE__S3_SECRET_KEY", "Sk-env-value-13"},
                              {"SQE_COORDINATOR__WORKER_SECRET_FILE", file}});
  ASSERT_TRUE(out.ok) << out.ErrorText();
  for (const char* secret :
       {"Sk-env-value-13", "Ps-from-a-file-77", "client:Cs-inline-half-42", "Cs-inline-half-42"}) {
    EXPECT_EQ(log::Redact(std::string("value=") + secret), "value=***") << secret;
  }
  LoadOutcome jdbc = LoadWith(dir, std::string(kLegacyAuth) +
                                       "[catalog.backend]\ntype = \"jdbc\"\n"
                                       "url = \"postgresql://u:UrlPw-0099@h/db\"\n");
  ASSERT_TRUE(jdbc.ok) << jdbc.ErrorText();
  EXPECT_THAT(log::Redact("pw UrlPw-0099 here"), Not(HasSubstr("UrlPw-0099")));
}

TEST(ConfigSourcesTest, SuperTableMayFollowItsArrayOfTables) {
  ScratchDir dir;
  LoadOutcome out = LoadWith(dir,
                             "[[auth.providers]]\ntype = \"anonymous\"\n"
                             "[auth]\nclient_id = \"late\"\n",
                             {}, {}, "local");
  ASSERT_TRUE(out.ok) << out.ErrorText();
  EXPECT_EQ(out.config.auth.client_id, "late");
  EXPECT_EQ(out.config.auth.providers.size(), 1u);
}

TEST(ConfigSourcesTest, HostileInputBecomesErrorsNotCrashes) {
  ScratchDir dir;
  LoadOutcome binary = LoadWith(dir, std::string("\x00\xff\xfe[[[\x01", 7));
  EXPECT_FALSE(binary.ok);
  EXPECT_THAT(binary.status_message, HasSubstr("sqe.toml:"));
  LoadOutcome index =
      LoadWith(dir, kLegacyAuth, {{"SQE_AUTH__PROVIDERS__999999999999__TYPE", "x"}});
  ASSERT_FALSE(index.ok);
  EXPECT_THAT(index.ErrorText(), HasSubstr("index is too large"));
  LoadOutcome empty_segment = LoadWith(dir, kLegacyAuth, {{"SQE_QUERY____TIMEOUT_SECS", "1"}});
  EXPECT_FALSE(empty_segment.ok);
  LoadOptions options;
  options.config_path = dir.path();
  auto loaded = LoadConfig(options);
  ASSERT_FALSE(loaded.ok());
  EXPECT_THAT(loaded.status().message(), HasSubstr("is a directory"));
}

}  // namespace
}  // namespace sqe::config
