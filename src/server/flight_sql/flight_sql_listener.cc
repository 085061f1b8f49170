#include "server/flight_sql/flight_sql_listener.h"

#include <chrono>

#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server_builder.h>

namespace sqe::server::flight_sql {

FlightSqlListener::FlightSqlListener(FlightSqlServiceOptions options)
    : service_(std::make_unique<FlightSqlService>(std::move(options))) {}

FlightSqlListener::~FlightSqlListener() { Stop(); }

Status FlightSqlListener::Bind(const std::string& host, int port) {
  grpc::ServerBuilder builder;
  int selected = 0;
  builder.AddListeningPort(host + ":" + std::to_string(port), grpc::InsecureServerCredentials(),
                           &selected);
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

void FlightSqlListener::Stop() {
  if (server_ == nullptr) return;
  server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
  server_->Wait();
  server_.reset();
}

}  // namespace sqe::server::flight_sql
