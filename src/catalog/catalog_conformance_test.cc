// The Catalog conformance suite: the same tests on every backend: the metastore catalog on
// SQLite (embedded, JDBC-SQLite) and on PostgreSQL (JDBC, when SQE_TEST_POSTGRES_URI names
// a server; scripts/test.sh starts one), the Hadoop catalog, and the REST client against
// two servers: sqe's own REST server over an embedded catalog, and Iceberg's Java REST
// fixture (tests/peers/iceberg_rest_fixture.sh, a server none of us wrote; when
// SQE_JAVA_PEER_CLASSPATH is set, as scripts/test.sh does). Each has a local warehouse.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <thread>

#include <cstdio>

#include "auth/anonymous_authenticator.h"
#include "auth/auth_chain.h"
#include "catalog/catalog_factory.h"
#include "catalog/hadoop_catalog.h"
#include "catalog/metastore_catalog.h"
#include "catalog/rest/rest_catalog.h"
#include "io/s3/s3_options.h"
#include "server/http/http_listener.h"
#include "server/iceberg_rest/iceberg_rest_routes.h"

namespace sqe::catalog {
namespace {

namespace fs = std::filesystem;
using iceberg::TableRequirement;
using iceberg::TableUpdate;

iceberg::Schema TestSchema() {
  auto schema = iceberg::ParseSchemaJson(R"({"type": "struct", "schema-id": 0, "fields": [
      {"id": 1, "name": "id", "required": true, "type": "long"},
      {"id": 2, "name": "name", "required": false, "type": "string"}]})");
  EXPECT_TRUE(schema.ok()) << schema.status().ToString();
  return *schema;
}

iceberg::Snapshot SnapshotOn(const iceberg::TableMetadata& base, int64_t id) {
  iceberg::Snapshot s;
  s.snapshot_id = id;
  s.parent_snapshot_id = base.current_snapshot_id;
  s.sequence_number = base.last_sequence_number + 1;
  s.timestamp_ms = base.last_updated_ms + 1;
  s.manifest_list = base.location + "/metadata/snap-" + std::to_string(id) + ".avro";
  s.summary = {{"operation", "append"}};
  s.schema_id = base.current_schema_id;
  return s;
}

// Appends one snapshot on main, asserting main has not moved.
Result<LoadedTable> Append(Catalog& catalog, const TableIdentifier& id, int64_t snapshot_id) {
  SQE_ASSIGN_OR_RETURN(LoadedTable table, catalog.LoadTable(id));
  const iceberg::TableMetadata& base = *table.metadata;
  return catalog.CommitTable(
      id, {TableRequirement::AssertRefSnapshotId("main", base.current_snapshot_id)},
      {TableUpdate::AddSnapshot(SnapshotOn(base, snapshot_id)),
       TableUpdate::SetBranch("main", snapshot_id)});
}

class CatalogConformanceTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    const char* pg = std::getenv("SQE_TEST_POSTGRES_URI");
    if (GetParam() == "jdbc-postgresql" && (pg == nullptr || *pg == '\0')) {
      GTEST_SKIP() << "SQE_TEST_POSTGRES_URI is not set (scripts/test.sh sets it)";
    }
    std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    for (char& c : test) {
      if (c == '/') c = '_';
    }
    name_ = "c_" + test;
    dir_ = fs::temp_directory_path() / ("sqe_catalog_" + test);
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "warehouse");
    file_systems_ = std::make_shared<io::s3::StorageFileSystems>(io::s3::S3Options{});
    if (GetParam() == "rest-sqe") StartSqeRestServer();
    if (GetParam() == "rest-java-fixture") {
      StartJavaRestFixture();
      if (IsSkipped() || HasFatalFailure()) return;
    }
    catalog_ = MakeCatalog();
    ASSERT_NE(catalog_, nullptr);
  }
  void TearDown() override {
    catalog_.reset();
    if (listener_) listener_->Stop();
    if (!fixture_port_.empty()) {
      std::string stop = "SQE_REST_FIXTURE_DIR='" + dir_.string() + "' bash '" + FixtureScript() +
                         "' stop " + fixture_port_;
      EXPECT_EQ(std::system(stop.c_str()), 0);
    }
    fs::remove_all(dir_);
  }

  bool IsHadoop() const { return GetParam() == "hadoop-local"; }
  bool IsRest() const { return GetParam().starts_with("rest-"); }

  static std::string FixtureScript() {
    const char* source = std::getenv("SQE_SOURCE_DIR");
    return std::string(source ? source : ".") + "/tests/peers/iceberg_rest_fixture.sh";
  }

  // sqe's REST server (anonymous callers) over an embedded catalog on the warehouse.
  void StartSqeRestServer() {
    auto embedded = MakeEmbeddedCatalog((dir_ / "warehouse").string(), "iceberg", 2, file_systems_);
    ASSERT_TRUE(embedded.ok()) << embedded.status().ToString();
    server::IcebergRestOptions options{(dir_ / "warehouse").string(), 2, file_systems_};
    std::vector<std::unique_ptr<auth::Authenticator>> providers;
    providers.push_back(
        std::make_unique<auth::AnonymousAuthenticator>("test", std::vector<std::string>{}));
    options.auth = std::make_shared<auth::AuthChain>(std::move(providers));
    server::HttpListener::Options http;
    http.worker_threads = 16;
    listener_ = std::make_unique<server::HttpListener>(http);
    server::AddIcebergRestRoutes(*listener_, std::shared_ptr<Catalog>(std::move(*embedded)),
                                 options);
    ASSERT_TRUE(listener_->Bind("127.0.0.1", 0).ok());
    ASSERT_TRUE(listener_->Serve().ok());
    rest_uri_ = "http://127.0.0.1:" + std::to_string(listener_->bound_port());
  }

  // Iceberg's Java REST fixture (a JdbcCatalog on SQLite) on the warehouse.
  void StartJavaRestFixture() {
    const char* classpath = std::getenv("SQE_JAVA_PEER_CLASSPATH");
    if (classpath == nullptr || *classpath == '\0') {
      GTEST_SKIP() << "SQE_JAVA_PEER_CLASSPATH is not set (scripts/test.sh sets it to the "
                      "output of tests/peers/java/build.sh)";
    }
    std::string start = "SQE_REST_FIXTURE_DIR='" + dir_.string() + "' bash '" + FixtureScript() +
                        "' start '' '" + (dir_ / "warehouse").string() + "'";
    std::FILE* out = ::popen(start.c_str(), "r");
    ASSERT_NE(out, nullptr);
    char line[256] = {0};
    bool got = std::fgets(line, sizeof line, out) != nullptr;
    int rc = ::pclose(out);
    ASSERT_TRUE(got && rc == 0) << "the Java REST fixture did not start (" << start << ")";
    rest_uri_ = line;
    while (!rest_uri_.empty() && std::isspace(static_cast<unsigned char>(rest_uri_.back()))) {
      rest_uri_.pop_back();
    }
    fixture_port_ = rest_uri_.substr(rest_uri_.rfind(':') + 1);
  }

  std::unique_ptr<Catalog> MakeCatalog() {
    if (IsRest()) {
      RestCatalogOptions options;
      options.uri = rest_uri_;
      auto made = RestCatalog::Make(options);
      EXPECT_TRUE(made.ok()) << made.status().ToString();
      if (!made.ok()) return nullptr;
      return std::unique_ptr<Catalog>(std::move(*made));
    }
    if (IsHadoop()) {
      return std::make_unique<HadoopCatalog>("iceberg", (dir_ / "warehouse").string(), 2,
                                             file_systems_);
    }
    Result<std::unique_ptr<SqlConnection>> connection =
        GetParam() == "jdbc-postgresql" ? OpenPostgres(std::getenv("SQE_TEST_POSTGRES_URI"))
                                        : OpenSqlite((dir_ / "catalog.db").string());
    EXPECT_TRUE(connection.ok()) << connection.status().ToString();
    if (!connection.ok()) return nullptr;
    if (GetParam() == "jdbc-postgresql" && !cleaned_) {
      for (const char* table : {"iceberg_tables", "iceberg_namespace_properties"}) {
        (void)(*connection)
            ->Execute(std::string("DELETE FROM ") + table + " WHERE catalog_name = ?", {name_});
      }
      cleaned_ = true;
    }
    auto store = JdbcCatalogStore::Open(std::move(*connection), name_);
    EXPECT_TRUE(store.ok()) << store.status().ToString();
    if (!store.ok()) return nullptr;
    MetastoreCatalogOptions options;
    options.name = "iceberg";
    options.warehouse = (dir_ / "warehouse").string();
    return std::make_unique<MetastoreCatalog>(std::move(*store), file_systems_, options);
  }

  std::string name_;
  fs::path dir_;
  bool cleaned_ = false;
  std::shared_ptr<io::s3::StorageFileSystems> file_systems_;
  std::unique_ptr<server::HttpListener> listener_;
  std::string rest_uri_, fixture_port_;
  std::unique_ptr<Catalog> catalog_;
};

