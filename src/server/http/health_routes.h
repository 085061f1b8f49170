#pragma once
/// The liveness and readiness endpoints every SQE process serves on its metrics port:
///   GET /health -> 200 {"status":"ok"} while the process runs (liveness)
///   GET /ready  -> 200 {"status":"ready"} once startup finished;
///                  503 {"status":"starting"} before, 503 {"status":"draining"} after
///                  shutdown began (so load balancers stop sending traffic first).

#include "server/http/http_listener.h"
#include "server/listener/readiness.h"

namespace sqe::server {

/// Adds /health and /ready to `listener`. `readiness` must outlive the listener.
void AddHealthRoutes(HttpListener& listener, const Readiness& readiness);

}  // namespace sqe::server
