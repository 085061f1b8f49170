#pragma once
/// Flight session options (the SetSessionOptions / GetSessionOptions / CloseSession
/// actions): a FlightSession is an engine Session of its own, named by the cookie
/// `arrow_flight_session_id` the server sets, which clients send back on later calls.
/// Options map onto the engine Session: `catalog` and `schema` set its current catalog and
/// schema (checked to exist), the session properties SHOW SESSION lists (time_zone,
/// threads, query_max_run_time) are set with SET SESSION; other names are INVALID_NAME.

#include <memory>
#include <optional>
#include <string>

#include <grpcpp/server_context.h>

#include "engine/engine.h"
#include "rpc/flight.pb.h"

namespace sqe::server::flight_sql {

/// The cookie that names a Flight session.
inline constexpr char kSessionCookieName[] = "arrow_flight_session_id";

/// One cookie-named session.
struct FlightSession {
  std::shared_ptr<engine::Session> session;
};

/// The session id in a call's `cookie` headers, if it names one.
std::optional<std::string> SessionIdCookie(const grpc::ServerContext& context);

/// Applies the request's options to `session`; the result lists those that failed.
::arrow::flight::protocol::SetSessionOptionsResult ApplySessionOptions(
    engine::Session& session, const ::arrow::flight::protocol::SetSessionOptionsRequest& request);

/// The session's options: catalog, schema and every session property.
Result<::arrow::flight::protocol::GetSessionOptionsResult> CurrentSessionOptions(
    engine::Session& session);

}  // namespace sqe::server::flight_sql
