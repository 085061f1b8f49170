#pragma once
/// Builds the Listener behind each planned port (config::PlannedListeners names them):
///   metrics       HTTP: /health, /ready (later /metrics and the admin API)
///   trino_http    HTTP: the Trino client protocol (/v1/info, /v1/statement, /v1/query)
///   flight_sql    Arrow Flight SQL (gRPC) over an engine of its own
///   rest_catalog  HTTP, no routes yet (the Iceberg REST catalog server)
///   worker_flight holds the port, closes connections (worker Flight needs gRPC)
/// A listener that only holds its port (or serves a fraction of its protocol) comes with a
/// note that RunServer logs as a `server.not_implemented` warning once it serves.

#include <memory>

#include "common/result.h"
#include "config/config.h"
#include "main/server_context.h"
#include "server/listener/listener.h"

namespace sqe::app {

/// A listener and, when it is not (fully) implemented yet, what it lacks.
struct MadeListener {
  std::unique_ptr<server::Listener> listener;
  std::string not_implemented;  ///< "" when complete
};

/// The listener for `spec`; Internal for a listener name this binary does not know.
Result<MadeListener> MakeListener(const config::ListenerSpec& spec, const ServerContext& context);

}  // namespace sqe::app
