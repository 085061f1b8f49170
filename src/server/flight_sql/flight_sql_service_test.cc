// FlightSqlListener end to end in process: a gRPC client (our generated stub) against the
// listener on 127.0.0.1, an engine on a temporary warehouse and an api_key auth chain.
// The real clients (pyarrow.flight, ADBC) are driven by tests/integration/test_flight_*.py.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include <grpcpp/client_context.h>
#include <grpcpp/create_channel.h>

#include "auth/anonymous_authenticator.h"
#include "auth/api_key_authenticator.h"
#include "columnar/test_columns.h"
#include "engine/testing_engine.h"
#include "rpc/any_command.h"
#include "rpc/flight_data.h"
#include "rpc/flight_sql.pb.h"
#include "server/flight_sql/flight_sql_listener.h"

namespace sqe::server::flight_sql {
namespace {

namespace fp = ::arrow::flight::protocol;
namespace sqlproto = ::arrow::flight::protocol::sql;

constexpr const char* kAliceKey = "sqe_alice_key_1";
constexpr const char* kBobKey = "sqe_bob_key_2";

class FlightSqlServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = engine::testing::FreshTestDirectory("sqe-flight-test-");
    auto engine = engine::testing::OpenTestEngine(dir_);
    ASSERT_TRUE(engine.ok()) << engine.status().message();
    std::vector<config::ApiKeyEntry> keys = {{SecretString(kAliceKey), "alice", {"admin"}},
                                             {SecretString(kBobKey), "bob", {}}};
    std::vector<std::unique_ptr<auth::Authenticator>> providers;
    providers.push_back(std::make_unique<auth::ApiKeyAuthenticator>(keys, "sqe_"));
    FlightSqlServiceOptions options;
    options.engine = *engine;
    options.auth = std::make_shared<auth::AuthChain>(std::move(providers));
    options.compression = columnar::ipc::Compression::kLz4Frame;
    listener_ = std::make_unique<FlightSqlListener>(std::move(options));
    SQE_ASSERT_OK(listener_->Bind("127.0.0.1", 0));
    SQE_ASSERT_OK(listener_->Serve());
    auto channel = grpc::CreateChannel("127.0.0.1:" + std::to_string(listener_->bound_port()),
                                       grpc::InsecureChannelCredentials());
    stub_ = fp::FlightService::NewStub(channel);
  }
  void TearDown() override {
    stub_.reset();
    listener_->Stop();
    listener_.reset();
    std::filesystem::remove_all(dir_);
  }

  /// A Handshake with Basic credentials; the bearer header value ("" on failure).
  std::string Handshake(const std::string& user, const std::string& password,
                        grpc::Status* status = nullptr) {
    grpc::ClientContext context;
    std::string basic = user + ":" + password;
    context.AddMetadata("authorization", "Basic " + Base64(basic));
    auto stream = stub_->Handshake(&context);
    stream->WritesDone();
    fp::HandshakeResponse response;
    while (stream->Read(&response)) {
    }
    grpc::Status s = stream->Finish();
    if (status != nullptr) *status = s;
    auto it = context.GetServerInitialMetadata().find("authorization");
    if (it == context.GetServerInitialMetadata().end()) return "";
    return std::string(it->second.data(), it->second.size());
  }

  static std::string Base64(const std::string& in) {
    static constexpr char kAlphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    size_t i = 0;
    for (; i + 2 < in.size(); i += 3) {
      uint32_t n = (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8) | uint8_t(in[i + 2]);
      for (int k = 3; k >= 0; --k) out += kAlphabet[(n >> (6 * k)) & 63];
    }
    if (i + 1 == in.size()) {
      uint32_t n = uint8_t(in[i]) << 16;
      out += kAlphabet[(n >> 18) & 63], out += kAlphabet[(n >> 12) & 63], out += "==";
    } else if (i + 2 == in.size()) {
      uint32_t n = (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8);
      out += kAlphabet[(n >> 18) & 63], out += kAlphabet[(n >> 12) & 63];
      out += kAlphabet[(n >> 6) & 63], out += "=";
    }
    return out;
  }

