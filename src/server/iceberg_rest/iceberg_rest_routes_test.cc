#include "server/iceberg_rest/iceberg_rest_routes.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "auth/anonymous_authenticator.h"
#include "auth/api_key_authenticator.h"
#include "catalog/catalog_factory.h"

namespace sqe::server {
namespace {

using nlohmann::json;

constexpr const char* kSchema = R"({"type":"struct","schema-id":0,"fields":[)"
                                R"({"id":1,"name":"id","required":true,"type":"long"},)"
                                R"({"id":2,"name":"ts","required":false,"type":"timestamp"},)"
                                R"({"id":3,"name":"name","required":false,"type":"string"}]})";
constexpr const char* kSpec =
    R"({"spec-id":0,"fields":[{"source-id":2,"field-id":1000,"name":"ts_day","transform":"day"}]})";

class IcebergRestRoutesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("sqe_rest_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    auto fs = std::make_shared<io::s3::StorageFileSystems>(io::s3::S3Options{});
    auto catalog = catalog::MakeEmbeddedCatalog(dir_.string(), "lake", 2, fs);
    ASSERT_TRUE(catalog.ok()) << catalog.status().message();
    catalog_ = std::shared_ptr<catalog::Catalog>(std::move(*catalog));
    IcebergRestOptions options{dir_.string(), 2, fs};
    options.auth = std::make_shared<auth::AuthChain>(MakeProviders());
    AddIcebergRestRoutes(router_, catalog_, options);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  /// The providers of the server's chain: anonymous here (the route tests), API keys in
  /// the auth tests.
  virtual std::vector<std::unique_ptr<auth::Authenticator>> MakeProviders() {
    std::vector<std::unique_ptr<auth::Authenticator>> providers;
    providers.push_back(
        std::make_unique<auth::AnonymousAuthenticator>("dev", std::vector<std::string>{"admin"}));
    return providers;
  }

  HttpResponse Call(HttpMethod method, const std::string& path, const std::string& body = "",
                    std::multimap<std::string, std::string> query = {},
                    const std::string& authorization = "") {
    HttpRequest request;
    request.method = method;
    request.path = path;
    request.body = body;
    request.query = std::move(query);
    if (!authorization.empty()) request.headers["authorization"] = authorization;
    return router_.Dispatch(request);
  }
  HttpResponse Get(const std::string& path, std::multimap<std::string, std::string> q = {}) {
    return Call(HttpMethod::kGet, path, "", std::move(q));
  }
  HttpResponse Post(const std::string& path, const json& body) {
    return Call(HttpMethod::kPost, path, body.dump());
  }
  static json Body(const HttpResponse& r) { return json::parse(r.body); }
  /// Asserts an ErrorModel response of `code` and `type`.
  static void ExpectError(const HttpResponse& r, int code, const std::string& type) {
    EXPECT_EQ(r.status, code) << r.body;
    json b = json::parse(r.body, nullptr, false);
    ASSERT_TRUE(b.is_object()) << r.body;
    EXPECT_EQ(b["error"]["type"], type) << r.body;
    EXPECT_EQ(b["error"]["code"], code) << r.body;
    EXPECT_TRUE(b["error"]["message"].is_string());
  }
  void CreateNamespace(const json& levels) {
    ASSERT_EQ(Post("/v1/namespaces", {{"namespace", levels}}).status, 200);
  }
  HttpResponse CreateTable(const std::string& ns, const std::string& name, bool stage = false) {
    json body = {{"name", name},
                 {"schema", json::parse(kSchema)},
                 {"partition-spec", json::parse(kSpec)},
                 {"properties", {{"owner", "qa"}}},
                 {"stage-create", stage}};
    return Post("/v1/namespaces/" + ns + "/tables", body);
  }

  std::filesystem::path dir_;
  std::shared_ptr<catalog::Catalog> catalog_;
  HttpRouter router_;
};

TEST_F(IcebergRestRoutesTest, ConfigListsEndpointsWithoutPrefix) {
  HttpResponse r = Get("/v1/config");
  ASSERT_EQ(r.status, 200);
  json b = Body(r);
  EXPECT_TRUE(b["defaults"].is_object());
  EXPECT_FALSE(b["overrides"].contains("prefix"));
  EXPECT_NE(std::find(b["endpoints"].begin(), b["endpoints"].end(),
                      "POST /v1/{prefix}/transactions/commit"),
            b["endpoints"].end());
}

TEST_F(IcebergRestRoutesTest, TokenEndpointIssuesOpaqueTokensAndNeverEchoesTheSecret) {
  HttpResponse r = Call(HttpMethod::kPost, "/v1/oauth/tokens",
                        "grant_type=client_credentials&client_id=me&client_secret=s3cr3t%21&"
                        "scope=catalog");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.body.find("s3cr3t"), std::string::npos);
  json b = Body(r);
  EXPECT_EQ(b["token_type"], "bearer");
  EXPECT_EQ(b["access_token"].get<std::string>().size(), 64u);
  HttpResponse again = Call(HttpMethod::kPost, "/v1/oauth/tokens", "grant_type=client_credentials");
  EXPECT_NE(Body(again)["access_token"], b["access_token"]);
  HttpResponse bad = Call(HttpMethod::kPost, "/v1/oauth/tokens", "grant_type=password");
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(Body(bad)["error"], "unsupported_grant_type");
}

TEST_F(IcebergRestRoutesTest, NamespaceLifecycle) {
  HttpResponse created =
      Post("/v1/namespaces", {{"namespace", {"sales"}}, {"properties", {{"owner", "ann"}}}});
  ASSERT_EQ(created.status, 200) << created.body;
  EXPECT_EQ(Body(created)["namespace"], json({"sales"}));
  EXPECT_EQ(Body(created)["properties"]["owner"], "ann");
  ExpectError(Post("/v1/namespaces", {{"namespace", {"sales"}}}), 409, "AlreadyExistsException");
  CreateNamespace({"sales", "eu"});
  CreateNamespace({"hr"});

  json top = Body(Get("/v1/namespaces"));
  EXPECT_EQ(top["namespaces"], json::parse(R"([["hr"],["sales"]])"));
  json nested = Body(Get("/v1/namespaces", {{"parent", "sales"}}));
  EXPECT_EQ(nested["namespaces"], json::parse(R"([["sales","eu"]])"));
  ExpectError(Get("/v1/namespaces", {{"parent", "nope"}}), 404, "NoSuchNamespaceException");

  // Paging: one per page, then the rest.
  json first = Body(Get("/v1/namespaces", {{"pageSize", "1"}}));
  EXPECT_EQ(first["namespaces"], json::parse(R"([["hr"]])"));
  ASSERT_TRUE(first["next-page-token"].is_string());
  json second =
      Body(Get("/v1/namespaces", {{"pageSize", "1"}, {"pageToken", first["next-page-token"]}}));
  EXPECT_EQ(second["namespaces"], json::parse(R"([["sales"]])"));
  EXPECT_FALSE(second.contains("next-page-token"));
  ExpectError(Get("/v1/namespaces", {{"pageSize", "x"}}), 400, "BadRequestException");

  // Nested levels in the path: %1F encoded, or already decoded by the HTTP library.
  HttpResponse eu = Get("/v1/namespaces/sales%1Feu");
  ASSERT_EQ(eu.status, 200) << eu.body;
  EXPECT_EQ(Body(eu)["namespace"], json({"sales", "eu"}));
  EXPECT_EQ(Get("/v1/namespaces/sales\x1f"
                "eu")
                .status,
            200);
  ExpectError(Get("/v1/namespaces/nope"), 404, "NoSuchNamespaceException");

  HttpResponse props = Post("/v1/namespaces/sales/properties",
                            {{"removals", {"owner", "absent"}}, {"updates", {{"tier", "gold"}}}});
  ASSERT_EQ(props.status, 200) << props.body;
  EXPECT_EQ(Body(props)["updated"], json({"tier"}));
  EXPECT_EQ(Body(props)["removed"], json({"owner"}));
  EXPECT_EQ(Body(props)["missing"], json({"absent"}));
  json loaded = Body(Get("/v1/namespaces/sales"));
  EXPECT_EQ(loaded["properties"]["tier"], "gold");
  EXPECT_FALSE(loaded["properties"].contains("owner"));
  ExpectError(Post("/v1/namespaces/sales/properties",
                   {{"removals", {"tier"}}, {"updates", {{"tier", "x"}}}}),
              422, "UnprocessableEntityException");
  ExpectError(Post("/v1/namespaces/nope/properties", {{"updates", {{"a", "b"}}}}), 404,
              "NoSuchNamespaceException");

  ExpectError(Call(HttpMethod::kDelete, "/v1/namespaces/sales"), 409, "NamespaceNotEmptyException");
  EXPECT_EQ(Call(HttpMethod::kDelete, "/v1/namespaces/hr").status, 204);
  ExpectError(Call(HttpMethod::kDelete, "/v1/namespaces/hr"), 404, "NoSuchNamespaceException");
}

TEST_F(IcebergRestRoutesTest, BadBodiesAreBadRequests) {
  ExpectError(Call(HttpMethod::kPost, "/v1/namespaces", "{not json"), 400, "BadRequestException");
  ExpectError(Post("/v1/namespaces", {{"namespace", "flat"}}), 400, "BadRequestException");
  ExpectError(Post("/v1/namespaces", {{"namespace", {""}}}), 400, "BadRequestException");
  CreateNamespace({"db"});
  ExpectError(Post("/v1/namespaces/db/tables", {{"name", "t"}}), 400, "BadRequestException");
  ExpectError(Post("/v1/namespaces/db/tables", {{"name", "t"}, {"schema", {{"fields", 5}}}}), 400,
              "BadRequestException");
  ExpectError(Post("/v1/namespaces/db/register", {{"name", "t"}, {"metadata-location", 5}}), 400,
              "BadRequestException");
  EXPECT_EQ(Get("/v1/namespaces/db/unknown").status, 404);
  EXPECT_EQ(Call(HttpMethod::kDelete, "/v1/namespaces/db/tables").status, 405);
}

TEST_F(IcebergRestRoutesTest, TableCreateLoadListDrop) {
  CreateNamespace({"db"});
  HttpResponse created = CreateTable("db", "events");
  ASSERT_EQ(created.status, 200) << created.body;
  json b = Body(created);
  ASSERT_TRUE(b["metadata-location"].is_string());
  EXPECT_TRUE(b["config"].is_object());
  EXPECT_EQ(b["metadata"]["format-version"], 2);
  EXPECT_EQ(b["metadata"]["properties"]["owner"], "qa");
  EXPECT_EQ(b["metadata"]["partition-specs"][0]["fields"][0]["transform"], "day");
  ExpectError(CreateTable("db", "events"), 409, "AlreadyExistsException");
  ExpectError(CreateTable("nope", "events"), 404, "NoSuchNamespaceException");

  HttpResponse loaded = Get("/v1/namespaces/db/tables/events");
  ASSERT_EQ(loaded.status, 200);
  EXPECT_EQ(Body(loaded)["metadata"]["table-uuid"], b["metadata"]["table-uuid"]);
  ExpectError(Get("/v1/namespaces/db/tables/missing"), 404, "NoSuchTableException");

  json listed = Body(Get("/v1/namespaces/db/tables"));
  EXPECT_EQ(listed["identifiers"], json::parse(R"([{"namespace":["db"],"name":"events"}])"));
  ExpectError(Get("/v1/namespaces/nope/tables"), 404, "NoSuchNamespaceException");

  EXPECT_EQ(Post("/v1/namespaces/db/tables/events/metrics", json::object()).status, 204);

  std::string location = b["metadata-location"];
  EXPECT_TRUE(std::filesystem::exists(location));
  EXPECT_EQ(
      Call(HttpMethod::kDelete, "/v1/namespaces/db/tables/events", "", {{"purgeRequested", "true"}})
          .status,
      204);
  EXPECT_FALSE(std::filesystem::exists(location));
  ExpectError(Call(HttpMethod::kDelete, "/v1/namespaces/db/tables/events"), 404,
              "NoSuchTableException");
}

TEST_F(IcebergRestRoutesTest, FormatVersionPropertyPicksTheVersion) {
  CreateNamespace({"db"});
  json body = {
      {"name", "v1"}, {"schema", json::parse(kSchema)}, {"properties", {{"format-version", "1"}}}};
  HttpResponse r = Post("/v1/namespaces/db/tables", body);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Body(r)["metadata"]["format-version"], 1);
  EXPECT_FALSE(Body(r)["metadata"]["properties"].contains("format-version"));
}

