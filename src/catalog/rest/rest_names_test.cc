#include "catalog/rest/rest_names.h"

#include <gtest/gtest.h>

namespace sqe::catalog {
namespace {

TEST(RestNamesTest, PercentDecodeLeavesBadEscapesAlone) {
  EXPECT_EQ(PercentDecode("a%1Fb"),
            "a\x1f"
            "b");
  EXPECT_EQ(PercentDecode("sales%20eu"), "sales eu");
  EXPECT_EQ(PercentDecode("100%"), "100%");
  EXPECT_EQ(PercentDecode("%zz%4"), "%zz%4");
  EXPECT_EQ(PercentDecode("plain"), "plain");
}

TEST(RestNamesTest, NamespaceLevelsSplitOnUnitSeparator) {
  auto ns = NamespaceFromParameter("accounting\x1ftax");
  ASSERT_TRUE(ns.ok());
  EXPECT_EQ(*ns, (Namespace{"accounting", "tax"}));
  EXPECT_EQ(NamespaceToParameter(*ns), "accounting\x1ftax");
  EXPECT_FALSE(NamespaceFromParameter("a\x1f").ok());
  EXPECT_FALSE(NamespaceFromParameter("").ok());
}

TEST(RestNamesTest, TableIdentifierJson) {
  auto id = TableIdentifierFromJson(nlohmann::json::parse(R"({"namespace":["a","b"],"name":"t"})"),
                                    "source");
  ASSERT_TRUE(id.ok());
  EXPECT_EQ(id->ns, (Namespace{"a", "b"}));
  EXPECT_EQ(id->name, "t");
  EXPECT_EQ(TableIdentifierToJson(*id).dump(), R"({"name":"t","namespace":["a","b"]})");
  auto bad = TableIdentifierFromJson(nlohmann::json::parse(R"({"namespace":"a"})"), "source");
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace sqe::catalog
