// Schema: JSON with schema-id and identifier-field-ids, lookups by id and dotted name.
#include "iceberg/schema.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace sqe::iceberg {
namespace {

constexpr const char* kSchema = R"({
  "type": "struct", "schema-id": 3, "identifier-field-ids": [1],
  "fields": [
    {"id": 1, "name": "id", "required": true, "type": "long"},
    {"id": 2, "name": "Location", "required": false, "type": {"type": "struct", "fields": [
      {"id": 3, "name": "lat", "required": false, "type": "double"},
      {"id": 4, "name": "long", "required": false, "type": "double"}]}},
    {"id": 5, "name": "tags", "required": false,
     "type": {"type": "list", "element-id": 6, "element-required": false, "element": "string"}},
    {"id": 7, "name": "points", "required": false,
     "type": {"type": "list", "element-id": 8, "element-required": true, "element":
       {"type": "struct", "fields": [{"id": 9, "name": "x", "required": true, "type": "int"}]}}},
    {"id": 10, "name": "attrs", "required": false,
     "type": {"type": "map", "key-id": 11, "key": "string", "value-id": 12,
              "value-required": true, "value": "int"}}
  ],
  "x-schema-extra": "kept"
})";

TEST(Schema, ParseAndLookups) {
  Result<Schema> parsed = ParseSchemaJson(kSchema);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  const Schema& s = *parsed;
  EXPECT_EQ(s.schema_id(), 3);
  EXPECT_EQ(s.identifier_field_ids(), std::vector<int32_t>{1});
  EXPECT_EQ(s.HighestFieldId(), 12);
  ASSERT_EQ(s.fields().size(), 5u);
  EXPECT_EQ(s.FindFieldById(4)->name, "long");
  EXPECT_EQ(s.FindFieldById(12)->name, "value");
  EXPECT_EQ(s.FindFieldById(99), nullptr);
  EXPECT_EQ(s.FindFieldByName("Location.lat")->id, 3);
  EXPECT_EQ(s.FindFieldByName("location.lat"), nullptr);
  EXPECT_EQ(s.FindFieldByName("location.LAT", false)->id, 3);
  EXPECT_EQ(s.FindFieldByName("tags.element")->id, 6);
  EXPECT_EQ(s.FindFieldByName("points.element.x")->id, 9);
  EXPECT_EQ(s.FindFieldByName("points.x")->id, 9);
  EXPECT_EQ(s.FindFieldByName("attrs.key")->id, 11);
  EXPECT_EQ(s.FindFieldByName("attrs.value")->id, 12);
  EXPECT_EQ(s.FindNameById(9), "points.element.x");
  EXPECT_EQ(s.extra_json(), R"({"x-schema-extra":"kept"})");
}

TEST(Schema, CopiesKeepValidLookups) {
  Schema copy;
  {
    Schema original = *ParseSchemaJson(kSchema);
    copy = original;
  }
  ASSERT_NE(copy.FindFieldById(9), nullptr);
  EXPECT_EQ(copy.FindFieldById(9)->name, "x");
}

TEST(Schema, RoundTrip) {
  Schema s = *ParseSchemaJson(kSchema);
  std::string written = WriteSchemaJson(s);
  EXPECT_EQ(nlohmann::json::parse(written), nlohmann::json::parse(kSchema));
  Result<Schema> again = ParseSchemaJson(written);
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->Equals(s));
}

TEST(Schema, Errors) {
  Result<Schema> dup = ParseSchemaJson(R"({"type":"struct","schema-id":0,"fields":[
      {"id":1,"name":"a","required":true,"type":"int"},
      {"id":1,"name":"b","required":true,"type":"int"}]})");
  ASSERT_FALSE(dup.ok());
  EXPECT_NE(dup.status().message().find("not unique"), std::string::npos);
  EXPECT_FALSE(ParseSchemaJson(R"({"type":"struct","schema-id":0,"identifier-field-ids":[7],
      "fields":[{"id":1,"name":"a","required":true,"type":"int"}]})")
                   .ok());
  EXPECT_FALSE(ParseSchemaJson(R"({"type":"list","schema-id":0,"fields":[]})").ok());
  EXPECT_FALSE(ParseSchemaJson(R"({"type":"struct","schema-id":"0","fields":[]})").ok());
  EXPECT_FALSE(ParseSchemaJson(R"({"type":"struct","schema-id":0})").ok());
  EXPECT_TRUE(ParseSchemaJson(R"({"type":"struct","fields":[]})").ok());
}

}  // namespace
}  // namespace sqe::iceberg
