// ParquetFileReader with ReaderOptions::predicate on pyarrow-written files: a sorted key
// in several row groups of many small pages with a page index, plus an unsorted column and
// a Bloom-filtered string. Asserts what ReaderStats says was skipped, that skipping never
// loses a matching row, and that page pruning returns exactly the kept pages' rows.
#include <gtest/gtest.h>

#include <cstdio>
#include <set>

#include "formats/parquet/file_reader.h"
#include "formats/parquet/page_pruning.h"
#include "formats/parquet/pyarrow_peer_test_support.h"
#include "io/memory_file.h"

namespace sqe::parquet {
namespace {

using Op = PredicateOp;

constexpr int64_t kRows = 20000;
constexpr int64_t kGroupRows = 5000;

const char* kScript = R"PY(
import sys
import pyarrow as pa, pyarrow.parquet as pq
n = 20000
t = pa.table({
  "k": pa.array(range(n), pa.int64()),
  "g": pa.array([i % 7 for i in range(n)], pa.int32()),
  "v": pa.array(["s%06d" % i for i in range(n)]),
}, schema=pa.schema([pa.field("k", pa.int64(), metadata={"PARQUET:field_id": "1"}),
                     pa.field("g", pa.int32(), metadata={"PARQUET:field_id": "2"}),
                     pa.field("v", pa.string(), metadata={"PARQUET:field_id": "3"})]))
pq.write_table(t, sys.argv[1], row_group_size=5000, data_page_size=1024, write_batch_size=100,
               write_page_index=True, use_dictionary=False, compression="none",
               bloom_filter_options={"v": {"ndv": 5000, "fpp": 0.01}})
)PY";

class PruningTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!testing::HavePyarrow()) return;
    auto bytes = testing::WriteWithPyarrow(kScript, "reader");
    if (bytes) file_ = new std::string(std::move(*bytes));
  }
  static void TearDownTestSuite() {
    delete file_;
    file_ = nullptr;
  }
  void SetUp() override {
    if (file_ == nullptr) GTEST_SKIP() << "pyarrow (with Bloom filter support) not available";
  }

  struct Scan {
    ReaderStats stats;
    std::vector<int64_t> keys;  // k of every returned row, in order
    std::vector<int32_t> groups;
  };
  Scan Run(std::vector<Predicate> predicate) {
    ReaderOptions options;
    options.predicate = std::move(predicate);
    options.coalesce_threshold = 0;  // so bytes_read shows what pruning saved
    options.footer_read_size = 8;
    auto reader = ParquetFileReader::Open(std::make_shared<io::MemoryFile>(*file_), options);
    EXPECT_TRUE(reader.ok()) << reader.status().ToString();
    Scan scan;
    if (!reader.ok()) return scan;
    auto batches = (*reader)->ReadAll();
    EXPECT_TRUE(batches.ok()) << batches.status().ToString();
    if (!batches.ok()) return scan;
    for (const columnar::Batch& b : *batches) {
      const columnar::Column* k = b.ColumnByName("k");
      const columnar::Column* g = b.ColumnByName("g");
      for (int64_t i = 0; i < b.num_rows(); ++i) {
        scan.keys.push_back(k->Value<int64_t>(i));
        scan.groups.push_back(g->Value<int32_t>(i));
      }
    }
    scan.stats = (*reader)->stats();
    return scan;
  }

  // The page spans (file-relative rows) of column k in row group `rg`.
  std::vector<RowRange> KeyPages(int rg) {
    ReaderOptions options;
    options.columns = {"k"};
    auto reader = ParquetFileReader::Open(std::make_shared<io::MemoryFile>(*file_), options);
    EXPECT_TRUE(reader.ok());
    auto indexes = (*reader)->ReadOffsetIndexes(rg);
    EXPECT_TRUE(indexes.ok() && (*indexes)[0].has_value());
    auto spans = PageRowSpans(*(*indexes)[0], kGroupRows);
    EXPECT_TRUE(spans.ok());
    for (RowRange& r : *spans) {
      r.begin += rg * kGroupRows;
      r.end += rg * kGroupRows;
    }
    return *spans;
  }
  // The rows of the pages of k overlapping [lo, hi] (sorted k = row number).
  std::vector<int64_t> PagesCovering(int64_t lo, int64_t hi) {
    std::vector<int64_t> rows;
    for (int rg = 0; rg < kRows / kGroupRows; ++rg) {
      for (const RowRange& r : KeyPages(rg)) {
        if (r.end <= lo || r.begin > hi) continue;
        for (int64_t i = r.begin; i < r.end; ++i) rows.push_back(i);
      }
    }
    return rows;
  }

  static std::string* file_;
};
std::string* PruningTest::file_ = nullptr;

Predicate K(Op op, int64_t v) {
  return Predicate::Compare(ColumnRef::Name("k"), op, Literal::Int64(v));
}