TEST_F(IcebergRestRoutesTest, CommitAppliesUpdatesAndMapsConflicts) {
  CreateNamespace({"db"});
  json created = Body(CreateTable("db", "t"));
  std::string uuid = created["metadata"]["table-uuid"];
  json commit = {{"identifier", {{"namespace", {"db"}}, {"name", "t"}}},
                 {"requirements", {{{"type", "assert-table-uuid"}, {"uuid", uuid}}}},
                 {"updates", {{{"action", "set-properties"}, {"updates", {{"k", "v"}}}}}}};
  HttpResponse r = Post("/v1/namespaces/db/tables/t", commit);
  ASSERT_EQ(r.status, 200) << r.body;
  json b = Body(r);
  EXPECT_EQ(b["metadata"]["properties"]["k"], "v");
  EXPECT_NE(b["metadata-location"], created["metadata-location"]);
  EXPECT_FALSE(b.contains("config"));

  json stale = {
      {"requirements", {{{"type", "assert-current-schema-id"}, {"current-schema-id", 7}}}},
      {"updates", json::array()}};
  ExpectError(Post("/v1/namespaces/db/tables/t", stale), 409, "CommitFailedException");
  json wrong_uuid = {{"requirements", {{{"type", "assert-table-uuid"}, {"uuid", "x"}}}},
                     {"updates", json::array()}};
  ExpectError(Post("/v1/namespaces/db/tables/t", wrong_uuid), 409, "CommitFailedException");
  json bad_action = {{"requirements", json::array()}, {"updates", {{{"action", "make-it-fast"}}}}};
  ExpectError(Post("/v1/namespaces/db/tables/t", bad_action), 400, "BadRequestException");
  json other = commit;
  other["identifier"]["name"] = "other";
  ExpectError(Post("/v1/namespaces/db/tables/t", other), 400, "BadRequestException");
  ExpectError(Post("/v1/namespaces/db/tables/missing", {{"updates", json::array()}}), 404,
              "NoSuchTableException");
}

