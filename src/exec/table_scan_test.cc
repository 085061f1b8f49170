// IcebergTableScan over a real table of the embedded catalog in a temp dir: files written
// with the DataFileWriter and committed with FastAppend / CommitSnapshot, then scanned
// through the pipeline executor on two threads into a ResultCollector.
#include "exec/table_scan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "catalog/catalog_factory.h"
#include "catalog/catalog_table_operations.h"
#include "columnar/binary_builder.h"
#include "columnar/fixed_width_builder.h"
#include "exec/pipeline.h"
#include "exec/result_collector.h"
#include "exec/scan_filter.h"
#include "iceberg/columnar_schema.h"
#include "iceberg/write/data_file_writer.h"
#include "iceberg/write/fast_append.h"
#include "iceberg/write/position_delete_writer.h"
#include "iceberg/write/snapshot_update.h"
#include "io/s3/s3_options.h"

namespace sqe::exec {
namespace {

namespace fs = std::filesystem;
namespace ice = iceberg::expr;

constexpr int64_t kRowsPerFile = 1000;

class TableScanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("sqe_table_scan_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    file_systems_ = std::make_shared<io::s3::StorageFileSystems>(io::s3::S3Options{});
    auto catalog =
        catalog::MakeEmbeddedCatalog((dir_ / "warehouse").string(), "iceberg", 2, file_systems_);
    ASSERT_TRUE(catalog.ok()) << catalog.status().ToString();
    catalog_ = std::move(*catalog);
    ASSERT_TRUE(catalog_->CreateNamespace({"db"}, {}).ok());
    auto schema = iceberg::ParseSchemaJson(R"js({"type": "struct", "schema-id": 0, "fields": [
        {"id": 1, "name": "id", "required": true, "type": "long"},
        {"id": 2, "name": "name", "required": false, "type": "string"},
        {"id": 3, "name": "day", "required": false, "type": "date"}]})js");
    ASSERT_TRUE(schema.ok());
    auto spec = iceberg::ParsePartitionSpecJson(
        R"({"spec-id": 0, "fields": [{"source-id": 3, "field-id": 1000, "name": "day", "transform": "identity"}]})");
    ASSERT_TRUE(spec.ok());
    catalog::CreateTableRequest request;
    request.schema = *schema;
    request.spec = *spec;
    request.properties["format-version"] = "2";
    auto table = catalog_->CreateTable(id_, request);
    ASSERT_TRUE(table.ok()) << table.status().ToString();
    location_ = table->metadata->location;
    auto lfs = file_systems_->ForUri(location_);
    ASSERT_TRUE(lfs.ok());
    fs_ = std::move(*lfs);
    scheduler_ = std::make_unique<TaskScheduler>(2);
    ctx_.scheduler = scheduler_.get();
    ctx_.threads = 2;
    ctx_.batch_size = 256;
  }
  void TearDown() override {
    scheduler_.reset();
    fs::remove_all(dir_);
  }

  // Rows [first, first + n) of day `day` as one data file with row groups of ~100 rows.
  iceberg::DataFile WriteFile(int64_t first, int64_t n, int32_t day) {
    auto loaded = catalog_->LoadTable(id_);
    EXPECT_TRUE(loaded.ok());
    const iceberg::Schema& schema = *loaded->metadata->CurrentSchema();
    auto cschema = iceberg::ToColumnarSchema(schema);
    EXPECT_TRUE(cschema.ok());
    std::string path =
        location_ + "/data/day=" + std::to_string(day) + "/f" + std::to_string(first) + ".parquet";
    iceberg::DataFileWriterOptions options;
    options.table_properties["write.parquet.row-group-size-bytes"] = "1024";
    options.row_group_bytes = 1024;
    auto writer =
        iceberg::DataFileWriter::Open(*fs_, path, schema, {iceberg::Literal::Date(day)}, options);
    EXPECT_TRUE(writer.ok()) << writer.status().ToString();
    // Written in slices so the writer can close row groups at the byte target.
    for (int64_t start = first; start < first + n; start += 100) {
      const int64_t len = std::min<int64_t>(100, first + n - start);
      columnar::FixedWidthBuilder<int64_t> ids((*cschema)->field(0).type());
      columnar::BinaryBuilder names;
      columnar::FixedWidthBuilder<int32_t> days((*cschema)->field(2).type());
      for (int64_t i = start; i < start + len; ++i) {
        EXPECT_TRUE(ids.Append(i).ok());
        EXPECT_TRUE(
            (i % 10 == 0 ? names.AppendNull() : names.Append("row" + std::to_string(i))).ok());
        EXPECT_TRUE(days.Append(day).ok());
      }
      auto batch =
          columnar::Batch::Make(*cschema, {*ids.Finish(), *names.Finish(), *days.Finish()}, len);
      EXPECT_TRUE(batch.ok()) << batch.status().ToString();
      EXPECT_TRUE((*writer)->Write(*batch).ok());
    }
    auto file = (*writer)->Close();
    EXPECT_TRUE(file.ok()) << file.status().ToString();
    return *file;
  }

  // Three files: days 1, 2, 3 with ids [0, 1000), [1000, 2000), [2000, 3000).
  std::vector<iceberg::DataFile> AppendThreeDays() {
    std::vector<iceberg::DataFile> files;
    for (int d = 0; d < 3; ++d) files.push_back(WriteFile(d * kRowsPerFile, kRowsPerFile, d + 1));
    catalog::CatalogTableOperations ops(*catalog_, id_, file_systems_->ForUri(location_).value());
    auto appended = iceberg::FastAppend(ops, files);
    EXPECT_TRUE(appended.ok()) << appended.status().ToString();
    return files;
  }

  std::unique_ptr<IcebergTableScan> MakeScan(std::vector<int32_t> field_ids,
                                             ice::ExprPtr filter = nullptr) {
    auto loaded = catalog_->LoadTable(id_);
    EXPECT_TRUE(loaded.ok()) << loaded.status().ToString();
    IcebergScanSpec spec;
    spec.table = *loaded;
    spec.fs = file_systems_->ForUri(location_).value();
    spec.field_ids = std::move(field_ids);
    spec.filter = std::move(filter);
    auto schema = IcebergTableScan::OutputSchema(spec.table, spec.field_ids);
    EXPECT_TRUE(schema.ok()) << schema.status().ToString();
    return std::make_unique<IcebergTableScan>(std::move(spec), *schema);
  }

  // Runs `scan` into a collector; returns the batches (scan_out: the scan, still alive).
  Result<std::vector<columnar::Batch>> Run(std::unique_ptr<IcebergTableScan> scan,
                                           IcebergTableScan** scan_out) {
    *scan_out = scan.get();
    root_ = std::make_unique<ResultCollector>(std::move(scan), 0);
    SQE_RETURN_NOT_OK(ExecutePlan(ctx_, *root_));
    return root_->TakeBatches();
  }

  // The int64 column `c` of every batch.
  static std::vector<int64_t> Longs(const std::vector<columnar::Batch>& batches, int c) {
    std::vector<int64_t> out;
    for (const columnar::Batch& b : batches) {
      const columnar::Column& col = b.column(c);
      for (int64_t i = 0; i < b.num_rows(); ++i) out.push_back(col.Value<int64_t>(i));
    }
    return out;
  }

  static std::string Extra(const IcebergTableScan& scan) { return scan.stats().extra; }

  fs::path dir_;
  catalog::TableIdentifier id_{{"db"}, "events"};
  std::string location_;
  std::shared_ptr<io::s3::StorageFileSystems> file_systems_;
  std::unique_ptr<catalog::Catalog> catalog_;
  std::unique_ptr<io::FileSystem> fs_;
  std::unique_ptr<TaskScheduler> scheduler_;
  ExecContext ctx_;
  std::unique_ptr<ResultCollector> root_;
};

