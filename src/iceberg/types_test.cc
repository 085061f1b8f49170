// Iceberg type JSON (Appendix C): every primitive spelling, parameters with whitespace,
// nested struct/list/map with defaults and unknown fields, and malformed input.
#include "iceberg/types.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace sqe::iceberg {
namespace {

TEST(Types, PrimitiveSpellingsRoundTrip) {
  for (const char* name : {"unknown",
                           "boolean",
                           "int",
                           "long",
                           "float",
                           "double",
                           "date",
                           "time",
                           "timestamp",
                           "timestamptz",
                           "timestamp_ns",
                           "timestamptz_ns",
                           "string",
                           "uuid",
                           "binary",
                           "variant",
                           "decimal(9,2)",
                           "fixed[16]",
                           "geometry",
                           "geometry(srid:4326)",
                           "geography",
                           "geography(srid:4326, spherical)",
                           "geography(OGC:CRS84)"}) {
    Result<TypePtr> t = Type::ParsePrimitive(name);
    ASSERT_TRUE(t.ok()) << name << ": " << t.status().ToString();
    EXPECT_EQ((*t)->ToString(), name);
  }
}

TEST(Types, ParametersAcceptWhitespace) {
  TypePtr d = *Type::ParsePrimitive("decimal( 38 , 10 )");
  EXPECT_EQ(d->id(), TypeId::kDecimal);
  EXPECT_EQ(d->precision(), 38);
  EXPECT_EQ(d->scale(), 10);
  EXPECT_EQ(d->ToString(), "decimal(38,10)");
  EXPECT_EQ((*Type::ParsePrimitive("decimal(9, 2)"))->ToString(), "decimal(9,2)");
  EXPECT_EQ((*Type::ParsePrimitive("fixed[ 3 ]"))->length(), 3);
  TypePtr g = *Type::ParsePrimitive("geography( EPSG:4326 ,  vincenty )");
  EXPECT_EQ(g->crs(), "EPSG:4326");
  EXPECT_EQ(g->algorithm(), "vincenty");
}

TEST(Types, RejectsMalformedPrimitives) {
  for (const char* bad :
       {"decimal(39,2)", "decimal(0,0)", "decimal(5,6)", "decimal(9)", "decimal(a,b)",
        "decimal(-1,2)", "fixed[0]", "fixed[]", "fixed[x]", "fixed[99999999999]", "integer", "",
        "struct", "geometry()", "geography(c, )"}) {
    Result<TypePtr> t = Type::ParsePrimitive(bad);
    EXPECT_FALSE(t.ok()) << bad;
    if (!t.ok()) {
      EXPECT_EQ(t.status().code(), StatusCode::kCorruption) << bad;
    }
  }
}

TEST(Types, NestedJsonRoundTrip) {
  const char* json = R"js({
    "type": "struct",
    "fields": [
      {"id": 1, "name": "id", "required": true, "type": "uuid",
       "initial-default": "0db3e2a8-9d1d-42b9-aa7b-74ebe558dceb",
       "write-default": "ec5911be-b0a7-458c-8438-c9a3e53cffae"},
      {"id": 2, "name": "data", "required": false, "doc": "payload",
       "type": {"type": "list", "element-id": 3, "element-required": true, "element": "string"}},
      {"id": 4, "name": "attrs", "required": false,
       "type": {"type": "map", "key-id": 5, "key": "string", "value-id": 6,
                "value-required": false, "value": "double", "x-map-extra": 1}},
      {"id": 7, "name": "point", "required": false, "initial-default": {},
       "type": {"type": "struct", "fields": [
         {"id": 8, "name": "x", "required": true, "type": "double", "write-default": 0.0},
         {"id": 9, "name": "y", "required": true, "type": "decimal(9, 2)", "x-field": [1, 2]}]}}
    ]})js";
  Result<TypePtr> t = ParseTypeJson(json);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  const Type& s = **t;
  ASSERT_EQ(s.id(), TypeId::kStruct);
  ASSERT_EQ(s.fields().size(), 4u);
  EXPECT_TRUE(s.fields()[0].required);
  EXPECT_EQ(s.fields()[0].initial_default_json, "\"0db3e2a8-9d1d-42b9-aa7b-74ebe558dceb\"");
  EXPECT_EQ(s.fields()[1].doc, "payload");
  const Type& list = *s.fields()[1].type;
  EXPECT_EQ(list.id(), TypeId::kList);
  EXPECT_EQ(list.element().id, 3);
  EXPECT_TRUE(list.element().required);
  EXPECT_EQ(list.element().type->id(), TypeId::kString);
  const Type& map = *s.fields()[2].type;
  EXPECT_EQ(map.key().id, 5);
  EXPECT_EQ(map.value().id, 6);
  EXPECT_FALSE(map.value().required);
  EXPECT_EQ(map.extra_json(), R"({"x-map-extra":1})");
  EXPECT_EQ(s.fields()[3].initial_default_json, "{}");
  EXPECT_EQ(s.fields()[3].type->fields()[1].extra_json, R"({"x-field":[1,2]})");

  std::string written = WriteTypeJson(s);
  Result<TypePtr> again = ParseTypeJson(written);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_TRUE((*again)->Equals(s));
  // Everything the input said is in the output (decimal spelling canonicalised).
  nlohmann::json in = nlohmann::json::parse(json);
  in["fields"][3]["type"]["fields"][1]["type"] = "decimal(9,2)";
  EXPECT_EQ(nlohmann::json::parse(written), in);
}

TEST(Types, NestedErrorsNameTheField) {
  Result<TypePtr> t = ParseTypeJson(
      R"({"type":"struct","fields":[{"id":1,"name":"a","required":"yes","type":"int"}]})");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), StatusCode::kCorruption);
  EXPECT_NE(t.status().message().find("'required'"), std::string::npos) << t.status().message();
  t = ParseTypeJson(
      R"({"type":"struct","fields":[{"id":-4,"name":"a","required":true,"type":"int"}]})");
  EXPECT_FALSE(t.ok());
  t = ParseTypeJson(R"({"type":"list","element-id":1,"element":"int"})");
  EXPECT_FALSE(t.ok());
  t = ParseTypeJson(R"({"type":"tuple"})");
  EXPECT_FALSE(t.ok());
  t = ParseTypeJson(
      R"({"type":"map","key-id":1,"key":"string","value-id":2,"value-required":true,"value":"nope"})");
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("nope"), std::string::npos);
  EXPECT_FALSE(ParseTypeJson("[1,2").ok());
  EXPECT_FALSE(ParseTypeJson("42").ok());
}

TEST(Types, DeepNestingIsRefused) {
  std::string json;
  for (int i = 0; i < 200; ++i)
    json += R"({"type":"list","element-id":1,"element-required":true,"element":)";
  json += "\"int\"";
  for (int i = 0; i < 200; ++i) json += "}";
  Result<TypePtr> t = ParseTypeJson(json);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), StatusCode::kCorruption);
}

}  // namespace
}  // namespace sqe::iceberg
