// The REST catalog client: against a fake endpoint for the token flow, 401 refresh,
// paging, prefixes, error mapping, commit-state-unknown, vended credentials and the
// cache; and against sqe's own REST server over an embedded catalog (a real server).
#include "catalog/rest/rest_catalog.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>
#include <filesystem>
#include <thread>

#include "auth/api_key_authenticator.h"
#include "auth/auth_chain.h"
#include "catalog/catalog_factory.h"
#include "catalog/table_file_system.h"
#include "io/s3/s3_options.h"
#include "server/http/http_listener.h"
#include "server/iceberg_rest/iceberg_rest_routes.h"

namespace sqe::catalog {
namespace {

using Json = nlohmann::json;

const char kMetadata[] =
    R"({"format-version": 2, "table-uuid": "9c12d441-03fe-4693-9a96-a0705ddf69c1",
  "location": "s3://bucket/wh/db/t", "last-sequence-number": 0, "last-updated-ms": 1700000000000,
  "last-column-id": 1, "current-schema-id": 0,
  "schemas": [{"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "id", "required": true, "type": "long"}]}],
  "default-spec-id": 0, "partition-specs": [{"spec-id": 0, "fields": []}], "last-partition-id": 999,
  "default-sort-order-id": 0, "sort-orders": [{"order-id": 0, "fields": []}], "properties": {},
  "current-snapshot-id": -1, "snapshots": [], "snapshot-log": [], "metadata-log": []})";

std::string ErrorBody(int code, const std::string& type, const std::string& message) {
  return Json{{"error", {{"message", message}, {"type", type}, {"code", code}}}}.dump();
}

/// An httplib server on a free 127.0.0.1 port, serving in a thread.
class FakeCatalog {
 public:
  FakeCatalog() {
    server_.Post("/v1/oauth/tokens", [this](const httplib::Request& req, httplib::Response& res) {
      bool good = req.body.find("grant_type=client_credentials") != std::string::npos &&
                  req.body.find("client_id=cid") != std::string::npos &&
                  req.body.find("client_secret=s%3Acret") != std::string::npos &&
                  req.body.find("scope=catalog") != std::string::npos;
      if (!good) {
        res.status = 401;
        res.set_content(R"({"error":"invalid_client","error_description":"bad secret"})",
                        "application/json");
        return;
      }
      int n = ++tokens_issued;
      res.set_content(Json{{"access_token", "tok" + std::to_string(n)},
                           {"token_type", "bearer"},
                           {"expires_in", 3600}}
                          .dump(),
                      "application/json");
    });
    server_.Get("/v1/config", [this](const httplib::Request& req, httplib::Response& res) {
      last_warehouse = req.get_param_value("warehouse");
      res.set_content(
          Json{{"defaults", {{"rest-page-size", "1"}}}, {"overrides", {{"prefix", "p1"}}}}.dump(),
          "application/json");
    });
    // Paged, and the first call is answered 401 once (an early-revoked token).
    server_.Get("/v1/p1/namespaces", [this](const httplib::Request& req, httplib::Response& res) {
      if (reject_next.exchange(false) || req.get_header_value("Authorization") != current()) {
        res.status = 401;
        res.set_content(ErrorBody(401, "NotAuthorizedException", "token expired"),
                        "application/json");
        return;
      }
      EXPECT_EQ(req.get_param_value("pageSize"), "1");
      std::string token = req.get_param_value("pageToken");
      Json body = {{"namespaces", Json::array({Json::array({token.empty() ? "a" : "b"})})}};
      if (token.empty()) body["next-page-token"] = "page2";
      res.set_content(body.dump(), "application/json");
    });
    server_.Get(
        R"(/v1/p1/namespaces/([^/]+))", [](const httplib::Request& req, httplib::Response& res) {
          res.status = 404;
          res.set_content(
              ErrorBody(404, "NoSuchNamespaceException", "Namespace does not exist: missing"),
              "application/json");
        });
    server_.Get(R"(/v1/p1/namespaces/db/tables/t)", [this](const httplib::Request& req,
                                                           httplib::Response& res) {
      ++loads;
      delegation = req.get_header_value("X-Iceberg-Access-Delegation");
      Json body = {
          {"metadata-location", "s3://bucket/wh/db/t/metadata/v1.json"},
          {"metadata", Json::parse(kMetadata)},
          {"config", {{"s3.endpoint", "http://127.0.0.1:9000"}}},
          {"storage-credentials",
           Json::array({{{"prefix", "s3://other"}, {"config", {{"s3.access-key-id", "WRONG"}}}},
                        {{"prefix", "s3://bucket/wh"},
                         {"config",
                          {{"s3.access-key-id", "AKID"},
                           {"s3.secret-access-key", "SECRET"},
                           {"s3.session-token", "SESSION"}}}}})}};
      res.set_content(body.dump(), "application/json");
    });
    server_.Post(R"(/v1/p1/namespaces/db/tables/t)", [this](const httplib::Request& req,
                                                            httplib::Response& res) {
      commit_bodies.push_back(req.body);
      res.status = commit_status;
      res.set_content(commit_status == 409
                          ? ErrorBody(409, "CommitFailedException", "stale base")
                          : ErrorBody(commit_status, "ServiceFailureException", "backend hiccup"),
                      "application/json");
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~FakeCatalog() {
    server_.stop();
    thread_.join();
  }
  std::string uri() const { return "http://127.0.0.1:" + std::to_string(port_); }
  std::string current() const { return "Bearer tok" + std::to_string(tokens_issued.load()); }

  std::atomic<int> tokens_issued{0};
  std::atomic<bool> reject_next{false};
  std::atomic<int> loads{0};
  std::string last_warehouse, delegation;
  int commit_status = 409;
  std::vector<std::string> commit_bodies;

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
};

RestCatalogOptions OptionsFor(const FakeCatalog& fake) {
  RestCatalogOptions o;
  o.uri = fake.uri();
  o.warehouse = "lake";
  o.credential = SecretString("cid:s:cret");
  o.retry.max_attempts = 1;
  return o;
}

TEST(RestCatalogTest, TokenFlowRefreshOn401PagingAndPrefix) {
  FakeCatalog fake;
  auto catalog = RestCatalog::Make(OptionsFor(fake));
  ASSERT_TRUE(catalog.ok()) << catalog.status().ToString();
  fake.reject_next = true;
  auto listed = (*catalog)->ListNamespaces({});
  ASSERT_TRUE(listed.ok()) << listed.status().ToString();
  EXPECT_EQ(*listed, (std::vector<Namespace>{{"a"}, {"b"}}));
  EXPECT_EQ(fake.last_warehouse, "lake");
  // One token for /v1/config and the first page, a second after the 401, then reused.
  EXPECT_EQ((*catalog)->token_fetches(), 2);
  ASSERT_TRUE((*catalog)->ListNamespaces({}).ok());
  EXPECT_EQ((*catalog)->token_fetches(), 2);
  auto props = (*catalog)->EffectiveProperties();
  ASSERT_TRUE(props.ok());
  EXPECT_EQ(props->at("prefix"), "p1");
  EXPECT_EQ(props->at("warehouse"), "lake");
}

TEST(RestCatalogTest, RejectedCredentialIsUnauthenticatedWithoutTheSecret) {
  FakeCatalog fake;
  RestCatalogOptions o = OptionsFor(fake);
  o.credential = SecretString("cid:wrong-secret");
  auto catalog = RestCatalog::Make(o);
  ASSERT_TRUE(catalog.ok());
  Status st = (*catalog)->ListNamespaces({}).status();
  EXPECT_EQ(st.code(), StatusCode::kUnauthenticated);
  EXPECT_NE(st.message().find(fake.uri()), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("bad secret"), std::string::npos) << st.message();
  EXPECT_EQ(st.message().find("wrong-secret"), std::string::npos) << st.message();
}

TEST(RestCatalogTest, ErrorModelMapsToStatusCodes) {
  FakeCatalog fake;
  auto catalog = RestCatalog::Make(OptionsFor(fake));
  ASSERT_TRUE(catalog.ok());
  Status st = (*catalog)->LoadNamespaceProperties({"missing"}).status();
  EXPECT_EQ(st.code(), StatusCode::kNotFound);
  EXPECT_NE(st.message().find("'missing'"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("NoSuchNamespaceException"), std::string::npos) << st.message();
  auto exists = (*catalog)->NamespaceExists({"missing"});
  ASSERT_TRUE(exists.ok());
  EXPECT_FALSE(*exists);

  net::HttpResponse r;
  r.status = 409;
  r.body = ErrorBody(409, "AlreadyExistsException", "exists");
  EXPECT_EQ(ErrorFromRestResponse(r, "c", "w").code(), StatusCode::kAlreadyExists);
  r.body = ErrorBody(409, "NamespaceNotEmptyException", "not empty");
  EXPECT_EQ(ErrorFromRestResponse(r, "c", "w").code(), StatusCode::kConflict);
  r.status = 400;
  EXPECT_EQ(ErrorFromRestResponse(r, "c", "w").code(), StatusCode::kInvalidArgument);
  r.status = 403;
  EXPECT_EQ(ErrorFromRestResponse(r, "c", "w").code(), StatusCode::kPermissionDenied);
  r.status = 502;
  r.body = "<html>bad gateway</html>";
  Status gateway = ErrorFromRestResponse(r, "c", "w");
  EXPECT_EQ(gateway.code(), StatusCode::kIOError);
  EXPECT_NE(gateway.message().find("bad gateway"), std::string::npos);
}

TEST(RestCatalogTest, VendedCredentialsCacheAndCommitOutcomes) {
  FakeCatalog fake;
  auto catalog = RestCatalog::Make(OptionsFor(fake));
  ASSERT_TRUE(catalog.ok());
  TableIdentifier id{{"db"}, "t"};
  auto loaded = (*catalog)->LoadTable(id);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_EQ(fake.delegation, "vended-credentials");
  ASSERT_TRUE(loaded->storage_credentials.has_value());
  EXPECT_EQ(loaded->storage_credentials->access_key_id, "AKID");
  EXPECT_EQ(loaded->storage_credentials->secret_access_key.Expose(), "SECRET");
  EXPECT_EQ(loaded->storage_credentials->session_token, "SESSION");
  EXPECT_EQ(loaded->table_config.at("s3.endpoint"), "http://127.0.0.1:9000");
  EXPECT_EQ(loaded->table_config.count("s3.secret-access-key"), 0u);
  // Cached (ttl 30 s): no second request.
  ASSERT_TRUE((*catalog)->LoadTable(id).ok());
  EXPECT_EQ(fake.loads, 1);

  auto stale = (*catalog)->CommitTable(
      id, {iceberg::TableRequirement::AssertRefSnapshotId("main", std::nullopt)},
      {iceberg::TableUpdate::SetProperties({{"k", "v"}})});
  EXPECT_EQ(stale.status().code(), StatusCode::kConflict) << stale.status().ToString();
  ASSERT_EQ(fake.commit_bodies.size(), 1u);
  Json body = Json::parse(fake.commit_bodies[0]);
  EXPECT_EQ(body["identifier"]["name"], "t");
  EXPECT_EQ(body["requirements"][0]["type"], "assert-ref-snapshot-id");
  EXPECT_EQ(body["updates"][0]["action"], "set-properties");
  // The conflict dropped the cached entry: the retry reads fresh metadata.
  ASSERT_TRUE((*catalog)->LoadTable(id).ok());
  EXPECT_EQ(fake.loads, 2);

  fake.commit_status = 503;
  auto unknown =
      (*catalog)->CommitTable(id, {}, {iceberg::TableUpdate::SetProperties({{"k", "v"}})});
  EXPECT_EQ(unknown.status().code(), StatusCode::kIOError);
  EXPECT_NE(unknown.status().message().find("commit state of table 'db.t' is unknown"),
            std::string::npos)
      << unknown.status().ToString();
  EXPECT_EQ(fake.commit_bodies.size(), 2u);  // sent once, not retried
}

TEST(RestCatalogTest, BadUriIsInvalidArgument) {
  RestCatalogOptions o;
  o.uri = "polaris:8181";
  EXPECT_EQ(RestCatalog::Make(o).status().code(), StatusCode::kInvalidArgument);
}

// The client against sqe's own REST server (an HttpListener over an embedded catalog).
TEST(RestCatalogTest, AgainstSqeRestServer) {
  auto dir =
      std::filesystem::temp_directory_path() / ("sqe_rest_client_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  auto fs = std::make_shared<io::s3::StorageFileSystems>(io::s3::S3Options{});
  auto embedded = MakeEmbeddedCatalog(dir.string(), "lake", 2, fs);
  ASSERT_TRUE(embedded.ok());
  server::HttpListener listener;
  server::IcebergRestOptions rest{dir.string(), 2, fs};
  // The server takes API keys: the client exchanges one at /v1/oauth/tokens (OAuth2 client
  // credentials, the key as the secret) and sends the issued token.
  config::ApiKeyEntry key;
  key.key = SecretString("sqe_client_key_42");
  key.user = "etl";
  std::vector<std::unique_ptr<auth::Authenticator>> providers;
  providers.push_back(
      std::make_unique<auth::ApiKeyAuthenticator>(std::vector<config::ApiKeyEntry>{key}, "sqe_"));
  rest.auth = std::make_shared<auth::AuthChain>(std::move(providers));
  server::AddIcebergRestRoutes(listener, std::shared_ptr<Catalog>(std::move(*embedded)), rest);
  ASSERT_TRUE(listener.Bind("127.0.0.1", 0).ok());
  ASSERT_TRUE(listener.Serve().ok());
  const std::string uri = "http://127.0.0.1:" + std::to_string(listener.bound_port());
  {
    // Without a credential, and with a wrong one: Unauthenticated, the secret not shown.
    RestCatalogOptions anonymous;
    anonymous.uri = uri;
    EXPECT_EQ((*RestCatalog::Make(anonymous))->ListNamespaces({}).status().code(),
              StatusCode::kUnauthenticated);
    RestCatalogOptions wrong = anonymous;
    wrong.credential = SecretString("etl:sqe_wrong_key");
    Status st = (*RestCatalog::Make(wrong))->ListNamespaces({}).status();
    EXPECT_EQ(st.code(), StatusCode::kUnauthenticated) << st.ToString();
    EXPECT_EQ(st.message().find("sqe_wrong_key"), std::string::npos) << st.message();
    // The key itself as a bearer token works too.
    RestCatalogOptions bearer = anonymous;
    bearer.token = SecretString("sqe_client_key_42");
    EXPECT_TRUE((*RestCatalog::Make(bearer))->ListNamespaces({}).ok());
  }
  {
    RestCatalogOptions o;
    o.uri = uri;
    o.credential = SecretString("etl:sqe_client_key_42");
    o.properties["rest-page-size"] = "1";  // every list is paged by the server
    o.metadata_cache_ttl_secs = 0;
    auto made = RestCatalog::Make(o);
    ASSERT_TRUE(made.ok());
    RestCatalog& c = **made;
    ASSERT_TRUE(c.CreateNamespace({"db"}, {{"owner", "ann"}}).ok());
    ASSERT_TRUE(c.CreateNamespace({"db", "n s"}, {}).ok());
    ASSERT_TRUE(c.CreateNamespace({"hr"}, {}).ok());
    EXPECT_EQ(c.CreateNamespace({"db"}, {}).code(), StatusCode::kAlreadyExists);
    EXPECT_EQ(*c.ListNamespaces({}), (std::vector<Namespace>{{"db"}, {"hr"}}));
    EXPECT_EQ(*c.ListNamespaces({"db"}), (std::vector<Namespace>{{"db", "n s"}}));
    EXPECT_TRUE(*c.NamespaceExists({"db", "n s"}));
    EXPECT_FALSE(*c.NamespaceExists({"zz"}));
    EXPECT_EQ(c.LoadNamespaceProperties({"db"})->at("owner"), "ann");
    ASSERT_TRUE(c.UpdateNamespaceProperties({"db"}, {"owner"}, {{"tier", "gold"}}).ok());
    auto props = c.LoadNamespaceProperties({"db"});
    EXPECT_EQ(props->count("owner"), 0u);
    EXPECT_EQ(props->at("tier"), "gold");

    CreateTableRequest request;
    auto schema = iceberg::ParseSchemaJson(
        R"({"type":"struct","schema-id":0,"fields":[{"id":1,"name":"id","required":true,"type":"long"}]})");
    ASSERT_TRUE(schema.ok());
    request.schema = *schema;
    request.properties = {{"owner", "qa"}};
    request.format_version = 3;
    TableIdentifier id{{"db", "n s"}, "t"};
    auto created = c.CreateTable(id, request);
    ASSERT_TRUE(created.ok()) << created.status().ToString();
    EXPECT_EQ(created->metadata->format_version, 3);
    EXPECT_EQ(created->metadata->properties.at("owner"), "qa");
    EXPECT_EQ(c.CreateTable(id, request).status().code(), StatusCode::kAlreadyExists);
    EXPECT_EQ(c.CreateTable({{"zz"}, "t"}, request).status().code(), StatusCode::kNotFound);
    ASSERT_TRUE(c.CreateTable({{"db", "n s"}, "u"}, request).ok());
    EXPECT_EQ(*c.ListTables({"db", "n s"}),
              (std::vector<TableIdentifier>{id, {{"db", "n s"}, "u"}}));

    auto committed = c.CommitTable(
        id, {iceberg::TableRequirement::AssertTableUuid(created->metadata->table_uuid)},
        {iceberg::TableUpdate::SetProperties({{"k", "v"}})});
    ASSERT_TRUE(committed.ok()) << committed.status().ToString();
    EXPECT_EQ(committed->metadata->properties.at("k"), "v");
    EXPECT_NE(committed->metadata_location, created->metadata_location);
    auto stale = c.CommitTable(id, {iceberg::TableRequirement::AssertTableUuid("other")},
                               {iceberg::TableUpdate::SetProperties({{"k", "w"}})});
    EXPECT_EQ(stale.status().code(), StatusCode::kConflict);
    EXPECT_EQ(c.LoadTable(id)->metadata->properties.at("k"), "v");

    EXPECT_EQ(c.DropNamespace({"db", "n s"}).code(), StatusCode::kConflict);
    ASSERT_TRUE(c.RenameTable(id, {{"hr"}, "t2"}).ok());
    EXPECT_EQ(c.LoadTable(id).status().code(), StatusCode::kNotFound);
    auto renamed = c.LoadTable({{"hr"}, "t2"});
    ASSERT_TRUE(renamed.ok());
    ASSERT_TRUE(c.DropTable({{"hr"}, "t2"}, false).ok());
    auto registered = c.RegisterTable({{"hr"}, "back"}, renamed->metadata_location);
    ASSERT_TRUE(registered.ok()) << registered.status().ToString();
    EXPECT_EQ(registered->metadata->properties.at("k"), "v");
    ASSERT_TRUE(c.DropTable({{"hr"}, "back"}, true).ok());
    EXPECT_EQ(c.LoadTable({{"hr"}, "back"}).status().code(), StatusCode::kNotFound);
    EXPECT_EQ(c.token_fetches(), 1);  // one token for the whole session
  }
  listener.Stop();
  std::filesystem::remove_all(dir);
}

// The factory makes the client for type = "rest" without contacting the server.
TEST(RestCatalogTest, FactoryMakesRestCatalog) {
  config::Config config;
  config.catalog.backend.type = "rest";
  config.catalog.backend.uri = "http://127.0.0.1:9/catalog";
  auto fs = std::make_shared<io::s3::StorageFileSystems>(io::s3::S3Options{});
  auto made = MakeCatalog(config, fs);
  ASSERT_TRUE(made.ok()) << made.status().ToString();
  Status st = (*made)->ListNamespaces({}).status();
  EXPECT_EQ(st.code(), StatusCode::kIOError);
  EXPECT_NE(st.message().find("http://127.0.0.1:9/catalog"), std::string::npos) << st.message();
}

}  // namespace
}  // namespace sqe::catalog

namespace sqe::catalog {
namespace {

// Vended credentials reach storage: a table the catalog vended keys for is read with those
// keys (the SigV4 Credential= of the requests the S3 endpoint sees), any other table with
// the operator's [storage] keys.
TEST(TableFileSystemTest, VendedCredentialsSignTheTablesRequests) {
  httplib::Server s3;
  std::mutex mu;
  std::vector<std::string> authorizations;
  s3.Get(R"(/bucket.*)", [&](const httplib::Request& req, httplib::Response& res) {
    std::lock_guard lock(mu);
    authorizations.push_back(req.get_header_value("Authorization"));
    res.set_content(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><ListBucketResult><Name>bucket</Name>"
        "<KeyCount>0</KeyCount><IsTruncated>false</IsTruncated></ListBucketResult>",
        "application/xml");
  });
  int port = s3.bind_to_any_port("127.0.0.1");
  std::thread serving([&] { s3.listen_after_bind(); });
  while (!s3.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));

  io::s3::S3Options options;
  options.endpoint = "http://127.0.0.1:" + std::to_string(port);
  options.allow_http = true;
  options.credentials.access_key_id = "OPERATORKEY";
  options.credentials.secret_access_key = SecretString("operator-secret");
  io::s3::StorageFileSystems file_systems(options);

  auto metadata = iceberg::ParseTableMetadata(kMetadata);  // location s3://bucket/wh/db/t
  ASSERT_TRUE(metadata.ok()) << metadata.status().ToString();
  LoadedTable vended =
      LoadedTable::Of({{"db"}, "t"}, "s3://bucket/wh/db/t/metadata/v1.json", *metadata);
  net::AwsCredentials keys;
  keys.access_key_id = "VENDEDKEY";
  keys.secret_access_key = SecretString("vended-secret");
  keys.session_token = "session";
  vended.storage_credentials = keys;
  LoadedTable plain = LoadedTable::Of({{"db"}, "t"}, vended.metadata_location, *metadata);

  for (const LoadedTable* table : {&vended, &plain}) {
    auto fs = TableFileSystem(file_systems, *table);
    ASSERT_TRUE(fs.ok()) << fs.status().ToString();
    auto listed = (*fs)->List("s3://bucket/wh/db/t/");
    ASSERT_TRUE(listed.ok()) << listed.status().ToString();
  }
  s3.stop();
  serving.join();
  ASSERT_EQ(authorizations.size(), 2u);
  EXPECT_NE(authorizations[0].find("Credential=VENDEDKEY/"), std::string::npos)
      << authorizations[0];
  EXPECT_NE(authorizations[1].find("Credential=OPERATORKEY/"), std::string::npos)
      << authorizations[1];
}

}  // namespace
}  // namespace sqe::catalog

namespace sqe::catalog {
namespace {

// Without a catalog credential the client takes the process's machine identity: an oidc_m2m
// provider first, else [auth] token_endpoint + client_id + client_secret.
TEST(RestCatalogOptionsTest, TokenSourceFallsBackToTheAuthSection) {
  config::Config config;
  config.catalog.catalog_url = "http://127.0.0.1:1/api/catalog";
  config.auth.token_endpoint = "http://idp/token";
  config.auth.client_id = "sqe";
  config.auth.client_secret = SecretString("legacy-secret");
  auto legacy = RestCatalogOptionsFromConfig(config, {});
  ASSERT_TRUE(legacy.ok()) << legacy.status().ToString();
  EXPECT_EQ(legacy->uri, "http://127.0.0.1:1/api/catalog");
  EXPECT_EQ(legacy->oauth2_server_uri, "http://idp/token");
  EXPECT_EQ(legacy->credential.Expose(), "sqe:legacy-secret");

  config::AuthProviderConfig m2m;
  m2m.type = "oidc_m2m";
  m2m.token_endpoint = "http://unity/oidc/v1/token";
  m2m.client_id = "sp";
  m2m.client_secret = SecretString("m2m-secret");
  m2m.scope = "all-apis";
  config.auth.providers.push_back(m2m);
  auto chained = RestCatalogOptionsFromConfig(config, {});
  ASSERT_TRUE(chained.ok());
  EXPECT_EQ(chained->oauth2_server_uri, "http://unity/oidc/v1/token");
  EXPECT_EQ(chained->credential.Expose(), "sp:m2m-secret");
  EXPECT_EQ(chained->scope, "all-apis");

  // The catalog's own credential wins.
  config.catalog.backend.token = SecretString("catalog-token");
  auto own = RestCatalogOptionsFromConfig(config, {});
  ASSERT_TRUE(own.ok());
  EXPECT_TRUE(own->credential.empty());
  EXPECT_EQ(own->token.Expose(), "catalog-token");
}

}  // namespace
}  // namespace sqe::catalog
