// TableMetadata against the spec's "Table Metadata Fields" and Appendix C: realistic
// v1, v2 and v3 documents (with unknown fields that must survive a rewrite), every field
// read, the helpers, and the validation errors.
#include "iceberg/table_metadata.h"

#include <gtest/gtest.h>

#include <functional>

#include <nlohmann/json.hpp>

namespace sqe::iceberg {
namespace {

using nlohmann::json;

constexpr const char* kV1 = R"js({
  "format-version": 1,
  "table-uuid": "d20125c8-7284-442c-9aea-15fee620737c",
  "location": "s3://bucket/warehouse/db.db/events",
  "last-updated-ms": 1602638573874,
  "last-column-id": 3,
  "schema": {"type": "struct", "fields": [
    {"id": 1, "name": "x", "required": true, "type": "long"},
    {"id": 2, "name": "y", "required": true, "type": "long", "doc": "comment"},
    {"id": 3, "name": "z", "required": true, "type": "long"}]},
  "partition-spec": [{"name": "x", "transform": "identity", "source-id": 1},
                     {"name": "y_bucket", "transform": "bucket[8]", "source-id": 2}],
  "properties": {"owner": "alice"},
  "current-snapshot-id": 3051729675574597004,
  "snapshots": [
    {"snapshot-id": 3051729675574597004, "timestamp-ms": 1515100955770,
     "summary": {"operation": "append"},
     "manifests": ["s3://bucket/warehouse/db.db/events/metadata/m1.avro"]}],
  "snapshot-log": [{"timestamp-ms": 1515100955770, "snapshot-id": 3051729675574597004}],
  "x-vendor-v1": {"nested": [1, 2, 3]}
})js";

constexpr const char* kV2 = R"js({
  "format-version": 2,
  "table-uuid": "9c12d441-03fe-4693-9a96-a0705ddf69c1",
  "location": "s3://bucket/test/location",
  "last-sequence-number": 34,
  "last-updated-ms": 1602638573590,
  "last-column-id": 5,
  "current-schema-id": 1,
  "schemas": [
    {"type": "struct", "schema-id": 0, "fields": [
      {"id": 1, "name": "x", "required": true, "type": "long"}]},
    {"type": "struct", "schema-id": 1, "identifier-field-ids": [1, 2], "fields": [
      {"id": 1, "name": "x", "required": true, "type": "long"},
      {"id": 2, "name": "y", "required": true, "type": "long", "doc": "comment"},
      {"id": 3, "name": "z", "required": true, "type": "long"},
      {"id": 4, "name": "tags", "required": false, "type":
        {"type": "map", "key-id": 5, "key": "string", "value-id": 6, "value-required": false,
         "value": "string"}}]}],
  "default-spec-id": 0,
  "partition-specs": [{"spec-id": 0, "fields": [
    {"name": "x", "transform": "identity", "source-id": 1, "field-id": 1000}]}],
  "last-partition-id": 1000,
  "default-sort-order-id": 3,
  "sort-orders": [
    {"order-id": 0, "fields": []},
    {"order-id": 3, "fields": [
      {"transform": "identity", "source-id": 2, "direction": "asc", "null-order": "nulls-first"},
      {"transform": "bucket[4]", "source-id": 3, "direction": "desc", "null-order": "nulls-last"}]}],
  "properties": {"write.format.default": "parquet", "commit.retry.num-retries": "4"},
  "current-snapshot-id": 3055729675574597004,
  "refs": {
    "main": {"snapshot-id": 3055729675574597004, "type": "branch"},
    "audit": {"snapshot-id": 3051729675574597004, "type": "branch",
              "min-snapshots-to-keep": 2, "max-snapshot-age-ms": 86400000},
    "v1.0": {"snapshot-id": 3051729675574597004, "type": "tag", "max-ref-age-ms": 10000000,
             "x-ref-extra": "r"}},
  "snapshots": [
    {"snapshot-id": 3051729675574597004, "timestamp-ms": 1515100955770,
     "sequence-number": 0, "summary": {"operation": "append"},
     "manifest-list": "s3://a/b/1.avro", "schema-id": 0},
    {"snapshot-id": 3055729675574597004, "parent-snapshot-id": 3051729675574597004,
     "timestamp-ms": 1555100955770, "sequence-number": 1,
     "summary": {"operation": "overwrite", "added-data-files": "4", "total-records": "100"},
     "manifest-list": "s3://a/b/2.avro", "schema-id": 1, "x-snapshot-extra": 7}],
  "snapshot-log": [
    {"snapshot-id": 3051729675574597004, "timestamp-ms": 1515100955770},
    {"snapshot-id": 3055729675574597004, "timestamp-ms": 1555100955770}],
  "metadata-log": [{"metadata-file": "s3://bucket/.../v1.json", "timestamp-ms": 1515100}],
  "statistics": [{"snapshot-id": 3055729675574597004,
    "statistics-path": "s3://a/b/stats.puffin", "file-size-in-bytes": 413,
    "file-footer-size-in-bytes": 42,
    "blob-metadata": [{"type": "apache-datasketches-theta-v1", "snapshot-id": 3055729675574597004,
      "sequence-number": 1, "fields": [1], "properties": {"ndv": "3"}}]}],
  "partition-statistics": [{"snapshot-id": 3055729675574597004,
    "statistics-path": "s3://a/b/partition-stats.parquet", "file-size-in-bytes": 43}],
  "x-vendor-top": "kept"
})js";

