#include "server/flight_sql/flight_sql_service.h"

#include <condition_variable>
#include <mutex>
#include <thread>

#include "common/logging.h"
#include "engine/result_cursor.h"
#include "rpc/any_command.h"
#include "rpc/flight_data.h"
#include "rpc/flight_sql.pb.h"
#include "server/flight_sql/call_identity.h"
#include "server/flight_sql/client_schema.h"
#include "server/flight_sql/grpc_status.h"
#include "server/flight_sql/handle_table.h"
#include "server/flight_sql/key_results.h"
#include "server/flight_sql/metadata_results.h"
#include "server/flight_sql/running_queries.h"
#include "server/flight_sql/session_options.h"
#include "server/flight_sql/sql_info.h"
#include "server/flight_sql/user_sessions.h"
#include "server/flight_sql/xdbc_type_info.h"

namespace sqe::server::flight_sql {

namespace fp = ::arrow::flight::protocol;
namespace sqlproto = ::arrow::flight::protocol::sql;

namespace {

/// Unused tickets and prepared statements are forgotten after these idle lifetimes.
constexpr std::chrono::seconds kTicketLifetime{300};
constexpr std::chrono::seconds kPreparedLifetime{3600};
constexpr size_t kMaxTickets = 10000;
constexpr size_t kMaxPrepared = 10000;
constexpr size_t kMaxSessions = 10000;
/// A batch whose encoded body is larger goes out in slices, so every FlightData stays
/// well under the 4 MiB default message limit of gRPC clients.
constexpr size_t kMaxWireBody = size_t{2} << 20;

/// What a ticket redeems: a statement to run, or a metadata command to answer.
struct TicketEntry {
  std::string sql;  // empty for a metadata command
  std::vector<exec::Value> parameters;
  google::protobuf::Any command;
  /// A statement without a result set ran at GetFlightInfo (clients that run DDL and DML
  /// through queries may never redeem the ticket); DoGet hands out what it returned.
  std::shared_ptr<engine::QueryResult> result;
};

/// A prepared statement: its text, what Describe found, and the bound parameter rows.
struct PreparedStatement {
  std::string sql;
  engine::StatementDescription description;
  std::mutex mu;
  std::vector<std::vector<exec::Value>> parameter_rows;
};

/// Who makes a call, and the engine Session it runs in: the Flight session its cookie names,
/// or else the user's own.
struct Caller {
  auth::Identity who;
  std::shared_ptr<engine::Session> session;
};

/// The handle inside a ticket SQE issued.
Result<std::string> TicketHandle(const fp::Ticket& ticket) {
  SQE_ASSIGN_OR_RETURN(google::protobuf::Any any, rpc::ParseAny(ticket.ticket()));
  SQE_ASSIGN_OR_RETURN(auto t, rpc::UnpackAny<sqlproto::TicketStatementQuery>(any));
  return t.statement_handle();
}

/// Polls the call's cancellation while a DoGet streams; cancels the cursor when the call
/// is cancelled. Joined on destruction.
class CancelWatcher {
 public:
  CancelWatcher(grpc::ServerContext* context, engine::ResultCursor* cursor)
      : thread_([this, context, cursor] {
          std::unique_lock<std::mutex> lock(mu_);
          while (!done_) {
            if (context->IsCancelled()) {
              cursor->Cancel();
              return;
            }
            cv_.wait_for(lock, std::chrono::milliseconds(50));
          }
        }) {}
  ~CancelWatcher() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

#define SQE_GRPC_RETURN_NOT_OK(expr) \
  do {                               \
    ::sqe::Status _st = (expr);      \
    if (!_st.ok()) return Fail(_st); \
  } while (false)

#define SQE_GRPC_ASSIGN_OR_RETURN(lhs, expr) \
  SQE_GRPC_ASSIGN_OR_RETURN_IMPL(SQE_CONCAT(_sqe_grpc_r_, __LINE__), lhs, expr)
#define SQE_GRPC_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                   \
  if (!tmp.ok()) return Fail(tmp.status());            \
  lhs = std::move(tmp).value()

bool Is(const google::protobuf::Any& any, const google::protobuf::Descriptor* d) {
  return rpc::AnyTypeName(any) == d->full_name();
}

/// The Schema message of a key command's (always empty) result, or nullopt for another
/// command.
std::optional<columnar::ipc::EncodedMessage> KeysSchema(const google::protobuf::Any& command) {
  if (Is(command, sqlproto::CommandGetPrimaryKeys::descriptor())) return PrimaryKeysSchemaMessage();
  if (Is(command, sqlproto::CommandGetExportedKeys::descriptor()) ||
      Is(command, sqlproto::CommandGetImportedKeys::descriptor()) ||
      Is(command, sqlproto::CommandGetCrossReference::descriptor())) {
    return ForeignKeysSchemaMessage();
  }
  return std::nullopt;
}

/// The Flight SQL command a descriptor carries.
Result<google::protobuf::Any> CommandOf(const fp::FlightDescriptor& descriptor) {
  if (descriptor.type() != fp::FlightDescriptor::CMD) {
    return Status::InvalidArgument("SQE serves Flight SQL commands (a CMD descriptor)");
  }
  return rpc::ParseAny(descriptor.cmd());
}

/// The PutResult of an update that wrote `count` rows.
fp::PutResult UpdateResult(int64_t count) {
  sqlproto::DoPutUpdateResult update;
  update.set_record_count(count);
  fp::PutResult result;
  result.set_app_metadata(update.SerializeAsString());
  return result;
}

/// The schema of the parameters of a prepared statement: one nullable field per `?`.
columnar::SchemaPtr ParameterSchema(const engine::StatementDescription& d) {
  std::vector<columnar::Field> fields;
  for (size_t i = 0; i < d.parameter_types.size(); ++i) {
    columnar::TypePtr type = d.parameter_types[i] ? d.parameter_types[i] : columnar::String();
    fields.emplace_back("parameter_" + std::to_string(i + 1), type, true);
  }
  return columnar::Schema::Make(std::move(fields));
}

/// The rows of parameter batches as values.
Result<std::vector<std::vector<exec::Value>>> ParameterRows(
    const std::vector<columnar::Batch>& batches) {
  std::vector<std::vector<exec::Value>> rows;
  for (const columnar::Batch& b : batches) {
    for (int64_t r = 0; r < b.num_rows(); ++r) {
      std::vector<exec::Value> row;
      for (int c = 0; c < b.num_columns(); ++c) {
        SQE_ASSIGN_OR_RETURN(exec::Value v, exec::Value::FromColumn(b.column(c), r));
        row.push_back(std::move(v));
      }
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

/// What an ingest command asks of Session::Ingest. Temporary tables and transactions do
/// not exist in SQE; an unspecified table option is an error, as the definition says.
Result<engine::IngestOptions> IngestOptionsOf(const sqlproto::CommandStatementIngest& q) {
  using Definition = sqlproto::CommandStatementIngest::TableDefinitionOptions;
  if (q.temporary()) {
    return Status::NotImplemented(
        "temporary tables are not supported: ingest into a regular table (temporary = false)");
  }
  if (q.has_transaction_id()) {
    return Status::NotImplemented("transactions are not supported: every ingest commits once");
  }
  engine::IngestOptions options;
  options.table = q.table();
  if (q.has_catalog()) options.catalog = q.catalog();
  if (q.has_schema()) options.schema = q.schema();
  switch (q.table_definition_options().if_not_exist()) {
    case Definition::TABLE_NOT_EXIST_OPTION_CREATE:
      options.if_missing = engine::IngestOptions::IfMissing::kCreate;
      break;
    case Definition::TABLE_NOT_EXIST_OPTION_FAIL:
      options.if_missing = engine::IngestOptions::IfMissing::kFail;
      break;
    default:
      return Status::InvalidArgument(
          "table_definition_options.if_not_exist must be CREATE or FAIL");
  }
  switch (q.table_definition_options().if_exists()) {
    case Definition::TABLE_EXISTS_OPTION_FAIL:
      options.if_exists = engine::IngestOptions::IfExists::kFail;
      break;
    case Definition::TABLE_EXISTS_OPTION_APPEND:
      options.if_exists = engine::IngestOptions::IfExists::kAppend;
      break;
    case Definition::TABLE_EXISTS_OPTION_REPLACE:
      options.if_exists = engine::IngestOptions::IfExists::kReplace;
      break;
    default:
      return Status::InvalidArgument(
          "table_definition_options.if_exists must be FAIL, APPEND or REPLACE");
  }
  return options;
}

}  // namespace

struct FlightSqlService::State {
  FlightSqlServiceOptions options;
  UserSessions sessions;
  HandleTable<TicketEntry> tickets{"ticket", kTicketLifetime, kMaxTickets};
  HandleTable<PreparedStatement> prepared{"prepared statement", kPreparedLifetime, kMaxPrepared};
  HandleTable<FlightSession> flight_sessions;
  RunningQueries running;
  std::vector<SqlInfoEntry> sql_info;

  explicit State(FlightSqlServiceOptions o)
      : options(std::move(o)),
        sessions(options.engine, options.session_ttl),
        flight_sessions("session", options.session_ttl, kMaxSessions),
        sql_info(SqlInfoFacts(options.server_version)) {}

  /// Authenticates a call and picks its session: the one its cookie names (which must be
  /// the caller's), else the caller's per-user session. A cookie of an expired or closed
  /// session falls back to the per-user one.
  Result<Caller> Resolve(const grpc::ServerContext& context) {
    SQE_ASSIGN_OR_RETURN(auth::Identity who, AuthenticateCall(*options.auth, context));
    if (std::optional<std::string> id = SessionIdCookie(context)) {
      Result<std::shared_ptr<FlightSession>> session = flight_sessions.Get(*id, who.user);
      if (session.ok()) return Caller{std::move(who), (*session)->session};
      if (session.status().code() == StatusCode::kPermissionDenied) return session.status();
    }
    std::shared_ptr<engine::Session> session = sessions.ForUser(who.user);
    return Caller{std::move(who), std::move(session)};
  }

  /// Cancels what the tickets of `info` started: CANCELLED when a query was stopped (or a
  /// ticket withdrawn before its DoGet), NOT_CANCELLABLE when the statement already ran
  /// (statements without a result set run at GetFlightInfo); NotFound for tickets no
  /// longer known (their stream ended, or they expired).
  Result<fp::CancelStatus> CancelInfo(const fp::FlightInfo& info, const Caller& caller) {
    if (info.endpoint_size() == 0) {
      return Status::InvalidArgument("the FlightInfo to cancel has no endpoint");
    }
    bool cancelled = false;
    for (const fp::FlightEndpoint& endpoint : info.endpoint()) {
      SQE_ASSIGN_OR_RETURN(std::string handle, TicketHandle(endpoint.ticket()));
      SQE_ASSIGN_OR_RETURN(bool was_running, running.Cancel(handle, caller.who.user));
      if (was_running) {
        cancelled = true;
        continue;
      }
      Result<std::shared_ptr<TicketEntry>> pending = tickets.Get(handle, caller.who.user);
      if (!pending.ok()) {
        if (pending.status().code() != StatusCode::kNotFound) return pending.status();
        return Status::NotFound(
            "no running query has this ticket (its stream ended or it "
            "expired)");
      }
      if ((*pending)->result != nullptr) return fp::CANCEL_STATUS_NOT_CANCELLABLE;
      SQE_RETURN_NOT_OK(tickets.Remove(handle, caller.who.user));
      cancelled = true;
    }
    return cancelled ? fp::CANCEL_STATUS_CANCELLED : fp::CANCEL_STATUS_UNSPECIFIED;
  }

  /// The schema a command's result has (without running it).
  Result<columnar::SchemaPtr> SchemaOf(const google::protobuf::Any& command, const Caller& caller) {
    if (Is(command, sqlproto::CommandStatementQuery::descriptor())) {
      SQE_ASSIGN_OR_RETURN(auto q, rpc::UnpackAny<sqlproto::CommandStatementQuery>(command));
      SQE_ASSIGN_OR_RETURN(engine::StatementDescription d, caller.session->Describe(q.query()));
      return d.schema;
    }
    if (Is(command, sqlproto::CommandPreparedStatementQuery::descriptor())) {
      SQE_ASSIGN_OR_RETURN(auto q,
                           rpc::UnpackAny<sqlproto::CommandPreparedStatementQuery>(command));
      SQE_ASSIGN_OR_RETURN(auto p, prepared.Get(q.prepared_statement_handle(), caller.who.user));
      return p->description.schema;
    }
    if (Is(command, sqlproto::CommandGetCatalogs::descriptor())) return CatalogsSchema();
    if (Is(command, sqlproto::CommandGetDbSchemas::descriptor())) return DbSchemasSchema();
    if (Is(command, sqlproto::CommandGetTables::descriptor())) {
      SQE_ASSIGN_OR_RETURN(auto q, rpc::UnpackAny<sqlproto::CommandGetTables>(command));
      return TablesSchema(q.include_schema());
    }
    if (Is(command, sqlproto::CommandGetTableTypes::descriptor())) return TableTypesSchema();
    if (Is(command, sqlproto::CommandGetXdbcTypeInfo::descriptor())) return XdbcTypeInfoSchema();
    return Status::NotImplemented("Flight SQL command '" + rpc::AnyTypeName(command) +
                                  "' is not supported yet");
  }

  /// The IPC-encapsulated schema of a command's result.
  Result<std::string> SchemaBytesOf(const google::protobuf::Any& command, const Caller& caller) {
    if (Is(command, sqlproto::CommandGetSqlInfo::descriptor())) {
      SQE_ASSIGN_OR_RETURN(columnar::ipc::EncodedMessage m, SqlInfoSchemaMessage());
      std::string out;
      columnar::ipc::AppendFramedMessage(m, &out);
      return out;
    }
    if (std::optional<columnar::ipc::EncodedMessage> keys = KeysSchema(command)) {
      std::string out;
      columnar::ipc::AppendFramedMessage(*keys, &out);
      return out;
    }
    SQE_ASSIGN_OR_RETURN(columnar::SchemaPtr schema, SchemaOf(command, caller));
    return rpc::SerializeSchema(*schema);
  }

  /// The ticket entry of a command and its result schema (GetFlightInfo). Statements
  /// without a result set run now.
  Result<std::shared_ptr<TicketEntry>> TicketFor(const google::protobuf::Any& command,
                                                 const Caller& caller, std::string* schema_bytes) {
    auto entry = std::make_shared<TicketEntry>();
    bool run_now = false;
    if (Is(command, sqlproto::CommandStatementQuery::descriptor())) {
      SQE_ASSIGN_OR_RETURN(auto q, rpc::UnpackAny<sqlproto::CommandStatementQuery>(command));
      if (q.has_transaction_id()) {
        return Status::NotImplemented(
            "transactions are not supported; every statement commits "
            "on its own");
      }
      entry->sql = q.query();
      SQE_ASSIGN_OR_RETURN(engine::StatementDescription d, caller.session->Describe(entry->sql));
      SQE_ASSIGN_OR_RETURN(*schema_bytes, rpc::SerializeSchema(*ClientSchema(*d.schema)));
      run_now = d.is_update;
    } else if (Is(command, sqlproto::CommandPreparedStatementQuery::descriptor())) {
      SQE_ASSIGN_OR_RETURN(auto q,
                           rpc::UnpackAny<sqlproto::CommandPreparedStatementQuery>(command));
      SQE_ASSIGN_OR_RETURN(auto p, prepared.Get(q.prepared_statement_handle(), caller.who.user));
      entry->sql = p->sql;
      SQE_ASSIGN_OR_RETURN(*schema_bytes,
                           rpc::SerializeSchema(*ClientSchema(*p->description.schema)));
      run_now = p->description.is_update;
      std::lock_guard<std::mutex> lock(p->mu);
      if (p->parameter_rows.size() > 1) {
        return Status::NotImplemented("a prepared query runs with one set of parameters; " +
                                      std::to_string(p->parameter_rows.size()) +
                                      " rows of parameters were bound");
      }
      if (!p->parameter_rows.empty()) entry->parameters = p->parameter_rows[0];
    } else {
      SQE_ASSIGN_OR_RETURN(*schema_bytes, SchemaBytesOf(command, caller));
      entry->command = command;
    }
    if (run_now) {
      SQE_ASSIGN_OR_RETURN(engine::QueryResult result,
                           caller.session->ExecuteWithParameters(entry->sql, entry->parameters));
      // The stream DoGet sends is this result's (an INSERT reports its row count).
      SQE_ASSIGN_OR_RETURN(*schema_bytes, rpc::SerializeSchema(*ClientSchema(*result.schema)));
      entry->result = std::make_shared<engine::QueryResult>(std::move(result));
    }
    return entry;
  }

  /// Streams the result of a statement that already ran.
  Status WriteResult(const engine::QueryResult& result,
                     grpc::ServerWriter<fp::FlightData>* writer) {
    SQE_ASSIGN_OR_RETURN(fp::FlightData schema,
                         rpc::SchemaToFlightData(*ClientSchema(*result.schema)));
    if (!writer->Write(schema)) return Status::Cancelled("the client went away");
    for (const columnar::Batch& batch : result.batches)
      SQE_RETURN_NOT_OK(WriteBatch(batch, columnar::ipc::Compression::kNone, writer));
    return Status::OK();
  }

  /// Streams a metadata command's result.
  Status WriteMetadata(const google::protobuf::Any& command, const Caller& caller,
                       grpc::ServerWriter<fp::FlightData>* writer) {
    if (Is(command, sqlproto::CommandGetSqlInfo::descriptor())) {
      SQE_ASSIGN_OR_RETURN(auto q, rpc::UnpackAny<sqlproto::CommandGetSqlInfo>(command));
      std::vector<uint32_t> codes(q.info().begin(), q.info().end());
      SQE_ASSIGN_OR_RETURN(columnar::ipc::EncodedMessage schema, SqlInfoSchemaMessage());
      SQE_ASSIGN_OR_RETURN(columnar::ipc::EncodedMessage batch,
                           SqlInfoBatchMessage(SelectSqlInfo(sql_info, codes)));
      fp::FlightData first, second;
      first.set_data_header(std::move(schema.metadata));
      second.set_data_header(std::move(batch.metadata));
      second.set_data_body(std::move(batch.body));
      if (!writer->Write(first) || !writer->Write(second)) {
        return Status::Cancelled("the client went away");
      }
      return Status::OK();
    }
    if (std::optional<columnar::ipc::EncodedMessage> keys = KeysSchema(command)) {
      fp::FlightData schema;
      schema.set_data_header(std::move(keys->metadata));
      if (!writer->Write(schema)) return Status::Cancelled("the client went away");
      return Status::OK();
    }
    std::shared_ptr<engine::Session> session = caller.session;
    columnar::Batch batch;
    if (Is(command, sqlproto::CommandGetCatalogs::descriptor())) {
      SQE_ASSIGN_OR_RETURN(batch, ListCatalogs(*session));
    } else if (Is(command, sqlproto::CommandGetDbSchemas::descriptor())) {
      SQE_ASSIGN_OR_RETURN(auto q, rpc::UnpackAny<sqlproto::CommandGetDbSchemas>(command));
      SQE_ASSIGN_OR_RETURN(batch, ListDbSchemas(*session, q));
    } else if (Is(command, sqlproto::CommandGetTables::descriptor())) {
      SQE_ASSIGN_OR_RETURN(auto q, rpc::UnpackAny<sqlproto::CommandGetTables>(command));
      SQE_ASSIGN_OR_RETURN(batch, ListTables(*session, q));
    } else if (Is(command, sqlproto::CommandGetTableTypes::descriptor())) {
      SQE_ASSIGN_OR_RETURN(batch, ListTableTypes());
    } else if (Is(command, sqlproto::CommandGetXdbcTypeInfo::descriptor())) {
      SQE_ASSIGN_OR_RETURN(auto q, rpc::UnpackAny<sqlproto::CommandGetXdbcTypeInfo>(command));
      SQE_ASSIGN_OR_RETURN(
          batch,
          XdbcTypeInfo(q.has_data_type() ? std::optional<int32_t>(q.data_type()) : std::nullopt));
    } else {
      return Status::NotImplemented("Flight SQL command '" + rpc::AnyTypeName(command) +
                                    "' is not supported yet");
    }
    SQE_ASSIGN_OR_RETURN(fp::FlightData schema, rpc::SchemaToFlightData(*batch.schema()));
    if (!writer->Write(schema)) return Status::Cancelled("the client went away");
    return WriteBatch(batch, columnar::ipc::Compression::kNone, writer);
  }

  /// The body compression of a query's stream: coordinator.flight_compression, but none for
  /// grpc-java callers: Arrow Java's Flight client (the Flight SQL JDBC driver, so DBeaver
  /// and DataGrip) decodes compressed bodies only with arrow-compression on its classpath,
  /// which the shaded driver lacks. Flight has no way to ask the client what it decodes.
  columnar::ipc::Compression CompressionFor(const grpc::ServerContext& context) const {
    auto agent = context.client_metadata().find("user-agent");
    if (agent != context.client_metadata().end() &&
        std::string_view(agent->second.data(), agent->second.size()).find("grpc-java") !=
            std::string_view::npos) {
      return columnar::ipc::Compression::kNone;
    }
    return options.compression;
  }

  /// One batch, sliced while its body is too large for one message. Results that ran
  /// already and metadata results are small and go uncompressed.
  Status WriteBatch(const columnar::Batch& batch, columnar::ipc::Compression compression,
                    grpc::ServerWriter<fp::FlightData>* writer) {
    columnar::ipc::WriteOptions write;
    write.compression = compression;
    write.buffer_alignment = 8;
    SQE_ASSIGN_OR_RETURN(fp::FlightData data, rpc::BatchToFlightData(batch, write));
    if (data.data_body().size() > kMaxWireBody && batch.num_rows() > 1) {
      int64_t half = batch.num_rows() / 2;
      SQE_RETURN_NOT_OK(WriteBatch(batch.Slice(0, half), compression, writer));
      return WriteBatch(batch.Slice(half, batch.num_rows() - half), compression, writer);
    }
    if (!writer->Write(data)) return Status::Cancelled("the client went away");
    return Status::OK();
  }

  /// Runs a statement and streams its result.
  Status StreamStatement(grpc::ServerContext* context, const TicketEntry& ticket,
                         const Caller& caller, RunningQueries::Registration* registration,
                         grpc::ServerWriter<fp::FlightData>* writer) {
    std::shared_ptr<engine::Session> session = caller.session;
    SQE_ASSIGN_OR_RETURN(std::unique_ptr<engine::ResultCursor> cursor,
                         session->Start(ticket.sql, ticket.parameters));
    // CancelFlightInfo reaches the cursor through the registration until this returns.
    registration->Attach(cursor.get());
    struct DetachAtEnd {
      RunningQueries::Registration* r;
      ~DetachAtEnd() { r->Detach(); }
    } detach{registration};
    // A query may compute long before its first batch, while Next() waits: a watcher stops
    // it as soon as the client cancels the call, its deadline passes or the server stops.
    CancelWatcher watcher(context, cursor.get());
    SQE_ASSIGN_OR_RETURN(fp::FlightData schema,
                         rpc::SchemaToFlightData(*ClientSchema(*cursor->schema())));
    if (!writer->Write(schema)) return Status::Cancelled("the client went away");
    const columnar::ipc::Compression compression = CompressionFor(*context);
    while (true) {
      SQE_ASSIGN_OR_RETURN(std::optional<columnar::Batch> batch, cursor->Next());
      if (!batch.has_value()) return Status::OK();
      SQE_RETURN_NOT_OK(WriteBatch(*batch, compression, writer));
    }
  }

  /// Runs an update, once per parameter row (or once without parameters); the row count.
  Result<int64_t> RunUpdate(const Caller& caller, const std::string& sql,
                            const std::vector<std::vector<exec::Value>>& rows) {
    std::shared_ptr<engine::Session> session = caller.session;
    if (rows.empty()) {
      SQE_ASSIGN_OR_RETURN(engine::QueryResult r, session->ExecuteWithParameters(sql, {}));
      // DDL and SET report no count (-1); JDBC's executeUpdate expects 0 for them (with -1
      // the Flight SQL JDBC driver treats the statement as a query and runs it again).
      return std::max<int64_t>(0, r.update_count);
    }
    int64_t total = 0;
    for (const std::vector<exec::Value>& row : rows) {
      SQE_ASSIGN_OR_RETURN(engine::QueryResult r, session->ExecuteWithParameters(sql, row));
      total += std::max<int64_t>(0, r.update_count);
    }
    return total;
  }
};

FlightSqlService::FlightSqlService(FlightSqlServiceOptions options)
    : state_(std::make_unique<State>(std::move(options))) {}
FlightSqlService::~FlightSqlService() = default;

grpc::Status FlightSqlService::Fail(const Status& status) const {
  return ToClientStatus(status, state_->options.debug);
}

grpc::Status FlightSqlService::Handshake(
    grpc::ServerContext* context,
    grpc::ServerReaderWriter<fp::HandshakeResponse, fp::HandshakeRequest>* stream) {
  std::vector<fp::HandshakeRequest> requests;
  fp::HandshakeRequest request;
  while (stream->Read(&request)) requests.push_back(request);
  Result<auth::Identity> who = AuthenticateCall(*state_->options.auth, *context);
  // Clients of the payload form send a BasicAuth message instead of the header.
  if (!who.ok() && AuthorizationHeader(*context).empty()) {
    for (const fp::HandshakeRequest& r : requests) {
      fp::BasicAuth basic;
      if (r.payload().empty() || !basic.ParseFromString(r.payload())) continue;
      who = state_->options.auth->Authenticate(
          auth::Credentials::Basic(basic.username(), basic.password()));
    }
  }
  if (!who.ok()) return Fail(who.status());
  Result<std::string> token =
      state_->options.auth->issued_tokens().Issue(*who, state_->options.token_lifetime);
  if (!token.ok()) return Fail(token.status());
  context->AddInitialMetadata("authorization", "Bearer " + *token);
  fp::HandshakeResponse response;
  response.set_payload(*token);
  stream->Write(response);
  return grpc::Status::OK;
}

grpc::Status FlightSqlService::ListFlights(grpc::ServerContext* context, const fp::Criteria*,
                                           grpc::ServerWriter<fp::FlightInfo>*) {
  SQE_GRPC_RETURN_NOT_OK(AuthenticateCall(*state_->options.auth, *context).status());
  return grpc::Status::OK;
}

grpc::Status FlightSqlService::GetFlightInfo(grpc::ServerContext* context,
                                             const FlightDescriptor* request,
                                             fp::FlightInfo* response) {
  SQE_GRPC_ASSIGN_OR_RETURN(Caller caller, state_->Resolve(*context));
  SQE_GRPC_ASSIGN_OR_RETURN(google::protobuf::Any command, CommandOf(*request));
  std::string schema;
  SQE_GRPC_ASSIGN_OR_RETURN(std::shared_ptr<TicketEntry> entry,
                            state_->TicketFor(command, caller, &schema));
  SQE_GRPC_ASSIGN_OR_RETURN(std::string handle, state_->tickets.Add(caller.who.user, entry));
  sqlproto::TicketStatementQuery ticket;
  ticket.set_statement_handle(handle);
  response->set_schema(std::move(schema));
  *response->mutable_flight_descriptor() = *request;
  fp::FlightEndpoint* endpoint = response->add_endpoint();
  endpoint->mutable_ticket()->set_ticket(rpc::PackAny(ticket));
  // Known only for a statement that already ran; a query's rows are counted as they stream.
  response->set_total_records(entry->result != nullptr ? entry->result->num_rows() : -1);
  response->set_total_bytes(-1);
  response->set_ordered(true);
  return grpc::Status::OK;
}

grpc::Status FlightSqlService::PollFlightInfo(grpc::ServerContext* context,
                                              const FlightDescriptor* request,
                                              fp::PollInfo* response) {
  // A statement's FlightInfo is ready at once (a query runs at DoGet, streaming), so the
  // first answer is already the complete one: no retry descriptor.
  grpc::Status status = GetFlightInfo(context, request, response->mutable_info());
  if (!status.ok()) return status;
  response->set_progress(1.0);
  return grpc::Status::OK;
}

grpc::Status FlightSqlService::GetSchema(grpc::ServerContext* context,
                                         const FlightDescriptor* request,
                                         fp::SchemaResult* response) {
  SQE_GRPC_ASSIGN_OR_RETURN(Caller caller, state_->Resolve(*context));
  SQE_GRPC_ASSIGN_OR_RETURN(google::protobuf::Any command, CommandOf(*request));
  SQE_GRPC_ASSIGN_OR_RETURN(std::string schema, state_->SchemaBytesOf(command, caller));
  response->set_schema(std::move(schema));
  return grpc::Status::OK;
}

grpc::Status FlightSqlService::DoGet(grpc::ServerContext* context, const fp::Ticket* request,
                                     grpc::ServerWriter<FlightData>* writer) {
  SQE_GRPC_ASSIGN_OR_RETURN(Caller caller, state_->Resolve(*context));
  SQE_GRPC_ASSIGN_OR_RETURN(std::string handle, TicketHandle(*request));
  SQE_GRPC_ASSIGN_OR_RETURN(std::shared_ptr<TicketEntry> entry,
                            state_->tickets.Take(handle, caller.who.user));
  // Registered before the query starts: a cancel from now on stops it.
  std::unique_ptr<RunningQueries::Registration> registration =
      state_->running.Add(handle, caller.who.user);
  Status status = entry->result != nullptr ? state_->WriteResult(*entry->result, writer)
                  : entry->sql.empty()     ? state_->WriteMetadata(entry->command, caller, writer)
                                           : state_->StreamStatement(context, *entry, caller,
                                                                     registration.get(), writer);
  return Fail(status);
}

grpc::Status FlightSqlService::DoPut(grpc::ServerContext* context,
                                     grpc::ServerReaderWriter<fp::PutResult, FlightData>* stream) {
  SQE_GRPC_ASSIGN_OR_RETURN(Caller caller, state_->Resolve(*context));
  FlightData first;
  if (!stream->Read(&first)) {
    return Fail(Status::InvalidArgument("DoPut needs a first message with a descriptor"));
  }
  SQE_GRPC_ASSIGN_OR_RETURN(google::protobuf::Any command,
                            rpc::ParseAny(first.flight_descriptor().cmd()));
  // The uploaded stream (parameters), its first message included.
  rpc::FlightDataReader reader;
  uint64_t uploaded = first.data_body().size();
  SQE_GRPC_RETURN_NOT_OK(reader.Consume(std::move(first)));
  FlightData next;
  while (stream->Read(&next)) {
    uploaded += next.data_body().size();
    if (uploaded > state_->options.max_upload_bytes) {
      return Fail(Status::ResourceExhausted(
          "the uploaded stream exceeds query.max_query_memory (" +
          std::to_string(state_->options.max_upload_bytes >> 20) +
          " MiB), which bounds what one DoPut holds: send the rows in several smaller uploads"));
    }
    SQE_GRPC_RETURN_NOT_OK(reader.Consume(std::move(next)));
  }
  std::vector<columnar::Batch> batches = reader.TakeBatches();

  fp::PutResult result;
  if (Is(command, sqlproto::CommandStatementIngest::descriptor())) {
    SQE_GRPC_ASSIGN_OR_RETURN(auto q, rpc::UnpackAny<sqlproto::CommandStatementIngest>(command));
    SQE_GRPC_ASSIGN_OR_RETURN(engine::IngestOptions options, IngestOptionsOf(q));
    if (reader.schema() == nullptr) {
      return Fail(Status::InvalidArgument("the ingested stream has no schema message"));
    }
    SQE_GRPC_ASSIGN_OR_RETURN(int64_t count,
                              caller.session->Ingest(options, reader.schema(), batches));
    stream->Write(UpdateResult(count));
    return grpc::Status::OK;
  }
  SQE_GRPC_ASSIGN_OR_RETURN(auto rows, ParameterRows(batches));
  if (Is(command, sqlproto::CommandStatementUpdate::descriptor())) {
    SQE_GRPC_ASSIGN_OR_RETURN(auto q, rpc::UnpackAny<sqlproto::CommandStatementUpdate>(command));
    if (q.has_transaction_id()) {
      return Fail(Status::NotImplemented("transactions are not supported"));
    }
    SQE_GRPC_ASSIGN_OR_RETURN(int64_t count, state_->RunUpdate(caller, q.query(), {}));
    result = UpdateResult(count);
  } else if (Is(command, sqlproto::CommandPreparedStatementUpdate::descriptor())) {
    SQE_GRPC_ASSIGN_OR_RETURN(auto q,
                              rpc::UnpackAny<sqlproto::CommandPreparedStatementUpdate>(command));
    SQE_GRPC_ASSIGN_OR_RETURN(auto p,
                              state_->prepared.Get(q.prepared_statement_handle(), caller.who.user));
    if (rows.empty()) {
      std::lock_guard<std::mutex> lock(p->mu);
      rows = p->parameter_rows;
    }
    SQE_GRPC_ASSIGN_OR_RETURN(int64_t count, state_->RunUpdate(caller, p->sql, rows));
    result = UpdateResult(count);
  } else if (Is(command, sqlproto::CommandPreparedStatementQuery::descriptor())) {
    SQE_GRPC_ASSIGN_OR_RETURN(auto q,
                              rpc::UnpackAny<sqlproto::CommandPreparedStatementQuery>(command));
    SQE_GRPC_ASSIGN_OR_RETURN(auto p,
                              state_->prepared.Get(q.prepared_statement_handle(), caller.who.user));
    {
      std::lock_guard<std::mutex> lock(p->mu);
      p->parameter_rows = std::move(rows);
    }
    sqlproto::DoPutPreparedStatementResult bound;
    bound.set_prepared_statement_handle(q.prepared_statement_handle());
    result.set_app_metadata(bound.SerializeAsString());
  } else {
    return Fail(Status::NotImplemented("DoPut of '" + rpc::AnyTypeName(command) +
                                       "' is not supported yet"));
  }
  stream->Write(result);
  return grpc::Status::OK;
}

grpc::Status FlightSqlService::DoAction(grpc::ServerContext* context, const fp::Action* request,
                                        grpc::ServerWriter<fp::Result>* writer) {
  SQE_GRPC_ASSIGN_OR_RETURN(Caller caller, state_->Resolve(*context));
  const std::string& type = request->type();
  if (type == "CreatePreparedStatement") {
    SQE_GRPC_ASSIGN_OR_RETURN(google::protobuf::Any any, rpc::ParseAny(request->body()));
    SQE_GRPC_ASSIGN_OR_RETURN(auto q,
                              rpc::UnpackAny<sqlproto::ActionCreatePreparedStatementRequest>(any));
    if (q.has_transaction_id()) {
      return Fail(Status::NotImplemented("transactions are not supported"));
    }
    auto p = std::make_shared<PreparedStatement>();
    p->sql = q.query();
    SQE_GRPC_ASSIGN_OR_RETURN(p->description, caller.session->Describe(p->sql));
    sqlproto::ActionCreatePreparedStatementResult created;
    if (!p->description.is_update) {
      SQE_GRPC_ASSIGN_OR_RETURN(std::string schema,
                                rpc::SerializeSchema(*ClientSchema(*p->description.schema)));
      created.set_dataset_schema(std::move(schema));
    }
    if (!p->description.parameter_types.empty()) {
      SQE_GRPC_ASSIGN_OR_RETURN(std::string parameters,
                                rpc::SerializeSchema(*ParameterSchema(p->description)));
      created.set_parameter_schema(std::move(parameters));
    }
    SQE_GRPC_ASSIGN_OR_RETURN(std::string handle, state_->prepared.Add(caller.who.user, p));
    created.set_prepared_statement_handle(handle);
    fp::Result result;
    result.set_body(rpc::PackAny(created));
    writer->Write(result);
    return grpc::Status::OK;
  }
  if (type == "ClosePreparedStatement") {
    SQE_GRPC_ASSIGN_OR_RETURN(google::protobuf::Any any, rpc::ParseAny(request->body()));
    SQE_GRPC_ASSIGN_OR_RETURN(auto q,
                              rpc::UnpackAny<sqlproto::ActionClosePreparedStatementRequest>(any));
    return Fail(state_->prepared.Remove(q.prepared_statement_handle(), caller.who.user));
  }
  if (type == "CancelFlightInfo") {
    fp::CancelFlightInfoRequest q;
    if (!q.ParseFromString(request->body())) {
      return Fail(Status::InvalidArgument("CancelFlightInfo needs a CancelFlightInfoRequest"));
    }
    SQE_GRPC_ASSIGN_OR_RETURN(fp::CancelStatus status, state_->CancelInfo(q.info(), caller));
    fp::CancelFlightInfoResult cancelled;
    cancelled.set_status(status);
    fp::Result result;
    result.set_body(cancelled.SerializeAsString());
    writer->Write(result);
    return grpc::Status::OK;
  }
  if (type == "CancelQuery") {
    SQE_GRPC_ASSIGN_OR_RETURN(google::protobuf::Any any, rpc::ParseAny(request->body()));
    SQE_GRPC_ASSIGN_OR_RETURN(auto q, rpc::UnpackAny<sqlproto::ActionCancelQueryRequest>(any));
    fp::FlightInfo info;
    if (!info.ParseFromString(q.info())) {
      return Fail(Status::InvalidArgument("CancelQuery needs a serialized FlightInfo"));
    }
    SQE_GRPC_ASSIGN_OR_RETURN(fp::CancelStatus status, state_->CancelInfo(info, caller));
    sqlproto::ActionCancelQueryResult cancelled;
    // The two enums number their values alike.
    cancelled.set_result(static_cast<sqlproto::ActionCancelQueryResult::CancelResult>(status));
    fp::Result result;
    result.set_body(rpc::PackAny(cancelled));
    writer->Write(result);
    return grpc::Status::OK;
  }
  if (type == "SetSessionOptions") {
    fp::SetSessionOptionsRequest q;
    if (!q.ParseFromString(request->body())) {
      return Fail(Status::InvalidArgument("SetSessionOptions needs a SetSessionOptionsRequest"));
    }
    std::shared_ptr<FlightSession> session;
    if (std::optional<std::string> id = SessionIdCookie(*context)) {
      Result<std::shared_ptr<FlightSession>> known =
          state_->flight_sessions.Get(*id, caller.who.user);
      if (known.ok()) session = *known;
    }
    if (session == nullptr) {
      // A new session, named by the cookie the client sends from now on.
      session = std::make_shared<FlightSession>();
      session->session = state_->options.engine->NewSession(caller.who.user);
      SQE_GRPC_ASSIGN_OR_RETURN(std::string id,
                                state_->flight_sessions.Add(caller.who.user, session));
      context->AddInitialMetadata("set-cookie", std::string(kSessionCookieName) + "=" + id);
    }
    fp::Result result;
    result.set_body(ApplySessionOptions(*session->session, q).SerializeAsString());
    writer->Write(result);
    return grpc::Status::OK;
  }
  if (type == "GetSessionOptions" || type == "CloseSession") {
    std::optional<std::string> id = SessionIdCookie(*context);
    if (!id.has_value()) {
      return Fail(Status::NotFound(type + " needs the session cookie " + kSessionCookieName +
                                   " (SetSessionOptions starts a session)"));
    }
    SQE_GRPC_ASSIGN_OR_RETURN(std::shared_ptr<FlightSession> session,
                              state_->flight_sessions.Get(*id, caller.who.user));
    fp::Result result;
    if (type == "GetSessionOptions") {
      SQE_GRPC_ASSIGN_OR_RETURN(fp::GetSessionOptionsResult options,
                                CurrentSessionOptions(*session->session));
      result.set_body(options.SerializeAsString());
    } else {
      SQE_GRPC_RETURN_NOT_OK(state_->flight_sessions.Remove(*id, caller.who.user));
      context->AddInitialMetadata("set-cookie", std::string(kSessionCookieName) + "=; Max-Age=0");
      fp::CloseSessionResult closed;
      closed.set_status(fp::CloseSessionResult::CLOSED);
      result.set_body(closed.SerializeAsString());
    }
    writer->Write(result);
    return grpc::Status::OK;
  }
  if (type == "BeginTransaction" || type == "EndTransaction" || type == "BeginSavepoint" ||
      type == "EndSavepoint") {
    return Fail(Status::NotImplemented(
        "transactions are not supported (SqlInfo FLIGHT_SQL_SERVER_TRANSACTION is NONE): every "
        "statement commits on its own"));
  }
  return Fail(Status::NotImplemented("action '" + type + "' is not supported yet"));
}

grpc::Status FlightSqlService::ListActions(grpc::ServerContext* context, const fp::Empty*,
                                           grpc::ServerWriter<fp::ActionType>* writer) {
  SQE_GRPC_RETURN_NOT_OK(AuthenticateCall(*state_->options.auth, *context).status());
  for (const auto& [type, description] : std::vector<std::pair<std::string, std::string>>{
           {"CreatePreparedStatement", "Prepare a SQL statement (Flight SQL)"},
           {"ClosePreparedStatement", "Release a prepared statement (Flight SQL)"},
           {"CancelFlightInfo", "Cancel the query of a FlightInfo (CancelFlightInfoRequest)"},
           {"CancelQuery", "Cancel the query of a FlightInfo (Flight SQL, deprecated form)"},
           {"SetSessionOptions", "Set session options (catalog, schema, session properties)"},
           {"GetSessionOptions", "The options of the cookie's session"},
           {"CloseSession", "Close the cookie's session"}}) {
    fp::ActionType action;
    action.set_type(type);
    action.set_description(description);
    writer->Write(action);
  }
  return grpc::Status::OK;
}

}  // namespace sqe::server::flight_sql
