#pragma once
/// FlightSqlListener: the gRPC server on coordinator.flight_sql_port serving
/// FlightSqlService, in plaintext or, given [coordinator.tls] material (flight_sql_tls.h),
/// over TLS (mTLS when a client CA is set). gRPC binds and starts in one step, so Bind()
/// builds and starts the server (a port clash fails there, as the ListenerSet contract
/// wants) and calls are answered from then on, a moment before Serve() (which only checks);
/// Stop() shuts it down, giving running calls two seconds.

#include <memory>
#include <optional>

#include <grpcpp/server.h>

#include "server/flight_sql/flight_sql_service.h"
#include "server/flight_sql/flight_sql_tls.h"
#include "server/listener/listener.h"

namespace sqe::server::flight_sql {

class FlightSqlListener final : public Listener {
 public:
  /// Without `tls` the listener speaks plaintext gRPC.
  explicit FlightSqlListener(FlightSqlServiceOptions options,
                             std::optional<FlightSqlTls> tls = std::nullopt);
  ~FlightSqlListener() override;

  Status Bind(const std::string& host, int port) override;
  Status Serve() override;
  void Stop() override;
  int bound_port() const override { return port_; }
  /// "grpc", "grpc+tls" or "grpc+mtls".
  std::string protocol() const override;

 private:
  std::unique_ptr<FlightSqlService> service_;
  std::optional<FlightSqlTls> tls_;
  std::unique_ptr<grpc::Server> server_;
  int port_ = 0;
};

}  // namespace sqe::server::flight_sql
