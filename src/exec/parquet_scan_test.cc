// ParquetScan (read_parquet): glob expansion, schema description, a parallel scan of
// three files written with the Parquet writer, projection, predicate pruning of row
// groups, and the errors a user meets (missing file, no match, bad glob, mismatched
// schemas).
#include "exec/parquet_scan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "columnar/binary_builder.h"
#include "columnar/fixed_width_builder.h"
#include "exec/pipeline.h"
#include "exec/result_collector.h"
#include "exec/scan_filter.h"
#include "formats/parquet/file_writer.h"

namespace sqe::exec {
namespace {

namespace fs = std::filesystem;

constexpr int64_t kRowsPerFile = 300;
constexpr int64_t kRowsPerGroup = 100;

class ParquetScanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("sqe_parquet_scan_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "sub");
    fs_ = io::MakeLocalFileSystem();
    for (int k = 0; k < 3; ++k) {
      WriteFile(dir_ / ("part-" + std::to_string(k) + ".parquet"), k * kRowsPerFile, kRowsPerFile);
    }
    scheduler_ = std::make_unique<TaskScheduler>(2);
    ctx_.scheduler = scheduler_.get();
    ctx_.threads = 2;
    ctx_.fs = fs_.get();
  }
  void TearDown() override {
    scheduler_.reset();
    fs::remove_all(dir_);
  }

  // a bigint (first .. first + n), b varchar ("v<a>"), row groups of kRowsPerGroup.
  void WriteFile(const fs::path& path, int64_t first, int64_t n, bool other_schema = false,
                 bool a_required = false, bool a_null_first = false) {
    std::vector<columnar::Field> fields = {columnar::Field("a", columnar::Int64(), !a_required),
                                           columnar::Field("b", columnar::String())};
    if (other_schema) fields[1] = columnar::Field("c", columnar::Float64());
    columnar::SchemaPtr schema = columnar::Schema::Make(fields);
    auto out = fs_->OpenForWrite(path.string(), /*overwrite=*/true);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    parquet::WriterOptions options;
    options.row_group_rows = kRowsPerGroup;
    auto writer = parquet::ParquetWriter::Open(std::move(*out), schema, options);
    ASSERT_TRUE(writer.ok()) << writer.status().ToString();
    columnar::FixedWidthBuilder<int64_t> a(columnar::Int64());
    columnar::BinaryBuilder b;
    columnar::FixedWidthBuilder<double> c(columnar::Float64());
    for (int64_t i = first; i < first + n; ++i) {
      ASSERT_TRUE((a_null_first && i == first ? a.AppendNull() : a.Append(i)).ok());
      ASSERT_TRUE(b.Append("v" + std::to_string(i)).ok());
      ASSERT_TRUE(c.Append(static_cast<double>(i)).ok());
    }
    auto batch =
        columnar::Batch::Make(schema, {*a.Finish(), other_schema ? *c.Finish() : *b.Finish()}, n);
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    ASSERT_TRUE((*writer)->Write(*batch).ok());
    ASSERT_TRUE((*writer)->Close().ok());
  }

  std::string Path(const std::string& name) const { return (dir_ / name).string(); }

  Result<std::unique_ptr<ParquetScan>> MakeScan(std::vector<std::string> patterns,
                                                std::vector<std::string> columns = {},
                                                std::vector<parquet::Predicate> predicate = {}) {
    ParquetScanSpec spec;
    spec.patterns = patterns;
    SQE_ASSIGN_OR_RETURN(spec.source, ParquetScan::Describe(patterns, *fs_));
    spec.columns = std::move(columns);
    spec.predicate = std::move(predicate);
    SQE_ASSIGN_OR_RETURN(auto schema, ParquetScan::OutputSchema(spec.source, spec.columns));
    return std::make_unique<ParquetScan>(std::move(spec), schema);
  }

  Result<std::vector<columnar::Batch>> Run(std::unique_ptr<ParquetScan> scan,
                                           ParquetScan** scan_out) {
    *scan_out = scan.get();
    root_ = std::make_unique<ResultCollector>(std::move(scan), 0);
    SQE_RETURN_NOT_OK(ExecutePlan(ctx_, *root_));
    return root_->TakeBatches();
  }

