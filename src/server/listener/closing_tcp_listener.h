#pragma once
/// ClosingTcpListener: holds a port for a protocol that is not implemented yet (Flight SQL
/// and worker Flight until gRPC lands). It binds like any listener, so the port plan is
/// real and a clash is caught at startup, then accepts each connection and closes it at
/// once. One accept thread; Stop() wakes it through a pipe and joins it.

#include <thread>

#include "server/listener/listener.h"

namespace sqe::server {

class ClosingTcpListener final : public Listener {
 public:
  ClosingTcpListener() = default;
  ~ClosingTcpListener() override;
  ClosingTcpListener(const ClosingTcpListener&) = delete;
  ClosingTcpListener& operator=(const ClosingTcpListener&) = delete;

  Status Bind(const std::string& host, int port) override;
  Status Serve() override;
  void Stop() override;
  int bound_port() const override { return port_; }
  std::string protocol() const override { return "tcp"; }

 private:
  void AcceptLoop();

  int listen_fd_ = -1;
  int port_ = 0;
  int wake_read_fd_ = -1;
  int wake_write_fd_ = -1;
  std::thread thread_;
};

}  // namespace sqe::server
