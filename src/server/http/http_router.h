#pragma once
/// HttpRouter: the route table of one HTTP listener. Routes are exact paths ("/health")
/// or prefixes ending in "/*" ("/v1/statement/*" matches "/v1/statement/q1/2"); an exact
/// route wins over a prefix, a longer prefix over a shorter one. Unknown paths answer 404,
/// a known path with another method 405 (with an Allow header), both as JSON.
///
/// Routes are added before the listener serves and never after; Dispatch() is then
/// called concurrently and only reads the table.

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "server/http/http_types.h"

namespace sqe::server {

class HttpRouter {
 public:
  /// Registers `handler` for `method` on `path` (exact, or a prefix ending in "/*").
  /// A second registration of the same method and path replaces the first.
  void Add(HttpMethod method, std::string path, HttpHandler handler);

  /// Answers one request: the matching handler's response, 404, 405 or, when the handler
  /// throws, 500.
  HttpResponse Dispatch(const HttpRequest& request) const;

  bool empty() const { return exact_.empty() && prefixes_.empty(); }

 private:
  using MethodTable = std::map<HttpMethod, HttpHandler>;
  const MethodTable* Find(const std::string& path) const;

  std::map<std::string, MethodTable> exact_;
  /// Longest prefix first.
  std::vector<std::pair<std::string, MethodTable>> prefixes_;
};

}  // namespace sqe::server
