// One conformance suite for the JDBC-layout store, run on SQLite always and on
// PostgreSQL when SQE_TEST_POSTGRES_URI names a server (scripts/test.sh starts one).
#include "catalog/jdbc_catalog_store.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <thread>

namespace sqe::catalog {
namespace {

namespace fs = std::filesystem;

std::string PostgresUri() {
  const char* uri = std::getenv("SQE_TEST_POSTGRES_URI");
  return uri ? uri : "";
}

class JdbcCatalogStoreTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    // Each test its own catalog name, so tests share a PostgreSQL database safely.
    catalog_ = std::string("t_") + info->name();
    for (char& c : catalog_) {
      if (c == '/') c = '_';
    }
    if (GetParam() == "postgresql" && PostgresUri().empty()) {
      GTEST_SKIP() << "SQE_TEST_POSTGRES_URI is not set (scripts/test.sh sets it)";
    }
    dir_ = fs::temp_directory_path() / ("sqe_jdbc_store_" + catalog_);
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    auto store = Open();
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    store_ = std::move(*store);
    if (GetParam() == "postgresql") Clean();
  }
  void TearDown() override {
    if (store_ && GetParam() == "postgresql") Clean();
    store_.reset();
    fs::remove_all(dir_);
  }

  Result<std::unique_ptr<JdbcCatalogStore>> Open() {
    Result<std::unique_ptr<SqlConnection>> connection =
        GetParam() == "sqlite" ? OpenSqlite((dir_ / "catalog.db").string())
                               : OpenPostgres(PostgresUri());
    SQE_RETURN_NOT_OK(connection.status());
    return JdbcCatalogStore::Open(std::move(*connection), catalog_);
  }

  void Clean() {
    auto connection = OpenPostgres(PostgresUri());
    ASSERT_TRUE(connection.ok());
    ASSERT_TRUE((*connection)
                    ->Execute("DELETE FROM iceberg_tables WHERE catalog_name = ?", {catalog_})
                    .ok());
    ASSERT_TRUE(
        (*connection)
            ->Execute("DELETE FROM iceberg_namespace_properties WHERE catalog_name = ?", {catalog_})
            .ok());
  }

  std::string catalog_;
  fs::path dir_;
  std::unique_ptr<JdbcCatalogStore> store_;
};

