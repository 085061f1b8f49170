#include "server/http/health_routes.h"

#include <nlohmann/json.hpp>
#include <string>

namespace sqe::server {

void AddHealthRoutes(HttpListener& listener, const Readiness& readiness) {
  listener.Get("/health",
               [](const HttpRequest&) { return HttpResponse::Json(200, R"({"status":"ok"})"); });
  listener.Get("/ready", [&readiness](const HttpRequest&) {
    Readiness::State state = readiness.state();
    nlohmann::json body = {{"status", std::string(Readiness::Name(state))}};
    return HttpResponse::Json(state == Readiness::State::kReady ? 200 : 503, body.dump());
  });
}

}  // namespace sqe::server
