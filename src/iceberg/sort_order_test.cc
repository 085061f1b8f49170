// Sort orders: JSON round trip and the values the spec allows.
#include "iceberg/sort_order.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace sqe::iceberg {
namespace {

TEST(SortOrder, RoundTrip) {
  const char* json = R"({"order-id": 1, "fields": [
      {"transform": "identity", "source-id": 2, "direction": "asc", "null-order": "nulls-first"},
      {"transform": "bucket[4]", "source-id": 3, "direction": "desc", "null-order": "nulls-last"}]})";
  Result<SortOrder> order = ParseSortOrderJson(json);
  ASSERT_TRUE(order.ok()) << order.status().ToString();
  EXPECT_EQ(order->order_id(), 1);
  ASSERT_EQ(order->fields().size(), 2u);
  EXPECT_EQ(order->fields()[1].direction, SortDirection::kDesc);
  EXPECT_EQ(order->fields()[1].null_order, NullOrder::kNullsLast);
  EXPECT_EQ(order->fields()[1].transform, Transform::Bucket(4));
  EXPECT_EQ(nlohmann::json::parse(WriteSortOrderJson(*order)), nlohmann::json::parse(json));
  EXPECT_TRUE(ParseSortOrderJson(R"({"order-id":0,"fields":[]})")->is_unsorted());
}

TEST(SortOrder, Errors) {
  EXPECT_FALSE(ParseSortOrderJson(R"({"order-id":1,"fields":[{"transform":"identity",
      "source-id":2,"direction":"up","null-order":"nulls-first"}]})")
                   .ok());
  EXPECT_FALSE(ParseSortOrderJson(R"({"order-id":1,"fields":[{"transform":"identity",
      "source-id":2,"direction":"asc","null-order":"first"}]})")
                   .ok());
  EXPECT_FALSE(ParseSortOrderJson(R"({"order-id":0,"fields":[{"transform":"identity",
      "source-id":2,"direction":"asc","null-order":"nulls-first"}]})")
                   .ok());
  EXPECT_FALSE(ParseSortOrderJson(R"({"order-id":1})").ok());
}

}  // namespace
}  // namespace sqe::iceberg
