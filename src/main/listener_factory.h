#pragma once
/// Builds the Listener behind each planned port (config::PlannedListeners names them):
///   metrics       HTTP: /health, /ready (later /metrics and the admin API)
///   trino_http    HTTP: GET /v1/info (the statement protocol comes with the engine)
///   flight_sql    holds the port, closes connections (Flight SQL needs gRPC)
///   rest_catalog  HTTP, no routes yet (the Iceberg REST catalog server)
///   worker_flight holds the port, closes connections (worker Flight needs gRPC)
/// A listener that only holds its port logs a `server.not_implemented` warning.

#include <memory>

#include "common/result.h"
#include "config/config.h"
#include "main/server_context.h"
#include "server/listener/listener.h"

namespace sqe::app {

/// The listener for `spec`; Internal for a listener name this binary does not know.
Result<std::unique_ptr<server::Listener>> MakeListener(const config::ListenerSpec& spec,
                                                       const ServerContext& context);

}  // namespace sqe::app