  grpc::Status GetFlightInfo(const std::string& bearer, const google::protobuf::Message& command,
                             fp::FlightInfo* info) {
    grpc::ClientContext context;
    if (!bearer.empty()) context.AddMetadata("authorization", bearer);
    fp::FlightDescriptor descriptor;
    descriptor.set_type(fp::FlightDescriptor::CMD);
    descriptor.set_cmd(rpc::PackAny(command));
    return stub_->GetFlightInfo(&context, descriptor, info);
  }

  /// DoGet of a ticket: the decoded batches' row count and schema.
  grpc::Status DoGet(const std::string& bearer, const fp::Ticket& ticket, int64_t* rows,
                     columnar::SchemaPtr* schema = nullptr) {
    grpc::ClientContext context;
    if (!bearer.empty()) context.AddMetadata("authorization", bearer);
    auto reader = stub_->DoGet(&context, ticket);
    rpc::FlightDataReader decoder;
    fp::FlightData data;
    while (reader->Read(&data)) EXPECT_TRUE(decoder.Consume(std::move(data)).ok());
    grpc::Status status = reader->Finish();
    *rows = 0;
    for (const columnar::Batch& b : decoder.TakeBatches()) *rows += b.num_rows();
    if (schema != nullptr) *schema = decoder.schema();
    return status;
  }

  grpc::Status Update(const std::string& bearer, const std::string& sql, int64_t* count) {
    grpc::ClientContext context;
    context.AddMetadata("authorization", bearer);
    auto stream = stub_->DoPut(&context);
    sqlproto::CommandStatementUpdate update;
    update.set_query(sql);
    fp::FlightData first;
    first.mutable_flight_descriptor()->set_type(fp::FlightDescriptor::CMD);
    first.mutable_flight_descriptor()->set_cmd(rpc::PackAny(update));
    stream->Write(first);
    stream->WritesDone();
    fp::PutResult result;
    *count = -2;
    while (stream->Read(&result)) {
      sqlproto::DoPutUpdateResult r;
      EXPECT_TRUE(r.ParseFromString(result.app_metadata()));
      *count = r.record_count();
    }
    return stream->Finish();
  }

  std::filesystem::path dir_;
  std::unique_ptr<FlightSqlListener> listener_;
  std::unique_ptr<fp::FlightService::Stub> stub_;
};

TEST_F(FlightSqlServiceTest, HandshakeIssuesABearerTokenThatRunsAQuery) {
  std::string bearer = Handshake("alice", kAliceKey);
  ASSERT_EQ(bearer.rfind("Bearer ", 0), 0u) << bearer;
  sqlproto::CommandStatementQuery query;
  query.set_query("SELECT x, x * 2 AS y FROM (VALUES 1, 2, 3) t(x)");
  fp::FlightInfo info;
  grpc::Status status = GetFlightInfo(bearer, query, &info);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_EQ(info.endpoint_size(), 1);
  EXPECT_EQ(info.endpoint(0).location_size(), 0);
  EXPECT_EQ(info.total_records(), -1);
  SQE_ASSIGN_OR_FAIL(columnar::SchemaPtr schema, rpc::DeserializeSchema(info.schema()));
  ASSERT_EQ(schema->num_fields(), 2);
  EXPECT_EQ(schema->field(1).name(), "y");
  int64_t rows = 0;
  columnar::SchemaPtr streamed;
  status = DoGet(bearer, info.endpoint(0).ticket(), &rows, &streamed);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(rows, 3);
  ASSERT_NE(streamed, nullptr);
  EXPECT_TRUE(streamed->Equals(*schema));
  // Tickets are single-use.
  status = DoGet(bearer, info.endpoint(0).ticket(), &rows);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
}

