#include "formats/avro/avro_resolve.h"

#include <gtest/gtest.h>

#include "formats/avro/avro_json.h"
#include "formats/avro/container_reader.h"
#include "formats/avro/container_writer.h"
#include "io/memory_file.h"

namespace sqe::avro {
namespace {

SchemaPtr Parse(const char* text) {
  auto s = Schema::Parse(text);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return *s;
}

Result<Value> ResolveJson(const char* writer, const char* reader, const Json& datum) {
  SchemaPtr w = Parse(writer);
  SchemaPtr r = Parse(reader);
  SQE_ASSIGN_OR_RETURN(Value v, ValueFromJson(datum, w->root(), JsonBytes::kBase64));
  SQE_ASSIGN_OR_RETURN(auto resolver, SchemaResolver::Make(w, r));
  SQE_RETURN_NOT_OK(resolver->Resolve(&v));
  return v;
}

TEST(AvroResolve, ByFieldIdEvenWhenRenamedAndReordered) {
  const char* writer = R"({"type":"record","name":"w","fields":[
      {"name":"a","type":"int","field-id":1},
      {"name":"b","type":"string","field-id":2},
      {"name":"dropped","type":"long","field-id":3}]})";
  const char* reader = R"({"type":"record","name":"r","fields":[
      {"name":"renamed_b","type":"bytes","field-id":2},
      {"name":"a","type":"long","field-id":1},
      {"name":"added","type":["null","int"],"field-id":4},
      {"name":"with_default","type":"string","default":"x","field-id":5}]})";
  auto v = ResolveJson(writer, reader, {{"a", 7}, {"b", "hi"}, {"dropped", 9}});
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  EXPECT_EQ(*v,
            Value::Record({Value::Bytes("hi"), Value::Long(7), Value::Null(), Value::String("x")}));
  EXPECT_EQ(v->field(2).union_branch(), 0);
}

TEST(AvroResolve, SameIdDifferentNameWinsOverSameNameDifferentId) {
  const char* writer = R"({"type":"record","name":"w","fields":[
      {"name":"x","type":"int","field-id":1},{"name":"y","type":"int","field-id":2}]})";
  const char* reader = R"({"type":"record","name":"r","fields":[
      {"name":"y","type":"int","field-id":1}]})";
  auto v = ResolveJson(writer, reader, {{"x", 1}, {"y", 2}});
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(*v, Value::Record({Value::Int(1)}));
}

TEST(AvroResolve, ByNameWithoutIdsAndPromotions) {
  const char* writer = R"({"type":"record","name":"w","fields":[
      {"name":"i","type":"int"},{"name":"l","type":"long"},{"name":"f","type":"float"},
      {"name":"s","type":["null","string"]},{"name":"u","type":"int"},
      {"name":"e","type":{"type":"enum","name":"E","symbols":["A","B","C"]}},
      {"name":"arr","type":{"type":"array","items":"int"}}]})";
  const char* reader = R"({"type":"record","name":"r","fields":[
      {"name":"arr","type":{"type":"array","items":"double"}},
      {"name":"i","type":"double"},{"name":"l","type":"float"},{"name":"f","type":"double"},
      {"name":"s","type":["null","bytes"]},{"name":"u","type":["null","long"]},
      {"name":"e","type":{"type":"enum","name":"E","symbols":["C","A"],"default":"A"}}]})";
  auto v = ResolveJson(
      writer, reader,
      {{"i", 3}, {"l", 4}, {"f", 1.5}, {"s", "t"}, {"u", 5}, {"e", "B"}, {"arr", {1, 2}}});
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  EXPECT_EQ(*v, Value::Record({Value::Array({Value::Double(1), Value::Double(2)}), Value::Double(3),
                               Value::Float(4), Value::Double(1.5), Value::Bytes("t"),
                               Value::Long(5), Value::Enum(1)}));
  EXPECT_EQ(v->field(5).union_branch(), 1);
}

TEST(AvroResolve, RequiredFieldMissingIsCorruption) {
  const char* writer =
      R"({"type":"record","name":"w","fields":[{"name":"a","type":"int","field-id":1}]})";
  const char* reader =
      R"({"type":"record","name":"r","fields":[{"name":"b","type":"int","field-id":2}]})";
  auto r = SchemaResolver::Make(Parse(writer), Parse(reader));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kCorruption);
  EXPECT_NE(r.status().message().find("field-id 2"), std::string::npos);
}