  static std::vector<int64_t> SortedLongs(const std::vector<columnar::Batch>& batches, int c) {
    std::vector<int64_t> out;
    for (const columnar::Batch& b : batches) {
      for (int64_t i = 0; i < b.num_rows(); ++i) out.push_back(b.column(c).Value<int64_t>(i));
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  fs::path dir_;
  std::unique_ptr<io::FileSystem> fs_;
  std::unique_ptr<TaskScheduler> scheduler_;
  ExecContext ctx_;
  std::unique_ptr<ResultCollector> root_;
};

TEST_F(ParquetScanTest, GlobMatching) {
  EXPECT_TRUE(ParquetScan::GlobMatches("/d/*.parquet", "/d/x.parquet"));
  EXPECT_FALSE(ParquetScan::GlobMatches("/d/*.parquet", "/d/sub/x.parquet"));
  EXPECT_TRUE(ParquetScan::GlobMatches("/d/**/*.parquet", "/d/x.parquet"));
  EXPECT_TRUE(ParquetScan::GlobMatches("/d/**/*.parquet", "/d/a/b/x.parquet"));
  EXPECT_TRUE(ParquetScan::GlobMatches("/d/part-?.parquet", "/d/part-1.parquet"));
  EXPECT_FALSE(ParquetScan::GlobMatches("/d/part-?.parquet", "/d/part-10.parquet"));
  EXPECT_TRUE(ParquetScan::GlobMatches("/d/**", "/d/a/b"));
  EXPECT_TRUE(ParquetScan::GlobMatches("file:///d/*.parquet", "/d/x.parquet"));
  EXPECT_TRUE(
      ParquetScan::GlobMatches("s3://bucket/t/*/f*.parquet", "s3://bucket/t/p=1/f0.parquet"));
  EXPECT_FALSE(ParquetScan::GlobMatches("s3://bucket/t/*.parquet", "s3://other/t/f.parquet"));
  EXPECT_TRUE(ParquetScan::GlobMatches("/d/a*b*c", "/d/aXXbYYc"));
  EXPECT_FALSE(ParquetScan::GlobMatches("/d/a*b*c", "/d/aXXbYY"));
}

TEST_F(ParquetScanTest, ExpandAndDescribe) {
  WriteFile(dir_ / "sub" / "deep.parquet", 900, 10);
  auto flat = ParquetScan::ExpandPaths({Path("*.parquet")}, *fs_);
  ASSERT_TRUE(flat.ok()) << flat.status().ToString();
  ASSERT_EQ(flat->size(), 3u);
  EXPECT_EQ((*flat)[0].path, Path("part-0.parquet"));
  EXPECT_GT((*flat)[0].size, 0);
  auto deep = ParquetScan::ExpandPaths({Path("**/*.parquet")}, *fs_);
  ASSERT_TRUE(deep.ok()) << deep.status().ToString();
  EXPECT_EQ(deep->size(), 4u);
  // A list of paths, a duplicate dropped, order kept.
  auto list = ParquetScan::ExpandPaths(
      {Path("part-2.parquet"), Path("part-?.parquet"), "file://" + Path("part-0.parquet")}, *fs_);
  ASSERT_TRUE(list.ok()) << list.status().ToString();
  ASSERT_EQ(list->size(), 4u);  // part-2, part-0, part-1, then file:// part-0 as named
  EXPECT_EQ((*list)[0].path, Path("part-2.parquet"));
  EXPECT_EQ((*list)[1].path, Path("part-0.parquet"));

  auto source = ParquetScan::Describe({Path("*.parquet")}, *fs_);
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  ASSERT_EQ(source->schema->num_fields(), 2);
  EXPECT_EQ(source->schema->field(0).name(), "a");
  EXPECT_TRUE(source->schema->field(1).type()->Equals(*columnar::String()));
  EXPECT_TRUE(source->schema->field(0).nullable());
}

TEST_F(ParquetScanTest, ScansEveryRowOnceOnTwoThreads) {
  ctx_.batch_size = 64;
  auto scan_ptr = MakeScan({Path("*.parquet")});
  ASSERT_TRUE(scan_ptr.ok()) << scan_ptr.status().ToString();
  ParquetScan* scan = nullptr;
  auto batches = Run(std::move(*scan_ptr), &scan);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  std::vector<int64_t> a = SortedLongs(*batches, 0);
  ASSERT_EQ(a.size(), static_cast<size_t>(3 * kRowsPerFile));
  for (int64_t i = 0; i < 3 * kRowsPerFile; ++i) ASSERT_EQ(a[i], i);
  for (const columnar::Batch& b : *batches) {
    EXPECT_LE(b.num_rows(), 64);
    for (int64_t i = 0; i < b.num_rows(); ++i) {
      EXPECT_EQ(b.column(1).StringAt(i), "v" + std::to_string(b.column(0).Value<int64_t>(i)));
    }
  }
  const std::string extra = scan->stats().extra;
  EXPECT_NE(extra.find("row_groups=9 "), std::string::npos) << extra;
  EXPECT_EQ(scan->stats().files_read.load(), 3);
  EXPECT_EQ(scan->stats().files_pruned.load(), 0);
  EXPECT_EQ(scan->stats().row_groups_read.load(), 9);
  EXPECT_EQ(scan->stats().row_groups_pruned.load(), 0);
  EXPECT_GT(scan->stats().bytes_read.load(), 0);
  EXPECT_EQ(scan->SourceParallelism(), 9);
}

TEST_F(ParquetScanTest, ProjectionByName) {
  auto scan_ptr = MakeScan({Path("part-1.parquet")}, {"b"});
  ASSERT_TRUE(scan_ptr.ok()) << scan_ptr.status().ToString();
  EXPECT_EQ((*scan_ptr)->Details(), "paths=['" + Path("part-1.parquet") + "'] files=1 columns=[b]");
  ParquetScan* scan = nullptr;
  auto batches = Run(std::move(*scan_ptr), &scan);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  int64_t rows = 0;
  for (const columnar::Batch& b : *batches) {
    ASSERT_EQ(b.num_columns(), 1);
    EXPECT_EQ(b.schema()->field(0).name(), "b");
    rows += b.num_rows();
  }
  EXPECT_EQ(rows, kRowsPerFile);
  auto unknown = MakeScan({Path("part-1.parquet")}, {"zzz"});
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("no column 'zzz'"), std::string::npos);
}

TEST_F(ParquetScanTest, PredicateSkipsRowGroups) {
  // a >= 850: only the last row group of the last file ([800, 900)) can match.
  auto scan_ptr = MakeScan(
      {Path("*.parquet")}, {"a"},
      {parquet::Predicate::Compare(parquet::ColumnRef::Name("a"), parquet::PredicateOp::kGe,
                                   parquet::Literal::Int64(850))});
  ASSERT_TRUE(scan_ptr.ok()) << scan_ptr.status().ToString();
  EXPECT_NE((*scan_ptr)->Details().find("filter=['a' >= 850]"), std::string::npos)
      << (*scan_ptr)->Details();
  ParquetScan* scan = nullptr;
  auto batches = Run(std::move(*scan_ptr), &scan);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  std::vector<int64_t> a = SortedLongs(*batches, 0);
  // The scan returns a superset (whole row group or pages); the engine filters exactly.
  ASSERT_FALSE(a.empty());
  EXPECT_GE(a.front(), 800);
  EXPECT_EQ(a.back(), 899);
  EXPECT_EQ(scan->stats().row_groups_read.load(), 1);
  EXPECT_EQ(scan->stats().row_groups_pruned.load(), 8);
}

TEST_F(ParquetScanTest, PushedBetweenFromExecExprPrunes) {
  // a BETWEEN 120 AND 180: one row group of the first file.
  auto arg = [](ExprKind kind, int32_t column, Value v) {
    auto e = std::make_shared<Expr>();
    e->kind = kind;
    e->column = column;
    e->type = kind == ExprKind::kColumn ? columnar::Int64() : v.type();
    e->value = std::move(v);
    return ExprPtr(e);
  };
  auto between = std::make_shared<Expr>();
  between->kind = ExprKind::kCall;
  between->name = "between";
  between->type = columnar::Boolean();
  between->args = {arg(ExprKind::kColumn, 0, Value()),
                   arg(ExprKind::kLiteral, -1, Value::BigInt(120)),
                   arg(ExprKind::kLiteral, -1, Value::BigInt(180))};
  const std::vector<ScanColumn> columns = {{"a", -1, columnar::Int64()},
                                           {"b", -1, columnar::String()}};
  PushedFilter pushed = ConvertPushedFilter({between}, columns, ParquetColumnRefKind::kName);
  ASSERT_EQ(pushed.parquet.size(), 2u);
  auto scan_ptr = MakeScan({Path("*.parquet")}, {"a", "b"}, pushed.parquet);
  ASSERT_TRUE(scan_ptr.ok()) << scan_ptr.status().ToString();
  ParquetScan* scan = nullptr;
  auto batches = Run(std::move(*scan_ptr), &scan);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  std::vector<int64_t> a = SortedLongs(*batches, 0);
  ASSERT_FALSE(a.empty());
  EXPECT_GE(a.front(), 100);
  EXPECT_LT(a.back(), 200);
  EXPECT_EQ(scan->stats().row_groups_read.load(), 1);
  EXPECT_EQ(scan->stats().row_groups_pruned.load(), 8);
}

// A sink that is full after `wanted` rows (as LIMIT is), so the scan's threads stop early.
class FirstRows : public PhysicalOperator {
 public:
  FirstRows(PhysicalOperatorPtr child, int64_t wanted)
      : PhysicalOperator("FirstRows", child->schema()), wanted_(wanted) {
    children_.push_back(std::move(child));
  }
  bool IsSink() const override { return true; }
  Status Sink(ExecContext&, const columnar::Batch& input, OperatorState&) override {
    rows_.fetch_add(input.num_rows());
    return Status::OK();
  }
  bool SinkIsFull() const override { return rows_.load() >= wanted_; }
  void BuildPipelines(PipelineBuilder& builder) override {
    children_[0]->BuildPipelines(builder);
    builder.current().sink = this;
  }
  int64_t rows() const { return rows_.load(); }

