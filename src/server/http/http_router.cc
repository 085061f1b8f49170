#include "server/http/http_router.h"

#include <algorithm>
#include <exception>

#include <nlohmann/json.hpp>

#include "common/logging.h"

namespace sqe::server {
namespace {

HttpResponse ErrorResponse(int status, const std::string& message, const std::string& path) {
  nlohmann::json body = {{"error", message}, {"path", path}};
  return HttpResponse::Json(status, body.dump());
}

}  // namespace

void HttpRouter::Add(HttpMethod method, std::string path, HttpHandler handler) {
  if (path.size() >= 2 && path.compare(path.size() - 2, 2, "/*") == 0) {
    std::string prefix = path.substr(0, path.size() - 1);  // keep the trailing '/'
    auto it = std::find_if(prefixes_.begin(), prefixes_.end(),
                           [&](const auto& p) { return p.first == prefix; });
    if (it == prefixes_.end()) {
      prefixes_.emplace_back(prefix, MethodTable{});
      it = std::prev(prefixes_.end());
    }
    it->second[method] = std::move(handler);
    std::stable_sort(prefixes_.begin(), prefixes_.end(),
                     [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
    return;
  }
  exact_[std::move(path)][method] = std::move(handler);
}

const HttpRouter::MethodTable* HttpRouter::Find(const std::string& path) const {
  if (auto it = exact_.find(path); it != exact_.end()) return &it->second;
  for (const auto& [prefix, table] : prefixes_) {
    if (path.compare(0, prefix.size(), prefix) == 0) return &table;
  }
  return nullptr;
}

HttpResponse HttpRouter::Dispatch(const HttpRequest& request) const {
  const MethodTable* table = Find(request.path);
  if (table == nullptr) return ErrorResponse(404, "not found", request.path);
  auto it = table->find(request.method);
  if (it == table->end()) {
    std::string allow;
    for (const auto& [method, handler] : *table) {
      if (!allow.empty()) allow += ", ";
      allow += HttpMethodName(method);
    }
    HttpResponse r = ErrorResponse(405, "method not allowed", request.path);
    r.headers["Allow"] = allow;
    return r;
  }
  try {
    return it->second(request);
  } catch (const std::exception& e) {
    log::Error("http.handler_failed", {{"path", request.path}, {"error", e.what()}});
  } catch (...) {
    log::Error("http.handler_failed", {{"path", request.path}, {"error", "unknown exception"}});
  }
  return ErrorResponse(500, "internal error", request.path);
}

}  // namespace sqe::server
