// FileManifestSource on real Avro files: a v1 snapshot that lists its manifests inline
// (no manifest list) plans like one with a list.
#include "iceberg/scan/file_manifest_source.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "iceberg/manifest/manifest_writer.h"

namespace sqe::iceberg {
namespace {

TEST(FileManifestSource, V1SnapshotWithInlineManifestsPlans) {
  auto dir = std::filesystem::temp_directory_path() /
             ("sqe_inline_manifests_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "metadata");
  auto fs = io::MakeLocalFileSystem();
  Schema schema = *ParseSchemaJson(R"({"type": "struct", "schema-id": 0, "fields": [
      {"id": 1, "name": "id", "required": true, "type": "long"},
      {"id": 2, "name": "region", "required": false, "type": "string"}]})");
  PartitionSpec spec = *ParsePartitionSpecJson(
      R"({"spec-id": 3, "fields": [{"source-id": 2, "field-id": 1000, "name": "region", "transform": "identity"}]})");
  std::vector<std::string> paths;
  for (int m = 0; m < 2; ++m) {
    ManifestWriterOptions o;
    o.format_version = 1;
    o.spec = spec;
    o.schema = schema;
    o.snapshot_id = 7;
    std::string path = (dir / "metadata" / ("m" + std::to_string(m) + ".avro")).string();
    auto opened = fs->OpenForWrite(path, true);
    ASSERT_TRUE(opened.ok());
    std::shared_ptr<io::OutputStream> out(std::move(*opened));
    auto writer = ManifestWriter::Open(out, o);
    ASSERT_TRUE(writer.ok()) << writer.status().ToString();
    for (int f = 0; f < 3; ++f) {
      DataFile file;
      file.file_path = (dir / ("f" + std::to_string(m * 10 + f) + ".parquet")).string();
      file.partition = {Literal::String(m == 0 ? "eu" : "us")};
      file.record_count = 10;
      file.file_size_in_bytes = 1000;
      ASSERT_TRUE((*writer)->AddFile(std::move(file)).ok());
    }
    ASSERT_TRUE((*writer)->Close().ok());
    paths.push_back(path);
  }
  TableMetadata md;
  md.format_version = 1;
  md.table_uuid = "d20c32b0-0000-4000-8000-000000000001";
  md.location = dir.string();
  md.last_column_id = 2;
  md.schemas = {schema};
  md.partition_specs = {spec};
  md.default_spec_id = 3;
  md.last_partition_id = 1000;
  md.sort_orders = {SortOrder::Unsorted()};
  Snapshot s;
  s.snapshot_id = 7;
  s.manifests = paths;
  s.summary = {{"operation", "append"}};
  md.snapshots = {s};
  md.current_snapshot_id = 7;
  md.refs["main"] = SnapshotRef{7};

  FileManifestSource source(*fs);
  auto listed = source.ReadManifestList(s);
  ASSERT_TRUE(listed.ok()) << listed.status().ToString();
  ASSERT_EQ(listed->size(), 2u);
  EXPECT_EQ((*listed)[0].partition_spec_id, 3);
  EXPECT_GT((*listed)[0].manifest_length, 0);

  auto plan = PlanScan(md, source, ScanOptions{});
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(plan->tasks.size(), 6u);

  ScanOptions only_eu;
  only_eu.filter = expr::Compare(expr::Op::kEq, "region", Literal::String("eu"));
  auto pruned = PlanScan(md, source, only_eu);
  ASSERT_TRUE(pruned.ok()) << pruned.status().ToString();
  EXPECT_EQ(pruned->tasks.size(), 3u);

  Snapshot missing = s;
  missing.manifests = {(dir / "metadata" / "gone.avro").string()};
  auto gone = source.ReadManifestList(missing);
  ASSERT_FALSE(gone.ok());
  EXPECT_NE(gone.status().ToString().find("gone.avro"), std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace sqe::iceberg
