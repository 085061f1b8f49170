// The pieces of the Flight SQL server that need no network: LIKE patterns, handles,
// status mapping, the SqlInfo facts and the metadata result schemas.

#include <gtest/gtest.h>

#include <climits>

#include "columnar/test_columns.h"
#include "exec/value.h"
#include "server/flight_sql/client_schema.h"
#include "server/flight_sql/grpc_status.h"
#include "server/flight_sql/handle_table.h"
#include "server/flight_sql/metadata_results.h"
#include "server/flight_sql/running_queries.h"
#include "server/flight_sql/sql_info.h"
#include "server/flight_sql/xdbc_type_info.h"

namespace sqe::server::flight_sql {
namespace {

TEST(ClientSchemaTest, AnonymousRowFieldsAreNamedByPosition) {
  using columnar::Field;
  // row(integer, x varchar, array(row(boolean))) -> row(field0 ..., x ..., field2 ...).
  auto inner = columnar::Struct({Field("", columnar::Boolean())});
  auto row = columnar::Struct({Field("", columnar::Int32()), Field("x", columnar::String()),
                               Field("", columnar::List(inner))});
  auto schema = columnar::Schema::Make({Field("r", row), Field("n", columnar::Int64())});
  auto client = ClientSchema(*schema);
  EXPECT_EQ(client->field(0).type()->ToString(),
            "row(field0 integer, x varchar, field2 array(row(field0 boolean)))");
  EXPECT_EQ(client->field(1).type()->ToString(), "bigint");
  EXPECT_EQ(client->field(0).name(), "r");
  // Named rows pass unchanged.
  auto named = columnar::Schema::Make({Field("m", columnar::Struct({Field("a", row)}))});
  EXPECT_EQ(ClientSchema(*named)->field(0).type()->ToString(),
            "row(a row(field0 integer, x varchar, field2 array(row(field0 boolean))))");
}

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

TEST(XdbcTypeInfoTest, OneRowPerTypeOrderedByCodeWithTheSpecSchema) {
  columnar::SchemaPtr schema = XdbcTypeInfoSchema();
  ASSERT_EQ(schema->num_fields(), 19);
  EXPECT_EQ(schema->field(0).name(), "type_name");
  EXPECT_FALSE(schema->field(0).nullable());
  EXPECT_EQ(schema->field(5).name(), "create_params");
  EXPECT_EQ(schema->field(5).type()->id(), columnar::TypeId::kList);
  EXPECT_FALSE(schema->field(5).type()->value_field().nullable());
  EXPECT_EQ(schema->field(18).name(), "interval_precision");
  SQE_ASSIGN_OR_FAIL(columnar::Batch all, XdbcTypeInfo(std::nullopt));
  EXPECT_GE(all.num_rows(), 15);
  int32_t previous = INT32_MIN;
  bool has_bigint = false;
  for (int64_t r = 0; r < all.num_rows(); ++r) {
    SQE_ASSIGN_OR_FAIL(exec::Value code, exec::Value::FromColumn(all.column(1), r));
    EXPECT_LE(previous, code.int_value());
    previous = static_cast<int32_t>(code.int_value());
    if (all.column(0).StringAt(r) == "bigint") {
      has_bigint = true;
      EXPECT_EQ(code.int_value(), -5);  // java.sql.Types.BIGINT
    }
  }
  EXPECT_TRUE(has_bigint);
  // Only the types of one code: 93 (java.sql.Types.TIMESTAMP), a datetime (9) subtype 3.
  SQE_ASSIGN_OR_FAIL(columnar::Batch timestamps, XdbcTypeInfo(93));
  ASSERT_EQ(timestamps.num_rows(), 1);
  EXPECT_EQ(timestamps.column(0).StringAt(0), "timestamp");
  SQE_ASSIGN_OR_FAIL(exec::Value sql_type, exec::Value::FromColumn(timestamps.column(15), 0));
  EXPECT_EQ(sql_type.int_value(), 9);
  SQE_ASSIGN_OR_FAIL(exec::Value subcode, exec::Value::FromColumn(timestamps.column(16), 0));
  EXPECT_EQ(subcode.int_value(), 3);
  SQE_ASSIGN_OR_FAIL(columnar::Batch none, XdbcTypeInfo(424242));
  EXPECT_EQ(none.num_rows(), 0);
}

/// A cursor that only counts Cancel() calls.
class CountingCursor final : public engine::ResultCursor {
 public:
  const columnar::SchemaPtr& schema() const override { return schema_; }
  Result<std::optional<columnar::Batch>> Next() override {
    return std::optional<columnar::Batch>();
  }
  void Cancel() override { ++cancels; }
  const std::string& statement_type() const override { return type_; }
  int64_t update_count() const override { return -1; }
  int cancels = 0;

 private:
  columnar::SchemaPtr schema_ = columnar::Schema::Make({});
  std::string type_ = "SELECT";
};

TEST(RunningQueriesTest, CancelReachesTheCursorOfTheUsersStream) {
  RunningQueries running;
  CountingCursor cursor;
  {
    auto registration = running.Add("h1", "alice");
    registration->Attach(&cursor);
    EXPECT_EQ(running.Cancel("h1", "bob").status().code(), StatusCode::kPermissionDenied);
    EXPECT_EQ(cursor.cancels, 0);
    SQE_ASSIGN_OR_FAIL(bool found, running.Cancel("h1", "alice"));
    EXPECT_TRUE(found);
    EXPECT_EQ(cursor.cancels, 1);
    registration->Detach();
  }
  EXPECT_EQ(running.size(), 0u);
  SQE_ASSIGN_OR_FAIL(bool found, running.Cancel("h1", "alice"));
  EXPECT_FALSE(found);
}

TEST(RunningQueriesTest, ACancelBeforeTheCursorExistsStopsItOnAttach) {
  RunningQueries running;
  CountingCursor cursor;
  auto registration = running.Add("h2", "alice");
  SQE_ASSIGN_OR_FAIL(bool found, running.Cancel("h2", "alice"));
  EXPECT_TRUE(found);
  registration->Attach(&cursor);
  EXPECT_EQ(cursor.cancels, 1);
  registration->Detach();
}

TEST(GrpcStatusTest, DebugAddsTheCodeAndOnlyDebugShowsInternalMessages) {
  Status internal = Status::Internal("vector index 7 out of range in HashJoin");
  grpc::Status hidden = ToClientStatus(internal, false);
  EXPECT_EQ(hidden.error_code(), grpc::StatusCode::INTERNAL);
  EXPECT_EQ(hidden.error_message().find("HashJoin"), std::string::npos);
  grpc::Status shown = ToClientStatus(internal, true);
  EXPECT_NE(shown.error_message().find("HashJoin"), std::string::npos);
  EXPECT_NE(shown.error_message().find("[sqe status"), std::string::npos);
  Status sql = Status::InvalidArgument("line 1:8: column 'x' cannot be resolved");
  EXPECT_EQ(ToClientStatus(sql, false).error_message(), sql.message());
}

}  // namespace
}  // namespace sqe::server::flight_sql