TEST_F(IcebergRestRoutesTest, StagedCreateCommitsWithAssertCreate) {
  CreateNamespace({"db"});
  HttpResponse staged = CreateTable("db", "s", /*stage=*/true);
  ASSERT_EQ(staged.status, 200) << staged.body;
  json m = Body(staged)["metadata"];
  EXPECT_FALSE(Body(staged).contains("metadata-location"));
  EXPECT_EQ(m["location"], (dir_ / "db" / "s").string());
  ExpectError(Get("/v1/namespaces/db/tables/s"), 404, "NoSuchTableException");

  json updates = json::array();
  updates.push_back({{"action", "assign-uuid"}, {"uuid", m["table-uuid"]}});
  updates.push_back({{"action", "upgrade-format-version"}, {"format-version", 2}});
  updates.push_back({{"action", "add-schema"}, {"schema", m["schemas"][0]}, {"last-column-id", 3}});
  updates.push_back({{"action", "set-current-schema"}, {"schema-id", -1}});
  updates.push_back({{"action", "add-spec"}, {"spec", m["partition-specs"][0]}});
  updates.push_back({{"action", "set-default-spec"}, {"spec-id", -1}});
  updates.push_back({{"action", "add-sort-order"}, {"sort-order", m["sort-orders"][0]}});
  updates.push_back({{"action", "set-default-sort-order"}, {"sort-order-id", -1}});
  updates.push_back({{"action", "set-location"}, {"location", m["location"]}});
  updates.push_back({{"action", "set-properties"}, {"updates", {{"owner", "qa"}}}});
  updates.push_back({{"action", "set-properties"}, {"updates", {{"later", "yes"}}}});
  json commit = {{"requirements", {{{"type", "assert-create"}}}}, {"updates", updates}};
  HttpResponse r = Post("/v1/namespaces/db/tables/s", commit);
  ASSERT_EQ(r.status, 200) << r.body;
  json loaded = Body(Get("/v1/namespaces/db/tables/s"));
  EXPECT_EQ(loaded["metadata"]["table-uuid"], m["table-uuid"]);
  EXPECT_EQ(loaded["metadata"]["properties"]["owner"], "qa");
  EXPECT_EQ(loaded["metadata"]["properties"]["later"], "yes");
  EXPECT_EQ(loaded["metadata"]["partition-specs"][0]["fields"][0]["name"], "ts_day");
  // The name is taken now.
  ExpectError(Post("/v1/namespaces/db/tables/s", commit), 409, "AlreadyExistsException");
  ExpectError(CreateTable("db", "s", true), 409, "AlreadyExistsException");
  ExpectError(CreateTable("nope", "s", true), 404, "NoSuchNamespaceException");
}

