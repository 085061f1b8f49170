// The statement protocol end to end in-process: an HttpListener with the Trino routes
// over an engine on a temporary warehouse, driven with a plain HTTP client the way
// Trino clients drive it (POST, then GET nextUri until there is none).
#include "server/trino/statement_routes.h"

#include <gtest/gtest.h>
#include <httplib.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include <nlohmann/json.hpp>

#include "auth/api_key_authenticator.h"
#include "engine/testing_engine.h"

namespace sqe::server::trino {
namespace {

using nlohmann::json;

constexpr const char* kAliceKey = "sqe_alice_key_1";
constexpr const char* kSlowQuery =
    "WITH t(x) AS (VALUES 1, 2, 3, 4, 5, 6, 7, 8, 9, 10) "
    "SELECT count(*) FROM t a, t b, t c, t d, t e, t f, t g, t h, t i, t j";

/// The result of following one statement to its end.
struct Followed {
  json last;                  // the last response
  std::vector<json> pages;    // every GET response
  json rows = json::array();  // every row of every page
  httplib::Headers headers;   // the headers of every response, merged
};

class TrinoStatementTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = engine::testing::FreshTestDirectory("sqe-trino-test-");
    auto engine = engine::testing::OpenTestEngine(dir_);
    ASSERT_TRUE(engine.ok()) << engine.status().message();
    std::vector<config::ApiKeyEntry> keys = {{SecretString(kAliceKey), "alice", {"admin"}}};
    std::vector<std::unique_ptr<auth::Authenticator>> providers;
    providers.push_back(std::make_unique<auth::ApiKeyAuthenticator>(keys, "sqe_"));
    TrinoProtocolOptions options;
    options.engine = *engine;
    options.auth = std::make_shared<auth::AuthChain>(std::move(providers));
    options.paging.max_page_rows = 7;  // several pages from small results
    options.paging.max_wait = std::chrono::milliseconds(200);
    listener_ = std::make_unique<HttpListener>();
    AddTrinoStatementRoutes(*listener_, std::move(options));
    ASSERT_TRUE(listener_->Bind("127.0.0.1", 0).ok());
    ASSERT_TRUE(listener_->Serve().ok());
    client_ = std::make_unique<httplib::Client>("127.0.0.1", listener_->bound_port());
  }
  void TearDown() override {
    client_.reset();
    listener_->Stop();
    listener_.reset();
    std::filesystem::remove_all(dir_);
  }

  httplib::Headers Auth(httplib::Headers extra = {}) {
    extra.emplace("Authorization", std::string("Bearer ") + kAliceKey);
    extra.emplace("X-Trino-User", "alice");
    return extra;
  }
  static std::string PathOf(const std::string& uri) {
    size_t scheme = uri.find("://");
    return uri.substr(uri.find('/', scheme + 3));
  }

  json Post(const std::string& sql, httplib::Headers headers) {
    auto res = client_->Post("/v1/statement", headers, sql, "text/plain");
    EXPECT_TRUE(res);
    EXPECT_EQ(res->status, 200) << res->body;
    return json::parse(res->body);
  }

  Followed Follow(const std::string& sql, httplib::Headers headers = {}) {
    headers = Auth(std::move(headers));
    Followed out;
    json response = Post(sql, headers);
    EXPECT_EQ(response["stats"]["state"], "QUEUED");
    EXPECT_FALSE(response.contains("data"));
    while (response.contains("nextUri")) {
      auto res = client_->Get(PathOf(response["nextUri"]), headers);
      EXPECT_TRUE(res);
      EXPECT_EQ(res->status, 200) << res->body;
      response = json::parse(res->body);
      for (const auto& [k, v] : res->headers) out.headers.emplace(k, v);
      if (response.contains("data")) {
        EXPECT_TRUE(response.contains("columns")) << "a page with data carries its columns";
        for (const auto& row : response["data"]) out.rows.push_back(row);
      }
      out.pages.push_back(response);
    }
    out.last = response;
    return out;
  }

  std::filesystem::path dir_;
  std::unique_ptr<HttpListener> listener_;
  std::unique_ptr<httplib::Client> client_;
};