TEST_F(TableScanTest, EveryRowExactlyOnceOnTwoThreads) {
  AppendThreeDays();
  IcebergTableScan* scan = nullptr;
  auto batches = Run(MakeScan({1, 2, 3}), &scan);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  std::vector<int64_t> ids = Longs(*batches, 0);
  ASSERT_EQ(ids.size(), 3 * kRowsPerFile);
  std::sort(ids.begin(), ids.end());
  for (int64_t i = 0; i < 3 * kRowsPerFile; ++i) ASSERT_EQ(ids[i], i);
  for (const columnar::Batch& b : *batches) {
    EXPECT_LE(b.num_rows(), ctx_.batch_size);
    ASSERT_EQ(b.num_columns(), 3);
    EXPECT_EQ(b.schema()->field(1).name(), "name");
    // The day column holds the partition of the row's id.
    for (int64_t i = 0; i < b.num_rows(); ++i) {
      EXPECT_EQ(b.column(2).Value<int32_t>(i), b.column(0).Value<int64_t>(i) / kRowsPerFile + 1);
    }
  }
  EXPECT_EQ(scan->stats().rows_out.load(), 3 * kRowsPerFile);
  EXPECT_GT(scan->stats().bytes_read.load(), 0);
  const std::string extra = Extra(*scan);
  EXPECT_EQ(scan->stats().files_read.load(), 3);
  EXPECT_EQ(scan->stats().files_pruned.load(), 0);
  EXPECT_NE(extra.find("rows_read=3000 "), std::string::npos) << extra;
  EXPECT_EQ(scan->stats().row_groups_pruned.load(), 0);
  // Several row groups per file, so the row-group test below has something to skip.
  EXPECT_GT(scan->stats().row_groups_read.load(), 3);
  EXPECT_EQ(scan->EstimateRows().ValueOr(-1), 3 * kRowsPerFile);
}