TEST_F(IcebergRestRoutesTest, RenameAndRegister) {
  CreateNamespace({"a"});
  CreateNamespace({"b"});
  json created = Body(CreateTable("a", "t"));
  json rename = {{"source", {{"namespace", {"a"}}, {"name", "t"}}},
                 {"destination", {{"namespace", {"b"}}, {"name", "u"}}}};
  EXPECT_EQ(Post("/v1/tables/rename", rename).status, 204);
  EXPECT_EQ(Get("/v1/namespaces/b/tables/u").status, 200);
  ExpectError(Post("/v1/tables/rename", rename), 404, "NoSuchTableException");
  json to_missing_ns = {{"source", {{"namespace", {"b"}}, {"name", "u"}}},
                        {"destination", {{"namespace", {"zz"}}, {"name", "u"}}}};
  ExpectError(Post("/v1/tables/rename", to_missing_ns), 404, "NoSuchNamespaceException");
  Body(CreateTable("a", "t2"));
  json onto_existing = {{"source", {{"namespace", {"a"}}, {"name", "t2"}}},
                        {"destination", {{"namespace", {"b"}}, {"name", "u"}}}};
  ExpectError(Post("/v1/tables/rename", onto_existing), 409, "AlreadyExistsException");

  // Drop without purge keeps the files; register brings the table back.
  std::string location = Body(Get("/v1/namespaces/b/tables/u"))["metadata-location"];
  EXPECT_EQ(Call(HttpMethod::kDelete, "/v1/namespaces/b/tables/u").status, 204);
  HttpResponse registered =
      Post("/v1/namespaces/a/register", {{"name", "back"}, {"metadata-location", location}});
  ASSERT_EQ(registered.status, 200) << registered.body;
  EXPECT_EQ(Body(registered)["metadata"]["table-uuid"], created["metadata"]["table-uuid"]);
  ExpectError(
      Post("/v1/namespaces/a/register", {{"name", "back"}, {"metadata-location", location}}), 409,
      "AlreadyExistsException");
  ExpectError(Post("/v1/namespaces/a/register",
                   {{"name", "ghost"}, {"metadata-location", (dir_ / "none.json").string()}}),
              400, "BadRequestException");
  ExpectError(Post("/v1/namespaces/zz/register", {{"name", "x"}, {"metadata-location", location}}),
              404, "NoSuchNamespaceException");
}