TEST_F(TrinoStatementTest, MissingOrWrongCredentialsAnswer401) {
  auto none = client_->Post("/v1/statement", httplib::Headers{{"X-Trino-User", "alice"}},
                            "SELECT 1", "text/plain");
  ASSERT_TRUE(none);
  EXPECT_EQ(none->status, 401);
  EXPECT_NE(none->get_header_value("WWW-Authenticate").find("Basic"), std::string::npos);
  auto wrong =
      client_->Post("/v1/statement", httplib::Headers{{"Authorization", "Bearer sqe_wrong"}},
                    "SELECT 1", "text/plain");
  ASSERT_TRUE(wrong);
  EXPECT_EQ(wrong->status, 401);
  EXPECT_EQ(wrong->body.find("sqe_wrong"), std::string::npos) << "never echoes the credential";
}

TEST_F(TrinoStatementTest, PagesAQueryThroughNextUri) {
  Followed f = Follow(
      "SELECT x, x * 2 AS y, 'r' || CAST(x AS varchar) AS s FROM "
      "(VALUES 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16) t(x) "
      "ORDER BY x");
  EXPECT_EQ(f.last["stats"]["state"], "FINISHED");
  EXPECT_FALSE(f.last.contains("error"));
  ASSERT_EQ(f.rows.size(), 16u);
  EXPECT_EQ(f.rows[0], json::parse(R"([1,2,"r1"])"));
  EXPECT_EQ(f.rows[15], json::parse(R"([16,32,"r16"])"));
  int data_pages = 0;
  for (const json& page : f.pages) {
    if (page.contains("data")) {
      ++data_pages;
      EXPECT_LE(page["data"].size(), 7u);
      EXPECT_EQ(page["columns"][0]["type"], "integer");
      EXPECT_EQ(page["columns"][2]["typeSignature"]["rawType"], "varchar");
    }
  }
  EXPECT_GE(data_pages, 3);
  EXPECT_EQ(f.last["stats"]["processedRows"], 16);
  EXPECT_FALSE(f.last.contains("updateType"));
}

TEST_F(TrinoStatementTest, ASyntaxErrorFailsWithItsLocation) {
  Followed f = Follow("SELECT 1\nFROM (VALUES 1) t(x)\nWHERE x = = 1");
  EXPECT_EQ(f.last["stats"]["state"], "FAILED");
  ASSERT_TRUE(f.last.contains("error"));
  EXPECT_EQ(f.last["error"]["errorName"], "SYNTAX_ERROR");
  EXPECT_EQ(f.last["error"]["errorType"], "USER_ERROR");
  EXPECT_EQ(f.last["error"]["errorLocation"]["lineNumber"], 3);
  EXPECT_EQ(f.last["error"]["errorLocation"]["columnNumber"], 11);
}

TEST_F(TrinoStatementTest, AnEngineErrorFailsAsAUserError) {
  Followed f = Follow("SELECT nope FROM (VALUES 1) t(x)");
  EXPECT_EQ(f.last["stats"]["state"], "FAILED");
  EXPECT_EQ(f.last["error"]["errorType"], "USER_ERROR");
  EXPECT_EQ(f.last["error"]["errorLocation"]["lineNumber"], 1);
}

TEST_F(TrinoStatementTest, SessionChangesComeBackAsHeadersAndAreAppliedFromHeaders) {
  Follow("CREATE SCHEMA sales");
  Followed use = Follow("USE sales");
  EXPECT_EQ(use.last["updateType"], "USE");
  EXPECT_EQ(use.headers.find("X-Trino-Set-Schema")->second, "sales");
  EXPECT_FALSE(use.headers.find("X-Trino-Set-Catalog")->second.empty());

  Followed set = Follow("SET SESSION query_max_run_time = 77");
  EXPECT_EQ(set.headers.find("X-Trino-Set-Session")->second, "query_max_run_time=77");
  Followed shown = Follow("SHOW SESSION LIKE 'query_max_run_time'",
                          {{"X-Trino-Session", "query_max_run_time=77"}});
  ASSERT_EQ(shown.rows.size(), 1u);
  EXPECT_EQ(shown.rows[0][1], "77");
  // A client that no longer sends the property gets the default back.
  Followed reset = Follow("SHOW SESSION LIKE 'query_max_run_time'");
  EXPECT_NE(reset.rows[0][1], "77");

  Followed prepared = Follow("PREPARE q FROM SELECT ? + 1");
  // (httplib's client decodes the response header's %XX before the test sees it.)
  EXPECT_EQ(prepared.headers.find("X-Trino-Added-Prepare")->second, "q=SELECT ? + 1");
  // Sent back form-encoded, as clients do ('+' for spaces, %2B for the plus).
  Followed executed =
      Follow("EXECUTE q USING 41", {{"X-Trino-Prepared-Statement", "q=SELECT+%3F+%2B+1"}});
  ASSERT_EQ(executed.rows.size(), 1u);
  EXPECT_EQ(executed.rows[0][0], 42);
}

