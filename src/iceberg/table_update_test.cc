#include "iceberg/table_update.h"

#include <gtest/gtest.h>

namespace sqe::iceberg {
namespace {

// A v2 table with one snapshot on main.
constexpr const char* kBase = R"({
  "format-version": 2,
  "table-uuid": "9c12d441-03fe-4693-9a96-a0705ddf69c1",
  "location": "s3://bucket/db/t",
  "last-sequence-number": 1,
  "last-updated-ms": 1700000000000,
  "last-column-id": 2,
  "current-schema-id": 0,
  "schemas": [{"type": "struct", "schema-id": 0, "fields": [
    {"id": 1, "name": "id", "required": true, "type": "long"},
    {"id": 2, "name": "data", "required": false, "type": "string"}]}],
  "default-spec-id": 0,
  "partition-specs": [{"spec-id": 0, "fields": []}],
  "last-partition-id": 999,
  "default-sort-order-id": 0,
  "sort-orders": [{"order-id": 0, "fields": []}],
  "properties": {"owner": "ana"},
  "current-snapshot-id": 100,
  "refs": {"main": {"snapshot-id": 100, "type": "branch"}},
  "snapshots": [{"snapshot-id": 100, "sequence-number": 1, "timestamp-ms": 1700000000000,
                 "manifest-list": "s3://bucket/db/t/metadata/snap-100.avro",
                 "summary": {"operation": "append"}, "schema-id": 0}],
  "snapshot-log": [{"timestamp-ms": 1700000000000, "snapshot-id": 100}],
  "metadata-log": []
})";

TableMetadata Base() {
  auto m = ParseTableMetadata(kBase);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  return *m;
}

Snapshot NextSnapshot(int64_t id, int64_t parent, int64_t seq) {
  Snapshot s;
  s.snapshot_id = id;
  s.parent_snapshot_id = parent;
  s.sequence_number = seq;
  s.timestamp_ms = 1700000001000;
  s.manifest_list = "s3://bucket/db/t/metadata/snap-" + std::to_string(id) + ".avro";
  s.summary = {{"operation", "append"}};
  s.schema_id = 0;
  return s;
}

TEST(TableRequirementsTest, EachRequirementPassesAndFailsWithTheReason) {
  TableMetadata base = Base();
  EXPECT_TRUE(CheckTableRequirements(&base, {TableRequirement::AssertRefSnapshotId("main", 100),
                                             TableRequirement::AssertCurrentSchemaId(0),
                                             TableRequirement::AssertTableUuid(base.table_uuid)})
                  .ok());
  Status stale = CheckTableRequirements(&base, {TableRequirement::AssertRefSnapshotId("main", 99)});
  EXPECT_EQ(stale.code(), StatusCode::kConflict);
  EXPECT_NE(stale.message().find("ref 'main' is at snapshot 100, expected 99"), std::string::npos)
      << stale.message();
  // A ref that must not exist yet.
  EXPECT_TRUE(
      CheckTableRequirements(&base, {TableRequirement::AssertRefSnapshotId("dev", std::nullopt)})
          .ok());
  EXPECT_EQ(
      CheckTableRequirements(&base, {TableRequirement::AssertRefSnapshotId("main", std::nullopt)})
          .code(),
      StatusCode::kConflict);
  TableRequirement create;
  create.kind = TableRequirement::Kind::kAssertCreate;
  EXPECT_TRUE(CheckTableRequirements(nullptr, {create}).ok());
  EXPECT_EQ(CheckTableRequirements(&base, {create}).code(), StatusCode::kConflict);
  EXPECT_EQ(CheckTableRequirements(nullptr, {TableRequirement::AssertCurrentSchemaId(0)}).code(),
            StatusCode::kConflict);
}

TEST(TableUpdatesTest, AppendMovesMainAndLogsIt) {
  TableMetadata base = Base();
  auto next = ApplyTableUpdates(
      base,
      {TableUpdate::AddSnapshot(NextSnapshot(101, 100, 2)), TableUpdate::SetBranch("main", 101)},
      1700000002000);
  ASSERT_TRUE(next.ok()) << next.status().ToString();
  EXPECT_EQ(next->current_snapshot_id, 101);
  EXPECT_EQ(next->refs.at("main").snapshot_id, 101);
  EXPECT_EQ(next->last_sequence_number, 2);
  EXPECT_EQ(next->last_updated_ms, 1700000002000);
  ASSERT_EQ(next->snapshot_log.size(), 2u);
  EXPECT_EQ(next->snapshot_log.back().snapshot_id, 101);
  EXPECT_EQ(next->snapshot_log.back().timestamp_ms, 1700000001000);  // the snapshot's time
  // The result is valid metadata that writes and parses back equal.
  auto text = WriteTableMetadata(*next);
  ASSERT_TRUE(text.ok());
  auto reparsed = ParseTableMetadata(*text);
  ASSERT_TRUE(reparsed.ok()) << reparsed.status().ToString();
  EXPECT_TRUE(*reparsed == *next);
}

