#include "server/trino/info_route.h"

#include <cstdio>
#include <thread>

#include <nlohmann/json.hpp>

namespace sqe::server {

std::string FormatTrinoDuration(std::chrono::nanoseconds d) {
  double ms = std::chrono::duration<double, std::milli>(d).count();
  struct Unit {
    const char* suffix;
    double ms;
  };
  // Largest unit in which the value is at least 1, as Trino's
  // Duration.convertToMostSuccinctTimeUnit.
  static constexpr Unit kUnits[] = {
      {"d", 86400000.0}, {"h", 3600000.0}, {"m", 60000.0}, {"s", 1000.0}, {"ms", 1.0}};
  const Unit* unit = &kUnits[4];
  for (const Unit& u : kUnits) {
    if (ms >= u.ms) {
      unit = &u;
      break;
    }
  }
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.2f%s", ms / unit->ms, unit->suffix);
  return buf;
}

void AddTrinoInfoRoute(HttpListener& listener, TrinoNodeInfo info, const Readiness& readiness,
                       std::shared_ptr<Clock> clock) {
  listener.Get("/v1/info", [info, &readiness, clock](const HttpRequest&) {
    nlohmann::json body = {
        {"nodeVersion", {{"version", info.version}}},
        {"environment", info.environment},
        {"coordinator", info.coordinator},
        {"starting", readiness.state() == Readiness::State::kStarting},
        {"uptime", FormatTrinoDuration(clock->MonotonicNow() - info.started_at)},
    };
    return HttpResponse::Json(200, body.dump());
  });
  // What tooling polls for liveness (Trino's ServerStatus, the fields that apply here).
  listener.Get("/v1/status", [info, &readiness, clock](const HttpRequest&) {
    nlohmann::json body = {
        {"nodeId", info.node_id},
        {"nodeVersion", {{"version", info.version}}},
        {"environment", info.environment},
        {"coordinator", info.coordinator},
        {"starting", readiness.state() == Readiness::State::kStarting},
        {"uptime", FormatTrinoDuration(clock->MonotonicNow() - info.started_at)},
        {"processors", static_cast<int>(std::thread::hardware_concurrency())},
    };
    return HttpResponse::Json(200, body.dump());
  });
}

}  // namespace sqe::server