TEST_F(PruningTest, NoPredicateReadsEverything) {
  Scan s = Run({});
  EXPECT_EQ(s.stats.row_groups_read, 4);
  EXPECT_EQ(s.stats.row_groups_skipped, 0);
  EXPECT_EQ(s.stats.pages_skipped, 0);
  EXPECT_EQ(static_cast<int64_t>(s.keys.size()), kRows);
  ASSERT_GT(KeyPages(0).size(), 10u) << "the file should have many small pages";
}

TEST_F(PruningTest, EqualitySkipsRowGroupsAndPages) {
  Scan all = Run({});
  Scan s = Run({K(Op::kEq, 12345)});
  EXPECT_EQ(s.stats.row_groups_read, 1);
  EXPECT_EQ(s.stats.row_groups_skipped, 3);
  EXPECT_GT(s.stats.pages_skipped, 0);
  EXPECT_LT(s.stats.pages_read, all.stats.pages_read / 4);
  EXPECT_LT(s.stats.bytes_read, all.stats.bytes_read / 4)
      << s.stats.bytes_read << " of " << all.stats.bytes_read;
  EXPECT_EQ(s.keys, PagesCovering(12345, 12345));
}

TEST_F(PruningTest, PageIndexAndDataShareFewRequests) {
  // Default coalescing: footer, one request for the page indexes (the predicate column's
  // ColumnIndex and every projected OffsetIndex), one for the kept pages.
  ReaderOptions options;
  options.predicate = {K(Op::kEq, 12345)};
  auto file = std::make_shared<io::MemoryFile>(*file_);
  auto reader = ParquetFileReader::Open(file, options);
  ASSERT_TRUE(reader.ok());
  const int64_t footer_requests = (*reader)->stats().read_requests;
  auto batches = (*reader)->ReadAll();
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  EXPECT_EQ((*reader)->stats().read_requests - footer_requests, 2);
  EXPECT_EQ((*reader)->stats().read_requests, file->read_calls());
  EXPECT_EQ((*reader)->stats().bytes_read, file->bytes_read());
}

TEST_F(PruningTest, RangeKeepsExactlyTheOverlappingPages) {
  Scan s = Run({K(Op::kGe, 5000), K(Op::kLt, 6000)});
  EXPECT_EQ(s.stats.row_groups_read, 1);
  EXPECT_EQ(s.stats.row_groups_skipped, 3);
  EXPECT_GT(s.stats.pages_skipped, 0);
  EXPECT_EQ(s.keys, PagesCovering(5000, 5999));
  // Spanning a row-group boundary.
  Scan t = Run({K(Op::kGt, 4990), K(Op::kLe, 5010)});
  EXPECT_EQ(t.stats.row_groups_read, 2);
  EXPECT_EQ(t.keys, PagesCovering(4991, 5010));
}

TEST_F(PruningTest, NothingMatches) {
  for (auto p : {K(Op::kGt, kRows), K(Op::kLt, 0),
                 Predicate::Compare(ColumnRef::Name("g"), Op::kEq, Literal::Int64(9)),
                 Predicate::IsNull(ColumnRef::Name("k"))}) {
    Scan s = Run({p});
    EXPECT_EQ(s.stats.row_groups_read, 0) << p.ToString();
    EXPECT_EQ(s.stats.row_groups_skipped, 4) << p.ToString();
    EXPECT_TRUE(s.keys.empty());
  }
}

TEST_F(PruningTest, UnsortedColumnSkipsNothing) {
  Scan s = Run({Predicate::Compare(ColumnRef::Name("g"), Op::kEq, Literal::Int64(3))});
  EXPECT_EQ(s.stats.row_groups_read, 4);
  EXPECT_EQ(s.stats.row_groups_skipped, 0);
  EXPECT_EQ(s.stats.pages_skipped, 0);
  EXPECT_EQ(static_cast<int64_t>(s.keys.size()), kRows);
  Scan ne = Run({Predicate::Compare(ColumnRef::Name("g"), Op::kNe, Literal::Int64(3)),
                 Predicate::IsNotNull(ColumnRef::Name("k"))});
  EXPECT_EQ(static_cast<int64_t>(ne.keys.size()), kRows);
}

TEST_F(PruningTest, ReturnedRowsAreASupersetOfTheMatches) {
  Scan s =
      Run({K(Op::kLt, 7000), Predicate::Compare(ColumnRef::Name("g"), Op::kEq, Literal::Int64(3))});
  EXPECT_EQ(s.stats.row_groups_read, 2);
  std::set<int64_t> got(s.keys.begin(), s.keys.end());
  for (int64_t k = 0; k < 7000; ++k) {
    if (k % 7 == 3) {
      EXPECT_TRUE(got.count(k)) << k;
    }
  }
  for (size_t i = 0; i < s.keys.size(); ++i) EXPECT_EQ(s.groups[i], s.keys[i] % 7);
  EXPECT_LT(static_cast<int64_t>(s.keys.size()), 7000 + 3000);
}

