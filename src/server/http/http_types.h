#pragma once
/// The request and response a route handler sees. Plain data, independent of the HTTP
/// library, so handlers (health, metrics, admin, Trino protocol) never include httplib.h.

#include <functional>
#include <map>
#include <string>

namespace sqe::server {

enum class HttpMethod { kGet, kPost, kPut, kDelete, kPatch };

/// "GET", "POST", ...
const char* HttpMethodName(HttpMethod method);

/// One incoming request, headers keyed by lower-case name.
struct HttpRequest {
  HttpMethod method = HttpMethod::kGet;
  std::string path;  ///< without the query string
  std::multimap<std::string, std::string> query;
  std::map<std::string, std::string> headers;  ///< lower-case names
  std::string body;
  std::string remote_addr;

  /// The header's value, or "" when absent; `name` in any case.
  std::string Header(const std::string& name) const;
};

/// What a handler answers.
struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::map<std::string, std::string> headers;

  /// A JSON response; `json` must already be serialized.
  static HttpResponse Json(int status, std::string json);
};

/// A route handler. Called on the listener's worker threads, concurrently: handlers must
/// be thread-safe. An exception escaping a handler becomes a 500 response.
using HttpHandler = std::function<HttpResponse(const HttpRequest&)>;

}  // namespace sqe::server
