// Iceberg metadata tables ("t$snapshots", ...), time travel errors and the hidden columns
// "$path" / "$file_modified_time", through SQL on an embedded warehouse.

#include "engine/iceberg_metadata_tables.h"

#include <sys/stat.h>

#include <algorithm>
#include <set>

#include "columnar/civil_time.h"
#include "engine/warehouse_test_fixture.h"

namespace sqe::engine {
namespace {

TEST(MetadataTableName, SplitsAtTheFirstDollar) {
  EXPECT_EQ(SplitMetadataTableName("orders$files"),
            std::make_optional(std::make_pair(std::string("orders"), std::string("files"))));
  EXPECT_EQ(SplitMetadataTableName("orders"), std::nullopt);
  EXPECT_EQ(SplitMetadataTableName("t$"),
            std::make_optional(std::make_pair(std::string("t"), std::string())));
  EXPECT_EQ(MetadataTableKinds().size(), 7u);
}

class MetadataTablesTest : public WarehouseTest {
 protected:
  void SetUp() override {
    WarehouseTest::SetUp();
    Run("CREATE SCHEMA s");
    Run("CREATE TABLE s.t (id bigint, day date, price decimal(9,2), name varchar) "
        "WITH (partitioning = ARRAY['day'], format = 'PARQUET')");
    Run("INSERT INTO s.t VALUES (1, DATE '2024-01-01', 1.50, 'a'), "
        "(2, DATE '2024-01-02', 2.25, NULL)");
    Run("INSERT INTO s.t VALUES (3, DATE '2024-01-01', 10.00, 'c')");
    auto m = Metadata("s", "t");
    ASSERT_NE(m, nullptr);
    for (const iceberg::Snapshot& s : m->snapshots) snapshots_.push_back(s.snapshot_id);
    ASSERT_EQ(snapshots_.size(), 2u);
  }
  std::vector<int64_t> snapshots_;
};

TEST_F(MetadataTablesTest, SnapshotsAndHistory) {
  const std::string first = std::to_string(snapshots_[0]);
  const std::string second = std::to_string(snapshots_[1]);
  EXPECT_EQ(Rows("SELECT snapshot_id, parent_id, operation, summary['added-records'], "
                 "summary['total-records'], manifest_list LIKE '%.avro' "
                 "FROM s.\"t$snapshots\" ORDER BY committed_at"),
            (std::vector<std::string>{first + "|NULL|\"append\"|\"2\"|\"2\"|true",
                                      second + "|" + first + "|\"append\"|\"1\"|\"3\"|true"}));
  // "operation" is a column, not a summary entry (as in Java and pyiceberg).
  EXPECT_EQ(
      Rows("SELECT count(*) FROM s.\"t$snapshots\" WHERE element_at(summary, 'operation') IS NULL"),
      std::vector<std::string>{"2"});
  EXPECT_EQ(Rows("SELECT snapshot_id, parent_id, is_current_ancestor FROM s.\"t$history\" "
                 "ORDER BY made_current_at"),
            (std::vector<std::string>{first + "|NULL|true", second + "|" + first + "|true"}));
  EXPECT_EQ(Rows("SELECT typeof(committed_at), typeof(summary) FROM s.\"t$snapshots\" LIMIT 1"),
            std::vector<std::string>{"\"timestamp(6) with time zone\"|\"map(varchar, varchar)\""});
}

TEST_F(MetadataTablesTest, RefsAndProperties) {
  EXPECT_EQ(Rows("SELECT * FROM s.\"t$refs\""),
            std::vector<std::string>{"\"main\"|\"BRANCH\"|" + std::to_string(snapshots_[1]) +
                                     "|NULL|NULL|NULL"});
  EXPECT_EQ(Rows("SELECT value FROM s.\"t$properties\" WHERE key = 'write.format.default'"),
            std::vector<std::string>{"\"parquet\""});
}

TEST_F(MetadataTablesTest, FilesWithPartitionsAndReadableBounds) {
  EXPECT_EQ(
      Rows("SELECT content, file_format, spec_id, partition, record_count, "
           "lower_bounds[1], upper_bounds[1], lower_bounds[2], lower_bounds[3], "
           "value_counts[1], null_value_counts[4] "
           "FROM s.\"t$files\" ORDER BY lower_bounds[1]"),
      (std::vector<std::string>{
          "0|\"PARQUET\"|0|{\"day\":\"2024-01-01\"}|1|\"1\"|\"1\"|\"2024-01-01\"|\"1.50\"|1|0",
          "0|\"PARQUET\"|0|{\"day\":\"2024-01-02\"}|1|\"2\"|\"2\"|\"2024-01-02\"|\"2.25\"|1|1",
          "0|\"PARQUET\"|0|{\"day\":\"2024-01-01\"}|1|\"3\"|\"3\"|\"2024-01-01\"|\"10.00\"|1|"
          "0"}));
  // Sizes agree with the files on disk.
  for (const std::string& row : Rows("SELECT file_path, file_size_in_bytes FROM s.\"t$files\"")) {
    const size_t bar = row.find('|');
    const std::string path = row.substr(1, bar - 2);
    struct stat st {};
    ASSERT_EQ(::stat(path.c_str(), &st), 0) << path;
    EXPECT_EQ(row.substr(bar + 1), std::to_string(st.st_size));
  }
}

TEST_F(MetadataTablesTest, ManifestsAndPartitions) {
  EXPECT_EQ(Rows("SELECT content, partition_spec_id, added_data_files_count, added_rows_count, "
                 "existing_data_files_count, deleted_delete_files_count, "
                 "cardinality(partition_summaries) FROM s.\"t$manifests\" "
                 "ORDER BY added_rows_count"),
            (std::vector<std::string>{"0|0|1|1|0|0|1", "0|0|2|2|0|0|1"}));
  EXPECT_EQ(Rows("SELECT partition_summaries FROM s.\"t$manifests\" ORDER BY added_rows_count"),
            (std::vector<std::string>{
                "[{\"contains_null\":false,\"contains_nan\":false,\"lower_bound\":\"2024-01-01\","
                "\"upper_bound\":\"2024-01-01\"}]",
                "[{\"contains_null\":false,\"contains_nan\":false,\"lower_bound\":\"2024-01-01\","
                "\"upper_bound\":\"2024-01-02\"}]"}));
  const auto partitions =
      Rows("SELECT partition, record_count, file_count, total_size > 0 FROM s.\"t$partitions\"");
  EXPECT_EQ(std::set<std::string>(partitions.begin(), partitions.end()),
            (std::set<std::string>{"{\"day\":\"2024-01-01\"}|2|2|true",
                                   "{\"day\":\"2024-01-02\"}|1|1|true"}));
}

TEST_F(MetadataTablesTest, UnpartitionedAndEmptyTables) {
  Run("CREATE TABLE s.u (x integer)");
  EXPECT_TRUE(Rows("SELECT * FROM s.\"u$snapshots\"").empty());
  EXPECT_TRUE(Rows("SELECT * FROM s.\"u$files\"").empty());
  EXPECT_TRUE(Rows("SELECT * FROM s.\"u$partitions\"").empty());
  Run("INSERT INTO s.u VALUES (1), (2)");
  // No partition column when the table is unpartitioned.
  EXPECT_EQ(Rows("SELECT * FROM s.\"u$partitions\""),
            std::vector<std::string>{"2|1|" +
                                     Rows("SELECT file_size_in_bytes FROM s.\"u$files\"").at(0)});
}

TEST_F(MetadataTablesTest, TransformPartitionsAndTypedBounds) {
  Run("CREATE TABLE s.p (u uuid, ts timestamp(6) with time zone, n bigint, b varbinary) WITH "
      "(partitioning = ARRAY['u', 'day(ts)', 'bucket(n, 4)', 'month(ts)'])");
  Run("INSERT INTO s.p VALUES (UUID '12151fd2-7586-11e9-8f9e-2a86e4085a59', "
      "CAST('2024-03-01 10:00:00 UTC' AS timestamp(6) with time zone), 7, X'0aff')");
  // Partition fields take their transforms' result types (uuid, date, int, int months).
  EXPECT_EQ(Rows("SELECT partition, lower_bounds[1], lower_bounds[2], upper_bounds[4] "
                 "FROM s.\"p$files\""),
            std::vector<std::string>{
                "{\"u\":\"12151fd2-7586-11e9-8f9e-2a86e4085a59\",\"ts_day\":\"2024-03-01\","
                "\"n_bucket\":3,\"ts_month\":650}|\"12151fd2-7586-11e9-8f9e-2a86e4085a59\"|"
                "\"2024-03-01 10:00:00.000000 UTC\"|\"0aff\""});
  EXPECT_EQ(Rows("SELECT partition_summaries[2] FROM s.\"p$manifests\""),
            std::vector<std::string>{"{\"contains_null\":false,\"contains_nan\":false,"
                                     "\"lower_bound\":\"2024-03-01\",\"upper_bound\":\"2024-03-"
                                     "01\"}"});
}

TEST_F(MetadataTablesTest, Errors) {
  std::string e = Error("SELECT * FROM s.\"t$nope\"");
  EXPECT_TRUE(Contains(e, "'$nope'")) << e;
  EXPECT_TRUE(Contains(e, "$snapshots, $history")) << e;
  e = Error("SELECT * FROM s.\"missing$files\"");
  EXPECT_TRUE(Contains(e, "does not exist")) << e;
  e = Error("SELECT * FROM s.\"t$files\" FOR VERSION AS OF 1");
  EXPECT_TRUE(Contains(e, "not supported")) << e;
}

TEST_F(MetadataTablesTest, TimeTravel) {
  EXPECT_EQ(Rows("SELECT count(*) FROM s.t FOR VERSION AS OF " + std::to_string(snapshots_[0])),
            std::vector<std::string>{"2"});
  EXPECT_EQ(Rows("SELECT count(*) FROM s.t FOR VERSION AS OF 'main'"),
            std::vector<std::string>{"3"});
  std::string e = Error("SELECT * FROM s.t FOR VERSION AS OF 'v9'");
  EXPECT_TRUE(Contains(e, "Branch or tag 'v9' of table 'iceberg.s.t' does not exist (refs: main)"))
      << e;
  e = Error("SELECT * FROM s.t FOR TIMESTAMP AS OF DATE '2001-02-03'");
  EXPECT_TRUE(Contains(e,
                       "No version history of table 'iceberg.s.t' at or before "
                       "2001-02-03 00:00:00.000000 UTC"))
      << e;
  e = Error("SELECT * FROM s.t FOR VERSION AS OF 42");
  EXPECT_TRUE(Contains(e, "Snapshot 42")) << e;
}

TEST_F(MetadataTablesTest, HiddenColumns) {
  // Not in SELECT *, nor in NATURAL JOIN's or a column alias list's columns.
  EXPECT_EQ(Run("SELECT * FROM s.t").schema->num_fields(), 4);
  EXPECT_EQ(Run("SELECT * FROM s.t a NATURAL JOIN s.t b").schema->num_fields(), 4);
  EXPECT_EQ(Rows("SELECT x.\"$path\" = \"$path\" FROM s.t AS x(a, b, c, d) WHERE a = 1"),
            std::vector<std::string>{"true"});
  // One group per data file, with the file's record count.
  const auto files = Rows("SELECT file_path, record_count FROM s.\"t$files\"");
  const auto groups = Rows("SELECT \"$path\", count(*) FROM s.t GROUP BY 1");
  EXPECT_EQ(std::set<std::string>(groups.begin(), groups.end()),
            std::set<std::string>(files.begin(), files.end()));
  // In WHERE, alone (no table column read) and after time travel.
  const std::string path = files[0].substr(1, files[0].find('|') - 2);
  EXPECT_EQ(Rows("SELECT count(*) FROM s.t WHERE \"$path\" = '" + path + "'"),
            std::vector<std::string>{files[0].substr(files[0].find('|') + 1)});
  EXPECT_EQ(Rows("SELECT count(DISTINCT \"$path\") FROM s.t FOR VERSION AS OF " +
                 std::to_string(snapshots_[0])),
            std::vector<std::string>{"2"});
  // $file_modified_time: the file's mtime.
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  const int64_t micros =
      static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000 + st.st_mtim.tv_nsec / 1000;
  EXPECT_EQ(
      Rows("SELECT DISTINCT \"$file_modified_time\" FROM s.t WHERE \"$path\" = '" + path + "'"),
      std::vector<std::string>{
          "\"" + columnar::FormatTimestamp(micros, columnar::TimeUnit::kMicro) + " UTC\""});
  EXPECT_EQ(Rows("SELECT count(*) FROM s.t WHERE \"$file_modified_time\" IS NULL"),
            std::vector<std::string>{"0"});
  // A "$path" conjunct prunes the other files (the same rows as the unpruned count above).
  std::string analyzed;
  for (const std::string& line :
       Rows("EXPLAIN ANALYZE SELECT count(*) FROM s.t WHERE \"$path\" = '" + path + "'")) {
    analyzed += line + "\n";
  }
  EXPECT_TRUE(Contains(analyzed, "files_read=1 files_pruned=2")) << analyzed;
  EXPECT_EQ(Rows("SELECT count(*) FROM s.t WHERE \"$path\" IN ('" + path + "', 'elsewhere')"),
            std::vector<std::string>{files[0].substr(files[0].find('|') + 1)});
  EXPECT_EQ(Rows("SELECT count(*) FROM s.t WHERE \"$path\" <> '" + path + "'"),
            std::vector<std::string>{
                std::to_string(3 - std::stoi(files[0].substr(files[0].find('|') + 1)))});
  // EXPLAIN names the hidden column the scan reads.
  const auto plan = Rows("EXPLAIN SELECT \"$path\" FROM s.t");
  std::string text;
  for (const std::string& line : plan) text += line + "\n";
  EXPECT_TRUE(Contains(text, "$path")) << text;
}

}  // namespace
}  // namespace sqe::engine
