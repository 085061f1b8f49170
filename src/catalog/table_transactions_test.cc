// Snapshot commits beyond fast append, through the embedded catalog and read back with the
// planner and the task reader (deletes applied): overwrite by filter (strict, partial,
// partition-exact), row-delta with position deletes, rewrite with validation, and the
// re-validation when another writer commits in between.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>

#include "catalog/catalog_factory.h"
#include "catalog/catalog_table_operations.h"
#include "columnar/binary_builder.h"
#include "columnar/fixed_width_builder.h"
#include "iceberg/columnar_schema.h"
#include "iceberg/manifest/manifest_reader.h"
#include "iceberg/read/file_scan_task_reader.h"
#include "iceberg/scan/file_manifest_source.h"
#include "iceberg/write/data_file_writer.h"
#include "iceberg/write/fast_append.h"
#include "iceberg/write/position_delete_writer.h"
#include "iceberg/write/snapshot_update.h"
#include "io/s3/s3_options.h"

namespace sqe::catalog {
namespace {

namespace fs = std::filesystem;
using iceberg::expr::Compare;
using iceberg::expr::Op;

/// TableOperations that runs `before_commit` once, just before its first commit: another
/// writer getting in between this writer's read and its commit.
class RacingOperations : public iceberg::TableOperations {
 public:
  RacingOperations(iceberg::TableOperations& inner, std::function<void()> before_commit)
      : inner_(inner), before_(std::move(before_commit)) {}
  Result<iceberg::TableMetadata> Refresh() override { return inner_.Refresh(); }
  Result<iceberg::TableMetadata> Commit(const std::vector<iceberg::TableRequirement>& r,
                                        const std::vector<iceberg::TableUpdate>& u) override {
    if (before_) {
      auto run = std::move(before_);
      before_ = nullptr;
      run();
    }
    return inner_.Commit(r, u);
  }
  io::FileSystem& file_system() override { return inner_.file_system(); }

