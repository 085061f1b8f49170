#include "main/listener_factory.h"

#include <optional>
#include <string>

#include "columnar/ipc/ipc_options.h"
#include "engine/engine.h"
#include "main/version.h"
#include "server/flight_sql/flight_sql_listener.h"
#include "server/http/health_routes.h"
#include "server/http/http_listener.h"
#include "server/iceberg_rest/iceberg_rest_routes.h"
#include "server/listener/closing_tcp_listener.h"
#include "server/trino/info_route.h"
#include "server/trino/statement_routes.h"

namespace sqe::app {
namespace {

std::unique_ptr<server::Listener> MetricsListener(const ServerContext& context) {
  auto listener = std::make_unique<server::HttpListener>();
  server::AddHealthRoutes(*listener, context.readiness);
  return listener;
}

/// The engine the statement listeners run on: the process's shared one, or (without one in
/// the context) a new engine on the configured catalog.
Result<std::shared_ptr<engine::Engine>> StatementEngine(const ServerContext& context) {
  if (context.engine != nullptr) return context.engine->Get();
  engine::EngineOptions options;
  options.config = context.config;
  return engine::Engine::Open(std::move(options));
}

/// The Trino client protocol over the process engine: /v1/info, /v1/status, the
/// statement protocol and /v1/query. When the engine cannot start, only /v1/info and
/// /v1/status answer and the reason is logged.
MadeListener TrinoListener(const ServerContext& context) {
  const config::Config& config = context.config;
  // Statement pages wait up to a second for data, so more threads than the default; one
  // request per connection, so no client reuses a connection the server is closing.
  server::HttpListener::Options http;
  http.worker_threads = 16;
  http.keep_alive_max_requests = 1;
  auto listener = std::make_unique<server::HttpListener>(http);
  server::TrinoNodeInfo info;
  info.version = std::string("sqe-") + kSqeVersion;
  info.coordinator = config.coordinator.mode != "worker";
  info.started_at = context.started_at;
  server::AddTrinoInfoRoute(*listener, info, context.readiness, context.clock);

  Result<std::shared_ptr<engine::Engine>> engine = StatementEngine(context);
  if (!engine.ok() || context.auth == nullptr) {
    std::string why = !engine.ok() ? engine.status().message() : "no auth chain";
    return MadeListener{std::move(listener), "the Trino statement protocol cannot start (" + why +
                                                 "); only /v1/info and /v1/status answer"};
  }
  server::trino::TrinoProtocolOptions options;
  options.engine = *engine;
  options.auth = context.auth;
  options.session_ttl = std::chrono::seconds(config.coordinator.session_context_cache_ttl_secs);
  options.node = {info.node_id,
                  "http://127.0.0.1:" + std::to_string(config.coordinator.trino_http_port),
                  info.version, info.coordinator, "active"};
  server::trino::AddTrinoStatementRoutes(*listener, std::move(options));
  std::string missing =
      "the Trino protocol serves statements, paging, cancel, /v1/query and system.jdbc; not "
      "yet: the spooling protocol (results are inline), transactions beyond autocommit";
  if (config.coordinator.tls.enabled()) {
    missing += ", TLS ([coordinator.tls] secures the Flight SQL port; this port is plaintext)";
  }
  return MadeListener{std::move(listener), missing};
}

/// The Iceberg REST catalog server over the process catalog, or, when there is none, a
/// listener answering 503 with the reason.
MadeListener RestCatalogListener(const ServerContext& context) {
  // Catalog clients (pyiceberg, Spark, iceberg-js) pause between requests while they write
  // files: one request per connection, so none reuses a connection the server is closing,
  // and more threads for writers committing at once.
  server::HttpListener::Options options;
  options.worker_threads = 16;
  options.keep_alive_max_requests = 1;
  auto listener = std::make_unique<server::HttpListener>(options);
  const ProcessCatalog* catalog = context.catalog;
  if (catalog == nullptr || catalog->catalog == nullptr) {
    Status why = catalog == nullptr ? Status::Internal("no catalog in this mode") : catalog->error;
    server::AddIcebergRestUnavailableRoutes(*listener, why);
    return MadeListener{std::move(listener), "the catalog could not be made (" + why.message() +
                                                 "); every REST catalog path answers 503"};
  }
  server::IcebergRestOptions rest;
  rest.warehouse = catalog->warehouse;
  rest.default_format_version = context.config.catalog.default_table_format_version;
  rest.file_systems = catalog->file_systems;
  rest.auth = context.auth;
  server::AddIcebergRestRoutes(*listener, catalog->catalog, rest);
  return MadeListener{std::move(listener), ""};
}

/// Arrow Flight SQL over the process engine (it opens the configured catalog), over TLS
/// when [coordinator.tls] sets a certificate and key (a bad TLS file stops the start).
/// When the engine cannot start, the port is held and the reason logged.
Result<MadeListener> FlightSqlListenerFor(const ServerContext& context) {
  const config::Config& config = context.config;
  std::optional<server::flight_sql::FlightSqlTls> tls;
  if (config.coordinator.tls.enabled()) {
    const config::TlsConfig& files = config.coordinator.tls;
    SQE_ASSIGN_OR_RETURN(tls, server::flight_sql::LoadFlightSqlTls(
                                  {files.cert_file, files.key_file, files.ca_file}));
  }
  Result<std::shared_ptr<engine::Engine>> engine = StatementEngine(context);
  Result<columnar::ipc::Compression> compression =
      columnar::ipc::ParseCompression(config.coordinator.flight_compression);
  if (!engine.ok() || !compression.ok() || context.auth == nullptr) {
    std::string why = !engine.ok()        ? engine.status().message()
                      : !compression.ok() ? compression.status().message()
                                          : "no auth chain";
    return MadeListener{
        std::make_unique<server::ClosingTcpListener>(),
        "Arrow Flight SQL cannot start (" + why + "); the port is held and connections are closed"};
  }
  server::flight_sql::FlightSqlServiceOptions options;
  options.engine = *engine;
  options.auth = context.auth;
  options.compression = *compression;
  options.session_ttl = std::chrono::seconds(config.coordinator.session_context_cache_ttl_secs);
  options.server_version = kSqeVersion;
  options.debug = config.coordinator.debug;
  options.max_upload_bytes = config.query.max_query_memory;
  std::string missing =
      "Flight SQL serves queries, updates, prepared statements, bulk ingestion, cancellation, "
      "session options and the catalog metadata; not yet: transactions";
  return MadeListener{
      std::make_unique<server::flight_sql::FlightSqlListener>(std::move(options), std::move(tls)),
      missing};
}

}  // namespace

Result<MadeListener> MakeListener(const config::ListenerSpec& spec, const ServerContext& context) {
  if (spec.name == "metrics") return MadeListener{MetricsListener(context), ""};
  if (spec.name == "trino_http") return TrinoListener(context);
  if (spec.name == "flight_sql") return FlightSqlListenerFor(context);
  if (spec.name == "rest_catalog") {
    return RestCatalogListener(context);
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