constexpr const char* kV3 = R"js({
  "format-version": 3,
  "table-uuid": "2bb5ac44-f5a3-4bd1-a0ad-6b9bfbb6b4cd",
  "location": "file:///tmp/warehouse/t3",
  "last-sequence-number": 2,
  "last-updated-ms": 1733000000000,
  "last-column-id": 7,
  "current-schema-id": 0,
  "schemas": [{"type": "struct", "schema-id": 0, "fields": [
    {"id": 1, "name": "id", "required": true, "type": "long"},
    {"id": 2, "name": "ts", "required": false, "type": "timestamptz_ns"},
    {"id": 3, "name": "v", "required": false, "type": "variant"},
    {"id": 4, "name": "g", "required": false, "type": "geography(srid:4326, spherical)"},
    {"id": 5, "name": "u", "required": false, "type": "unknown"},
    {"id": 6, "name": "n", "required": false, "type": "int", "initial-default": 5,
     "write-default": 7},
    {"id": 7, "name": "geo", "required": false, "type": "geometry(srid:3857)"}]}],
  "default-spec-id": 1,
  "partition-specs": [
    {"spec-id": 0, "fields": []},
    {"spec-id": 1, "fields": [
      {"source-id": 2, "field-id": 1000, "name": "ts_hour", "transform": "hour"},
      {"source-ids": [1, 6], "field-id": 1001, "name": "multi", "transform": "future[3]"}]}],
  "last-partition-id": 1001,
  "default-sort-order-id": 0,
  "sort-orders": [{"order-id": 0, "fields": []}],
  "properties": {},
  "current-snapshot-id": 7,
  "refs": {"main": {"snapshot-id": 7, "type": "branch"}},
  "snapshots": [
    {"snapshot-id": 6, "timestamp-ms": 1733000000000, "sequence-number": 1,
     "summary": {"operation": "append"}, "manifest-list": "file:///tmp/m6.avro",
     "schema-id": 0, "first-row-id": 0, "added-rows": 100},
    {"snapshot-id": 7, "parent-snapshot-id": 6, "timestamp-ms": 1733000001000,
     "sequence-number": 2, "summary": {"operation": "delete"},
     "manifest-list": "file:///tmp/m7.avro", "schema-id": 0, "first-row-id": 100,
     "added-rows": 0, "key-id": "k1"}],
  "snapshot-log": [{"snapshot-id": 6, "timestamp-ms": 1733000000000},
                   {"snapshot-id": 7, "timestamp-ms": 1733000001000}],
  "metadata-log": [],
  "next-row-id": 100,
  "encryption-keys": [{"key-id": "k1", "encrypted-key-metadata": "aWNlYmVyZwo=",
                       "encrypted-by-id": "kms-1", "properties": {"a": "b"}}]
})js";

