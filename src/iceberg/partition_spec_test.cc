// Partition specs: JSON round trip (v3 source-ids included), v1 field-id assignment,
// the partition type against a schema.
#include "iceberg/partition_spec.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace sqe::iceberg {
namespace {

TEST(PartitionSpec, RoundTripAndPartitionType) {
  const char* json = R"({"spec-id": 2, "fields": [
      {"source-id": 4, "field-id": 1000, "name": "ts_day", "transform": "day"},
      {"source-id": 1, "field-id": 1001, "name": "id_bucket", "transform": "bucket[16]",
       "x-extra": true},
      {"source-ids": [1, 4], "field-id": 1002, "name": "multi", "transform": "zorder"}]})";
  Result<PartitionSpec> spec = ParsePartitionSpecJson(json);
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  EXPECT_EQ(spec->spec_id(), 2);
  ASSERT_EQ(spec->fields().size(), 3u);
  EXPECT_EQ(spec->fields()[1].transform, Transform::Bucket(16));
  EXPECT_EQ(spec->fields()[2].source_id, 1);
  EXPECT_EQ(spec->fields()[2].source_ids, (std::vector<int32_t>{1, 4}));
  EXPECT_EQ(spec->fields()[2].transform.kind(), TransformKind::kUnknown);
  EXPECT_EQ(spec->LastFieldId(), 1002);
  EXPECT_EQ(nlohmann::json::parse(WritePartitionSpecJson(*spec)), nlohmann::json::parse(json));

  NestedField id;
  id.id = 1;
  id.name = "id";
  id.required = true;
  id.type = Type::Primitive(TypeId::kLong);
  NestedField ts;
  ts.id = 4;
  ts.name = "ts";
  ts.type = Type::Primitive(TypeId::kTimestampTz);
  Schema schema(0, {id, ts});
  PartitionSpec known(2, {spec->fields()[0], spec->fields()[1]});
  Result<TypePtr> type = known.PartitionType(schema);
  ASSERT_TRUE(type.ok()) << type.status().ToString();
  EXPECT_EQ((*type)->ToString(),
            "struct<1000: ts_day: optional date, 1001: id_bucket: optional int>");
  EXPECT_FALSE(spec->PartitionType(schema).ok());  // the unknown transform
  PartitionField orphan;
  orphan.source_id = 99;
  orphan.field_id = 1000;
  orphan.name = "x";
  PartitionSpec missing(3, {orphan});
  EXPECT_FALSE(missing.PartitionType(schema).ok());
}

TEST(PartitionSpec, OneEntrySourceIdsIsASingleSource) {
  Result<PartitionSpec> spec = ParsePartitionSpecJson(
      R"({"spec-id":0,"fields":[{"source-ids":[3],"field-id":1000,"name":"a","transform":"day"}]})");
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  EXPECT_EQ(spec->fields()[0].source_id, 3);
  EXPECT_TRUE(spec->fields()[0].source_ids.empty());
  EXPECT_EQ(nlohmann::json::parse(WritePartitionSpecJson(*spec))["fields"][0]["source-id"], 3);
}

TEST(PartitionSpec, Errors) {
  EXPECT_FALSE(ParsePartitionSpecJson(R"({"fields": []})").ok());
  EXPECT_FALSE(ParsePartitionSpecJson(
                   R"({"spec-id":0,"fields":[{"source-id":1,"name":"a","transform":"identity"}]})")
                   .ok());  // field-id is required outside v1 "partition-spec"
  Result<PartitionSpec> bad = ParsePartitionSpecJson(
      R"({"spec-id":0,"fields":[{"source-id":1,"field-id":1000,"name":"a","transform":"bucket[0]"}]})");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kCorruption);
  EXPECT_NE(bad.status().message().find("'a'"), std::string::npos) << bad.status().message();
  EXPECT_TRUE(PartitionSpec().is_unpartitioned());
}

}  // namespace
}  // namespace sqe::iceberg