TEST_F(TableScanTest, ProjectionInRequestedOrder) {
  AppendThreeDays();
  IcebergTableScan* scan = nullptr;
  auto batches = Run(MakeScan({2, 1}), &scan);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  int64_t rows = 0;
  for (const columnar::Batch& b : *batches) {
    ASSERT_EQ(b.num_columns(), 2);
    EXPECT_EQ(b.schema()->field(0).name(), "name");
    EXPECT_EQ(b.schema()->field(1).name(), "id");
    for (int64_t i = 0; i < b.num_rows(); ++i) {
      const int64_t id = b.column(1).Value<int64_t>(i);
      if (id % 10 == 0) {
        EXPECT_TRUE(b.column(0).IsNull(i));
      } else {
        EXPECT_EQ(b.column(0).StringAt(i), "row" + std::to_string(id));
      }
    }
    rows += b.num_rows();
  }
  EXPECT_EQ(rows, 3 * kRowsPerFile);
  EXPECT_EQ(scan->Details(), "table=db.events columns=[name, id]");
}

TEST_F(TableScanTest, PartitionPruningSkipsFiles) {
  AppendThreeDays();
  IcebergTableScan* scan = nullptr;
  auto batches =
      Run(MakeScan({1, 3}, ice::Compare(ice::Op::kEq, "day", iceberg::Literal::Date(2))), &scan);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  std::vector<int64_t> ids = Longs(*batches, 0);
  ASSERT_EQ(ids.size(), static_cast<size_t>(kRowsPerFile));
  for (int64_t id : ids) EXPECT_TRUE(id >= 1000 && id < 2000) << id;
  const iceberg::ScanStats s = scan->scan_stats();
  EXPECT_EQ(s.data_files_skipped_by_partition, 2);
  EXPECT_NE(Extra(*scan).find("files_skipped_by_partition=2"), std::string::npos) << Extra(*scan);
  EXPECT_NE(scan->Details().find("filter=day == "), std::string::npos) << scan->Details();
}

TEST_F(TableScanTest, MetricsAndRowGroupPruning) {
  AppendThreeDays();
  IcebergTableScan* scan = nullptr;
  auto batches =
      Run(MakeScan({1}, ice::Compare(ice::Op::kGtEq, "id", iceberg::Literal::Long(2950))), &scan);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  std::vector<int64_t> ids = Longs(*batches, 0);
  std::sort(ids.begin(), ids.end());
  ASSERT_EQ(ids.size(), 50u);  // the residual filters rows exactly
  EXPECT_EQ(ids.front(), 2950);
  EXPECT_EQ(scan->scan_stats().data_files_skipped_by_metrics, 2);
  const std::string extra = Extra(*scan);
  EXPECT_NE(extra.find("files_skipped_by_metrics=2"), std::string::npos) << extra;
  EXPECT_EQ(scan->stats().files_read.load(), 1);
  EXPECT_EQ(scan->stats().files_pruned.load(), 2);
  // Only the last row group(s) of the third file hold ids >= 2950.
  EXPECT_GT(scan->stats().row_groups_pruned.load(), 0);
  EXPECT_LT(scan->stats().bytes_read.load(), 20000);
}

