#pragma once
/// GET /v1/info and /v1/status on the Trino HTTP port: the node description Trino clients
/// (CLI, JDBC, DBeaver) fetch before they send a statement, and the status tooling polls.
/// The statement protocol is statement_routes.h.

#include <chrono>
#include <memory>
#include <string>

#include "common/clock.h"
#include "server/http/http_listener.h"
#include "server/listener/readiness.h"

namespace sqe::server {

/// What /v1/info reports about this node.
struct TrinoNodeInfo {
  std::string version;  ///< e.g. "sqe-0.1.0"
  std::string environment = "sqe";
  bool coordinator = true;
  Clock::MonoTime started_at;  ///< for "uptime"
  std::string node_id = "sqe";
};

/// Adds GET /v1/info and GET /v1/status. `readiness` and `clock` must outlive the listener;
/// "starting" is true until readiness says ready.
void AddTrinoInfoRoute(HttpListener& listener, TrinoNodeInfo info, const Readiness& readiness,
                       std::shared_ptr<Clock> clock);

/// Trino's duration text: "850.00ms", "12.34s", "5.50m", "2.00h", "1.25d".
std::string FormatTrinoDuration(std::chrono::nanoseconds d);

}  // namespace sqe::server