TEST_F(FlightSqlServiceTest, WrongPasswordAndMissingTokenAreUnauthenticated) {
  grpc::Status status;
  EXPECT_EQ(Handshake("alice", "sqe_wrong", &status), "");
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(status.error_message().find("sqe_wrong"), std::string::npos);
  sqlproto::CommandStatementQuery query;
  query.set_query("SELECT 1");
  fp::FlightInfo info;
  EXPECT_EQ(GetFlightInfo("", query, &info).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(GetFlightInfo("Bearer nope", query, &info).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  // An API key works as a bearer token directly.
  EXPECT_TRUE(GetFlightInfo(std::string("Bearer ") + kBobKey, query, &info).ok());
}

TEST_F(FlightSqlServiceTest, ATicketOfOneUserIsRefusedToAnother) {
  std::string alice = Handshake("alice", kAliceKey);
  std::string bob = Handshake("bob", kBobKey);
  sqlproto::CommandStatementQuery query;
  query.set_query("SELECT 1");
  fp::FlightInfo info;
  ASSERT_TRUE(GetFlightInfo(alice, query, &info).ok());
  int64_t rows = 0;
  EXPECT_EQ(DoGet(bob, info.endpoint(0).ticket(), &rows).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  // Still Alice's to redeem.
  EXPECT_TRUE(DoGet(alice, info.endpoint(0).ticket(), &rows).ok());
  EXPECT_EQ(rows, 1);
}

TEST_F(FlightSqlServiceTest, SqlErrorsAreInvalidArgumentWithThePosition) {
  std::string bearer = Handshake("alice", kAliceKey);
  sqlproto::CommandStatementQuery query;
  query.set_query("SELECT nope FROM (VALUES 1) t(x)");
  fp::FlightInfo info;
  grpc::Status status = GetFlightInfo(bearer, query, &info);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(status.error_message().find("line 1:8"), std::string::npos) << status.error_message();
}

TEST_F(FlightSqlServiceTest, UpdatesThroughDoPutAndALargeStreamedResult) {
  std::string bearer = Handshake("alice", kAliceKey);
  int64_t count = 0;
  ASSERT_TRUE(Update(bearer, "CREATE SCHEMA s", &count).ok());
  ASSERT_TRUE(Update(bearer, "CREATE TABLE s.t (a bigint, b varchar)", &count).ok());
  grpc::Status status =
      Update(bearer, "INSERT INTO s.t VALUES (1, 'x'), (2, 'y'), (3, 'z')", &count);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(count, 3);
  sqlproto::CommandStatementQuery query;
  query.set_query(
      "WITH t(x) AS (VALUES 0, 1, 2, 3, 4, 5, 6, 7, 8, 9) "
      "SELECT a.x, 'some text to make the rows wider' AS s FROM t a, t b, t c, t d, t e");
  fp::FlightInfo info;
  ASSERT_TRUE(GetFlightInfo(bearer, query, &info).ok());
  int64_t rows = 0;
  ASSERT_TRUE(DoGet(bearer, info.endpoint(0).ticket(), &rows).ok());
  EXPECT_EQ(rows, 100000);
}

TEST_F(FlightSqlServiceTest, MetadataCommands) {
  std::string bearer = Handshake("alice", kAliceKey);
  int64_t count = 0;
  ASSERT_TRUE(Update(bearer, "CREATE SCHEMA sales", &count).ok());
  ASSERT_TRUE(
      Update(bearer, "CREATE TABLE sales.orders (id bigint, amount decimal(10,2))", &count).ok());
  sqlproto::CommandGetTables tables;
  tables.set_db_schema_filter_pattern("sal%");
  tables.set_include_schema(true);
  fp::FlightInfo info;
  grpc::Status status = GetFlightInfo(bearer, tables, &info);
  ASSERT_TRUE(status.ok()) << status.error_message();
  int64_t rows = 0;
  columnar::SchemaPtr schema;
  status = DoGet(bearer, info.endpoint(0).ticket(), &rows, &schema);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(rows, 1);
  ASSERT_NE(schema, nullptr);
  EXPECT_EQ(schema->num_fields(), 5);

  // The configured catalog and the built-in `system`.
  sqlproto::CommandGetCatalogs catalogs;
  ASSERT_TRUE(GetFlightInfo(bearer, catalogs, &info).ok());
  ASSERT_TRUE(DoGet(bearer, info.endpoint(0).ticket(), &rows).ok());
  EXPECT_EQ(rows, 2);

  sqlproto::CommandGetSqlInfo sql_info;
  sql_info.add_info(8);
  ASSERT_TRUE(GetFlightInfo(bearer, sql_info, &info).ok());
  grpc::ClientContext context;
  context.AddMetadata("authorization", bearer);
  auto reader = stub_->DoGet(&context, info.endpoint(0).ticket());
  fp::FlightData data;
  int messages = 0;
  while (reader->Read(&data)) ++messages;
  EXPECT_TRUE(reader->Finish().ok());
  EXPECT_EQ(messages, 2);
}

/// One DoAction call; its results' bodies. `cookie` is sent and `set_cookie` receives the
/// server's Set-Cookie when given.
grpc::Status Action(fp::FlightService::Stub* stub, const std::string& bearer,
                    const std::string& type, const std::string& body,
                    std::vector<std::string>* results, const std::string& cookie = "",
                    std::string* set_cookie = nullptr) {
  grpc::ClientContext context;
  context.AddMetadata("authorization", bearer);
  if (!cookie.empty()) context.AddMetadata("cookie", cookie);
  fp::Action action;
  action.set_type(type);
  action.set_body(body);
  auto reader = stub->DoAction(&context, action);
  fp::Result result;
  while (reader->Read(&result)) results->push_back(result.body());
  grpc::Status status = reader->Finish();
  if (set_cookie != nullptr) {
    auto it = context.GetServerInitialMetadata().find("set-cookie");
    if (it != context.GetServerInitialMetadata().end()) {
      *set_cookie = std::string(it->second.data(), it->second.size());
    }
  }
  return status;
}

TEST_F(FlightSqlServiceTest, SessionOptionsLiveOnTheCookiesSession) {
  std::string alice = Handshake("alice", kAliceKey);
  std::string bob = Handshake("bob", kBobKey);
  int64_t count = 0;
  ASSERT_TRUE(Update(alice, "CREATE SCHEMA desk", &count).ok());
  fp::SetSessionOptionsRequest set;
  (*set.mutable_session_options())["schema"].set_string_value("desk");
  (*set.mutable_session_options())["time_zone"].set_string_value("Asia/Tokyo");
  (*set.mutable_session_options())["colour"].set_string_value("blue");
  std::vector<std::string> results;
  std::string cookie;
  grpc::Status status = Action(stub_.get(), alice, "SetSessionOptions", set.SerializeAsString(),
                               &results, "", &cookie);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_EQ(results.size(), 1u);
  fp::SetSessionOptionsResult errors;
  ASSERT_TRUE(errors.ParseFromString(results[0]));
  ASSERT_EQ(errors.errors_size(), 1);
  EXPECT_EQ(errors.errors().at("colour").value(), fp::SetSessionOptionsResult::INVALID_NAME);
  ASSERT_EQ(cookie.rfind("arrow_flight_session_id=", 0), 0u) << cookie;

  results.clear();
  status = Action(stub_.get(), alice, "GetSessionOptions", "", &results, "other=1; " + cookie);
  ASSERT_TRUE(status.ok()) << status.error_message();
  fp::GetSessionOptionsResult current;
  ASSERT_TRUE(current.ParseFromString(results.at(0)));
  EXPECT_EQ(current.session_options().at("schema").string_value(), "desk");
  EXPECT_EQ(current.session_options().at("time_zone").string_value(), "Asia/Tokyo");
  // Bob may not use Alice's session; without a cookie there is no session to read.
  results.clear();
  EXPECT_EQ(Action(stub_.get(), bob, "GetSessionOptions", "", &results, cookie).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Action(stub_.get(), alice, "GetSessionOptions", "", &results).error_code(),
            grpc::StatusCode::NOT_FOUND);
  results.clear();
  ASSERT_TRUE(Action(stub_.get(), alice, "CloseSession", "", &results, cookie).ok());
  fp::CloseSessionResult closed;
  ASSERT_TRUE(closed.ParseFromString(results.at(0)));
  EXPECT_EQ(closed.status(), fp::CloseSessionResult::CLOSED);
  EXPECT_EQ(Action(stub_.get(), alice, "GetSessionOptions", "", &results, cookie).error_code(),
            grpc::StatusCode::NOT_FOUND);
}

TEST_F(FlightSqlServiceTest, CancelFlightInfoWithdrawsAnUnredeemedTicket) {
  std::string alice = Handshake("alice", kAliceKey);
  sqlproto::CommandStatementQuery query;
  query.set_query("SELECT 1");
  fp::FlightInfo info;
  ASSERT_TRUE(GetFlightInfo(alice, query, &info).ok());
  fp::CancelFlightInfoRequest cancel;
  *cancel.mutable_info() = info;
  std::vector<std::string> results;
  ASSERT_TRUE(
      Action(stub_.get(), alice, "CancelFlightInfo", cancel.SerializeAsString(), &results).ok());
  fp::CancelFlightInfoResult result;
  ASSERT_TRUE(result.ParseFromString(results.at(0)));
  EXPECT_EQ(result.status(), fp::CANCEL_STATUS_CANCELLED);
  int64_t rows = 0;
  EXPECT_EQ(DoGet(alice, info.endpoint(0).ticket(), &rows).error_code(),
            grpc::StatusCode::NOT_FOUND);
  // Cancelled already: nothing is known about it now.
  EXPECT_EQ(Action(stub_.get(), alice, "CancelFlightInfo", cancel.SerializeAsString(), &results)
                .error_code(),
            grpc::StatusCode::NOT_FOUND);
}

TEST_F(FlightSqlServiceTest, IngestCreatesATableFromTheStream) {
  std::string alice = Handshake("alice", kAliceKey);
  int64_t count = 0;
  ASSERT_TRUE(Update(alice, "CREATE SCHEMA bulk", &count).ok());
  sqlproto::CommandStatementIngest ingest;
  ingest.set_table("t");
  ingest.set_schema("bulk");
  ingest.mutable_table_definition_options()->set_if_not_exist(
      sqlproto::CommandStatementIngest::TableDefinitionOptions::TABLE_NOT_EXIST_OPTION_CREATE);
  ingest.mutable_table_definition_options()->set_if_exists(
      sqlproto::CommandStatementIngest::TableDefinitionOptions::TABLE_EXISTS_OPTION_FAIL);
  auto schema = columnar::Schema::Make({columnar::Field("v", columnar::Int64(), true)});
  auto batch = columnar::testing::ValueOrDie(
      columnar::Batch::Make(schema, {columnar::testing::Int64s({4, 5, 6})}, 3));
  grpc::ClientContext context;
  context.AddMetadata("authorization", alice);
  auto stream = stub_->DoPut(&context);
  fp::FlightData first = columnar::testing::ValueOrDie(rpc::SchemaToFlightData(*schema));
  first.mutable_flight_descriptor()->set_type(fp::FlightDescriptor::CMD);
  first.mutable_flight_descriptor()->set_cmd(rpc::PackAny(ingest));
  ASSERT_TRUE(stream->Write(first));
  ASSERT_TRUE(stream->Write(columnar::testing::ValueOrDie(rpc::BatchToFlightData(batch, {}))));
  stream->WritesDone();
  fp::PutResult put;
  ASSERT_TRUE(stream->Read(&put));
  grpc::Status status = stream->Finish();
  ASSERT_TRUE(status.ok()) << status.error_message();
  sqlproto::DoPutUpdateResult update;
  ASSERT_TRUE(update.ParseFromString(put.app_metadata()));
  EXPECT_EQ(update.record_count(), 3);
  ASSERT_TRUE(Update(alice, "INSERT INTO bulk.t SELECT v * 10 FROM bulk.t", &count).ok());
  EXPECT_EQ(count, 3);
}

}  // namespace
}  // namespace sqe::server::flight_sql