 private:
  iceberg::TableOperations& inner_;
  std::function<void()> before_;
};

class TableTransactionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("sqe_txn_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    file_systems_ = std::make_shared<io::s3::StorageFileSystems>(io::s3::S3Options{});
    auto catalog = MakeEmbeddedCatalog((dir_ / "wh").string(), "iceberg", 2, file_systems_);
    ASSERT_TRUE(catalog.ok()) << catalog.status().ToString();
    catalog_ = std::move(*catalog);
    ASSERT_TRUE(catalog_->CreateNamespace({"db"}, {}).ok());
    CreateTableRequest request;
    request.schema = *iceberg::ParseSchemaJson(R"({"type": "struct", "schema-id": 0, "fields": [
        {"id": 1, "name": "id", "required": true, "type": "long"},
        {"id": 2, "name": "region", "required": false, "type": "string"}]})");
    request.spec = *iceberg::ParsePartitionSpecJson(
        R"({"spec-id": 0, "fields": [{"source-id": 2, "field-id": 1000, "name": "region", "transform": "identity"}]})");
    auto table = catalog_->CreateTable(id_, request);
    ASSERT_TRUE(table.ok()) << table.status().ToString();
    location_ = table->metadata->location;
    lfs_ = file_systems_->ForUri(location_).value();
    ops_ = std::make_unique<CatalogTableOperations>(*catalog_, id_,
                                                    file_systems_->ForUri(location_).value());
  }
  void TearDown() override { fs::remove_all(dir_); }

  iceberg::DataFile WriteFile(int64_t first, int64_t n, const std::string& region) {
    const iceberg::Schema schema = *catalog_->LoadTable(id_)->metadata->CurrentSchema();
    auto cschema = *iceberg::ToColumnarSchema(schema);
    columnar::Int64Builder ids(cschema->field(0).type());
    columnar::BinaryBuilder regions;
    for (int64_t i = first; i < first + n; ++i) {
      EXPECT_TRUE(ids.Append(i).ok());
      EXPECT_TRUE(regions.Append(region).ok());
    }
    auto batch = *columnar::Batch::Make(cschema, {*ids.Finish(), *regions.Finish()}, n);
    std::string path = location_ + "/data/region=" + region + "/f" + std::to_string(first) + "-" +
                       std::to_string(counter_++) + ".parquet";
    auto writer =
        iceberg::DataFileWriter::Open(*lfs_, path, schema, {iceberg::Literal::String(region)})
            .value();
    EXPECT_TRUE(writer->Write(batch).ok());
    return *writer->Close();
  }

  std::vector<int64_t> Ids() {
    auto t = *catalog_->LoadTable(id_);
    iceberg::FileManifestSource source(*lfs_);
    auto plan = iceberg::PlanScan(*t.metadata, source, {});
    EXPECT_TRUE(plan.ok()) << plan.status().ToString();
    iceberg::DeleteLoader deletes(*lfs_);
    std::vector<int64_t> out;
    for (const auto& task : plan->tasks) {
      iceberg::TaskReaderOptions o;
      o.schema = plan->schema;
      o.spec = t.metadata->SpecById(task.spec_id);
      auto reader = iceberg::FileScanTaskReader::Open(*lfs_, task, o, deletes);
      EXPECT_TRUE(reader.ok()) << reader.status().ToString();
      while (true) {
        auto batch = (*reader)->Next();
        EXPECT_TRUE(batch.ok());
        if (!batch.ok() || !*batch) break;
        for (int64_t i = 0; i < (*batch)->num_rows(); ++i) {
          out.push_back((*batch)->column(0).Value<int64_t>(i));
        }
      }
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  static std::vector<int64_t> Range(int64_t a, int64_t b) {
    std::vector<int64_t> v;
    for (int64_t i = a; i < b; ++i) v.push_back(i);
    return v;
  }
  static std::vector<int64_t> Concat(std::vector<int64_t> a, const std::vector<int64_t>& b) {
    a.insert(a.end(), b.begin(), b.end());
    std::sort(a.begin(), a.end());
    return a;
  }

  fs::path dir_;
  TableIdentifier id_{{"db"}, "t"};
  std::string location_;
  std::shared_ptr<io::s3::StorageFileSystems> file_systems_;
  std::unique_ptr<Catalog> catalog_;
  std::unique_ptr<io::FileSystem> lfs_;
  std::unique_ptr<CatalogTableOperations> ops_;
  int counter_ = 0;
};

TEST_F(TableTransactionsTest, OverwriteByFilterReplacesWholeFilesOnly) {
  ASSERT_TRUE(iceberg::FastAppend(
                  *ops_, {WriteFile(0, 10, "eu"), WriteFile(10, 10, "us"), WriteFile(20, 10, "eu")})
                  .ok());
  iceberg::SnapshotChanges c;
  c.remove_filter = Compare(Op::kEq, "region", iceberg::Literal::String("eu"));
  c.add_data = {WriteFile(100, 5, "eu")};
  auto r = iceberg::CommitSnapshot(*ops_, c);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->removed.size(), 2u);
  EXPECT_EQ(Ids(), Concat(Range(10, 20), Range(100, 105)));
  const iceberg::Snapshot* s = r->metadata.CurrentSnapshot();
  EXPECT_EQ(s->Operation(), "overwrite");
  EXPECT_EQ(s->summary.at("deleted-data-files"), "2");
  EXPECT_EQ(s->summary.at("deleted-records"), "20");
  EXPECT_EQ(s->summary.at("added-records"), "5");
  EXPECT_EQ(s->summary.at("total-records"), "15");
  EXPECT_EQ(s->summary.at("total-data-files"), "2");
  EXPECT_EQ(s->summary.at("changed-partition-count"), "1");

  // The rewritten manifest keeps the removed files as DELETED entries of this snapshot.
  iceberg::FileManifestSource source(*lfs_);
  auto manifests = *source.ReadManifestList(*s);
  int deleted = 0, existing = 0;
  for (const auto& m : manifests) {
    auto entries = source.ReadEntries(m, *r->metadata.DefaultSpec(), *r->metadata.CurrentSchema());
    ASSERT_TRUE(entries.ok());
    for (const auto& e : *entries) {
      if (e.status == iceberg::ManifestStatus::kDeleted) {
        ++deleted;
        EXPECT_EQ(e.snapshot_id.value_or(0), r->snapshot_id);
      }
      if (e.status == iceberg::ManifestStatus::kExisting) ++existing;
    }
  }
  EXPECT_EQ(deleted, 2);
  EXPECT_EQ(existing, 1);

  // A filter matching part of a file's rows is refused, naming the file; nothing commits.
  const int64_t before = r->snapshot_id;
  iceberg::SnapshotChanges partial;
  partial.remove_filter = Compare(Op::kLt, "id", iceberg::Literal::Long(15));
  auto refused = iceberg::CommitSnapshot(*ops_, partial);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(refused.status().message().find("some, but not all"), std::string::npos);
  EXPECT_EQ(catalog_->LoadTable(id_)->metadata->current_snapshot_id, before);

  // A filter metrics prove covers whole files: id >= 100 is exactly the new file.
  iceberg::SnapshotChanges by_metrics;
  by_metrics.remove_filter = Compare(Op::kGtEq, "id", iceberg::Literal::Long(100));
  auto deleted_files = iceberg::CommitSnapshot(*ops_, by_metrics);
  ASSERT_TRUE(deleted_files.ok()) << deleted_files.status().ToString();
  EXPECT_EQ(deleted_files->metadata.CurrentSnapshot()->Operation(), "delete");
  EXPECT_EQ(Ids(), Range(10, 20));
}

