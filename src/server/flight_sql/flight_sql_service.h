#pragma once
/// FlightSqlService: the Arrow Flight SQL protocol over the engine, as a gRPC FlightService
/// (docs/dev/flight-sql.md says which commands exist). Every call is authenticated
/// (call_identity.h) and runs in the caller's per-user Session. Queries are described at
/// GetFlightInfo (bound, not run) and run at DoGet, whose stream pulls batches from the
/// running query, so a result is never held whole; gRPC flow control is the back-pressure.
/// Tickets and prepared statements are opaque handles bound to their user (handle_table.h).
///
/// Thread safety: gRPC calls the methods concurrently from its thread pool.

#include <chrono>
#include <memory>
#include <string>

#include "auth/auth_chain.h"
#include "columnar/ipc/ipc_options.h"
#include "engine/engine.h"
#include "rpc/flight.grpc.pb.h"

namespace sqe::server::flight_sql {

struct FlightSqlServiceOptions {
  std::shared_ptr<engine::Engine> engine;
  std::shared_ptr<const auth::AuthChain> auth;
  /// IPC body compression of DoGet streams (coordinator.flight_compression).
  columnar::ipc::Compression compression = columnar::ipc::Compression::kNone;
  /// Idle sessions are dropped after this (coordinator.session_context_cache_ttl_secs).
  std::chrono::seconds session_ttl{60};
  /// Lifetime of the bearer tokens Handshake issues.
  std::chrono::seconds token_lifetime{3600};
  /// coordinator.debug: error messages keep internal details (grpc_status.h).
  bool debug = false;
  /// A DoPut upload (parameters, ingested rows) is held in memory before it runs: past this
  /// many body bytes it fails with RESOURCE_EXHAUSTED (query.max_query_memory).
  uint64_t max_upload_bytes = 256ull << 20;
  /// Reported as FLIGHT_SQL_SERVER_VERSION.
  std::string server_version = "sqe";
};

class FlightSqlService final : public ::arrow::flight::protocol::FlightService::Service {
 public:
  explicit FlightSqlService(FlightSqlServiceOptions options);
  ~FlightSqlService() override;

  using FlightData = ::arrow::flight::protocol::FlightData;
  using FlightDescriptor = ::arrow::flight::protocol::FlightDescriptor;

  grpc::Status Handshake(
      grpc::ServerContext* context,
      grpc::ServerReaderWriter<::arrow::flight::protocol::HandshakeResponse,
                               ::arrow::flight::protocol::HandshakeRequest>* stream) override;
  grpc::Status ListFlights(
      grpc::ServerContext* context, const ::arrow::flight::protocol::Criteria* request,
      grpc::ServerWriter<::arrow::flight::protocol::FlightInfo>* writer) override;
  grpc::Status GetFlightInfo(grpc::ServerContext* context, const FlightDescriptor* request,
                             ::arrow::flight::protocol::FlightInfo* response) override;
  /// Runs as GetFlightInfo does and answers with a complete PollInfo (progress 1, no retry
  /// descriptor): ADBC's incremental execution.
  grpc::Status PollFlightInfo(grpc::ServerContext* context, const FlightDescriptor* request,
                              ::arrow::flight::protocol::PollInfo* response) override;
  grpc::Status GetSchema(grpc::ServerContext* context, const FlightDescriptor* request,
                         ::arrow::flight::protocol::SchemaResult* response) override;
  grpc::Status DoGet(grpc::ServerContext* context, const ::arrow::flight::protocol::Ticket* request,
                     grpc::ServerWriter<FlightData>* writer) override;
  grpc::Status DoPut(
      grpc::ServerContext* context,
      grpc::ServerReaderWriter<::arrow::flight::protocol::PutResult, FlightData>* stream) override;
  grpc::Status DoAction(grpc::ServerContext* context,
                        const ::arrow::flight::protocol::Action* request,
                        grpc::ServerWriter<::arrow::flight::protocol::Result>* writer) override;
  grpc::Status ListActions(
      grpc::ServerContext* context, const ::arrow::flight::protocol::Empty* request,
      grpc::ServerWriter<::arrow::flight::protocol::ActionType>* writer) override;

  struct State;

 private:
  /// The gRPC status of a failed call, as options.debug says (ToClientStatus).
  grpc::Status Fail(const Status& status) const;

  std::unique_ptr<State> state_;
};

}  // namespace sqe::server::flight_sql