TEST_P(JdbcCatalogStoreTest, NamespacesCreateListPropertiesDrop) {
  ASSERT_TRUE(store_->CreateNamespace({"sales"}, {}).ok());
  ASSERT_TRUE(store_->CreateNamespace({"sales", "eu"}, {{"owner", "ana"}}).ok());
  ASSERT_TRUE(store_->CreateNamespace({"hr"}, {{"a", "1"}}).ok());
  EXPECT_EQ(store_->CreateNamespace({"sales"}, {}).code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(*store_->ListNamespaces({}), (std::vector<Namespace>{{"hr"}, {"sales"}}));
  EXPECT_EQ(*store_->ListNamespaces({"sales"}), (std::vector<Namespace>{{"sales", "eu"}}));
  EXPECT_EQ(store_->ListNamespaces({"nope"}).status().code(), StatusCode::kNotFound);
  EXPECT_TRUE(*store_->NamespaceExists({"sales", "eu"}));
  EXPECT_FALSE(*store_->NamespaceExists({"sal"}));  // a name prefix is not a namespace

  auto props = store_->LoadNamespaceProperties({"sales", "eu"});
  ASSERT_TRUE(props.ok());
  EXPECT_EQ(*props, (std::map<std::string, std::string>{{"owner", "ana"}}));
  ASSERT_TRUE(store_->UpdateNamespaceProperties({"sales", "eu"}, {"owner"}, {{"x", "y"}}).ok());
  EXPECT_EQ(*store_->LoadNamespaceProperties({"sales", "eu"}),
            (std::map<std::string, std::string>{{"x", "y"}}));
  ASSERT_TRUE(store_->UpdateNamespaceProperties({"sales", "eu"}, {}, {{"x", "z"}}).ok());
  EXPECT_EQ(store_->LoadNamespaceProperties({"sales", "eu"})->at("x"), "z");
  EXPECT_EQ(store_->UpdateNamespaceProperties({"sales"}, {"k"}, {{"k", "v"}}).code(),
            StatusCode::kInvalidArgument);

  EXPECT_EQ(store_->DropNamespace({"sales"}).code(), StatusCode::kConflict);  // has sales.eu
  ASSERT_TRUE(store_->DropNamespace({"hr"}).ok());
  EXPECT_EQ(store_->DropNamespace({"hr"}).code(), StatusCode::kNotFound);
  EXPECT_EQ(store_->CreateNamespace({"a.b"}, {}).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->CreateNamespace({""}, {}).code(), StatusCode::kInvalidArgument);
}

TEST_P(JdbcCatalogStoreTest, TablesCreateLoadListRenameDrop) {
  ASSERT_TRUE(store_->CreateNamespace({"db"}, {}).ok());
  ASSERT_TRUE(store_->CreateNamespace({"other"}, {}).ok());
  TableIdentifier t{{"db"}, "orders"};
  EXPECT_EQ(store_->CreateTable({{"missing"}, "x"}, "file:///m.json").code(),
            StatusCode::kNotFound);
  ASSERT_TRUE(store_->CreateTable(t, "file:///w/db/orders/metadata/v1.json").ok());
  EXPECT_EQ(store_->CreateTable(t, "file:///elsewhere.json").code(), StatusCode::kAlreadyExists);
  ASSERT_TRUE(store_->CreateTable({{"db"}, "lines"}, "file:///l1.json").ok());
  auto loaded = store_->LoadTable(t);
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(loaded->metadata_location, "file:///w/db/orders/metadata/v1.json");
  EXPECT_EQ(loaded->previous_metadata_location, "");
  EXPECT_EQ(*store_->ListTables({"db"}),
            (std::vector<TableIdentifier>{{{"db"}, "lines"}, {{"db"}, "orders"}}));
  EXPECT_EQ(store_->DropNamespace({"db"}).code(), StatusCode::kConflict);

  ASSERT_TRUE(store_->RenameTable(t, {{"other"}, "orders2"}).ok());
  EXPECT_EQ(store_->LoadTable(t).status().code(), StatusCode::kNotFound);
  EXPECT_EQ(store_->LoadTable({{"other"}, "orders2"})->metadata_location,
            "file:///w/db/orders/metadata/v1.json");
  EXPECT_EQ(store_->RenameTable({{"db"}, "lines"}, {{"other"}, "orders2"}).code(),
            StatusCode::kAlreadyExists);
  EXPECT_EQ(store_->RenameTable({{"db"}, "nope"}, {{"db"}, "x"}).code(), StatusCode::kNotFound);
  EXPECT_EQ(store_->RenameTable({{"db"}, "lines"}, {{"nons"}, "x"}).code(), StatusCode::kNotFound);
  ASSERT_TRUE(store_->DropTable({{"db"}, "lines"}).ok());
  EXPECT_EQ(store_->DropTable({{"db"}, "lines"}).code(), StatusCode::kNotFound);
  EXPECT_TRUE(store_->ListTables({"db"})->empty());
  // The namespace outlives its last table (it has the "exists" property row).
  EXPECT_TRUE(*store_->NamespaceExists({"db"}));
  ASSERT_TRUE(store_->DropNamespace({"db"}).ok());
}

TEST_P(JdbcCatalogStoreTest, CommitIsACompareAndSwap) {
  ASSERT_TRUE(store_->CreateNamespace({"db"}, {}).ok());
  TableIdentifier t{{"db"}, "t"};
  ASSERT_TRUE(store_->CreateTable(t, "v1.json").ok());
  ASSERT_TRUE(store_->CommitTable(t, "v1.json", "v2.json").ok());
  auto stale = store_->CommitTable(t, "v1.json", "v2b.json");
  EXPECT_EQ(stale.code(), StatusCode::kConflict);
  EXPECT_NE(stale.message().find("v2.json"), std::string::npos) << stale.message();
  auto loaded = store_->LoadTable(t);
  EXPECT_EQ(loaded->metadata_location, "v2.json");
  EXPECT_EQ(loaded->previous_metadata_location, "v1.json");
  EXPECT_EQ(store_->CommitTable({{"db"}, "gone"}, "a", "b").code(), StatusCode::kNotFound);
}

// 8 writers x 25 commits, each on its own connection, each retrying on Conflict: every
// commit lands exactly once (200 distinct versions in one chain).
TEST_P(JdbcCatalogStoreTest, ConcurrentCommittersNeverLoseACommit) {
  ASSERT_TRUE(store_->CreateNamespace({"db"}, {}).ok());
  TableIdentifier t{{"db"}, "hot"};
  ASSERT_TRUE(store_->CreateTable(t, "v0").ok());
  constexpr int kThreads = 8, kCommits = 25;
  std::atomic<int> conflicts{0};
  std::vector<std::thread> threads;
  std::vector<Status> failures(kThreads);
  for (int w = 0; w < kThreads; ++w) {
    threads.emplace_back([&, w] {
      auto store = Open();
      if (!store.ok()) {
        failures[w] = store.status();
        return;
      }
      for (int i = 0; i < kCommits; ++i) {
        while (true) {
          auto current = (*store)->LoadTable(t);
          if (!current.ok()) {
            failures[w] = current.status();
            return;
          }
          std::string next =
              current->metadata_location + "|" + std::to_string(w) + ":" + std::to_string(i);
          Status s = (*store)->CommitTable(t, current->metadata_location, next);
          if (s.ok()) break;
          if (s.code() != StatusCode::kConflict) {
            failures[w] = s;
            return;
          }
          conflicts++;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  for (const Status& s : failures) ASSERT_TRUE(s.ok()) << s.ToString();
  std::string chain = store_->LoadTable(t)->metadata_location;
  std::set<std::string> seen;
  size_t start = 0;
  while ((start = chain.find('|', start)) != std::string::npos) {
    size_t end = chain.find('|', start + 1);
    seen.insert(
        chain.substr(start + 1, end == std::string::npos ? std::string::npos : end - start - 1));
    start += 1;
  }
  EXPECT_EQ(seen.size(), static_cast<size_t>(kThreads * kCommits));
}

TEST(SqliteConnectionTest, NotADatabaseIsAClearError) {
  auto path = fs::temp_directory_path() / "sqe_not_a_db.db";
  {
    std::FILE* f = std::fopen(path.c_str(), "w");
    std::fputs("this is not a sqlite database, just text that is long enough to matter\n", f);
    std::fclose(f);
  }
  auto connection = OpenSqlite(path.string());
  ASSERT_FALSE(connection.ok());
  EXPECT_NE(connection.status().message().find(path.string()), std::string::npos);
  fs::remove(path);
}

TEST(PostgresConnectionTest, UnreachableServerNamesItWithoutThePassword) {
  auto connection = OpenPostgres("postgresql://sqe:hunter2secret@127.0.0.1:1/db?connect_timeout=2");
  ASSERT_FALSE(connection.ok());
  EXPECT_EQ(connection.status().message().find("hunter2secret"), std::string::npos);
  EXPECT_NE(connection.status().message().find("127.0.0.1"), std::string::npos)
      << connection.status().message();
}

INSTANTIATE_TEST_SUITE_P(Backends, JdbcCatalogStoreTest,
                         ::testing::Values(std::string("sqlite"), std::string("postgresql")),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace sqe::catalog
