// The iceberg_scan table function through a session: a table read by its metadata file
// or directory, without the catalog, with snapshot / version selection and pruning.

#include <fstream>

#include "engine/warehouse_test_fixture.h"

namespace sqe::engine {
namespace {

class IcebergScanTest : public WarehouseTest {
 protected:
  void SetUp() override {
    WarehouseTest::SetUp();
    Run("CREATE SCHEMA s");
    Run("CREATE TABLE s.t (id bigint, k integer, v varchar) WITH (partitioning = ARRAY['k'])");
    Run("INSERT INTO s.t VALUES (1, 1, 'a'), (2, 1, 'b'), (3, 2, 'c')");
    Run("INSERT INTO s.t VALUES (4, 3, 'd'), (5, 3, NULL)");
  }

  std::string MetadataLocation() {
    auto loaded = Catalog()->LoadTable(catalog::TableIdentifier{{"s"}, "t"});
    EXPECT_TRUE(loaded.ok()) << loaded.status().message();
    return loaded.ok() ? loaded->metadata_location : "";
  }
  std::string TableLocation() { return Metadata("s", "t")->location; }
  /// The one value `sql` returns, as Rows renders it.
  std::string Scalar(const std::string& sql) {
    std::vector<std::string> rows = Rows(sql);
    EXPECT_EQ(rows.size(), 1u) << sql;
    return rows.empty() ? "" : rows[0];
  }
};

TEST_F(IcebergScanTest, ReadsTheMetadataFile) {
  const std::string file = MetadataLocation();
  EXPECT_EQ(
      Rows("SELECT id, k, v FROM iceberg_scan('" + file + "') ORDER BY id"),
      (std::vector<std::string>{"1|1|\"a\"", "2|1|\"b\"", "3|2|\"c\"", "4|3|\"d\"", "5|3|NULL"}));
  EXPECT_EQ(Scalar("SELECT count(*) FROM iceberg_scan('" + file + "') WHERE v IS NULL"), "1");
  // Qualified columns use the function's name, or an alias.
  EXPECT_EQ(Scalar("SELECT max(iceberg_scan.id), max(x.id) FROM iceberg_scan('" + file +
                   "'), iceberg_scan('" + file + "') x"),
            "5|5");
}

TEST_F(IcebergScanTest, ReadsTheLatestMetadataOfADirectory) {
  const std::string dir = TableLocation();
  EXPECT_EQ(Scalar("SELECT count(*), sum(id) FROM iceberg_scan('" + dir + "')"), "5|15");
  EXPECT_EQ(Scalar("SELECT count(*) FROM iceberg_scan('" + dir + "/')"), "5");
  // A later commit is seen by the next query.
  Run("INSERT INTO s.t VALUES (6, 1, 'e')");
  EXPECT_EQ(Scalar("SELECT count(*) FROM iceberg_scan('" + dir + "')"), "6");
}

TEST_F(IcebergScanTest, VersionHintWins) {
  const std::string dir = TableLocation();
  const std::string current = MetadataLocation();
  // Point a version hint at the metadata file written by the first INSERT.
  std::string first_insert;
  for (const auto& e : std::filesystem::directory_iterator(dir + "/metadata")) {
    const std::string name = e.path().filename().string();
    if (name.starts_with("00001-") && name.ends_with(".metadata.json")) first_insert = name;
  }
  ASSERT_FALSE(first_insert.empty());
  {
    std::ofstream hint(dir + "/metadata/version-hint.text");
    hint << "1\n";
  }
  EXPECT_EQ(Scalar("SELECT count(*) FROM iceberg_scan('" + dir + "')"), "3");
  // An explicit version overrides the hint; the metadata file path ignores both.
  EXPECT_EQ(Scalar("SELECT count(*) FROM iceberg_scan('" + dir + "', version => 2)"), "5");
  EXPECT_EQ(Scalar("SELECT count(*) FROM iceberg_scan('" + dir + "', version => '0')"), "0");
  EXPECT_EQ(Scalar("SELECT count(*) FROM iceberg_scan('" + current + "')"), "5");
  std::string missing = Error("SELECT * FROM iceberg_scan('" + dir + "', version => 9)");
  EXPECT_TRUE(Contains(missing, "version '9'")) << missing;
}

TEST_F(IcebergScanTest, SnapshotSelection) {
  const std::string file = MetadataLocation();
  std::shared_ptr<const iceberg::TableMetadata> m = Metadata("s", "t");
  ASSERT_EQ(m->snapshots.size(), 2u);
  const int64_t first = m->snapshots[0].snapshot_id;
  EXPECT_EQ(Scalar("SELECT count(*) FROM iceberg_scan('" + file + "', snapshot_id => " +
                   std::to_string(first) + ")"),
            "3");
  EXPECT_EQ(Scalar("SELECT count(*) FROM iceberg_scan('" + file + "', ref => 'main')"), "5");
  std::string unknown = Error("SELECT * FROM iceberg_scan('" + file + "', snapshot_id => 42)");
  EXPECT_TRUE(Contains(unknown, "Snapshot 42")) << unknown;
}

TEST_F(IcebergScanTest, PrunesByPartition) {
  const std::string file = MetadataLocation();
  std::vector<std::string> rows =
      Rows("EXPLAIN ANALYZE SELECT count(*) FROM iceberg_scan('" + file + "') WHERE k = 3");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_TRUE(Contains(rows[0], "files_read=1 files_pruned=2")) << rows[0];
  EXPECT_TRUE(Contains(rows[0], "table=" + file)) << rows[0];
  EXPECT_EQ(Scalar("SELECT id FROM iceberg_scan('" + file + "') WHERE k = 3 AND v = 'd'"), "4");
}

TEST_F(IcebergScanTest, Errors) {
  const std::string missing = (dir_ / "nowhere").string();
  auto r = session_->Execute("SELECT * FROM iceberg_scan('" + missing + "')");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
  EXPECT_TRUE(Contains(r.status().message(), missing)) << r.status().message();
  const std::string missing_file = missing + "/v1.metadata.json";
  r = session_->Execute("SELECT * FROM iceberg_scan('" + missing_file + "')");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
  EXPECT_TRUE(Contains(r.status().message(), missing_file)) << r.status().message();

  const std::string file = MetadataLocation();
  EXPECT_TRUE(Contains(Error("SELECT * FROM iceberg_scan()"), "needs the path"));
  EXPECT_TRUE(Contains(Error("SELECT * FROM iceberg_scan(42)"), "as varchar"));
  EXPECT_TRUE(Contains(Error("SELECT * FROM iceberg_scan('" + file + "', 'x')"), "takes one path"));
  EXPECT_TRUE(Contains(Error("SELECT * FROM iceberg_scan('" + file + "', colour => 1)"),
                       "no argument named 'colour'"));
  EXPECT_TRUE(
      Contains(Error("SELECT * FROM iceberg_scan('" + file + "', snapshot_id => 1, ref => 'main')"),
               "at most one of"));
  EXPECT_TRUE(Contains(Error("SELECT * FROM iceberg_scan('" + file + "', version => 1)"),
                       "table directory only"));
  EXPECT_TRUE(
      Contains(Error("SELECT * FROM read_parquet(path => 'x')"), "no argument named 'path'"));
  EXPECT_TRUE(Contains(Error("SELECT * FROM no_such_function('x')"), "iceberg_scan"));
}

}  // namespace
}  // namespace sqe::engine
