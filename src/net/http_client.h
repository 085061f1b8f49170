#pragma once
/// HttpClient: the one outgoing HTTP(S) client of SQE (S3 now; REST catalogs and
/// identity providers later), on libcurl with OpenSSL. It keeps a pool of easy handles,
/// each holding its live connection, and a curl share (DNS cache, TLS sessions), so
/// requests to one endpoint reuse their TCP/TLS connections. Send() makes exactly one attempt:
/// retries belong to the caller (RetryPolicy), which knows whether a request is safe to repeat.
///
/// Thread safety: Send may be called concurrently from any number of threads.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/result.h"

namespace sqe::net {

struct HttpClientOptions {
  int64_t connect_timeout_ms = 10'000;
  /// Whole-request bound (0: none). Large transfers rely on the stall timeout instead.
  int64_t request_timeout_ms = 0;
  /// A transfer that moves no byte for this long is aborted (a stalled server).
  int64_t stall_timeout_ms = 30'000;
  /// Verify the server certificate and host name ([auth] ssl_verification).
  bool verify_tls = true;
  /// PEM file of trusted CA certificates ("": the system bundle).
  std::string ca_bundle;
  /// Connections kept open for reuse (idle easy handles pooled, one connection each).
  int64_t max_idle_connections = 64;
};

struct HttpRequest {
  std::string method = "GET";
  /// Absolute URL, already percent-encoded (http:// or https://).
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  /// Request body, not owned; must outlive Send().
  std::string_view body;
  /// When set, the response body of a 2xx response is written here instead of into
  /// HttpResponse::body; a 2xx body longer than `response_capacity` is an IOError.
  /// Non-2xx bodies (S3 error XML) always go to HttpResponse::body.
  uint8_t* response_buffer = nullptr;
  int64_t response_capacity = 0;
};

struct HttpResponse {
  int status = 0;
  /// Header names lowercased, in arrival order.
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  /// Body bytes received (into `body` or the caller's buffer).
  int64_t body_bytes = 0;

  /// First header named `name` (case-insensitive).
  std::optional<std::string> Header(std::string_view name) const;
};

/// Why a request got no HTTP response. Callers decide retries from it.
enum class TransportFailure {
  kNone,
  kConnect,  // could not resolve or connect
  kTimeout,  // connect or request timeout
  kStalled,  // no byte moved for stall_timeout_ms
  kReset,    // connection reset / closed mid-request, send or receive error
  kTls,      // certificate or handshake failure (never retried)
  kOther,
};

/// The result of one attempt: a response, or a transport failure with a message that
/// names the method and URL (never headers: they carry signatures and tokens).
struct HttpOutcome {
  TransportFailure failure = TransportFailure::kNone;
  std::string error;  // empty when failure == kNone
  HttpResponse response;
  bool ok() const { return failure == TransportFailure::kNone; }
};

class HttpClient {
 public:
  static Result<std::shared_ptr<HttpClient>> Make(const HttpClientOptions& options);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  /// One attempt of `request`.
  HttpOutcome Send(const HttpRequest& request);

  const HttpClientOptions& options() const;
  /// New connections opened so far (for tests asserting connection reuse).
  int64_t connections_opened() const;

 private:
  struct Impl;
  explicit HttpClient(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace sqe::net