TEST_F(TableScanTest, PushedExecConjunctsPrune) {
  AppendThreeDays();
  // id >= 2950 AND day = DATE 3 as the optimizer pushes them: bound exec::Exprs over the
  // scan's output columns (0: id, 1: day), converted by scan_filter.
  auto column = [](int32_t index, columnar::TypePtr type) {
    auto e = std::make_shared<Expr>();
    e->kind = ExprKind::kColumn;
    e->column = index;
    e->type = std::move(type);
    return ExprPtr(e);
  };
  auto literal = [](Value v) {
    auto e = std::make_shared<Expr>();
    e->kind = ExprKind::kLiteral;
    e->type = v.type();
    e->value = std::move(v);
    return ExprPtr(e);
  };
  auto call = [](std::string name, ExprPtr a, ExprPtr b) {
    auto e = std::make_shared<Expr>();
    e->kind = ExprKind::kCall;
    e->name = std::move(name);
    e->type = columnar::Boolean();
    e->args = {std::move(a), std::move(b)};
    return ExprPtr(e);
  };
  const std::vector<ScanColumn> columns = {{"id", 1, columnar::Int64()},
                                           {"day", 3, columnar::Date32()}};
  PushedFilter pushed =
      ConvertPushedFilter({call(">=", column(0, columnar::Int64()), literal(Value::BigInt(2950))),
                           call("=", literal(Value::Date(3)), column(1, columnar::Date32()))},
                          columns, ParquetColumnRefKind::kFieldId);
  ASSERT_EQ(pushed.iceberg_conjuncts.size(), 2u);
  IcebergTableScan* scan = nullptr;
  auto batches = Run(MakeScan({1, 3}, pushed.iceberg), &scan);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  EXPECT_EQ(Longs(*batches, 0).size(), 50u);
  const iceberg::ScanStats s = scan->scan_stats();
  EXPECT_EQ(s.data_files_skipped_by_partition + s.data_files_skipped_by_metrics, 2);
  EXPECT_GT(scan->stats().row_groups_pruned.load(), 0);
}

TEST_F(TableScanTest, PositionDeletesAreApplied) {
  std::vector<iceberg::DataFile> files = AppendThreeDays();
  iceberg::PositionDeleteWriter deletes(*fs_, location_ + "/data/day=1/pos-1.parquet",
                                        {iceberg::Literal::Date(1)});
  deletes.Delete(files[0].file_path, 0);
  deletes.Delete(files[0].file_path, 7);
  deletes.Delete(files[0].file_path, 999);
  auto pos = deletes.Close();
  ASSERT_TRUE(pos.ok()) << pos.status().ToString();
  iceberg::SnapshotChanges changes;
  changes.add_deletes = {*pos};
  changes.referenced_data_files = {files[0].file_path};
  catalog::CatalogTableOperations ops(*catalog_, id_, file_systems_->ForUri(location_).value());
  ASSERT_TRUE(iceberg::CommitSnapshot(ops, changes).ok());

  IcebergTableScan* scan = nullptr;
  auto batches = Run(MakeScan({1}), &scan);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  std::vector<int64_t> ids = Longs(*batches, 0);
  std::set<int64_t> unique(ids.begin(), ids.end());
  EXPECT_EQ(ids.size(), unique.size());
  EXPECT_EQ(ids.size(), static_cast<size_t>(3 * kRowsPerFile - 3));
  EXPECT_FALSE(unique.count(0));
  EXPECT_FALSE(unique.count(7));
  EXPECT_FALSE(unique.count(999));
  EXPECT_TRUE(unique.count(1));
  EXPECT_NE(Extra(*scan).find("rows_deleted=3 "), std::string::npos) << Extra(*scan);
  EXPECT_NE(Extra(*scan).find("delete_files=1 "), std::string::npos) << Extra(*scan);
}

TEST_F(TableScanTest, EmptyTableYieldsNothing) {
  IcebergTableScan* scan = nullptr;
  auto batches = Run(MakeScan({1, 2}), &scan);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  EXPECT_TRUE(batches->empty());
  EXPECT_EQ(scan->EstimateRows().ValueOr(-1), 0);
}

