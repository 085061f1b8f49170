// Tables written and read back through the whole stack: DataFileWriter (Parquet with
// field ids + metrics), FastAppend (manifests, manifest list, commit with retry) on the
// embedded catalog, PlanScan (pruning stats asserted) and the Parquet reader by field id.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <thread>

#include "catalog/catalog_factory.h"
#include "catalog/catalog_table_operations.h"
#include "columnar/binary_builder.h"
#include "columnar/fixed_width_builder.h"
#include "formats/parquet/file_reader.h"
#include "iceberg/columnar_schema.h"
#include "iceberg/scan/file_manifest_source.h"
#include "iceberg/write/data_file_writer.h"
#include "iceberg/write/fast_append.h"
#include "io/s3/s3_options.h"

namespace sqe::catalog {
namespace {

namespace fs = std::filesystem;
using iceberg::expr::Compare;
using iceberg::expr::Op;

class TableRoundTripTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("sqe_round_trip_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    file_systems_ = std::make_shared<io::s3::StorageFileSystems>(io::s3::S3Options{});
    auto catalog = MakeEmbeddedCatalog((dir_ / "warehouse").string(), "iceberg", 2, file_systems_);
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
    CreateTableRequest request;
    request.schema = *schema;
    request.spec = *spec;
    auto table = catalog_->CreateTable(id_, request);
    ASSERT_TRUE(table.ok()) << table.status().ToString();
    location_ = table->metadata->location;
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Writes rows [first, first + n) on day `day` as one data file.
  iceberg::DataFile WriteFile(int64_t first, int64_t n, int32_t day) {
    auto loaded = catalog_->LoadTable(id_);
    EXPECT_TRUE(loaded.ok());
    const iceberg::Schema& schema = *loaded->metadata->CurrentSchema();
    auto cschema = iceberg::ToColumnarSchema(schema);
    EXPECT_TRUE(cschema.ok());
    columnar::FixedWidthBuilder<int64_t> ids((*cschema)->field(0).type());
    columnar::BinaryBuilder names;
    columnar::FixedWidthBuilder<int32_t> days((*cschema)->field(2).type());
    for (int64_t i = first; i < first + n; ++i) {
      EXPECT_TRUE(ids.Append(i).ok());
      EXPECT_TRUE(
          (i % 10 == 0 ? names.AppendNull() : names.Append("row" + std::to_string(i))).ok());
      EXPECT_TRUE(days.Append(day).ok());
    }
    auto batch =
        columnar::Batch::Make(*cschema, {*ids.Finish(), *names.Finish(), *days.Finish()}, n);
    EXPECT_TRUE(batch.ok()) << batch.status().ToString();
    auto lfs = file_systems_->ForUri(location_);
    std::string path =
        location_ + "/data/day=" + std::to_string(day) + "/f" + std::to_string(first) + ".parquet";
    auto writer = iceberg::DataFileWriter::Open(**lfs, path, schema, {iceberg::Literal::Date(day)});
    EXPECT_TRUE(writer.ok()) << writer.status().ToString();
    EXPECT_TRUE((*writer)->Write(*batch).ok());
    auto file = (*writer)->Close();
    EXPECT_TRUE(file.ok()) << file.status().ToString();
    return *file;
  }

  Result<iceberg::AppendResult> Append(Catalog& catalog,
                                       const std::vector<iceberg::DataFile>& files) {
    SQE_ASSIGN_OR_RETURN(auto lfs, file_systems_->ForUri(location_));
    CatalogTableOperations ops(catalog, id_, std::move(lfs));
    return iceberg::FastAppend(ops, files);
  }

  Result<iceberg::ScanPlan> Plan(iceberg::ScanOptions options) {
    SQE_ASSIGN_OR_RETURN(LoadedTable t, catalog_->LoadTable(id_));
    SQE_ASSIGN_OR_RETURN(auto lfs, file_systems_->ForUri(location_));
    iceberg::FileManifestSource source(*lfs);
    return iceberg::PlanScan(*t.metadata, source, options);
  }

  // Reads every task's file by field id: (rows, sum of ids).
  std::pair<int64_t, int64_t> Read(const iceberg::ScanPlan& plan) {
    int64_t rows = 0, sum = 0;
    auto lfs = file_systems_->ForUri(location_);
    for (const iceberg::FileScanTask& task : plan.tasks) {
      auto file = (*lfs)->OpenForReadWithSize(task.file.file_path, task.file.file_size_in_bytes);
      EXPECT_TRUE(file.ok());
      parquet::ReaderOptions options;
      options.field_ids = {1};
      auto reader = parquet::ParquetFileReader::Open(std::move(*file), options);
      EXPECT_TRUE(reader.ok()) << reader.status().ToString();
      for (int g = 0; g < (*reader)->num_row_groups(); ++g) {
        auto batch = (*reader)->ReadRowGroup(g);
        EXPECT_TRUE(batch.ok());
        const int64_t* values = batch->column(0).Values<int64_t>();
        for (int64_t i = 0; i < batch->num_rows(); ++i) sum += values[i];
        rows += batch->num_rows();
      }
    }
    return {rows, sum};
  }

  fs::path dir_;
  TableIdentifier id_{{"db"}, "events"};
  std::string location_;
  std::shared_ptr<io::s3::StorageFileSystems> file_systems_;
  std::unique_ptr<Catalog> catalog_;
};

TEST_F(TableRoundTripTest, AppendPlanPruneTimeTravelAndReadBack) {
  auto a = WriteFile(0, 100, 1);
  auto b = WriteFile(100, 100, 2);
  EXPECT_EQ(a.record_count, 100);
  EXPECT_EQ(a.null_value_counts.at(2), 10);
  auto first = Append(*catalog_, {a, b});
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  auto c = WriteFile(200, 100, 3);
  auto second = Append(*catalog_, {c});
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_EQ(second->metadata.CurrentSnapshot()->summary.at("total-records"), "300");
  EXPECT_EQ(second->metadata.CurrentSnapshot()->summary.at("total-data-files"), "3");

  auto all = Plan({});
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  EXPECT_EQ(all->stats.manifests, 2);
  EXPECT_EQ(all->stats.data_files, 3);
  EXPECT_EQ(all->tasks.size(), 3u);
  EXPECT_EQ(Read(*all), (std::pair<int64_t, int64_t>{300, 299 * 300 / 2}));

  // Partition pruning: day = 2 keeps one file; the manifest of day 3 is skipped whole.
  iceberg::ScanOptions by_day;
  by_day.filter = Compare(Op::kEq, "day", iceberg::Literal::Date(2));
  auto day2 = Plan(by_day);
  ASSERT_TRUE(day2.ok()) << day2.status().ToString();
  EXPECT_EQ(day2->stats.manifests_skipped, 1);
  EXPECT_EQ(day2->stats.data_files_skipped_by_partition, 1);
  EXPECT_EQ(day2->tasks.size(), 1u);
  EXPECT_EQ(Read(*day2).first, 100);

  // Metrics pruning: id >= 250 can only be in the third file.
  iceberg::ScanOptions by_id;
  by_id.filter = Compare(Op::kGtEq, "id", iceberg::Literal::Long(250));
  auto ids = Plan(by_id);
  ASSERT_TRUE(ids.ok());
  EXPECT_EQ(ids->stats.data_files_skipped_by_metrics, 2);
  ASSERT_EQ(ids->tasks.size(), 1u);
  EXPECT_EQ(ids->tasks[0].file.file_path, c.file_path);

  // Time travel to the first snapshot.
  iceberg::ScanOptions travel;
  travel.snapshot_id = first->snapshot_id;
  auto old = Plan(travel);
  ASSERT_TRUE(old.ok());
  EXPECT_EQ(old->tasks.size(), 2u);
  EXPECT_EQ(Read(*old), (std::pair<int64_t, int64_t>{200, 199 * 200 / 2}));
  travel.snapshot_id = 12345;
  EXPECT_EQ(Plan(travel).status().code(), StatusCode::kNotFound);
}

// 4 writers x 5 appends, each with its own catalog connection: every append lands once.
TEST_F(TableRoundTripTest, ConcurrentAppendsRetryAndLandOnce) {
  constexpr int kThreads = 4, kAppends = 5;
  std::vector<std::vector<iceberg::DataFile>> files(kThreads);
  for (int w = 0; w < kThreads; ++w) {
    for (int i = 0; i < kAppends; ++i)
      files[w].push_back(WriteFile((w * kAppends + i) * 10, 10, w));
  }
  std::vector<Status> failures(kThreads);
  std::atomic<int> retries{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < kThreads; ++w) {
    threads.emplace_back([&, w] {
      auto catalog =
          MakeEmbeddedCatalog((dir_ / "warehouse").string(), "iceberg", 2, file_systems_);
      if (!catalog.ok()) {
        failures[w] = catalog.status();
        return;
      }
      for (int i = 0; i < kAppends; ++i) {
        auto r = Append(**catalog, {files[w][i]});
        if (!r.ok()) {
          failures[w] = r.status();
          return;
        }
        retries += r->attempts - 1;
      }
    });
  }
  for (auto& t : threads) t.join();
  for (const Status& s : failures) ASSERT_TRUE(s.ok()) << s.ToString();
  auto plan = Plan({});
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(plan->stats.data_files, kThreads * kAppends);
  auto [rows, sum] = Read(*plan);
  EXPECT_EQ(rows, kThreads * kAppends * 10);
  int64_t n = kThreads * kAppends * 10;
  EXPECT_EQ(sum, (n - 1) * n / 2);  // every id exactly once
  auto loaded = catalog_->LoadTable(id_);
  EXPECT_EQ(loaded->metadata->snapshots.size(), static_cast<size_t>(kThreads * kAppends));
}

}  // namespace
}  // namespace sqe::catalog