TEST_P(CatalogConformanceTest, CreateLoadAndLayout) {
  ASSERT_TRUE(catalog_->CreateNamespace({"db"}, {}).ok());
  ASSERT_TRUE(catalog_->CreateNamespace({"db", "nested"}, {}).ok());
  EXPECT_EQ(*catalog_->ListNamespaces({}), (std::vector<Namespace>{{"db"}}));
  EXPECT_EQ(*catalog_->ListNamespaces({"db"}), (std::vector<Namespace>{{"db", "nested"}}));
  EXPECT_EQ(catalog_->CreateNamespace({"db"}, {}).code(), StatusCode::kAlreadyExists);
  TableIdentifier id{{"db"}, "orders"};
  CreateTableRequest request;
  request.schema = TestSchema();
  request.properties = {{"write.format.default", "parquet"}};
  auto created = catalog_->CreateTable(id, request);
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  // Iceberg's layout: <warehouse>/<namespace>/<table>/metadata/00000-<uuid>.metadata.json
  std::string table_dir = (dir_ / "warehouse" / "db" / "orders").string();
  EXPECT_EQ(created->metadata->location, table_dir);
  EXPECT_TRUE(created->metadata_location.starts_with(
      table_dir + (IsHadoop() ? "/metadata/v1.metadata.json" : "/metadata/00000-")))
      << created->metadata_location;
  EXPECT_TRUE(fs::exists(created->metadata_location));
  EXPECT_EQ(created->metadata->format_version, 2);
  EXPECT_FALSE(created->metadata->current_snapshot_id.has_value());

  auto loaded = catalog_->LoadTable(id);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_TRUE(*loaded->metadata == *created->metadata);
  EXPECT_EQ(loaded->metadata->properties.at("write.format.default"), "parquet");

  EXPECT_EQ(catalog_->CreateTable(id, request).status().code(), StatusCode::kAlreadyExists);
  // Iceberg Java's JdbcCatalog makes a missing namespace on create (the server's semantics).
  if (GetParam() != "rest-java-fixture") {
    EXPECT_EQ(catalog_->CreateTable({{"nope"}, "t"}, request).status().code(),
              StatusCode::kNotFound);
  }
  EXPECT_EQ(catalog_->LoadTable({{"db"}, "missing"}).status().code(), StatusCode::kNotFound);
  EXPECT_EQ(*catalog_->ListTables({"db"}), (std::vector<TableIdentifier>{id}));
  // A table is not a namespace, and a namespace holding tables cannot be dropped.
  EXPECT_EQ(*catalog_->ListNamespaces({"db"}), (std::vector<Namespace>{{"db", "nested"}}));
  EXPECT_EQ(catalog_->DropNamespace({"db"}).code(), StatusCode::kConflict);
  Status dropped = catalog_->DropNamespace({"db", "nested"});
  ASSERT_TRUE(dropped.ok()) << dropped.ToString();
  EXPECT_FALSE(*catalog_->NamespaceExists({"db", "nested"}));

  request.format_version = 3;
  auto v3 = catalog_->CreateTable({{"db"}, "v3"}, request);
  ASSERT_TRUE(v3.ok()) << v3.status().ToString();
  EXPECT_EQ(v3->metadata->format_version, 3);
}

