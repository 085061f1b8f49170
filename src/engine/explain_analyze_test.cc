// EXPLAIN ANALYZE through a session: per-operator peak memory, bytes read, and files /
// row groups read against pruned.

#include <cstdlib>
#include <sstream>

#include "engine/warehouse_test_fixture.h"
#include "exec/physical_operator.h"

namespace sqe::engine {
namespace {

class ExplainAnalyzeTest : public WarehouseTest {
 protected:
  void SetUp() override {
    WarehouseTest::SetUp();
    Run("CREATE SCHEMA s");
    Run("CREATE TABLE s.t (id bigint, k integer, v varchar) WITH (partitioning = ARRAY['k'])");
    // Three partitions, one data file each.
    for (int k = 1; k <= 3; ++k) {
      std::string values;
      for (int i = 0; i < 200; ++i) {
        const int id = k * 1000 + i;
        values += (i ? ", (" : "(") + std::to_string(id) + ", " + std::to_string(k) + ", 'v" +
                  std::to_string(id) + "')";
      }
      Run("INSERT INTO s.t VALUES " + values);
    }
  }

  /// The EXPLAIN ANALYZE text of `query`.
  std::string Analyze(const std::string& query) {
    std::vector<std::string> rows = Rows("EXPLAIN ANALYZE " + query);
    EXPECT_EQ(rows.size(), 1u);
    if (rows.empty()) return "";
    // Rows() renders the varchar as JSON: unescape the newlines.
    std::string text = rows[0];
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == 'n') {
        out += '\n';
        ++i;
      } else {
        out += text[i];
      }
    }
    return out;
  }

  /// The line of operator `name` ("HashAggregate"); fails when there is none.
  static std::string Line(const std::string& plan, const std::string& name) {
    std::istringstream in(plan);
    std::string line;
    while (std::getline(in, line)) {
      const size_t start = line.find_first_not_of(" -");
      if (start != std::string::npos && line.compare(start, name.size(), name) == 0) return line;
    }
    ADD_FAILURE() << "no " << name << " in\n" << plan;
    return "";
  }

  /// The integer after `key=` in `line`; -1 when absent.
  static int64_t Counter(const std::string& line, const std::string& key) {
    const size_t at = line.find(" " + key + "=");
    if (at == std::string::npos) return -1;
    return std::atoll(line.c_str() + at + key.size() + 2);
  }
};

TEST_F(ExplainAnalyzeTest, HashAggregateReportsPeakMemory) {
  const std::string plan = Analyze("SELECT k, count(*), max(v) FROM s.t GROUP BY k");
  const std::string agg = Line(plan, "HashAggregate");
  EXPECT_TRUE(Contains(agg, " peak_memory=")) << plan;
  EXPECT_TRUE(Contains(plan, "peak memory: ")) << plan;
}

TEST_F(ExplainAnalyzeTest, HashJoinReportsPeakMemory) {
  const std::string plan =
      Analyze("SELECT count(*) FROM s.t a JOIN s.t b ON a.id = b.id WHERE b.k < 3");
  EXPECT_TRUE(Contains(Line(plan, "HashJoin"), " peak_memory=")) << plan;
}

TEST_F(ExplainAnalyzeTest, SortReportsPeakMemory) {
  const std::string plan = Analyze("SELECT id, v FROM s.t ORDER BY v DESC");
  EXPECT_TRUE(Contains(Line(plan, "Sort"), " peak_memory=")) << plan;
}

TEST_F(ExplainAnalyzeTest, ScanReportsBytesAndFiles) {
  const std::string plan = Analyze("SELECT sum(id) FROM s.t");
  const std::string scan = Line(plan, "TableScan");
  EXPECT_TRUE(Contains(scan, " bytes_read=")) << plan;
  EXPECT_EQ(Counter(scan, "files_read"), 3) << plan;
  EXPECT_EQ(Counter(scan, "files_pruned"), 0) << plan;
  EXPECT_GE(Counter(scan, "row_groups_read"), 3) << plan;
}

TEST_F(ExplainAnalyzeTest, PrunedScanReadsFewerFiles) {
  const std::string plan = Analyze("SELECT count(*) FROM s.t WHERE k = 2");
  const std::string scan = Line(plan, "TableScan");
  EXPECT_EQ(Counter(scan, "files_read"), 1) << plan;
  EXPECT_EQ(Counter(scan, "files_pruned"), 2) << plan;
  // Metrics pruning: only the k=3 file holds ids >= 3150.
  const std::string ids = Analyze("SELECT count(*) FROM s.t WHERE id >= 3150");
  const std::string by_metrics = Line(ids, "TableScan");
  EXPECT_EQ(Counter(by_metrics, "files_read"), 1) << ids;
  EXPECT_EQ(Counter(by_metrics, "files_pruned"), 2) << ids;
}

TEST_F(ExplainAnalyzeTest, ReadParquetReportsRowGroups) {
  // A Parquet file to read back: the table's data file of partition k=1.
  std::string file;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir_)) {
    const std::string p = e.path().string();
    if (e.is_regular_file() && p.ends_with(".parquet") && Contains(p, "k=1")) file = p;
  }
  ASSERT_FALSE(file.empty());
  const std::string plan = Analyze("SELECT count(*) FROM read_parquet('" + file + "')");
  const std::string scan = Line(plan, "ParquetScan");
  EXPECT_EQ(Counter(scan, "files_read"), 1) << plan;
  EXPECT_GE(Counter(scan, "row_groups_read"), 1) << plan;
  EXPECT_TRUE(Contains(scan, " bytes_read=")) << plan;
  const std::string pruned =
      Analyze("SELECT count(*) FROM read_parquet('" + file + "') WHERE id > 5000");
  const std::string pruned_scan = Line(pruned, "ParquetScan");
  EXPECT_EQ(Counter(pruned_scan, "row_groups_read"), 0) << pruned;
  EXPECT_GE(Counter(pruned_scan, "row_groups_pruned"), 1) << pruned;
}

TEST(FormatBytesTest, BinaryUnits) {
  EXPECT_EQ(exec::FormatBytes(0), "0B");
  EXPECT_EQ(exec::FormatBytes(1023), "1023B");
  EXPECT_EQ(exec::FormatBytes(1536), "1.5KiB");
  EXPECT_EQ(exec::FormatBytes(int64_t{12} << 20), "12.0MiB");
  EXPECT_EQ(exec::FormatBytes((int64_t{5} << 30) / 2), "2.5GiB");
}

}  // namespace
}  // namespace sqe::engine