TEST(TableUpdatesTest, BadUpdatesAreRejectedNamingTheProblem) {
  TableMetadata base = Base();
  auto dup = ApplyTableUpdates(base, {TableUpdate::AddSnapshot(NextSnapshot(100, 100, 2))}, 1);
  EXPECT_EQ(dup.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(dup.status().message().find("already exists"), std::string::npos);
  auto old_seq = ApplyTableUpdates(base, {TableUpdate::AddSnapshot(NextSnapshot(101, 100, 1))}, 1);
  EXPECT_EQ(old_seq.status().code(), StatusCode::kInvalidArgument);
  auto unknown_ref = ApplyTableUpdates(base, {TableUpdate::SetBranch("main", 555)}, 1);
  EXPECT_NE(unknown_ref.status().message().find("unknown snapshot 555"), std::string::npos);
  TableUpdate downgrade;
  downgrade.action = TableUpdate::Action::kUpgradeFormatVersion;
  downgrade.format_version = 1;
  EXPECT_NE(ApplyTableUpdates(base, {downgrade}, 1).status().message().find("downgrade"),
            std::string::npos);
  TableUpdate remove_current;
  remove_current.action = TableUpdate::Action::kRemoveSchemas;
  remove_current.ids = {0};
  EXPECT_EQ(ApplyTableUpdates(base, {remove_current}, 1).status().code(),
            StatusCode::kInvalidArgument);
}

TEST(TableUpdatesTest, SchemaEvolutionAssignsIdsAndLastAdded) {
  TableMetadata base = Base();
  auto evolved = ParseTableUpdates(R"([
    {"action": "add-schema", "schema": {"type": "struct", "schema-id": 0, "fields": [
      {"id": 1, "name": "id", "required": true, "type": "long"},
      {"id": 2, "name": "data", "required": false, "type": "string"},
      {"id": 3, "name": "ts", "required": false, "type": "timestamptz"}]}, "last-column-id": 3},
    {"action": "set-current-schema", "schema-id": -1},
    {"action": "set-properties", "updates": {"k": "v"}},
    {"action": "remove-properties", "removals": ["owner"]}
  ])",
                                   2);
  ASSERT_TRUE(evolved.ok()) << evolved.status().ToString();
  auto next = ApplyTableUpdates(base, *evolved, 5);
  ASSERT_TRUE(next.ok()) << next.status().ToString();
  EXPECT_EQ(next->schemas.size(), 2u);
  EXPECT_EQ(next->current_schema_id, 1);  // id 0 was taken: a fresh id
  EXPECT_EQ(next->last_column_id, 3);
  EXPECT_EQ(next->properties, (std::map<std::string, std::string>{{"k", "v"}}));
  // Adding the same schema again reuses it.
  auto again = ApplyTableUpdates(*next, *evolved, 6);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->schemas.size(), 2u);
}

TEST(TableUpdatesTest, RemovingSnapshotsDropsTheirRefs) {
  TableMetadata base = Base();
  TableUpdate tag;
  tag.action = TableUpdate::Action::kSetSnapshotRef;
  tag.ref_name = "v1";
  tag.ref.snapshot_id = 100;
  tag.ref.type = SnapshotRefType::kTag;
  TableUpdate remove;
  remove.action = TableUpdate::Action::kRemoveSnapshots;
  remove.ids = {100};
  auto next = ApplyTableUpdates(base, {tag, remove}, 7);
  ASSERT_TRUE(next.ok()) << next.status().ToString();
  EXPECT_TRUE(next->snapshots.empty());
  EXPECT_TRUE(next->refs.empty());
  EXPECT_FALSE(next->current_snapshot_id.has_value());
}

TEST(TableUpdatesJsonTest, RoundTripAndUnknownActions) {
  std::vector<TableUpdate> updates = {TableUpdate::AddSnapshot(NextSnapshot(101, 100, 2)),
                                      TableUpdate::SetBranch("main", 101),
                                      TableUpdate::SetProperties({{"a", "b"}})};
  std::string text = WriteTableUpdates(updates, 2);
  EXPECT_NE(text.find("\"action\":\"set-snapshot-ref\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"ref-name\":\"main\""), std::string::npos) << text;
  auto parsed = ParseTableUpdates(text, 2);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  ASSERT_EQ(parsed->size(), 3u);
  EXPECT_EQ((*parsed)[0].snapshot->snapshot_id, 101);
  EXPECT_EQ((*parsed)[1].ref.snapshot_id, 101);
  EXPECT_EQ((*parsed)[2].updates.at("a"), "b");

  std::vector<TableRequirement> reqs = {TableRequirement::AssertRefSnapshotId("main", std::nullopt),
                                        TableRequirement::AssertCurrentSchemaId(3)};
  std::string req_text = WriteTableRequirements(reqs);
  EXPECT_NE(req_text.find("\"snapshot-id\":null"), std::string::npos) << req_text;
  auto parsed_reqs = ParseTableRequirements(req_text);
  ASSERT_TRUE(parsed_reqs.ok());
  EXPECT_FALSE((*parsed_reqs)[0].snapshot_id.has_value());
  EXPECT_EQ((*parsed_reqs)[1].id, 3);

  auto unknown = ParseTableUpdates(R"([{"action": "drop-everything"}])", 2);
  EXPECT_EQ(unknown.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(unknown.status().message().find("drop-everything"), std::string::npos);
  EXPECT_FALSE(ParseTableUpdates("{}", 2).ok());
  EXPECT_FALSE(ParseTableUpdates("[", 2).ok());
  EXPECT_FALSE(ParseTableRequirements(R"([{"type": "assert-ref-snapshot-id"}])").ok());
}

TEST(MetadataLogTest, KeepsTheConfiguredNumberOfEntries) {
  TableMetadata base = Base();
  base.properties["write.metadata.previous-versions-max"] = "2";
  TableMetadata next = base;
  for (int i = 0; i < 5; ++i) AppendMetadataLog(base, "m" + std::to_string(i) + ".json", &next);
  ASSERT_EQ(next.metadata_log.size(), 2u);
  EXPECT_EQ(next.metadata_log[0].metadata_file, "m3.json");
  EXPECT_EQ(next.metadata_log[1].metadata_file, "m4.json");
}

}  // namespace
}  // namespace sqe::iceberg
