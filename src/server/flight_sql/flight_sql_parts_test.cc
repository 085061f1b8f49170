// The pieces of the Flight SQL server that need no network: LIKE patterns, handles,
// status mapping, the SqlInfo facts and the metadata result schemas.

#include <gtest/gtest.h>

#include "columnar/test_columns.h"
#include "server/flight_sql/grpc_status.h"
#include "server/flight_sql/handle_table.h"
#include "server/flight_sql/metadata_results.h"
#include "server/flight_sql/sql_info.h"

namespace sqe::server::flight_sql {
namespace {

TEST(MatchesPatternTest, PercentUnderscoreAndEscapes) {
  EXPECT_TRUE(MatchesPattern("orders", "orders"));
  EXPECT_TRUE(MatchesPattern("orders", "%"));
  EXPECT_TRUE(MatchesPattern("orders", "ord%"));
  EXPECT_TRUE(MatchesPattern("orders", "%der%"));
  EXPECT_TRUE(MatchesPattern("orders", "o_d_rs"));
  EXPECT_TRUE(MatchesPattern("", "%"));
  EXPECT_FALSE(MatchesPattern("orders", "order"));
  EXPECT_FALSE(MatchesPattern("orders", "_"));
  EXPECT_FALSE(MatchesPattern("", "_"));
  EXPECT_TRUE(MatchesPattern("a_b", "a\\_b"));
  EXPECT_FALSE(MatchesPattern("axb", "a\\_b"));
  EXPECT_TRUE(MatchesPattern("a%b", "a\\%b"));
  EXPECT_TRUE(MatchesPattern("abcabc", "%abc"));
}

TEST(HandleTableTest, BoundToTheUserSingleUseAndUnguessable) {
  HandleTable<std::string> table("ticket", std::chrono::seconds(60), 2);
  SQE_ASSIGN_OR_FAIL(std::string h1, table.Add("alice", std::make_shared<std::string>("q1")));
  SQE_ASSIGN_OR_FAIL(std::string h2, table.Add("alice", std::make_shared<std::string>("q2")));
  EXPECT_EQ(h1.size(), 32u);
  EXPECT_NE(h1, h2);
  // The table is full.
  EXPECT_EQ(table.Add("bob", std::make_shared<std::string>("q3")).status().code(),
            StatusCode::kResourceExhausted);
  // Bob may not use (nor consume) Alice's handle.
  EXPECT_EQ(table.Take(h1, "bob").status().code(), StatusCode::kPermissionDenied);
  SQE_ASSIGN_OR_FAIL(auto value, table.Take(h1, "alice"));
  EXPECT_EQ(*value, "q1");
  EXPECT_EQ(table.Take(h1, "alice").status().code(), StatusCode::kNotFound);
  SQE_ASSIGN_OR_FAIL(auto kept, table.Get(h2, "alice"));
  EXPECT_EQ(*kept, "q2");
  SQE_EXPECT_OK(table.Remove(h2, "alice"));
  EXPECT_EQ(table.size(), 0u);
}

TEST(HandleTableTest, ExpiredHandlesAreGone) {
  HandleTable<int> table("prepared statement", std::chrono::seconds(0), 10);
  SQE_ASSIGN_OR_FAIL(std::string h, table.Add("alice", std::make_shared<int>(1)));
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(table.Get(h, "alice").status().code(), StatusCode::kNotFound);
}

TEST(GrpcStatusTest, CodesMapOneToOne) {
  EXPECT_TRUE(ToGrpcStatus(Status::OK()).ok());
  EXPECT_EQ(ToGrpcCode(StatusCode::kInvalidArgument), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(ToGrpcCode(StatusCode::kUnauthenticated), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(ToGrpcCode(StatusCode::kPermissionDenied), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(ToGrpcCode(StatusCode::kResourceExhausted), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(ToGrpcCode(StatusCode::kCancelled), grpc::StatusCode::CANCELLED);
  EXPECT_EQ(ToGrpcCode(StatusCode::kNotFound), grpc::StatusCode::NOT_FOUND);
  grpc::Status s = ToGrpcStatus(Status::InvalidArgument("line 1:8: column 'x' cannot be resolved"));
  EXPECT_EQ(s.error_message(), "line 1:8: column 'x' cannot be resolved");
}

TEST(SqlInfoTest, SelectionKeepsTheRequestedOrderAndDropsUnknownCodes) {
  std::vector<SqlInfoEntry> facts = SqlInfoFacts("1.2.3");
  std::vector<SqlInfoEntry> some =
      SelectSqlInfo(facts, {sql_info_code::kServerTransaction, 99999, sql_info_code::kServerName});
  ASSERT_EQ(some.size(), 2u);
  EXPECT_EQ(some[0].code, sql_info_code::kServerTransaction);
  EXPECT_EQ(std::get<int32_t>(some[0].value), 0);
  EXPECT_EQ(std::get<std::string>(some[1].value), "SQE");
  EXPECT_EQ(SelectSqlInfo(facts, {}).size(), facts.size());
}

TEST(SqlInfoTest, BatchBodyIsEightByteAligned) {
  SQE_ASSIGN_OR_FAIL(auto schema, SqlInfoSchemaMessage());
  EXPECT_FALSE(schema.metadata.empty());
  SQE_ASSIGN_OR_FAIL(auto batch, SqlInfoBatchMessage(SqlInfoFacts("1")));
  EXPECT_FALSE(batch.metadata.empty());
  EXPECT_EQ(batch.body.size() % 8, 0u);
}

TEST(MetadataSchemasTest, AsTheFlightSqlDefinitionSays) {
  EXPECT_EQ(CatalogsSchema()->ToString(),
            columnar::Schema::Make({columnar::Field("catalog_name", columnar::String(), false)})
                ->ToString());
  columnar::SchemaPtr tables = TablesSchema(true);
  ASSERT_EQ(tables->num_fields(), 5);
  EXPECT_TRUE(tables->field(0).nullable());
  EXPECT_FALSE(tables->field(2).nullable());
  EXPECT_EQ(tables->field(4).name(), "table_schema");
  EXPECT_EQ(tables->field(4).type()->id(), columnar::TypeId::kBinary);
  EXPECT_FALSE(tables->field(4).nullable());
  EXPECT_EQ(TablesSchema(false)->num_fields(), 4);
  EXPECT_FALSE(DbSchemasSchema()->field(1).nullable());
  SQE_ASSIGN_OR_FAIL(columnar::Batch types, ListTableTypes());
  EXPECT_EQ(types.num_rows(), 2);
}

}  // namespace
}  // namespace sqe::server::flight_sql
