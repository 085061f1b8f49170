// The pure parts of the Trino protocol: type names and signatures, the error mapping and
// the client headers.
#include <gtest/gtest.h>

#include "columnar/data_type.h"
#include "server/trino/client_headers.h"
#include "server/trino/client_sessions.h"
#include "server/trino/trino_error.h"
#include "server/trino/trino_types.h"

namespace sqe::server::trino {
namespace {

namespace col = sqe::columnar;
using nlohmann::json;

TEST(TrinoTypesTest, NamesScalarTypesAsTrinoDoes) {
  EXPECT_EQ(TrinoTypeName(*col::Boolean()), "boolean");
  EXPECT_EQ(TrinoTypeName(*col::Int8()), "tinyint");
  EXPECT_EQ(TrinoTypeName(*col::Int16()), "smallint");
  EXPECT_EQ(TrinoTypeName(*col::Int32()), "integer");
  EXPECT_EQ(TrinoTypeName(*col::Int64()), "bigint");
  EXPECT_EQ(TrinoTypeName(*col::Float32()), "real");
  EXPECT_EQ(TrinoTypeName(*col::Float64()), "double");
  EXPECT_EQ(TrinoTypeName(*col::Decimal(12, 2)), "decimal(12,2)");
  EXPECT_EQ(TrinoTypeName(*col::String()), "varchar");
  EXPECT_EQ(TrinoTypeName(*col::Binary()), "varbinary");
  EXPECT_EQ(TrinoTypeName(*col::FixedSizeBinary(4)), "varbinary");
  EXPECT_EQ(TrinoTypeName(*col::Uuid()), "uuid");
  EXPECT_EQ(TrinoTypeName(*col::Date32()), "date");
  EXPECT_EQ(TrinoTypeName(*col::Time64()), "time(6)");
  EXPECT_EQ(TrinoTypeName(*col::Timestamp(col::TimeUnit::kNano)), "timestamp(9)");
  EXPECT_EQ(TrinoTypeName(*col::TimestampTz()), "timestamp(6) with time zone");
}

TEST(TrinoTypesTest, NamesNestedTypes) {
  auto row = col::Struct({col::Field("a", col::Int64()), col::Field("b", col::String())});
  EXPECT_EQ(TrinoTypeName(*col::List(col::Int32())), "array(integer)");
  EXPECT_EQ(TrinoTypeName(*col::Map(col::String(), col::Float64())), "map(varchar, double)");
  EXPECT_EQ(TrinoTypeName(*row), "row(a bigint, b varchar)");
  EXPECT_EQ(TrinoTypeName(*col::List(row)), "array(row(a bigint, b varchar))");
}

TEST(TrinoTypesTest, SignaturesCarryTheArgumentsClientsDecodeWith) {
  EXPECT_EQ(TrinoTypeSignature(*col::Int64()),
            json::parse(R"({"rawType":"bigint","arguments":[]})"));
  EXPECT_EQ(
      TrinoTypeSignature(*col::String()),
      json::parse(R"({"rawType":"varchar","arguments":[{"kind":"LONG","value":2147483647}]})"));
  EXPECT_EQ(TrinoTypeSignature(*col::Decimal(10, 3)),
            json::parse(R"({"rawType":"decimal","arguments":[{"kind":"LONG","value":10},)"
                        R"({"kind":"LONG","value":3}]})"));
  EXPECT_EQ(TrinoTypeSignature(*col::TimestampTz(col::TimeUnit::kNano)),
            json::parse(R"({"rawType":"timestamp with time zone",)"
                        R"("arguments":[{"kind":"LONG","value":9}]})"));
  EXPECT_EQ(
      TrinoTypeSignature(*col::Map(col::String(), col::Int32())),
      json::parse(
          R"({"rawType":"map","arguments":[)"
          R"({"kind":"TYPE","value":{"rawType":"varchar","arguments":[{"kind":"LONG","value":2147483647}]}},)"
          R"({"kind":"TYPE","value":{"rawType":"integer","arguments":[]}}]})"));
  EXPECT_EQ(TrinoTypeSignature(*col::Struct({col::Field("x", col::Boolean())})),
            json::parse(R"({"rawType":"row","arguments":[{"kind":"NAMED_TYPE","value":)"
                        R"({"fieldName":{"name":"x","delimited":false},)"
                        R"("typeSignature":{"rawType":"boolean","arguments":[]}}}]})"));
  col::Schema schema({col::Field("n", col::Int32())});
  EXPECT_EQ(TrinoColumns(schema),
            json::parse(R"([{"name":"n","type":"integer",)"
                        R"("typeSignature":{"rawType":"integer","arguments":[]}}])"));
}

TEST(TrinoErrorTest, SyntaxErrorsKeepTheirLocationAndFirstLine) {
  TrinoError e = ToTrinoError(
      Status::InvalidArgument("line 2:7: mismatched input 'FORM'\nSELECT 1 FORM t\n      ^"),
      /*syntax=*/true);
  EXPECT_EQ(e.message, "line 2:7: mismatched input 'FORM'");
  EXPECT_EQ(e.code, 1);
  EXPECT_EQ(e.name, "SYNTAX_ERROR");
  EXPECT_EQ(e.type, "USER_ERROR");
  json j = e.ToJson();
  EXPECT_EQ(j["errorLocation"], json::parse(R"({"lineNumber":2,"columnNumber":7})"));
  EXPECT_EQ(j["errorCode"], 1);
  EXPECT_EQ(j["failureInfo"]["message"], e.message);
}

TEST(TrinoErrorTest, MapsStatusCodesInOnePlace) {
  EXPECT_EQ(ToTrinoError(Status::Cancelled("x")).name, "USER_CANCELED");
  EXPECT_EQ(ToTrinoError(Status::DeadlineExceeded("x")).code, 131075);
  EXPECT_EQ(ToTrinoError(Status::DeadlineExceeded("x")).type, "INSUFFICIENT_RESOURCES");
  EXPECT_EQ(ToTrinoError(Status::NotImplemented("x")).name, "NOT_SUPPORTED");
  EXPECT_EQ(ToTrinoError(Status::InvalidArgument("x")).name, "GENERIC_USER_ERROR");
  EXPECT_EQ(ToTrinoError(Status::IOError("x")).type, "INTERNAL_ERROR");
  TrinoError plain = ToTrinoError(Status::NotFound("table t not found"));
  EXPECT_FALSE(plain.line.has_value());
  EXPECT_FALSE(plain.ToJson().contains("errorLocation"));
  EXPECT_EQ(CanceledError().code, 3);
}

TEST(TrinoErrorTest, NamesMissingAndExistingObjectsAsTrinoDoes) {
  auto name_of = [](const Status& st) { return ToTrinoError(st).name; };
  EXPECT_EQ(name_of(Status::InvalidArgument(
                "line 1:15: Table 'iceberg.s.t' does not exist (tables in 's': u)")),
            "TABLE_NOT_FOUND");
  EXPECT_EQ(ToTrinoError(Status::NotFound("Table 'iceberg.s.t' does not exist")).code, 46);
  EXPECT_EQ(name_of(Status::NotFound("Schema 'x' does not exist in catalog 'iceberg'")),
            "SCHEMA_NOT_FOUND");
  EXPECT_EQ(name_of(Status::NotFound("Catalog 'lake' not found (catalogs: iceberg)")),
            "CATALOG_NOT_FOUND");
  EXPECT_EQ(name_of(Status::InvalidArgument("line 1:8: Column 'nope' cannot be resolved")),
            "COLUMN_NOT_FOUND");
  EXPECT_EQ(name_of(Status::InvalidArgument("line 1:8: function 'map' not found")),
            "FUNCTION_NOT_FOUND");
  EXPECT_EQ(name_of(Status::AlreadyExists("Table 'iceberg.s.t' already exists")),
            "TABLE_ALREADY_EXISTS");
  EXPECT_EQ(name_of(Status::InvalidArgument("line 1:8: Division by zero")), "DIVISION_BY_ZERO");
  // Other messages keep the status code's general name.
  EXPECT_EQ(name_of(Status::NotFound("table t not found")), "NOT_FOUND");
  EXPECT_EQ(name_of(Status::IOError("Table 'x' does not exist")), "GENERIC_INTERNAL_ERROR");
}

TEST(ClientHeadersTest, ReadsTrinoAndLegacyPrestoHeaders) {
  HttpRequest request;
  request.headers = {{"x-trino-user", "alice"},
                     {"x-trino-catalog", "iceberg"},
                     {"x-trino-schema", "sales"},
                     {"x-trino-time-zone", "UTC"},
                     {"x-trino-client-tags", "a, b"},
                     // As the HTTP layer hands them over: %XX already decoded.
                     {"x-trino-session", "query_max_run_time=10,label=a b+c"},
                     {"x-trino-prepared-statement", "q1=SELECT+1+-+?"}};
  ClientHeaders h = ParseClientHeaders(request);
  EXPECT_EQ(h.user, "alice");
  EXPECT_EQ(h.catalog, "iceberg");
  EXPECT_EQ(h.schema, "sales");
  EXPECT_EQ(h.time_zone, "UTC");
  EXPECT_EQ(h.client_tags, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(h.session_properties.at("query_max_run_time"), "10");
  EXPECT_EQ(h.session_properties.at("label"), "a b+c");
  EXPECT_EQ(h.prepared_statements.at("q1"), "SELECT 1 - ?");
  EXPECT_EQ(h.prefix, "X-Trino-");

  HttpRequest legacy;
  legacy.headers = {{"x-presto-user", "bob"}, {"x-presto-schema", "s"}};
  ClientHeaders p = ParseClientHeaders(legacy);
  EXPECT_EQ(p.user, "bob");
  EXPECT_EQ(p.schema, "s");
  EXPECT_FALSE(p.catalog.has_value());
  EXPECT_EQ(p.prefix, "X-Presto-");
}

TEST(ClientHeadersTest, CommasInsideValuesDoNotSplitEntries) {
  // The HTTP layer hands over "SELECT+a,+b" for the client's SELECT+a%2C+b.
  auto parsed = ParseNameValueList("s1=SELECT+a,+b+FROM+t,s2=SELECT+max(a,b),x", true);
  ASSERT_EQ(parsed.size(), 2u);
  EXPECT_EQ(parsed.at("s1"), "SELECT a, b FROM t");
  EXPECT_EQ(parsed.at("s2"), "SELECT max(a,b),x");
  auto session = ParseNameValueList("a=1, b=x y,c.d=2");
  EXPECT_EQ(session.at("a"), "1");
  EXPECT_EQ(session.at("b"), "x y");
  EXPECT_EQ(session.at("c.d"), "2");
}

TEST(ClientHeadersTest, PercentEncodesResponseValues) {
  EXPECT_EQ(PercentEncode("a b"), "a%20b");
  EXPECT_EQ(PercentEncode("SELECT ? + 1"), "SELECT%20%3F%20%2B%201");
  EXPECT_EQ(PercentEncode("x,y=z%\xc3\xa9_-.~"), "x%2Cy%3Dz%25%C3%A9_-.~");
}

TEST(ClientSessionsTest, OnlyPlainNamesAreSpliced) {
  EXPECT_TRUE(IsPlainName("query_max_run_time"));
  EXPECT_TRUE(IsPlainName("iceberg.compression"));
  EXPECT_FALSE(IsPlainName("a; DROP TABLE t"));
  EXPECT_FALSE(IsPlainName("a..b"));
  EXPECT_FALSE(IsPlainName(""));
  EXPECT_EQ(SqlStringLiteral("it's"), "'it''s'");
}

}  // namespace
}  // namespace sqe::server::trino
