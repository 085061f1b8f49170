#pragma once
/// Listener: one TCP server of the process (Flight SQL, Trino HTTP, metrics, ...).
///
/// Lifecycle, driven by ListenerSet: Bind() once, then Serve() once, then Stop(). Bind
/// only reserves the port (the socket is bound and listening, but nothing accepts); Serve
/// starts accepting on the listener's own threads. Stop() is idempotent, safe after a
/// failed or skipped Serve(), and returns once every thread the listener started has been
/// joined. Bind/Serve/Stop are called from one thread; Stop may race with nothing else.

#include <string>

#include "common/status.h"

namespace sqe::server {

class Listener {
 public:
  virtual ~Listener() = default;

  /// Binds and listens on host:port. IOError names the OS reason ("Address already in
  /// use"); the caller adds which configuration field chose the port.
  virtual Status Bind(const std::string& host, int port) = 0;

  /// Starts accepting connections; returns once the listener is accepting.
  virtual Status Serve() = 0;

  /// Stops accepting, lets in-flight requests finish (bounded by the listener's timeouts),
  /// joins its threads and closes its socket.
  virtual void Stop() = 0;

  /// The port actually bound (differs from the requested one only when that was 0, which
  /// tests use to get a free port); 0 when not bound.
  virtual int bound_port() const = 0;

  /// What the listener speaks, for logs: "http", "tcp".
  virtual std::string protocol() const = 0;
};

}  // namespace sqe::server