TEST_F(IcebergRestRoutesTest, TransactionChecksEveryRequirementFirst) {
  CreateNamespace({"db"});
  json t1 = Body(CreateTable("db", "t1"));
  json t2 = Body(CreateTable("db", "t2"));
  auto change = [](const std::string& name, const std::string& uuid, const std::string& value) {
    return json{{"identifier", {{"namespace", {"db"}}, {"name", name}}},
                {"requirements", {{{"type", "assert-table-uuid"}, {"uuid", uuid}}}},
                {"updates", {{{"action", "set-properties"}, {"updates", {{"v", value}}}}}}};
  };
  std::string u1 = t1["metadata"]["table-uuid"], u2 = t2["metadata"]["table-uuid"];
  HttpResponse ok = Post("/v1/transactions/commit",
                         {{"table-changes", {change("t1", u1, "1"), change("t2", u2, "1")}}});
  ASSERT_EQ(ok.status, 204) << ok.body;
  EXPECT_EQ(Body(Get("/v1/namespaces/db/tables/t2"))["metadata"]["properties"]["v"], "1");

  // The second change is stale: nothing is applied.
  HttpResponse stale = Post("/v1/transactions/commit",
                            {{"table-changes", {change("t1", u1, "2"), change("t2", "x", "2")}}});
  ExpectError(stale, 409, "CommitFailedException");
  EXPECT_EQ(Body(Get("/v1/namespaces/db/tables/t1"))["metadata"]["properties"]["v"], "1");
  ExpectError(Post("/v1/transactions/commit",
                   {{"table-changes", {change("t1", u1, "3"), change("t1", u1, "4")}}}),
              400, "BadRequestException");
  ExpectError(Post("/v1/transactions/commit", {{"table-changes", {change("zz", u1, "3")}}}), 404,
              "NoSuchTableException");
  ExpectError(Post("/v1/transactions/commit", json::object()), 400, "BadRequestException");
}

