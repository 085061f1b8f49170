#include "rpc/any_command.h"

#include <gtest/gtest.h>

#include "columnar/test_columns.h"
#include "rpc/flight_sql.pb.h"

namespace sqe::rpc {
namespace {

namespace sql = ::arrow::flight::protocol::sql;

TEST(AnyCommandTest, TypeUrlIsTheFlightSqlOne) {
  sql::CommandStatementQuery query;
  query.set_query("SELECT 1");
  std::string bytes = PackAny(query);
  SQE_ASSIGN_OR_FAIL(google::protobuf::Any any, ParseAny(bytes));
  EXPECT_EQ(any.type_url(), "type.googleapis.com/arrow.flight.protocol.sql.CommandStatementQuery");
  EXPECT_EQ(AnyTypeName(any), "arrow.flight.protocol.sql.CommandStatementQuery");
  SQE_ASSIGN_OR_FAIL(sql::CommandStatementQuery back, UnpackAny<sql::CommandStatementQuery>(any));
  EXPECT_EQ(back.query(), "SELECT 1");
}

TEST(AnyCommandTest, FieldNumbersMatchThePublicProtocol) {
  // CommandGetTables: catalog = 1, db_schema_filter_pattern = 2, table_name_filter_pattern
  // = 3, table_types = 4, include_schema = 5. Hand-encoded as a client would send it.
  std::string wire;
  wire += std::string(
      "\x0a\x01"
      "c",
      3);  // field 1, length-delimited, "c"
  wire += std::string(
      "\x12\x01"
      "s",
      3);  // field 2
  wire += std::string(
      "\x1a\x01"
      "t",
      3);  // field 3
  wire += std::string(
      "\x22\x05"
      "TABLE",
      7);                              // field 4
  wire += std::string("\x28\x01", 2);  // field 5, varint 1
  sql::CommandGetTables tables;
  ASSERT_TRUE(tables.ParseFromString(wire));
  EXPECT_EQ(tables.catalog(), "c");
  EXPECT_EQ(tables.db_schema_filter_pattern(), "s");
  EXPECT_EQ(tables.table_name_filter_pattern(), "t");
  ASSERT_EQ(tables.table_types_size(), 1);
  EXPECT_EQ(tables.table_types(0), "TABLE");
  EXPECT_TRUE(tables.include_schema());
  // DoPutUpdateResult.record_count = 1 (varint).
  sql::DoPutUpdateResult result;
  result.set_record_count(3);
  EXPECT_EQ(result.SerializeAsString(), std::string("\x08\x03", 2));
}

TEST(AnyCommandTest, WrongTypeNamesBoth) {
  sql::CommandGetCatalogs catalogs;
  SQE_ASSIGN_OR_FAIL(google::protobuf::Any any, ParseAny(PackAny(catalogs)));
  Result<sql::CommandStatementQuery> wrong = UnpackAny<sql::CommandStatementQuery>(any);
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.status().message().find("CommandStatementQuery"), std::string::npos);
  EXPECT_NE(wrong.status().message().find("CommandGetCatalogs"), std::string::npos);
}

TEST(AnyCommandTest, GarbageIsInvalidArgument) {
  EXPECT_EQ(ParseAny("\xff\xff\xff").status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace sqe::rpc