TEST_P(CatalogConformanceTest, CommitsChainAndStaleCommitsConflictWithoutOrphans) {
  ASSERT_TRUE(catalog_->CreateNamespace({"db"}, {}).ok());
  TableIdentifier id{{"db"}, "t"};
  CreateTableRequest request;
  request.schema = TestSchema();
  ASSERT_TRUE(catalog_->CreateTable(id, request).ok());
  auto first = Append(*catalog_, id, 1);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(first->metadata->current_snapshot_id, 1);
  EXPECT_NE(
      first->metadata_location.find(IsHadoop() ? "/metadata/v2.metadata.json" : "/metadata/00001-"),
      std::string::npos)
      << first->metadata_location;
  ASSERT_EQ(first->metadata->metadata_log.size(), 1u);

  // A writer that read the table before `first` asserts main was empty: Conflict.
  auto stale =
      catalog_->CommitTable(id, {TableRequirement::AssertRefSnapshotId("main", std::nullopt)},
                            {TableUpdate::SetProperties({{"x", "y"}})});
  EXPECT_EQ(stale.status().code(), StatusCode::kConflict);
  size_t metadata_files = 0;
  for (const auto& e : fs::directory_iterator(first->metadata->location + "/metadata")) {
    metadata_files += e.path().string().ends_with(".metadata.json");
  }
  EXPECT_EQ(metadata_files, 2u);  // the first two versions: the failed commit left nothing

  auto second = Append(*catalog_, id, 2);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->metadata->snapshots.size(), 2u);
  EXPECT_EQ(second->metadata->SnapshotById(2)->parent_snapshot_id, 1);
  // Time travel through the log.
  auto as_of = second->metadata->SnapshotAsOf(second->metadata->SnapshotById(1)->timestamp_ms);
  ASSERT_TRUE(as_of.ok());
  EXPECT_EQ((*as_of)->snapshot_id, 1);
}

TEST_P(CatalogConformanceTest, RenameRegisterAndDropWithPurge) {
  ASSERT_TRUE(catalog_->CreateNamespace({"a"}, {}).ok());
  ASSERT_TRUE(catalog_->CreateNamespace({"b"}, {}).ok());
  CreateTableRequest request;
  request.schema = TestSchema();
  auto t = catalog_->CreateTable({{"a"}, "t"}, request);
  ASSERT_TRUE(t.ok());
  if (IsHadoop()) {
    // Java's HadoopCatalog cannot rename or register either: a clear NotImplemented.
    EXPECT_EQ(catalog_->RenameTable({{"a"}, "t"}, {{"b"}, "t2"}).code(),
              StatusCode::kNotImplemented);
    EXPECT_EQ(catalog_->RegisterTable({{"a"}, "x"}, t->metadata_location).status().code(),
              StatusCode::kNotImplemented);
    ASSERT_TRUE(catalog_->DropTable({{"a"}, "t"}, /*purge=*/true).ok());
    EXPECT_FALSE(fs::exists(t->metadata_location));
    EXPECT_EQ(catalog_->LoadTable({{"a"}, "t"}).status().code(), StatusCode::kNotFound);
    ASSERT_TRUE(catalog_->DropNamespace({"a"}).ok());
    return;
  }
  ASSERT_TRUE(catalog_->RenameTable({{"a"}, "t"}, {{"b"}, "t2"}).ok());
  EXPECT_EQ(catalog_->LoadTable({{"a"}, "t"}).status().code(), StatusCode::kNotFound);
  auto renamed = catalog_->LoadTable({{"b"}, "t2"});
  ASSERT_TRUE(renamed.ok());
  EXPECT_EQ(renamed->metadata->table_uuid, t->metadata->table_uuid);

  // Register the same metadata under a second name, then drop that without purge.
  auto registered = catalog_->RegisterTable({{"a"}, "again"}, t->metadata_location);
  ASSERT_TRUE(registered.ok()) << registered.status().ToString();
  ASSERT_TRUE(catalog_->DropTable({{"a"}, "again"}, /*purge=*/false).ok());
  EXPECT_TRUE(fs::exists(t->metadata_location));
  Status missing =
      catalog_->RegisterTable({{"a"}, "bad"}, t->metadata_location + ".missing").status();
  // Through REST the server's mapping decides (sqe: 400, Java: 500); it is an error.
  if (IsRest()) {
    EXPECT_FALSE(missing.ok());
  } else {
    EXPECT_EQ(missing.code(), StatusCode::kNotFound) << missing.ToString();
  }
  EXPECT_EQ(catalog_->LoadTable({{"a"}, "bad"}).status().code(), StatusCode::kNotFound);

  ASSERT_TRUE(catalog_->DropTable({{"b"}, "t2"}, /*purge=*/true).ok());
  EXPECT_FALSE(fs::exists(t->metadata_location));
  EXPECT_EQ(catalog_->DropTable({{"b"}, "t2"}, true).code(), StatusCode::kNotFound);
  ASSERT_TRUE(catalog_->DropNamespace({"b"}).ok());
}

