#include <gtest/gtest.h>

#include "exec/functions/scalar_test_harness.h"

namespace sqe::exec {
namespace {

using columnar::testing::Int64s;
using columnar::testing::Strings;
using testing::Eval;

TEST(JsonFunctions, ParseSortsKeysAndRejectsInvalidText) {
  EXPECT_EQ(Eval("json_parse", {Strings({R"({"b": 1, "a": [1, 2.5, null]})", std::nullopt})}),
            R"({"a":[1,2.5,null],"b":1}, NULL)");
  EXPECT_EQ(Eval("json_parse", {Strings({"{abc"})}), "error: Cannot convert value to JSON: '{abc'");
}

TEST(JsonFunctions, ExtractFollowsPaths) {
  auto doc = Strings({R"({"a": {"b": [10, {"c": "x"}]}, "k y": true})"});
  EXPECT_EQ(Eval("json_extract", {doc, Strings({"$.a.b[1]"})}), R"({"c":"x"})");
  EXPECT_EQ(Eval("json_extract", {doc, Strings({"$.a.b[5]"})}), "NULL");
  EXPECT_EQ(Eval("json_extract_scalar", {doc, Strings({"$.a.b[1].c"})}), "x");
  EXPECT_EQ(Eval("json_extract_scalar", {doc, Strings({"$[\"k y\"]"})}), "true");
  EXPECT_EQ(Eval("json_extract_scalar", {doc, Strings({"$.a"})}), "NULL");
  EXPECT_EQ(Eval("json_extract", {doc, Strings({"a.b"})}),
            "error: Invalid JSON path: 'a.b' at position 1: unexpected 'a'; a path starts with "
            "'$'");
  EXPECT_EQ(Eval("json_value", {doc, Strings({"lax $.a.b[0]"})}), "10");
  EXPECT_EQ(Eval("json_query", {doc, Strings({"strict $.a.b"})}), R"([10,{"c":"x"}])");
}

TEST(JsonFunctions, LegacyPathsRefuseWildcardsWithTheirPosition) {
  auto doc = Strings({R"({"a": [{"b": 1}, {"b": 2}], "0": "zero"})"});
  EXPECT_EQ(Eval("json_extract", {doc, Strings({"$.a[*].b"})}).substr(0, 52),
            "error: Invalid JSON path: '$.a[*].b' at position 5: ");
  EXPECT_EQ(Eval("json_extract", {doc, Strings({"$.*"})}).substr(0, 47),
            "error: Invalid JSON path: '$.*' at position 3: ");
  // A key of digits indexes an array and names an object member, as in Trino.
  EXPECT_EQ(Eval("json_extract", {doc, Strings({"$.a.1.b"})}), "2");
  EXPECT_EQ(Eval("json_extract_scalar", {doc, Strings({"$[0]"})}), "zero");
  EXPECT_EQ(Eval("json_extract_scalar", {doc, Strings({R"($["a"][0]["b"])"})}), "1");
}

TEST(JsonFunctions, SqlJsonPathsTakeWildcardsAndRanges) {
  auto doc = Strings({R"({"a": [{"b": 1}, {"b": [2, 3]}], "c": {"d": 4}})"});
  // Exactly one item, else NULL (no array wrapper).
  EXPECT_EQ(Eval("json_value", {doc, Strings({"lax $.a[0].b"})}), "1");
  EXPECT_EQ(Eval("json_value", {doc, Strings({"lax $.a[*].b"})}), "NULL");
  EXPECT_EQ(Eval("json_value", {doc, Strings({"lax $.c.*"})}), "4");
  EXPECT_EQ(Eval("json_query", {doc, Strings({"lax $.a[last].b"})}), "[2,3]");
  EXPECT_EQ(Eval("json_value", {doc, Strings({"lax $.a[1].b[last - 1]"})}), "2");
  EXPECT_EQ(Eval("json_query", {doc, Strings({"lax $.a[0 to 0]"})}), R"({"b":1})");
  // Lax: a member step unwraps an array; strict: it is an error, so NULL.
  EXPECT_EQ(Eval("json_query", {doc, Strings({"lax $.a.b"})}), "NULL");  // two items
  EXPECT_EQ(
      Eval("json_value", {Strings({R"({"a": [{"b": 1}, {"x": 2}]})"}), Strings({"lax $.a.b"})}),
      "1");
  EXPECT_EQ(Eval("json_query", {doc, Strings({"strict $.a.b"})}), "NULL");
  EXPECT_EQ(Eval("json_value", {doc, Strings({"strict $.c[0].d"})}), "NULL");
  EXPECT_EQ(Eval("json_value", {doc, Strings({"lax $.c[0].d"})}), "4");
  EXPECT_EQ(Eval("json_value", {doc, Strings({"lax $.a[0 to"})}),
            "error: Invalid JSON path: 'lax $.a[0 to' at position 13: unexpected end of the "
            "path; an array subscript is a number, last, last - n, n to m or *");
}

TEST(JsonFunctions, SizesAndScalars) {
  auto docs = Strings({"[1, 2, 3]", R"({"a": 1})", "7", "not json"});
  EXPECT_EQ(Eval("json_array_length", {docs}), "3, NULL, NULL, NULL");
  EXPECT_EQ(Eval("json_size", {docs, Strings({"$", "$", "$", "$"})}), "3, 1, 0, NULL");
  EXPECT_EQ(Eval("is_json_scalar", {Strings({"1", "[1]", "\"s\""})}), "true, false, true");
  EXPECT_EQ(Eval("json_array_get", {Strings({"[1, [2]]", "[1, [2]]", "[1]"}), Int64s({1, -2, 3})}),
            "[2], 1, NULL");
  EXPECT_EQ(Eval("json_array_contains", {Strings({"[1, 2]", "[\"a\"]", "{}"}), Int64s({2, 2, 2})}),
            "true, false, NULL");
}

}  // namespace
}  // namespace sqe::exec
