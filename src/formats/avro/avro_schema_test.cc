#include "formats/avro/avro_schema.h"

#include <gtest/gtest.h>

#include "formats/avro/test_schemas.h"

namespace sqe::avro {
namespace {

TEST(AvroSchema, ParsesIcebergManifestEntry) {
  auto schema = Schema::Parse(testing::kManifestEntrySchema);
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  const Node& root = (*schema)->root();
  ASSERT_EQ(root.type, AvroType::kRecord);
  EXPECT_EQ(root.name, "manifest_entry");
  ASSERT_EQ(root.fields.size(), 3u);
  EXPECT_EQ(root.fields[0].field_id, 0);
  EXPECT_EQ(root.fields[1].type->type, AvroType::kUnion);
  EXPECT_EQ(root.fields[1].type->OptionalBranch(), 1);
  EXPECT_TRUE(root.fields[1].default_value->is_null());
  const Node& data_file = *root.fields[2].type;
  EXPECT_EQ(data_file.FieldIndexById(103), 3);
  EXPECT_EQ(data_file.fields[0].doc, "Location URI");
  const Node& day = *data_file.fields[2].type->fields[0].type->branches[1];
  EXPECT_EQ(day.logical, LogicalType::kDate);
  const Node& sizes = *data_file.fields[4].type->branches[1];
  EXPECT_EQ(sizes.type, AvroType::kArray);
  EXPECT_EQ(sizes.attributes["logicalType"], "map");  // unknown logical type kept
  const Node& offsets = *data_file.fields[6].type->branches[1];
  EXPECT_EQ(offsets.element_id, 133);
  const Node& props = *data_file.fields[7].type->branches[1];
  EXPECT_EQ(props.key_id, 141);
  EXPECT_EQ(props.value_id, 142);
}

TEST(AvroSchema, WritesWhatItParsed) {
  auto schema = Schema::Parse(testing::kManifestEntrySchema);
  ASSERT_TRUE(schema.ok());
  std::string text = (*schema)->ToString();
  auto again = Schema::Parse(text);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ((*again)->ToString(), text);
  EXPECT_NE(text.find("\"field-id\":100"), std::string::npos);
  EXPECT_NE(text.find("\"element-id\":133"), std::string::npos);
  EXPECT_NE(text.find("\"key-id\":141"), std::string::npos);
}

TEST(AvroSchema, NamedReferencesAndRecursion) {
  auto schema = Schema::Parse(R"({"type":"record","name":"Node","namespace":"a.b","fields":[
      {"name":"value","type":{"type":"fixed","name":"F16","size":16,"logicalType":"uuid"}},
      {"name":"copy","type":"F16"},
      {"name":"next","type":["null","Node"]},
      {"name":"amount","type":{"type":"bytes","logicalType":"decimal","precision":9,"scale":2}},
      {"name":"ts","type":{"type":"long","logicalType":"timestamp-nanos"}},
      {"name":"e","type":{"type":"enum","name":"E","symbols":["A","B"],"default":"A"}}]})");
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  const Node& root = (*schema)->root();
  EXPECT_EQ(root.name, "a.b.Node");
  EXPECT_EQ(root.fields[0].type, root.fields[1].type);
  EXPECT_EQ(root.fields[0].type->logical, LogicalType::kUuid);
  EXPECT_EQ(root.fields[2].type->branches[1], &root);
  EXPECT_EQ(root.fields[3].type->logical, LogicalType::kDecimal);
  EXPECT_EQ(root.fields[3].type->scale, 2);
  EXPECT_EQ(root.fields[4].type->logical, LogicalType::kTimestampNanos);
  EXPECT_EQ(root.fields[5].type->enum_default, "A");
  auto again = Schema::Parse((*schema)->ToString());
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ((*again)->ToString(), (*schema)->ToString());
}

TEST(AvroSchema, RejectsBadSchemas) {
  const char* bad[] = {
      "",
      "{",
      "42",
      R"({"type":"record","fields":[]})",
      R"({"type":"nope"})",
      R"(["int",["long"]])",
      R"(["int","int"])",
      "[]",
      R"({"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"a","type":"int"}]})",
      R"({"type":"fixed","name":"F","size":-1})",
      R"({"type":"array"})",
      R"({"type":"enum","name":"E","symbols":["A"],"default":"B"})",
      R"({"type":"record","name":"R","fields":[{"name":"a","type":"int","field-id":"x"}]})"};
  for (const char* text : bad) {
    auto schema = Schema::Parse(text);
    EXPECT_FALSE(schema.ok()) << text;
    if (!schema.ok()) {
      EXPECT_EQ(schema.status().code(), StatusCode::kInvalidArgument) << text;
    }
  }
  // Deep nesting is refused, not a stack overflow.
  std::string deep;
  for (int i = 0; i < 5000; ++i) deep += R"({"type":"array","items":)";
  deep += "\"int\"";
  for (int i = 0; i < 5000; ++i) deep += "}";
  EXPECT_FALSE(Schema::Parse(deep).ok());
}

}  // namespace
}  // namespace sqe::avro
