#include "server/flight_sql/flight_sql_listener.h"

#include <chrono>

#include <grpc/grpc.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server_builder.h>

namespace sqe::server::flight_sql {

FlightSqlListener::FlightSqlListener(FlightSqlServiceOptions options,
                                     std::optional<FlightSqlTls> tls)
    : service_(std::make_unique<FlightSqlService>(std::move(options))), tls_(std::move(tls)) {}

FlightSqlListener::~FlightSqlListener() { Stop(); }

namespace {

/// Holds one reference on the gRPC library for the life of the process. Without it the
/// last grpc::Server's destructor runs grpc_shutdown(), which joins gRPC's executor
/// threads; one of them can sit in a poll of several seconds, and a SIGTERM'd server then
/// missed its stop deadline (seen on a loaded CI machine).
void KeepGrpcInitialized() {
  static const bool kInitialized = [] {
    grpc_init();
    return true;
  }();
  (void)kInitialized;
}

}  // namespace

Status FlightSqlListener::Bind(const std::string& host, int port) {
  KeepGrpcInitialized();
  grpc::ServerBuilder builder;
  int selected = 0;
  std::shared_ptr<grpc::ServerCredentials> credentials =
      tls_.has_value() ? TlsServerCredentials(*tls_) : grpc::InsecureServerCredentials();
  builder.AddListeningPort(host + ":" + std::to_string(port), credentials, &selected);
  builder.RegisterService(service_.get());
  // Parameter and ingest uploads can be large; results go out in slices (< 4 MiB).
  builder.SetMaxReceiveMessageSize(256 << 20);
  builder.SetMaxSendMessageSize(256 << 20);
  server_ = builder.BuildAndStart();
  if (server_ == nullptr || selected == 0) {
    server_.reset();
    return Status::IOError("cannot listen on " + host + ":" + std::to_string(port) +
                           " (address in use or not available)");
  }
  port_ = selected;
  return Status::OK();
}

Status FlightSqlListener::Serve() {
  if (server_ == nullptr) return Status::Internal("Serve() before a successful Bind()");
  return Status::OK();
}

std::string FlightSqlListener::protocol() const {
  if (!tls_.has_value()) return "grpc";
  return tls_->mutual() ? "grpc+mtls" : "grpc+tls";
}

void FlightSqlListener::Stop() {
  if (server_ == nullptr) return;
  server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
  server_->Wait();
  server_.reset();
}

}  // namespace sqe::server::flight_sql