TEST_F(TableTransactionsTest, RowDeltaAppliesPositionDeletesAndValidatesTheirDataFiles) {
  iceberg::DataFile a = WriteFile(0, 10, "eu");
  ASSERT_TRUE(iceberg::FastAppend(*ops_, {a}).ok());
  iceberg::PositionDeleteWriter deletes(*lfs_, location_ + "/data/region=eu/pos-1.parquet",
                                        {iceberg::Literal::String("eu")});
  deletes.Delete(a.file_path, 3);
  deletes.Delete(a.file_path, 0);
  deletes.Delete(a.file_path, 3);  // duplicates collapse
  auto pos = deletes.Close();
  ASSERT_TRUE(pos.ok()) << pos.status().ToString();
  EXPECT_EQ(pos->record_count, 2);
  EXPECT_EQ(pos->referenced_data_file.value_or(""), a.file_path);
  iceberg::SnapshotChanges c;
  c.add_deletes = {*pos};
  c.add_data = {WriteFile(50, 2, "us")};
  c.referenced_data_files = {a.file_path};
  auto r = iceberg::CommitSnapshot(*ops_, c);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Ids(), Concat({1, 2, 4, 5, 6, 7, 8, 9}, {50, 51}));
  const iceberg::Snapshot* s = r->metadata.CurrentSnapshot();
  EXPECT_EQ(s->Operation(), "overwrite");
  EXPECT_EQ(s->summary.at("added-delete-files"), "1");
  EXPECT_EQ(s->summary.at("added-position-deletes"), "2");
  EXPECT_EQ(s->summary.at("total-position-deletes"), "2");

  // Deletes for a data file a concurrent overwrite removed: Conflict, nothing committed.
  iceberg::PositionDeleteWriter late(*lfs_, location_ + "/data/region=eu/pos-2.parquet",
                                     {iceberg::Literal::String("eu")});
  late.Delete(a.file_path, 5);
  iceberg::SnapshotChanges stale;
  stale.add_deletes = {*late.Close()};
  stale.referenced_data_files = {a.file_path};
  RacingOperations racing(*ops_, [&] {
    iceberg::SnapshotChanges drop;
    drop.remove_filter = Compare(Op::kEq, "region", iceberg::Literal::String("eu"));
    ASSERT_TRUE(iceberg::CommitSnapshot(*ops_, drop).ok());
  });
  auto conflict = iceberg::CommitSnapshot(racing, stale);
  ASSERT_FALSE(conflict.ok());
  EXPECT_EQ(conflict.status().code(), StatusCode::kConflict) << conflict.status().ToString();
  EXPECT_NE(conflict.status().message().find(a.file_path), std::string::npos);
  EXPECT_EQ(Ids(), (std::vector<int64_t>{50, 51}));
}

TEST_F(TableTransactionsTest, RewriteReplacesFilesAndRefusesRemovedOnes) {
  iceberg::DataFile a = WriteFile(0, 5, "eu"), b = WriteFile(5, 5, "eu");
  ASSERT_TRUE(iceberg::FastAppend(*ops_, {a, b}).ok());
  iceberg::SnapshotChanges rewrite;
  rewrite.operation = "replace";
  rewrite.remove_paths = {a.file_path, b.file_path};
  rewrite.add_data = {WriteFile(0, 10, "eu")};
  // An append lands between this rewrite's read and its commit: it retries and keeps it.
  RacingOperations racing(
      *ops_, [&] { ASSERT_TRUE(iceberg::FastAppend(*ops_, {WriteFile(20, 3, "us")}).ok()); });
  auto r = iceberg::CommitSnapshot(racing, rewrite);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->attempts, 2);
  EXPECT_EQ(Ids(), Concat(Range(0, 10), Range(20, 23)));
  const iceberg::Snapshot* s = r->metadata.CurrentSnapshot();
  EXPECT_EQ(s->Operation(), "replace");
  EXPECT_EQ(s->summary.at("total-records"), "13");
  EXPECT_EQ(s->summary.at("total-data-files"), "2");

  // Rewriting files that are gone (this rewrite removed a and b) is a Conflict.
  iceberg::SnapshotChanges again = rewrite;
  again.add_data = {WriteFile(0, 10, "eu")};
  auto gone = iceberg::CommitSnapshot(*ops_, again);
  ASSERT_FALSE(gone.ok());
  EXPECT_EQ(gone.status().code(), StatusCode::kConflict);
  EXPECT_NE(gone.status().message().find("no longer in the table"), std::string::npos);
  EXPECT_EQ(Ids(), Concat(Range(0, 10), Range(20, 23)));
}

}  // namespace
}  // namespace sqe::catalog