 private:
  int64_t wanted_;
  std::atomic<int64_t> rows_{0};
};

TEST_F(ParquetScanTest, FullSinkStopsTheScanEarly) {
  ctx_.batch_size = 50;
  auto scan_ptr = MakeScan({Path("*.parquet")});
  ASSERT_TRUE(scan_ptr.ok()) << scan_ptr.status().ToString();
  ParquetScan* scan = scan_ptr->get();
  FirstRows sink(std::move(*scan_ptr), 10);
  ASSERT_TRUE(ExecutePlan(ctx_, sink).ok());
  EXPECT_GE(sink.rows(), 10);
  EXPECT_LT(sink.rows(), 3 * kRowsPerFile);
  // Each thread stops after a batch or two: far fewer than all 9 row groups, and the
  // counters still show what was read.
  EXPECT_LT(scan->stats().row_groups_read.load(), 9);
  EXPECT_GT(scan->stats().row_groups_read.load(), 0);
}

// A FileSystem that only lists (for globs on s3:// paths without a server).
class ListingFileSystem : public io::FileSystem {
 public:
  Result<std::unique_ptr<io::RandomAccessFile>> OpenForRead(const std::string& path) override {
    return Status::NotFound("file " + path + " does not exist");
  }
  Result<std::unique_ptr<io::OutputStream>> OpenForWrite(const std::string&, bool) override {
    return Status::NotImplemented("write");
  }
  Result<std::vector<io::FileInfo>> List(const std::string& prefix) override {
    prefixes.push_back(prefix);
    std::vector<io::FileInfo> out;
    for (const char* p :
         {"s3://bucket/t/a.parquet", "s3://bucket/t/b.csv", "s3://bucket/t/p=1/c.parquet",
          "s3://bucket/t/p=2/d.parquet", "s3://bucket/u/e.parquet"}) {
      if (std::string_view(p).starts_with(prefix)) out.push_back({p, 100});
    }
    return out;
  }
  Status Delete(const std::vector<std::string>&) override { return Status::OK(); }
  Status Rename(const std::string&, const std::string&) override { return Status::OK(); }
  std::vector<std::string> prefixes;
};

TEST_F(ParquetScanTest, GlobsOnS3ListTheDirectoryOfTheFirstWildcard) {
  ListingFileSystem s3;
  auto flat = ParquetScan::ExpandPaths({"s3://bucket/t/*.parquet"}, s3);
  ASSERT_TRUE(flat.ok()) << flat.status().ToString();
  ASSERT_EQ(flat->size(), 1u);
  EXPECT_EQ((*flat)[0].path, "s3://bucket/t/a.parquet");
  EXPECT_EQ((*flat)[0].size, 100);
  EXPECT_EQ(s3.prefixes.back(), "s3://bucket/t/");
  auto partitions = ParquetScan::ExpandPaths({"s3://bucket/t/p=*/*.parquet"}, s3);
  ASSERT_TRUE(partitions.ok()) << partitions.status().ToString();
  EXPECT_EQ(partitions->size(), 2u);
  EXPECT_EQ(s3.prefixes.back(), "s3://bucket/t/");
  auto deep = ParquetScan::ExpandPaths({"s3://bucket/**/*.parquet"}, s3);
  ASSERT_TRUE(deep.ok()) << deep.status().ToString();
  EXPECT_EQ(deep->size(), 4u);
  auto missing = ParquetScan::ExpandPaths({"s3://bucket/t/x.parquet"}, s3);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
}

TEST_F(ParquetScanTest, RequiredInOneFileNullableInAnother) {
  WriteFile(dir_ / "sub" / "x-0.parquet", 0, 10, false, /*a_required=*/true);
  WriteFile(dir_ / "sub" / "x-1.parquet", 10, 10, false, false, /*a_null_first=*/true);
  auto scan_ptr = MakeScan({Path("sub/x-*.parquet")});
  ASSERT_TRUE(scan_ptr.ok()) << scan_ptr.status().ToString();
  ParquetScan* scan = nullptr;
  auto batches = Run(std::move(*scan_ptr), &scan);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  int64_t rows = 0, nulls = 0;
  for (const columnar::Batch& b : *batches) {
    rows += b.num_rows();
    nulls += b.column(0).null_count();
  }
  EXPECT_EQ(rows, 20);
  EXPECT_EQ(nulls, 1);
}

TEST_F(ParquetScanTest, MissingFileIsNotFound) {
  auto r = ParquetScan::Describe({Path("nope.parquet")}, *fs_);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
  EXPECT_NE(r.status().message().find("nope.parquet"), std::string::npos) << r.status().ToString();
  auto none = ParquetScan::Describe({Path("*.csv")}, *fs_);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().code(), StatusCode::kNotFound);
  EXPECT_NE(none.status().message().find("no files match"), std::string::npos);
}

TEST_F(ParquetScanTest, BadGlobsAreInvalidArgument) {
  for (const std::string& bad : {Path("a**.parquet"), Path("***/x.parquet"), std::string(""),
                                 std::string("s3://buck*/x/*.parquet")}) {
    auto r = ParquetScan::ExpandPaths({bad}, *fs_);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument)
        << bad << ": " << r.status().ToString();
  }
  EXPECT_FALSE(ParquetScan::ExpandPaths({}, *fs_).ok());
}

