#include "main/listener_factory.h"

#include <string>

#include "main/version.h"
#include "server/http/health_routes.h"
#include "server/http/http_listener.h"
#include "server/listener/closing_tcp_listener.h"
#include "server/trino/info_route.h"

namespace sqe::app {
namespace {

std::unique_ptr<server::Listener> MetricsListener(const ServerContext& context) {
  auto listener = std::make_unique<server::HttpListener>();
  server::AddHealthRoutes(*listener, context.readiness);
  return listener;
}

std::unique_ptr<server::Listener> TrinoListener(const ServerContext& context) {
  auto listener = std::make_unique<server::HttpListener>();
  server::TrinoNodeInfo info;
  info.version = std::string("sqe-") + kSqeVersion;
  info.coordinator = context.config.coordinator.mode != "worker";
  info.started_at = context.started_at;
  server::AddTrinoInfoRoute(*listener, info, context.readiness, context.clock);
  return listener;
}

}  // namespace

Result<MadeListener> MakeListener(const config::ListenerSpec& spec, const ServerContext& context) {
  if (spec.name == "metrics") return MadeListener{MetricsListener(context), ""};
  if (spec.name == "trino_http") {
    return MadeListener{TrinoListener(context),
                        "the Trino statement protocol is not implemented yet; only GET "
                        "/v1/info answers"};
  }
  if (spec.name == "flight_sql") {
    return MadeListener{std::make_unique<server::ClosingTcpListener>(),
                        "Arrow Flight SQL is not implemented yet; the port is held and "
                        "connections are closed"};
  }
  if (spec.name == "rest_catalog") {
    return MadeListener{std::make_unique<server::HttpListener>(),
                        "the Iceberg REST catalog server is not implemented yet; every path "
                        "answers 404"};
  }
  if (spec.name == "worker_flight") {
    return MadeListener{std::make_unique<server::ClosingTcpListener>(),
                        "worker Flight (fragments, DoExchange) is not implemented yet; the "
                        "port is held and connections are closed"};
  }
  return Status::Internal("no listener implementation for '" + spec.name + "' (" + spec.field +
                          ")");
}

}  // namespace sqe::app
