#include "iceberg/columnar_schema.h"

#include <gtest/gtest.h>

namespace sqe::iceberg {
namespace {

TEST(ColumnarSchemaTest, MapsEveryTypeWithFieldIdsAndNullability) {
  auto schema = ParseSchemaJson(R"js({"type": "struct", "schema-id": 0, "fields": [
    {"id": 1, "name": "id", "required": true, "type": "long"},
    {"id": 2, "name": "price", "required": false, "type": "decimal(9,2)"},
    {"id": 3, "name": "ts", "required": false, "type": "timestamptz"},
    {"id": 4, "name": "tags", "required": false, "type":
      {"type": "list", "element-id": 5, "element": "string", "element-required": true}},
    {"id": 6, "name": "attrs", "required": false, "type":
      {"type": "map", "key-id": 7, "key": "string", "value-id": 8, "value": "int",
       "value-required": false}},
    {"id": 9, "name": "loc", "required": false, "type":
      {"type": "struct", "fields": [{"id": 10, "name": "lat", "required": true, "type": "double"}]}},
    {"id": 11, "name": "u", "required": false, "type": "uuid"},
    {"id": 12, "name": "f", "required": false, "type": "fixed[4]"},
    {"id": 13, "name": "d", "required": false, "type": "date"},
    {"id": 14, "name": "tns", "required": false, "type": "timestamp_ns"}]})js");
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  auto c = ToColumnarSchema(*schema);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  const auto& fields = (*c)->fields();
  ASSERT_EQ(fields.size(), 10u);
  EXPECT_EQ(fields[0].field_id(), 1);
  EXPECT_FALSE(fields[0].nullable());
  EXPECT_EQ(fields[0].type()->id(), columnar::TypeId::kInt64);
  EXPECT_EQ(fields[1].type()->id(), columnar::TypeId::kDecimal128);
  EXPECT_EQ(fields[2].type()->id(), columnar::TypeId::kTimestamp);
  EXPECT_EQ(fields[3].type()->id(), columnar::TypeId::kList);
  EXPECT_EQ(fields[3].type()->field(0).field_id(), 5);
  EXPECT_FALSE(fields[3].type()->field(0).nullable());
  EXPECT_EQ(fields[4].type()->id(), columnar::TypeId::kMap);
  EXPECT_EQ(fields[5].type()->field(0).field_id(), 10);
  EXPECT_EQ(fields[6].type()->id(), columnar::TypeId::kUuid);
  EXPECT_EQ(fields[7].type()->id(), columnar::TypeId::kFixedSizeBinary);
  EXPECT_EQ(fields[8].type()->id(), columnar::TypeId::kDate32);
}

TEST(ColumnarSchemaTest, UnsupportedTypesNameTheColumn) {
  auto schema = ParseSchemaJson(R"js({"type": "struct", "schema-id": 0, "fields": [
    {"id": 1, "name": "v", "required": false, "type": "variant"}]})js");
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  auto c = ToColumnarSchema(*schema);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), StatusCode::kNotImplemented);
  EXPECT_NE(c.status().message().find("'v'"), std::string::npos);
}

}  // namespace
}  // namespace sqe::iceberg