TEST_F(ParquetScanTest, MismatchedSchemaNamesTheFile) {
  WriteFile(dir_ / "part-9.parquet", 5000, 10, /*other_schema=*/true);
  auto scan_ptr = MakeScan({Path("part-*.parquet")});
  ASSERT_TRUE(scan_ptr.ok()) << scan_ptr.status().ToString();
  ParquetScan* scan = nullptr;
  auto batches = Run(std::move(*scan_ptr), &scan);
  ASSERT_FALSE(batches.ok());
  EXPECT_EQ(batches.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(batches.status().message().find("part-9.parquet"), std::string::npos)
      << batches.status().ToString();
  EXPECT_NE(batches.status().message().find("same columns"), std::string::npos);
}

TEST_F(ParquetScanTest, FileRemovedAfterDescribeIsAnError) {
  auto scan_ptr = MakeScan({Path("*.parquet")});
  ASSERT_TRUE(scan_ptr.ok());
  fs::remove(dir_ / "part-1.parquet");
  ParquetScan* scan = nullptr;
  auto batches = Run(std::move(*scan_ptr), &scan);
  ASSERT_FALSE(batches.ok());
  EXPECT_NE(batches.status().message().find("part-1.parquet"), std::string::npos)
      << batches.status().ToString();
}

}  // namespace
}  // namespace sqe::exec