TableMetadata Parse(const char* text) {
  Result<TableMetadata> m = ParseTableMetadata(text);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  return m.ok() ? *m : TableMetadata();
}

// Parse -> write -> parse gives the same model, and writing that again the same text.
void ExpectRoundTrip(const TableMetadata& m) {
  Result<std::string> text = WriteTableMetadata(m);
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  Result<TableMetadata> again = ParseTableMetadata(*text);
  ASSERT_TRUE(again.ok()) << again.status().ToString() << "\n" << *text;
  EXPECT_TRUE(*again == m) << *text;
  EXPECT_EQ(*WriteTableMetadata(*again), *text);
}

TEST(TableMetadata, V2EveryField) {
  TableMetadata m = Parse(kV2);
  EXPECT_EQ(m.format_version, 2);
  EXPECT_EQ(m.table_uuid, "9c12d441-03fe-4693-9a96-a0705ddf69c1");
  EXPECT_EQ(m.location, "s3://bucket/test/location");
  EXPECT_EQ(m.last_sequence_number, 34);
  EXPECT_EQ(m.last_updated_ms, 1602638573590);
  EXPECT_EQ(m.last_column_id, 5);
  ASSERT_EQ(m.schemas.size(), 2u);
  EXPECT_EQ(m.CurrentSchema()->schema_id(), 1);
  EXPECT_EQ(m.CurrentSchema()->identifier_field_ids(), (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(m.CurrentSchema()->FindFieldByName("tags.value")->id, 6);
  EXPECT_EQ(m.DefaultSpec()->fields().at(0).field_id, 1000);
  EXPECT_EQ(m.last_partition_id, 1000);
  EXPECT_EQ(m.DefaultSortOrder()->fields().size(), 2u);
  EXPECT_EQ(m.properties.at("commit.retry.num-retries"), "4");
  EXPECT_EQ(m.current_snapshot_id, 3055729675574597004);
  ASSERT_NE(m.CurrentSnapshot(), nullptr);
  const Snapshot& s = *m.CurrentSnapshot();
  EXPECT_EQ(s.parent_snapshot_id, 3051729675574597004);
  EXPECT_EQ(s.sequence_number, 1);
  EXPECT_EQ(s.timestamp_ms, 1555100955770);
  EXPECT_EQ(s.manifest_list, "s3://a/b/2.avro");
  EXPECT_EQ(s.Operation(), "overwrite");
  EXPECT_EQ(s.summary.at("total-records"), "100");
  EXPECT_EQ(s.schema_id, 1);
  EXPECT_EQ(s.extra_json, R"({"x-snapshot-extra":7})");
  ASSERT_EQ(m.refs.size(), 3u);
  EXPECT_EQ(m.refs.at("audit").min_snapshots_to_keep, 2);
  EXPECT_EQ(m.refs.at("audit").max_snapshot_age_ms, 86400000);
  EXPECT_FALSE(m.refs.at("v1.0").is_branch());
  EXPECT_EQ(m.refs.at("v1.0").max_ref_age_ms, 10000000);
  EXPECT_EQ(m.snapshot_log.size(), 2u);
  EXPECT_EQ(m.metadata_log.at(0).metadata_file, "s3://bucket/.../v1.json");
  ASSERT_EQ(m.statistics.size(), 1u);
  EXPECT_EQ(m.statistics[0].file_footer_size_in_bytes, 42);
  EXPECT_EQ(m.statistics[0].blob_metadata.at(0).properties.at("ndv"), "3");
  EXPECT_EQ(m.partition_statistics.at(0).file_size_in_bytes, 43);
  EXPECT_FALSE(m.next_row_id);
  EXPECT_EQ(m.extra_json, R"({"x-vendor-top":"kept"})");
  ExpectRoundTrip(m);
}

TEST(TableMetadata, V2RewriteKeepsEveryInputField) {
  TableMetadata m = Parse(kV2);
  json written = json::parse(*WriteTableMetadata(m));
  json input = json::parse(kV2);
  // Every field of the input, unknown ones included, is written back unchanged.
  for (auto it = input.begin(); it != input.end(); ++it) {
    EXPECT_EQ(written[it.key()], *it) << it.key();
  }
}

TEST(TableMetadata, Helpers) {
  TableMetadata m = Parse(kV2);
  EXPECT_EQ((*m.SnapshotForRef("audit"))->snapshot_id, 3051729675574597004);
  EXPECT_EQ((*m.SnapshotForRef("main"))->snapshot_id, 3055729675574597004);
  Result<const Snapshot*> missing = m.SnapshotForRef("dev");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find("audit, main, v1.0"), std::string::npos)
      << missing.status().message();
  EXPECT_EQ((*m.SnapshotAsOf(1515100955770))->snapshot_id, 3051729675574597004);
  EXPECT_EQ((*m.SnapshotAsOf(1555100955769))->snapshot_id, 3051729675574597004);
  EXPECT_EQ((*m.SnapshotAsOf(1555100955770))->snapshot_id, 3055729675574597004);
  EXPECT_EQ((*m.SnapshotAsOf(9999999999999))->snapshot_id, 3055729675574597004);
  EXPECT_EQ(m.SnapshotAsOf(1515100955769).status().code(), StatusCode::kNotFound);
  EXPECT_EQ((*m.SchemaForSnapshot(3051729675574597004))->schema_id(), 0);
  EXPECT_EQ((*m.SchemaForSnapshot(3055729675574597004))->schema_id(), 1);
  EXPECT_FALSE(m.SchemaForSnapshot(1).ok());
  EXPECT_EQ(m.SpecById(5), nullptr);
  EXPECT_EQ(m.SnapshotById(1), nullptr);
}

TEST(TableMetadata, V1IsReadIntoTheV2Model) {
  TableMetadata m = Parse(kV1);
  EXPECT_EQ(m.format_version, 1);
  EXPECT_EQ(m.last_sequence_number, 0);
  ASSERT_EQ(m.schemas.size(), 1u);
  EXPECT_EQ(m.current_schema_id, 0);
  EXPECT_EQ(m.CurrentSchema()->FindFieldById(2)->doc, "comment");
  ASSERT_EQ(m.partition_specs.size(), 1u);
  EXPECT_EQ(m.default_spec_id, 0);
  EXPECT_EQ(m.DefaultSpec()->fields().at(0).field_id, 1000);
  EXPECT_EQ(m.DefaultSpec()->fields().at(1).field_id, 1001);
  EXPECT_EQ(m.DefaultSpec()->fields().at(1).transform, Transform::Bucket(8));
  EXPECT_EQ(m.last_partition_id, 1001);
  ASSERT_EQ(m.sort_orders.size(), 1u);
  EXPECT_TRUE(m.DefaultSortOrder()->is_unsorted());
  ASSERT_NE(m.CurrentSnapshot(), nullptr);
  EXPECT_EQ(m.CurrentSnapshot()->sequence_number, 0);
  EXPECT_TRUE(m.CurrentSnapshot()->manifest_list.empty());
  EXPECT_EQ(m.CurrentSnapshot()->manifests.size(), 1u);
  // The main branch is implied by current-snapshot-id.
  ASSERT_EQ(m.refs.count("main"), 1u);
  EXPECT_EQ(m.refs.at("main").snapshot_id, 3051729675574597004);
  EXPECT_EQ(m.extra_json, R"({"x-vendor-v1":{"nested":[1,2,3]}})");
  ExpectRoundTrip(m);
  json written = json::parse(*WriteTableMetadata(m));
  EXPECT_EQ(written["schema"]["fields"], json::parse(kV1)["schema"]["fields"]);
  EXPECT_EQ(written["partition-spec"].size(), 2u);
  EXPECT_FALSE(written.contains("last-sequence-number"));
  EXPECT_FALSE(written.contains("refs"));
  EXPECT_FALSE(written["snapshots"][0].contains("sequence-number"));
  EXPECT_EQ(written["x-vendor-v1"], json::parse(kV1)["x-vendor-v1"]);
}

TEST(TableMetadata, FieldsOutsideTheVersionStayUnknown) {
  // v1 has no sequence numbers and v1/v2 no next-row-id: present anyway, they are kept
  // and written back as unknown fields, and do not enter the model.
  json doc = json::parse(kV1);
  doc["last-sequence-number"] = 9;
  doc["next-row-id"] = 3;
  doc["snapshots"][0]["sequence-number"] = 4;
  TableMetadata m = *ParseTableMetadata(doc.dump());
  EXPECT_EQ(m.last_sequence_number, 0);
  EXPECT_EQ(m.CurrentSnapshot()->sequence_number, 0);
  EXPECT_FALSE(m.next_row_id);
  json written = json::parse(*WriteTableMetadata(m));
  EXPECT_EQ(written["last-sequence-number"], 9);
  EXPECT_EQ(written["next-row-id"], 3);
  EXPECT_EQ(written["snapshots"][0]["sequence-number"], 4);
  ExpectRoundTrip(m);
}

TEST(TableMetadata, V3Fields) {
  TableMetadata m = Parse(kV3);
  EXPECT_EQ(m.format_version, 3);
  EXPECT_EQ(m.next_row_id, 100);
  const Schema& s = *m.CurrentSchema();
  EXPECT_EQ(s.FindFieldById(2)->type->id(), TypeId::kTimestampTzNs);
  EXPECT_EQ(s.FindFieldById(3)->type->id(), TypeId::kVariant);
  EXPECT_EQ(s.FindFieldById(4)->type->crs(), "srid:4326");
  EXPECT_EQ(s.FindFieldById(5)->type->id(), TypeId::kUnknown);
  EXPECT_EQ(s.FindFieldById(6)->initial_default_json, "5");
  EXPECT_EQ(s.FindFieldById(6)->write_default_json, "7");
  const PartitionField& multi = m.DefaultSpec()->fields().at(1);
  EXPECT_EQ(multi.source_ids, (std::vector<int32_t>{1, 6}));
  EXPECT_EQ(multi.transform.kind(), TransformKind::kUnknown);
  EXPECT_EQ(m.CurrentSnapshot()->first_row_id, 100);
  EXPECT_EQ(m.CurrentSnapshot()->added_rows, 0);
  EXPECT_EQ(m.CurrentSnapshot()->key_id, "k1");
  ASSERT_EQ(m.encryption_keys.size(), 1u);
  EXPECT_EQ(m.encryption_keys[0].encrypted_by_id, "kms-1");
  EXPECT_EQ(m.encryption_keys[0].properties.at("a"), "b");
  ExpectRoundTrip(m);
  json written = json::parse(*WriteTableMetadata(m));
  json input = json::parse(kV3);
  for (auto it = input.begin(); it != input.end(); ++it) {
    EXPECT_EQ(written[it.key()], *it) << it.key();
  }
}

TEST(TableMetadata, NoCurrentSnapshot) {
  json doc = json::parse(kV2);
  doc["current-snapshot-id"] = -1;
  doc.erase("refs");
  TableMetadata m = *ParseTableMetadata(doc.dump());
  EXPECT_FALSE(m.current_snapshot_id);
  EXPECT_EQ(m.CurrentSnapshot(), nullptr);
  EXPECT_TRUE(m.refs.empty());
  EXPECT_EQ(json::parse(*WriteTableMetadata(m))["current-snapshot-id"], -1);
  ExpectRoundTrip(m);
  json v3 = json::parse(kV3);
  v3["current-snapshot-id"] = nullptr;
  v3.erase("refs");
  TableMetadata m3 = *ParseTableMetadata(v3.dump());
  EXPECT_FALSE(m3.current_snapshot_id);
  EXPECT_TRUE(json::parse(*WriteTableMetadata(m3))["current-snapshot-id"].is_null());
  // refs with main but no current-snapshot-id: main decides.
  json v3b = json::parse(kV3);
  v3b.erase("current-snapshot-id");
  EXPECT_EQ(ParseTableMetadata(v3b.dump())->current_snapshot_id, 7);
}

// Each mutation of a valid document must fail with `code` and name `field`.
struct BadCase {
  const char* name;
  const char* base;
  std::function<void(json&)> mutate;
  StatusCode code;
  const char* field;
};

TEST(TableMetadata, ValidationErrors) {
  const std::vector<BadCase> cases = {
      {"version 4", kV2, [](json& d) { d["format-version"] = 4; }, StatusCode::kInvalidArgument,
       "format-version"},
      {"version 0", kV2, [](json& d) { d["format-version"] = 0; }, StatusCode::kInvalidArgument,
       "format-version"},
      {"version string", kV2, [](json& d) { d["format-version"] = "2"; }, StatusCode::kCorruption,
       "format-version"},
      {"no uuid", kV2, [](json& d) { d.erase("table-uuid"); }, StatusCode::kCorruption,
       "table-uuid"},
      {"no location", kV2, [](json& d) { d.erase("location"); }, StatusCode::kCorruption,
       "location"},
      {"no last-sequence-number", kV2, [](json& d) { d.erase("last-sequence-number"); },
       StatusCode::kCorruption, "last-sequence-number"},
      {"float last-updated", kV2, [](json& d) { d["last-updated-ms"] = 1.5; },
       StatusCode::kCorruption, "last-updated-ms"},
      {"huge last-column-id", kV2, [](json& d) { d["last-column-id"] = 1LL << 40; },
       StatusCode::kCorruption, "last-column-id"},
      {"no schemas", kV2, [](json& d) { d.erase("schemas"); }, StatusCode::kCorruption, "schemas"},
      {"unknown current schema", kV2, [](json& d) { d["current-schema-id"] = 9; },
       StatusCode::kCorruption, "current-schema-id"},
      {"duplicate schema ids", kV2, [](json& d) { d["schemas"][0]["schema-id"] = 1; },
       StatusCode::kCorruption, "schemas"},
      {"negative field id", kV2, [](json& d) { d["schemas"][1]["fields"][0]["id"] = -1; },
       StatusCode::kCorruption, "field id"},
      {"unknown default spec", kV2, [](json& d) { d["default-spec-id"] = 3; },
       StatusCode::kCorruption, "default-spec-id"},
      {"no last-partition-id", kV2, [](json& d) { d.erase("last-partition-id"); },
       StatusCode::kCorruption, "last-partition-id"},
      {"no sort orders", kV2, [](json& d) { d.erase("sort-orders"); }, StatusCode::kCorruption,
       "sort-orders"},
      {"unknown sort order", kV2, [](json& d) { d["default-sort-order-id"] = 8; },
       StatusCode::kCorruption, "default-sort-order-id"},
      {"unknown current snapshot", kV2,
       [](json& d) {
         d["current-snapshot-id"] = 5;
         d.erase("refs");
       },
       StatusCode::kCorruption, "current-snapshot-id"},
      {"main mismatch", kV2,
       [](json& d) { d["refs"]["main"]["snapshot-id"] = 3051729675574597004; },
       StatusCode::kCorruption, "main"},
      {"ref to missing snapshot", kV2, [](json& d) { d["refs"]["audit"]["snapshot-id"] = 1; },
       StatusCode::kCorruption, "audit"},
      {"bad ref type", kV2, [](json& d) { d["refs"]["audit"]["type"] = "twig"; },
       StatusCode::kCorruption, "type"},
      {"properties not strings", kV2, [](json& d) { d["properties"]["n"] = 4; },
       StatusCode::kCorruption, "properties"},
      {"snapshots not a list", kV2, [](json& d) { d["snapshots"] = json::object(); },
       StatusCode::kCorruption, "snapshots"},
      {"snapshot without manifest list", kV2,
       [](json& d) { d["snapshots"][0].erase("manifest-list"); }, StatusCode::kCorruption,
       "manifest-list"},
      {"sequence above last", kV2, [](json& d) { d["last-sequence-number"] = 0; },
       StatusCode::kCorruption, "last-sequence-number"},
      {"duplicate snapshots", kV2,
       [](json& d) { d["snapshots"][1]["snapshot-id"] = 3051729675574597004; },
       StatusCode::kCorruption, "snapshots"},
      {"bad transform", kV2,
       [](json& d) { d["partition-specs"][0]["fields"][0]["transform"] = "bucket[-1]"; },
       StatusCode::kCorruption, "bucket"},
      {"bad type", kV2, [](json& d) { d["schemas"][1]["fields"][2]["type"] = "decimal(40,1)"; },
       StatusCode::kCorruption, "decimal(40,1)"},
      {"v3 without next-row-id", kV3, [](json& d) { d.erase("next-row-id"); },
       StatusCode::kCorruption, "next-row-id"},
      {"v3 negative next-row-id", kV3, [](json& d) { d["next-row-id"] = -5; },
       StatusCode::kCorruption, "next-row-id"},
      {"v1 without schema", kV1, [](json& d) { d.erase("schema"); }, StatusCode::kCorruption,
       "schema"},
      {"v1 without partition spec", kV1, [](json& d) { d.erase("partition-spec"); },
       StatusCode::kCorruption, "partition-spec"},
      {"not an object", kV2, [](json& d) { d = json::array(); }, StatusCode::kCorruption, "object"},
  };
  for (const BadCase& c : cases) {
    json doc = json::parse(c.base);
    c.mutate(doc);
    Result<TableMetadata> m = ParseTableMetadata(doc.dump());
    ASSERT_FALSE(m.ok()) << c.name;
    EXPECT_EQ(m.status().code(), c.code) << c.name << ": " << m.status().ToString();
    EXPECT_NE(m.status().message().find(c.field), std::string::npos)
        << c.name << ": " << m.status().message();
  }
}

TEST(TableMetadata, MalformedText) {
  EXPECT_EQ(ParseTableMetadata("").status().code(), StatusCode::kCorruption);
  EXPECT_EQ(ParseTableMetadata("{\"format-version\": 2").status().code(), StatusCode::kCorruption);
  EXPECT_EQ(ParseTableMetadata(std::string(100000, '[')).status().code(), StatusCode::kCorruption);
  EXPECT_FALSE(ParseTableMetadata("null").ok());
}

TEST(TableMetadata, AbsurdSizesAreRefused) {
  // More than a million schemas: refused before any is parsed.
  json doc = json::parse(kV2);
  doc["schemas"] = json(std::vector<int>(1000001, 0));
  std::string bad = doc.dump();
  Result<TableMetadata> m = ParseTableMetadata(bad);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), StatusCode::kCorruption);
  EXPECT_NE(m.status().message().find("'schemas' has 1000001 entries"), std::string::npos)
      << m.status().message().substr(0, 200);
}

TEST(TableMetadata, WriteValidatesInMemoryMetadata) {
  TableMetadata m = Parse(kV2);
  m.current_schema_id = 42;
  Result<std::string> text = WriteTableMetadata(m);
  ASSERT_FALSE(text.ok());
  EXPECT_NE(text.status().message().find("current-schema-id"), std::string::npos);
}

TEST(TableMetadata, PrettyOutputParses) {
  TableMetadata m = Parse(kV3);
  Result<std::string> text = WriteTableMetadata(m, /*pretty=*/true);
  ASSERT_TRUE(text.ok());
  EXPECT_NE(text->find("\n  \"format-version\": 3"), std::string::npos);
  EXPECT_TRUE(*ParseTableMetadata(*text) == m);
}

}  // namespace
}  // namespace sqe::iceberg