TEST_F(TrinoStatementTest, DdlAndInsertReportUpdateTypeAndCount) {
  Follow("CREATE SCHEMA s");
  Followed create = Follow("CREATE TABLE s.t (a bigint)");
  EXPECT_EQ(create.last["stats"]["state"], "FINISHED");
  EXPECT_EQ(create.last["updateType"], "CREATE TABLE");
  // Trino's answer to DDL: one `result` boolean column holding true.
  ASSERT_EQ(create.rows.size(), 1u);
  EXPECT_EQ(create.rows[0][0], true);
  EXPECT_EQ(create.last["columns"][0]["name"], "result");
  Followed insert = Follow("INSERT INTO s.t VALUES 1, 2, 3");
  EXPECT_EQ(insert.last["updateType"], "INSERT");
  EXPECT_EQ(insert.last["updateCount"], 3);
  ASSERT_EQ(insert.rows.size(), 1u);
  EXPECT_EQ(insert.rows[0][0], 3);
  Followed read = Follow("SELECT sum(a) FROM s.t");
  EXPECT_EQ(read.rows[0][0], 6);
}

TEST_F(TrinoStatementTest, CancelThroughNextUriThenPagesAnswerUserCanceled) {
  httplib::Headers headers = Auth();
  json response = Post(kSlowQuery, headers);
  std::string next = PathOf(response["nextUri"]);
  auto page = client_->Get(next, headers);  // running, no data yet
  ASSERT_TRUE(page);
  json running = json::parse(page->body);
  ASSERT_TRUE(running.contains("nextUri"));
  next = PathOf(running["nextUri"]);
  auto deleted = client_->Delete(next, headers);
  ASSERT_TRUE(deleted);
  EXPECT_EQ(deleted->status, 204);
  auto after = client_->Get(next, headers);
  ASSERT_TRUE(after);
  json failed = json::parse(after->body);
  EXPECT_EQ(failed["stats"]["state"], "FAILED");
  EXPECT_EQ(failed["error"]["errorName"], "USER_CANCELED");
  EXPECT_FALSE(failed.contains("nextUri"));
}

TEST_F(TrinoStatementTest, QueryEndpointsListAndCancel) {
  httplib::Headers headers = Auth();
  json response = Post(kSlowQuery, headers);
  std::string id = response["id"];
  auto one = client_->Get("/v1/query/" + id, headers);
  ASSERT_TRUE(one);
  json info = json::parse(one->body);
  EXPECT_EQ(info["queryId"], id);
  EXPECT_EQ(info["query"], kSlowQuery);
  EXPECT_NE(info["self"].get<std::string>().find("/v1/query/" + id), std::string::npos);
  auto all = client_->Get("/v1/query", headers);
  ASSERT_TRUE(all);
  EXPECT_EQ(json::parse(all->body).size(), 1u);
  auto deleted = client_->Delete("/v1/query/" + id, headers);
  ASSERT_TRUE(deleted);
  EXPECT_EQ(deleted->status, 204);
  auto page = client_->Get(PathOf(response["nextUri"]), headers);
  json failed = json::parse(page->body);
  EXPECT_EQ(failed["error"]["errorName"], "USER_CANCELED");
  EXPECT_EQ(client_->Get("/v1/query/20200101_000000_00000_xxxxx", headers)->status, 404);
  EXPECT_EQ(client_->Get("/v1/statement/executing/nope/slug/0", headers)->status, 410);
}

TEST_F(TrinoStatementTest, ARepeatedTokenAnswersTheSamePage) {
  httplib::Headers headers = Auth();
  json response = Post("SELECT 1", headers);
  std::string next = PathOf(response["nextUri"]);
  std::string first;
  // The first page may be an empty one while the query starts; follow to the data.
  while (true) {
    auto res = client_->Get(next, headers);
    json page = json::parse(res->body);
    if (page.contains("data")) {
      first = res->body;
      break;
    }
    next = PathOf(page["nextUri"]);
  }
  auto again = client_->Get(next, headers);
  EXPECT_EQ(again->body, first);
}