TEST(IcebergRestUnavailableTest, EveryPathAnswers503WithTheReason) {
  HttpListener listener;
  AddIcebergRestUnavailableRoutes(listener, Status::NotImplemented("catalog type 'glue' is not "
                                                                   "implemented yet"));
  ASSERT_TRUE(listener.Bind("127.0.0.1", 0).ok());
  ASSERT_TRUE(listener.Serve().ok());
  httplib::Client client("127.0.0.1", listener.bound_port());
  auto r = client.Get("/v1/config");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 503);
  json b = json::parse(r->body);
  EXPECT_EQ(b["error"]["type"], "ServiceUnavailableException");
  EXPECT_NE(b["error"]["message"].get<std::string>().find("glue"), std::string::npos);
  EXPECT_EQ(client.Post("/v1/namespaces", "{}", "application/json")->status, 503);
  listener.Stop();
}

TEST(IcebergRestListenerTest, ServesOverHttpWithEncodedNamespaces) {
  auto dir =
      std::filesystem::temp_directory_path() / ("sqe_rest_listener_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  auto fs = std::make_shared<io::s3::StorageFileSystems>(io::s3::S3Options{});
  auto catalog = catalog::MakeEmbeddedCatalog(dir.string(), "lake", 2, fs);
  ASSERT_TRUE(catalog.ok());
  HttpListener listener;
  IcebergRestOptions options{dir.string(), 2, fs};
  config::ApiKeyEntry key;
  key.key = SecretString("sqe_over_http_0123");
  key.user = "etl";
  std::vector<std::unique_ptr<auth::Authenticator>> providers;
  providers.push_back(
      std::make_unique<auth::ApiKeyAuthenticator>(std::vector<config::ApiKeyEntry>{key}, "sqe_"));
  options.auth = std::make_shared<auth::AuthChain>(std::move(providers));
  AddIcebergRestRoutes(listener, std::shared_ptr<catalog::Catalog>(std::move(*catalog)), options);
  ASSERT_TRUE(listener.Bind("127.0.0.1", 0).ok());
  ASSERT_TRUE(listener.Serve().ok());
  httplib::Client client("127.0.0.1", listener.bound_port());
  EXPECT_EQ(client.Get("/v1/namespaces")->status, 401);
  client.set_bearer_token_auth("sqe_over_http_0123");
  EXPECT_EQ(client.Post("/v1/namespaces", R"({"namespace":["a"]})", "application/json")->status,
            200);
  EXPECT_EQ(
      client.Post("/v1/namespaces", R"({"namespace":["a","b c"]})", "application/json")->status,
      200);
  auto nested = client.Get("/v1/namespaces?parent=a");
  EXPECT_EQ(json::parse(nested->body)["namespaces"], json::parse(R"([["a","b c"]])"));
  EXPECT_EQ(client.Get("/v1/namespaces/a%1Fb%20c")->status, 200);
  EXPECT_EQ(client.Head("/v1/namespaces/a%1Fb%20c")->status, 200);
  EXPECT_EQ(client.Head("/v1/namespaces/zz")->status, 404);
  listener.Stop();
  std::filesystem::remove_all(dir);
}

/// The same server behind an api_key provider.
class IcebergRestAuthTest : public IcebergRestRoutesTest {
 protected:
  std::vector<std::unique_ptr<auth::Authenticator>> MakeProviders() override {
    config::ApiKeyEntry key;
    key.key = SecretString("sqe_k3y0123456789");
    key.user = "etl";
    key.roles = {"writer"};
    std::vector<std::unique_ptr<auth::Authenticator>> providers;
    providers.push_back(
        std::make_unique<auth::ApiKeyAuthenticator>(std::vector<config::ApiKeyEntry>{key}, "sqe_"));
    return providers;
  }
};

TEST_F(IcebergRestAuthTest, EveryRouteNeedsAnAcceptedCredential) {
  for (const char* path : {"/v1/config", "/v1/namespaces", "/v1/namespaces/db/tables/t"}) {
    HttpResponse none = Call(HttpMethod::kGet, path);
    ExpectError(none, 401, "NotAuthorizedException");
    EXPECT_EQ(none.headers["WWW-Authenticate"], "Bearer");
    HttpResponse wrong = Call(HttpMethod::kGet, path, "", {}, "Bearer sqe_wrong");
    ExpectError(wrong, 401, "NotAuthorizedException");
    EXPECT_EQ(wrong.body.find("sqe_wrong"), std::string::npos) << wrong.body;
  }
  ExpectError(Call(HttpMethod::kPost, "/v1/namespaces", R"({"namespace":["x"]})"), 401,
              "NotAuthorizedException");
  EXPECT_EQ(Get("/v1/namespaces/x").status, 401);
  EXPECT_FALSE(catalog_->NamespaceExists({"x"}).ValueOr(true));
  // The API key itself as a bearer token.
  EXPECT_EQ(Call(HttpMethod::kGet, "/v1/config", "", {}, "Bearer sqe_k3y0123456789").status, 200);
  EXPECT_EQ(Call(HttpMethod::kPost, "/v1/namespaces", R"({"namespace":["x"]})", {},
                 "Bearer sqe_k3y0123456789")
                .status,
            200);
  EXPECT_TRUE(catalog_->NamespaceExists({"x"}).ValueOr(false));
}

TEST_F(IcebergRestAuthTest, TokenEndpointExchangesAnApiKeyForAToken) {
  HttpResponse bad = Call(HttpMethod::kPost, "/v1/oauth/tokens",
                          "grant_type=client_credentials&client_id=etl&client_secret=sqe_nope");
  EXPECT_EQ(bad.status, 401) << bad.body;
  EXPECT_EQ(Body(bad)["error"], "invalid_client");
  EXPECT_EQ(bad.body.find("sqe_nope"), std::string::npos);
  HttpResponse missing =
      Call(HttpMethod::kPost, "/v1/oauth/tokens", "grant_type=client_credentials");
  EXPECT_EQ(missing.status, 401) << missing.body;

  HttpResponse ok =
      Call(HttpMethod::kPost, "/v1/oauth/tokens",
           "grant_type=client_credentials&client_id=etl&client_secret=sqe_k3y0123456789");
  ASSERT_EQ(ok.status, 200) << ok.body;
  EXPECT_EQ(ok.body.find("sqe_k3y"), std::string::npos);
  const std::string token = Body(ok)["access_token"];
  EXPECT_EQ(Call(HttpMethod::kGet, "/v1/namespaces", "", {}, "Bearer " + token).status, 200);
  // Exchanging the issued token gives another valid one.
  HttpResponse exchanged = Call(
      HttpMethod::kPost, "/v1/oauth/tokens",
      "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Atoken-exchange&subject_token=" +
          token + "&subject_token_type=urn%3Aietf%3Aparams%3Aoauth%3Atoken-type%3Aaccess_token");
  ASSERT_EQ(exchanged.status, 200) << exchanged.body;
  const std::string second = Body(exchanged)["access_token"];
  EXPECT_NE(second, token);
  EXPECT_EQ(Call(HttpMethod::kGet, "/v1/namespaces", "", {}, "Bearer " + second).status, 200);
  EXPECT_EQ(Call(HttpMethod::kPost, "/v1/oauth/tokens",
                 "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Atoken-exchange&"
                 "subject_token=forged")
                .status,
            401);
}

TEST(IcebergRestNoChain, FailsClosed) {
  HttpRouter router;
  IcebergRestOptions options;
  AddIcebergRestRoutes(router, nullptr, options);
  HttpRequest request;
  request.path = "/v1/config";
  EXPECT_EQ(router.Dispatch(request).status, 401);
}

}  // namespace
}  // namespace sqe::server
