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
  EXPECT_EQ(Eval("json_extract", {doc, Strings({"a.b"})}), "error: Invalid JSON path: 'a.b'");
  EXPECT_EQ(Eval("json_value", {doc, Strings({"lax $.a.b[0]"})}), "10");
  EXPECT_EQ(Eval("json_query", {doc, Strings({"strict $.a.b"})}), R"([10,{"c":"x"}])");
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
