// Delete matching in PlanScan against the spec's rules ("Scan Planning"): position
// deletes apply to data with data_seq <= delete_seq in the same spec and partition (never
// globally), equality deletes to data_seq < delete_seq, equality deletes of an
// unpartitioned spec everywhere, and a deletion vector replaces position delete files.
#include <gtest/gtest.h>

#include <algorithm>

#include "iceberg/scan/scan_planner.h"

namespace sqe::iceberg {
namespace {

// Manifests held in memory: one manifest per (content, spec) with the given entries.
class FakeManifests : public ManifestSource {
 public:
  void Add(ManifestContent content, int32_t spec_id, std::vector<ManifestEntry> entries) {
    ManifestFile m;
    m.manifest_path = "m" + std::to_string(manifests_.size());
    m.partition_spec_id = spec_id;
    m.content = content;
    manifests_.push_back(m);
    entries_.push_back(std::move(entries));
  }
  Result<std::vector<ManifestFile>> ReadManifestList(const Snapshot&) override {
    return manifests_;
  }
  Result<std::vector<ManifestEntry>> ReadEntries(const ManifestFile& m, const PartitionSpec&,
                                                 const Schema&) override {
    for (size_t i = 0; i < manifests_.size(); ++i) {
      if (manifests_[i].manifest_path == m.manifest_path) return entries_[i];
    }
    return Status::NotFound(m.manifest_path);
  }

 private:
  std::vector<ManifestFile> manifests_;
  std::vector<std::vector<ManifestEntry>> entries_;
};

ManifestEntry Entry(FileContent content, std::string path, int64_t seq,
                    std::vector<std::optional<Literal>> partition = {}) {
  ManifestEntry e;
  e.sequence_number = seq;
  e.snapshot_id = 1;
  e.data_file.content = content;
  e.data_file.file_path = std::move(path);
  e.data_file.partition = std::move(partition);
  e.data_file.record_count = 10;
  e.data_file.file_size_in_bytes = 100;
  if (content == FileContent::kEqualityDeletes) e.data_file.equality_ids = {1};
  return e;
}

TableMetadata Metadata() {
  TableMetadata md;
  md.format_version = 2;
  md.location = "/t";
  md.schemas = {*ParseSchemaJson(R"({"type": "struct", "schema-id": 0, "fields": [
      {"id": 1, "name": "id", "required": true, "type": "long"},
      {"id": 2, "name": "day", "required": false, "type": "int"}]})")};
  md.partition_specs = {*ParsePartitionSpecJson(R"({"spec-id": 0, "fields": []})"),
                        *ParsePartitionSpecJson(
                            R"({"spec-id": 1, "fields": [{"source-id": 2, "field-id": 1000,
                                "name": "day", "transform": "identity"}]})")};
  md.default_spec_id = 1;
  md.last_partition_id = 1000;
  md.last_column_id = 2;
  md.sort_orders = {SortOrder::Unsorted()};
  Snapshot s;
  s.snapshot_id = 1;
  s.sequence_number = 5;
  s.manifest_list = "list";
  s.summary = {{"operation", "append"}};
  md.snapshots = {s};
  md.current_snapshot_id = 1;
  md.refs["main"] = SnapshotRef{1};
  md.last_sequence_number = 5;
  return md;
}

std::vector<std::string> DeletesOf(const ScanPlan& plan, const std::string& data_path) {
  std::vector<std::string> out;
  for (const FileScanTask& t : plan.tasks) {
    if (t.file.file_path != data_path) continue;
    for (const DataFile& d : t.deletes) out.push_back(d.file_path);
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(ScanPlannerDeletes, SequenceNumbersPartitionsAndGlobalEqualityDeletes) {
  FakeManifests m;
  const std::vector<std::optional<Literal>> day1 = {Literal::Int(1)};
  const std::vector<std::optional<Literal>> day2 = {Literal::Int(2)};
  m.Add(ManifestContent::kData, 0, {Entry(FileContent::kData, "u.parquet", 2)});
  m.Add(ManifestContent::kData, 1,
        {Entry(FileContent::kData, "d1.parquet", 2, day1),
         Entry(FileContent::kData, "d2.parquet", 2, day2)});
  m.Add(ManifestContent::kDeletes, 0,
        {Entry(FileContent::kPositionDeletes, "pos-unpartitioned", 3),
         Entry(FileContent::kEqualityDeletes, "eq-global", 3),
         Entry(FileContent::kEqualityDeletes, "eq-global-same-seq", 2)});
  m.Add(ManifestContent::kDeletes, 1,
        {Entry(FileContent::kPositionDeletes, "pos-day1-same-seq", 2, day1),
         Entry(FileContent::kPositionDeletes, "pos-day1-older", 1, day1),
         Entry(FileContent::kEqualityDeletes, "eq-day1-same-seq", 2, day1),
         Entry(FileContent::kEqualityDeletes, "eq-day2", 4, day2)});
  auto plan = PlanScan(Metadata(), m, {});
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  // The unpartitioned data file: its own spec's position deletes and the global equality
  // delete with a higher sequence number.
  EXPECT_EQ(DeletesOf(*plan, "u.parquet"),
            (std::vector<std::string>{"eq-global", "pos-unpartitioned"}));
  // Partition day=1: same-sequence position deletes apply, same-sequence equality
  // deletes and older position deletes do not; unpartitioned position deletes do not.
  EXPECT_EQ(DeletesOf(*plan, "d1.parquet"),
            (std::vector<std::string>{"eq-global", "pos-day1-same-seq"}));
  EXPECT_EQ(DeletesOf(*plan, "d2.parquet"), (std::vector<std::string>{"eq-day2", "eq-global"}));
}

TEST(ScanPlannerDeletes, DeletionVectorReplacesPositionDeleteFiles) {
  FakeManifests m;
  const std::vector<std::optional<Literal>> day1 = {Literal::Int(1)};
  m.Add(ManifestContent::kData, 1,
        {Entry(FileContent::kData, "a.parquet", 1, day1),
         Entry(FileContent::kData, "b.parquet", 1, day1)});
  ManifestEntry dv = Entry(FileContent::kPositionDeletes, "dv.puffin", 3, day1);
  dv.data_file.file_format = FileFormat::kPuffin;
  dv.data_file.referenced_data_file = "a.parquet";
  dv.data_file.content_offset = 4;
  dv.data_file.content_size_in_bytes = 40;
  m.Add(ManifestContent::kDeletes, 1,
        {Entry(FileContent::kPositionDeletes, "pos-file", 2, day1), dv,
         Entry(FileContent::kEqualityDeletes, "eq", 3, day1)});
  auto plan = PlanScan(Metadata(), m, {});
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(DeletesOf(*plan, "a.parquet"), (std::vector<std::string>{"dv.puffin", "eq"}));
  EXPECT_EQ(DeletesOf(*plan, "b.parquet"), (std::vector<std::string>{"eq", "pos-file"}));
}

}  // namespace
}  // namespace sqe::iceberg