TEST_F(TableScanTest, UnbindableConjunctIsDroppedNotFatal) {
  AppendThreeDays();
  IcebergTableScan* scan = nullptr;
  ice::ExprPtr filter =
      ice::And(ice::Compare(ice::Op::kLt, "id", iceberg::Literal::Long(10)),
               ice::Compare(ice::Op::kEq, "no_such_column", iceberg::Literal::Long(1)));
  auto batches = Run(MakeScan({1}, filter), &scan);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  EXPECT_EQ(Longs(*batches, 0).size(), 10u);
  ASSERT_NE(scan->planned_filter(), nullptr);
  EXPECT_EQ(ice::ToString(scan->planned_filter()), "id < 10");
}

TEST_F(TableScanTest, TimeTravelToTheFirstSnapshot) {
  AppendThreeDays();
  auto first = catalog_->LoadTable(id_);
  ASSERT_TRUE(first.ok());
  const int64_t first_snapshot = first->metadata->CurrentSnapshot()->snapshot_id;
  catalog::CatalogTableOperations ops(*catalog_, id_, file_systems_->ForUri(location_).value());
  ASSERT_TRUE(iceberg::FastAppend(ops, {WriteFile(5000, 10, 9)}).ok());

  auto loaded = catalog_->LoadTable(id_);
  ASSERT_TRUE(loaded.ok());
  IcebergScanSpec spec;
  spec.table = *loaded;
  spec.fs = file_systems_->ForUri(location_).value();
  spec.field_ids = {1};
  spec.snapshot_id = first_snapshot;
  auto schema = IcebergTableScan::OutputSchema(spec.table, spec.field_ids);
  ASSERT_TRUE(schema.ok());
  auto scan_ptr = std::make_unique<IcebergTableScan>(std::move(spec), *schema);
  EXPECT_EQ(scan_ptr->EstimateRows().ValueOr(-1), 3 * kRowsPerFile);
  IcebergTableScan* scan = nullptr;
  auto batches = Run(std::move(scan_ptr), &scan);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  EXPECT_EQ(Longs(*batches, 0).size(), static_cast<size_t>(3 * kRowsPerFile));
}

TEST_F(TableScanTest, PrepareForExplainThenRun) {
  AppendThreeDays();
  auto scan_ptr = MakeScan({1});
  EXPECT_EQ(scan_ptr->SourceParallelism(), 0);
  ASSERT_TRUE(scan_ptr->Prepare(ctx_).ok());
  ASSERT_TRUE(scan_ptr->Prepare(ctx_).ok());  // once
  EXPECT_EQ(scan_ptr->SourceParallelism(), 3);
  EXPECT_EQ(scan_ptr->scan_stats().tasks, 3);
  IcebergTableScan* scan = nullptr;
  auto batches = Run(std::move(scan_ptr), &scan);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  EXPECT_EQ(Longs(*batches, 0).size(), static_cast<size_t>(3 * kRowsPerFile));
  const std::string explain = ExplainPhysicalPlan(*root_, /*analyze=*/true);
  EXPECT_NE(explain.find("TableScan"), std::string::npos) << explain;
  EXPECT_NE(explain.find("files_read=3 files_pruned=0"), std::string::npos) << explain;
  EXPECT_NE(explain.find("bytes_read="), std::string::npos) << explain;
}

TEST_F(TableScanTest, CancelledQueryStops) {
  AppendThreeDays();
  ctx_.Cancel("stop");
  IcebergTableScan* scan = nullptr;
  auto batches = Run(MakeScan({1}), &scan);
  ASSERT_FALSE(batches.ok());
  EXPECT_EQ(batches.status().code(), StatusCode::kCancelled) << batches.status().ToString();
}

TEST_F(TableScanTest, UnknownFieldIdIsAnError) {
  auto loaded = catalog_->LoadTable(id_);
  ASSERT_TRUE(loaded.ok());
  auto schema = IcebergTableScan::OutputSchema(*loaded, {1, 42});
  ASSERT_FALSE(schema.ok());
  EXPECT_NE(schema.status().message().find("field id 42"), std::string::npos);
}

}  // namespace
}  // namespace sqe::exec
