#pragma once
/// HttpListener: an HTTP/1.1 server on one port with a small route table (HttpRouter).
/// Later listeners grow by adding routes: health and readiness (health_routes.h),
/// Prometheus /metrics, admin endpoints, the Trino protocol.
///
/// Register every route before Serve(); handlers run concurrently on the listener's
/// worker threads. Bind/Serve/Stop follow the Listener contract. Stop() bounds shutdown:
/// idle keep-alive connections are dropped within `keep_alive_timeout_secs` and a stalled
/// request read within `read_timeout_secs`. The HTTP library stays inside the .cc file.

#include <memory>
#include <string>

#include "server/http/http_router.h"
#include "server/http/http_types.h"
#include "server/listener/listener.h"

namespace sqe::server {

class HttpListener final : public Listener {
 public:
  struct Options {
    int worker_threads = 4;
    int read_timeout_secs = 3;
    int write_timeout_secs = 3;
    int keep_alive_timeout_secs = 1;
    /// Requests served on one connection before the server closes it (with
    /// "Connection: close"); 1 turns keep-alive off, so a client never reuses a connection
    /// the server is closing (the race clients that pause between requests lose). 5 is
    /// cpp-httplib's own default.
    int keep_alive_max_requests = 5;
  };

  HttpListener();
  explicit HttpListener(Options options);
  ~HttpListener() override;
  HttpListener(const HttpListener&) = delete;
  HttpListener& operator=(const HttpListener&) = delete;

  /// Adds a route (see HttpRouter::Add). Only before Serve().
  void Route(HttpMethod method, std::string path, HttpHandler handler);
  void Get(std::string path, HttpHandler handler) {
    Route(HttpMethod::kGet, std::move(path), std::move(handler));
  }
  void Post(std::string path, HttpHandler handler) {
    Route(HttpMethod::kPost, std::move(path), std::move(handler));
  }

  Status Bind(const std::string& host, int port) override;
  Status Serve() override;
  void Stop() override;
  int bound_port() const override;
  std::string protocol() const override { return "http"; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sqe::server