TEST_P(CatalogConformanceTest, CorruptMetadataIsAClearError) {
  ASSERT_TRUE(catalog_->CreateNamespace({"db"}, {}).ok());
  CreateTableRequest request;
  request.schema = TestSchema();
  auto t = catalog_->CreateTable({{"db"}, "t"}, request);
  ASSERT_TRUE(t.ok());
  {
    std::FILE* f = std::fopen(t->metadata_location.c_str(), "w");
    std::fputs("{\"format-version\": 2, \"location\": 7", f);
    std::fclose(f);
  }
  // A fresh client: the REST client's cache would answer with the metadata it created.
  std::unique_ptr<Catalog> fresh = MakeCatalog();
  auto loaded = fresh->LoadTable({{"db"}, "t"});
  ASSERT_FALSE(loaded.ok());
  if (IsRest()) {
    // The server read the file; its error (5xx) comes back as the server put it.
    EXPECT_NE(loaded.status().message().find("load table 'db.t'"), std::string::npos)
        << loaded.status().ToString();
    return;
  }
  EXPECT_EQ(loaded.status().code(), StatusCode::kCorruption) << loaded.status().ToString();
  EXPECT_NE(loaded.status().message().find(t->metadata_location), std::string::npos);
}

// 8 writers x 25 appends, each with its own catalog connection, retrying on Conflict:
// 200 snapshots, one chain, none lost or doubled.
TEST_P(CatalogConformanceTest, ConcurrentAppendsAllLandOnce) {
  ASSERT_TRUE(catalog_->CreateNamespace({"db"}, {}).ok());
  TableIdentifier id{{"db"}, "hot"};
  CreateTableRequest request;
  request.schema = TestSchema();
  ASSERT_TRUE(catalog_->CreateTable(id, request).ok());
  constexpr int kThreads = 8, kAppends = 25;
  std::vector<Status> failures(kThreads);
  std::atomic<int> conflicts{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < kThreads; ++w) {
    threads.emplace_back([&, w] {
      std::unique_ptr<Catalog> catalog = MakeCatalog();
      for (int i = 0; i < kAppends && catalog; ++i) {
        int64_t snapshot_id = 1 + w * 1000 + i;
        while (true) {
          auto r = Append(*catalog, id, snapshot_id);
          if (r.ok()) break;
          if (r.status().code() != StatusCode::kConflict) {
            failures[w] = r.status();
            return;
          }
          conflicts++;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  for (const Status& s : failures) ASSERT_TRUE(s.ok()) << s.ToString();
  // A new client: the REST client's cache may still hold the table as created.
  std::unique_ptr<Catalog> reader = MakeCatalog();
  auto final_table = reader->LoadTable(id);
  ASSERT_TRUE(final_table.ok());
  const iceberg::TableMetadata& m = *final_table->metadata;
  ASSERT_EQ(m.snapshots.size(), static_cast<size_t>(kThreads * kAppends));
  // One chain from the current snapshot back to the first, through every snapshot.
  std::set<int64_t> chain;
  std::optional<int64_t> at = m.current_snapshot_id;
  while (at) {
    ASSERT_TRUE(chain.insert(*at).second) << "cycle at " << *at;
    at = m.SnapshotById(*at)->parent_snapshot_id;
  }
  EXPECT_EQ(chain.size(), static_cast<size_t>(kThreads * kAppends));
  EXPECT_EQ(m.last_sequence_number, kThreads * kAppends);
}

INSTANTIATE_TEST_SUITE_P(Backends, CatalogConformanceTest,
                         ::testing::Values(std::string("embedded-sqlite"),
                                           std::string("jdbc-postgresql"),
                                           std::string("hadoop-local"), std::string("rest-sqe"),
                                           std::string("rest-java-fixture")),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n) {
                             if (c == '-') c = '_';
                           }
                           return n;
                         });

}  // namespace
}  // namespace sqe::catalog
