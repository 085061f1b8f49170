#pragma once
/// FlightSqlListener: the gRPC server on coordinator.flight_sql_port serving
/// FlightSqlService. gRPC binds and starts in one step, so Bind() builds and starts the
/// server (a port clash fails there, as the ListenerSet contract wants) and calls are
/// answered from then on, a moment before Serve() (which only checks); Stop() shuts it
/// down, giving running calls two seconds.

#include <memory>

#include <grpcpp/server.h>

#include "server/flight_sql/flight_sql_service.h"
#include "server/listener/listener.h"

namespace sqe::server::flight_sql {

class FlightSqlListener final : public Listener {
 public:
  explicit FlightSqlListener(FlightSqlServiceOptions options);
  ~FlightSqlListener() override;

  Status Bind(const std::string& host, int port) override;
  Status Serve() override;
  void Stop() override;
  int bound_port() const override { return port_; }
  std::string protocol() const override { return "grpc"; }

 private:
  std::unique_ptr<FlightSqlService> service_;
  std::unique_ptr<grpc::Server> server_;
  int port_ = 0;
};

}  // namespace sqe::server::flight_sql