TEST(AvroResolve, IncompatibleTypesAreRefused) {
  auto r = SchemaResolver::Make(Parse(R"("string")"), Parse(R"("int")"));
  EXPECT_FALSE(r.ok());
  auto same = SchemaResolver::Make(Parse(R"(["null","long"])"), Parse(R"(["null","long"])"));
  ASSERT_TRUE(same.ok());
  EXPECT_TRUE((*same)->identity());
}

TEST(AvroResolve, WriterUnionToPlainReaderType) {
  auto v = ResolveJson(R"(["null","int"])", R"("long")", Json(5));
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  EXPECT_EQ(*v, Value::Long(5));
  EXPECT_EQ(v->union_branch(), -1);
  auto null = ResolveJson(R"(["null","int"])", R"("long")", Json(nullptr));
  ASSERT_FALSE(null.ok());
  EXPECT_EQ(null.status().code(), StatusCode::kCorruption);
}

TEST(AvroResolve, UnknownEnumSymbolWithoutDefaultFailsOnUse) {
  const char* writer = R"({"type":"enum","name":"E","symbols":["A","B"]})";
  const char* reader = R"({"type":"enum","name":"E","symbols":["B"]})";
  auto b = ResolveJson(writer, reader, Json("B"));
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(*b, Value::Enum(0));
  EXPECT_EQ(ResolveJson(writer, reader, Json("A")).status().code(), StatusCode::kCorruption);
}

TEST(AvroResolve, DefaultsUseTheSpecEncoding) {
  const char* writer = R"({"type":"record","name":"w","fields":[]})";
  const char* reader = R"({"type":"record","name":"r","fields":[
      {"name":"b","type":"bytes","default":"\u00ff\u0001"},
      {"name":"f","type":{"type":"fixed","name":"F2","size":2},"default":"ab"},
      {"name":"u","type":["int","null"],"default":3},
      {"name":"m","type":{"type":"map","values":"long"},"default":{"k":1}},
      {"name":"a","type":{"type":"array","items":"float"},"default":[1.5]},
      {"name":"rec","type":{"type":"record","name":"in","fields":[
          {"name":"x","type":"int","default":9}]},"default":{}}]})";
  auto v = ResolveJson(writer, reader, Json::object());
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  Value expected_u = Value::Int(3);
  EXPECT_EQ(*v,
            Value::Record({Value::Bytes(std::string("\xff\x01", 2)), Value::Fixed("ab"), expected_u,
                           Value::Map({{"k", Value::Long(1)}}), Value::Array({Value::Float(1.5f)}),
                           Value::Record({Value::Int(9)})}));
  EXPECT_EQ(v->field(2).union_branch(), 0);
  // A default that does not fit its type is refused when the resolver is built.
  auto bad = SchemaResolver::Make(
      Parse(writer),
      Parse(R"({"type":"record","name":"r","fields":[{"name":"x","type":"int","default":"no"}]})"));
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
}

TEST(AvroResolve, ContainerReaderAppliesReaderSchema) {
  SchemaPtr w = Parse(R"({"type":"record","name":"w","fields":[
      {"name":"id","type":"int","field-id":1},{"name":"name","type":"string","field-id":2}]})");
  SchemaPtr r = Parse(R"({"type":"record","name":"r","fields":[
      {"name":"name","type":"string","field-id":2},{"name":"id","type":"long","field-id":1},
      {"name":"extra","type":["null","string"],"field-id":3}]})");
  auto out = std::make_shared<io::MemoryOutputStream>();
  auto writer = ContainerWriter::Open(out, w, {});
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->Append(Value::Record({Value::Int(1), Value::String("a")})).ok());
  ASSERT_TRUE((*writer)->Close().ok());
  ContainerReaderOptions options;
  options.reader_schema = r;
  auto reader = ContainerReader::Open(out->data(), options);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ((*reader)->schema(), r);
  auto all = (*reader)->ReadAll();
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 1u);
  EXPECT_EQ((*all)[0], Value::Record({Value::String("a"), Value::Long(1), Value::Null()}));
}

}  // namespace
}  // namespace sqe::avro
