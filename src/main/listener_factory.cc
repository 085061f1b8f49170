#include "main/listener_factory.h"

#include <string>

#include "common/logging.h"
#include "main/version.h"
#include "server/http/health_routes.h"
#include "server/http/http_listener.h"
#include "server/listener/closing_tcp_listener.h"
#include "server/trino/info_route.h"

namespace sqe::app {
namespace {

void LogNotImplemented(const config::ListenerSpec& spec, const char* detail) {
  log::Warn("server.not_implemented",
            {{"listener", spec.name}, {"port", spec.port}, {"detail", detail}});
}

std::unique_ptr<server::Listener> MetricsListener(const ServerContext& context) {
  auto listener = std::make_unique<server::HttpListener>();
  server::AddHealthRoutes(*listener, context.readiness);
  return listener;
}

std::unique_ptr<server::Listener> TrinoListener(const config::ListenerSpec& spec,
                                                const ServerContext& context) {
  auto listener = std::make_unique<server::HttpListener>();
  server::TrinoNodeInfo info;
  info.version = std::string("sqe-") + kSqeVersion;
  info.coordinator = context.config.coordinator.mode != "worker";
  info.started_at = context.started_at;
  server::AddTrinoInfoRoute(*listener, info, context.readiness, context.clock);
  LogNotImplemented(spec,
                    "the Trino statement protocol is not implemented yet; only GET /v1/info "
                    "answers");
  return listener;
}

}  // namespace

Result<std::unique_ptr<server::Listener>> MakeListener(const config::ListenerSpec& spec,
                                                       const ServerContext& context) {
  if (spec.name == "metrics") return MetricsListener(context);
  if (spec.name == "trino_http") return TrinoListener(spec, context);
  if (spec.name == "flight_sql") {
    LogNotImplemented(spec,
                      "Arrow Flight SQL is not implemented yet; the port is held and "
                      "connections are closed");
    return std::unique_ptr<server::Listener>(std::make_unique<server::ClosingTcpListener>());
  }
  if (spec.name == "rest_catalog") {
    LogNotImplemented(spec,
                      "the Iceberg REST catalog server is not implemented yet; every path "
                      "answers 404");
    return std::unique_ptr<server::Listener>(std::make_unique<server::HttpListener>());
  }
  if (spec.name == "worker_flight") {
    LogNotImplemented(spec,
                      "worker Flight (fragments, DoExchange) is not implemented yet; the port "
                      "is held and connections are closed");
    return std::unique_ptr<server::Listener>(std::make_unique<server::ClosingTcpListener>());
  }
  return Status::Internal("no listener implementation for '" + spec.name + "' (" + spec.field +
                          ")");
}

}  // namespace sqe::app