TEST_F(TrinoStatementTest, TransactionsAreAutocommitNoOpsWithTheirHeaders) {
  Followed start = Follow("START TRANSACTION");
  EXPECT_EQ(start.last["stats"]["state"], "FINISHED");
  auto started = start.headers.find("X-Trino-Started-Transaction-Id");
  ASSERT_NE(started, start.headers.end());
  EXPECT_FALSE(started->second.empty());
  Followed inside = Follow("SELECT 1", {{"X-Trino-Transaction-Id", started->second}});
  EXPECT_EQ(inside.rows[0][0], 1);
  for (const char* end : {"COMMIT", "ROLLBACK"}) {
    Followed f = Follow(end, {{"X-Trino-Transaction-Id", started->second}});
    EXPECT_EQ(f.last["stats"]["state"], "FINISHED") << end;
    auto cleared = f.headers.find("X-Trino-Clear-Transaction-Id");
    ASSERT_NE(cleared, f.headers.end()) << end;
  }
}

TEST_F(TrinoStatementTest, SpoolingRequestsAreAnsweredInline) {
  Followed f = Follow("SELECT 7", {{"X-Trino-Query-Data-Encoding", "json+zstd,json"}});
  EXPECT_EQ(f.last["stats"]["state"], "FINISHED");
  ASSERT_EQ(f.rows.size(), 1u);
  EXPECT_EQ(f.rows[0][0], 7);
}

TEST_F(TrinoStatementTest, SystemRuntimeListsThisListenersQueriesAndNode) {
  Follow("SELECT 42 AS marker");
  Followed queries = Follow(
      "SELECT state, \"user\", query FROM system.runtime.queries WHERE query LIKE 'SELECT 42%'");
  ASSERT_EQ(queries.rows.size(), 1u);
  EXPECT_EQ(queries.rows[0][0], "FINISHED");
  EXPECT_EQ(queries.rows[0][1], "alice");
  Followed nodes = Follow("SELECT coordinator, state FROM system.runtime.nodes");
  ASSERT_EQ(nodes.rows.size(), 1u);
  EXPECT_EQ(nodes.rows[0][0], true);
  EXPECT_EQ(nodes.rows[0][1], "active");
}

TEST_F(TrinoStatementTest, JdbcMetadataTablesHaveTrinosColumnTypes) {
  Follow("CREATE SCHEMA shop");
  Follow("CREATE TABLE shop.items (id bigint, price decimal(10,2))");
  Followed columns = Follow(
      "SELECT column_name, data_type, type_name, column_size, decimal_digits, ordinal_position "
      "FROM system.jdbc.columns WHERE table_schem LIKE 'sh_p' ESCAPE '\\' AND "
      "table_name = 'items' ORDER BY ordinal_position");
  ASSERT_EQ(columns.rows.size(), 2u);
  EXPECT_EQ(columns.rows[0], json::parse(R"(["id", -5, "bigint", 19, null, 1])"));
  EXPECT_EQ(columns.rows[1], json::parse(R"j(["price", 3, "decimal(10,2)", 10, 2, 2])j"));
  std::vector<std::string> types;
  for (const json& c : columns.last["columns"]) types.push_back(c["type"]);
  EXPECT_EQ(types, (std::vector<std::string>{"varchar", "bigint", "varchar", "bigint", "bigint",
                                             "bigint"}));
  Followed tables = Follow(
      "SELECT table_cat, table_schem, table_name, table_type FROM system.jdbc.tables "
      "WHERE table_schem = 'shop'");
  EXPECT_EQ(tables.rows, json::parse(R"([["iceberg", "shop", "items", "TABLE"]])"));
  Followed described = Follow("DESCRIBE system.jdbc.schemas");
  EXPECT_EQ(described.rows, json::parse(R"j([["table_schem", "varchar", "", ""],
                                             ["table_catalog", "varchar", "", ""]])j"));
  Followed schemas = Follow("SHOW SCHEMAS FROM system");
  EXPECT_EQ(schemas.rows, json::parse(R"j([["jdbc"], ["metadata"], ["runtime"]])j"));
  Followed empty = Follow("SELECT * FROM system.jdbc.procedures");
  EXPECT_TRUE(empty.rows.empty());
  EXPECT_EQ(empty.last["columns"].size(), 6u);
}

TEST_F(TrinoStatementTest, StatsReportTheQuerysPeakMemory) {
  Followed f = Follow(
      "WITH t(x) AS (VALUES 1, 2, 3, 4, 5, 6, 7, 8, 9, 10) "
      "SELECT a.x, count(*) FROM t a, t b, t c GROUP BY a.x ORDER BY a.x");
  ASSERT_EQ(f.rows.size(), 10u);
  EXPECT_GT(f.last["stats"]["peakMemoryBytes"].get<int64_t>(), 0);
  EXPECT_EQ(f.last["stats"]["processedRows"], 10);
}

}  // namespace
}  // namespace sqe::server::trino