TEST_F(PruningTest, BloomFilterSkipsWhatStatisticsKeep) {
  auto v = ColumnRef::Name("v");
  // Present: one row group read.
  Scan hit = Run({Predicate::Compare(v, Op::kEq, Literal::String("s012345"))});
  EXPECT_EQ(hit.stats.row_groups_read, 1);
  EXPECT_EQ(hit.stats.row_groups_skipped, 3);
  EXPECT_NE(std::find(hit.keys.begin(), hit.keys.end(), 12345), hit.keys.end());
  // Absent values inside row group 2's min/max: only the filter can skip them. With a 1%
  // false-positive rate, nearly all of these must be skipped.
  int read = 0;
  for (int i = 0; i < 20; ++i) {
    Scan miss = Run(
        {Predicate::Compare(v, Op::kEq, Literal::String("s0123" + std::to_string(10 + i) + "x"))});
    EXPECT_EQ(miss.stats.row_groups_read + miss.stats.row_groups_skipped, 4);
    read += static_cast<int>(miss.stats.row_groups_read);
  }
  EXPECT_LE(read, 3);
  // IN keeps the group if any literal may be there.
  Scan in = Run({Predicate::In(v, {Literal::String("s012345x"), Literal::String("s012346")})});
  EXPECT_EQ(in.stats.row_groups_read, 1);
}

TEST_F(PruningTest, PredicateColumnNeedNotBeProjected) {
  ReaderOptions options;
  options.columns = {"v"};
  options.predicate = {K(Op::kEq, 12345)};
  options.coalesce_threshold = 0;
  auto reader = ParquetFileReader::Open(std::make_shared<io::MemoryFile>(*file_), options);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  auto batches = (*reader)->ReadAll();
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  ASSERT_EQ(batches->size(), 1u);
  // v's pages differ from k's; v still returns exactly the rows of k's kept page.
  std::vector<int64_t> expected = PagesCovering(12345, 12345);
  const columnar::Batch& b = (*batches)[0];
  ASSERT_EQ(b.num_rows(), static_cast<int64_t>(expected.size()));
  const columnar::Column* v = b.ColumnByName("v");
  for (int64_t i = 0; i < b.num_rows(); ++i) {
    char want[16];
    std::snprintf(want, sizeof(want), "s%06lld", static_cast<long long>(expected[i]));
    EXPECT_EQ(v->StringAt(i), want);
  }
  ReaderStats stats = (*reader)->stats();
  EXPECT_EQ(stats.row_groups_skipped, 3);
  EXPECT_GT(stats.pages_skipped, 0);
  // An explicit row_ranges_provider wins over the page index.
  options.row_ranges_provider = [](const ParquetFileReader&,
                                   int) -> Result<std::optional<RowRanges>> {
    return std::optional<RowRanges>();
  };
  auto all_rows = ParquetFileReader::Open(std::make_shared<io::MemoryFile>(*file_), options);
  ASSERT_TRUE(all_rows.ok());
  auto whole = (*all_rows)->ReadAll();
  ASSERT_TRUE(whole.ok());
  ASSERT_EQ(whole->size(), 1u);
  EXPECT_EQ((*whole)[0].num_rows(), kGroupRows);
}

TEST_F(PruningTest, FieldIdsAndBindingErrors) {
  Scan by_id = Run({Predicate::Compare(ColumnRef::FieldId(1), Op::kEq, Literal::Int64(42))});
  EXPECT_EQ(by_id.stats.row_groups_read, 1);
  // A field id the file lacks is an all-null column.
  Scan absent = Run({Predicate::Compare(ColumnRef::FieldId(99), Op::kEq, Literal::Int64(1))});
  EXPECT_EQ(absent.stats.row_groups_read, 0);
  EXPECT_EQ(absent.stats.row_groups_skipped, 4);
  Scan absent_null = Run({Predicate::IsNull(ColumnRef::FieldId(99))});
  EXPECT_EQ(absent_null.stats.row_groups_read, 4);

  ReaderOptions options;
  options.predicate = {Predicate::IsNull(ColumnRef::Name("nope"))};
  auto missing = ParquetFileReader::Open(std::make_shared<io::MemoryFile>(*file_), options);
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  options.predicate = {Predicate::Compare(ColumnRef::Name("k"), Op::kEq, Literal::String("x"))};
  auto mismatch = ParquetFileReader::Open(std::make_shared<io::MemoryFile>(*file_), options);
  EXPECT_EQ(mismatch.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(mismatch.status().message().find("'k'"), std::string::npos);
}

}  // namespace
}  // namespace sqe::parquet
