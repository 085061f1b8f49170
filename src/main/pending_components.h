#pragma once
/// Reports the configured components this build validates but does not run yet (catalog
/// backends, auth providers, access control, policy engines, maintenance, worker
/// membership), one `server.not_implemented` warning each, so an operator sees exactly
/// what a valid configuration will not do. None of them stops the skeleton from starting:
/// it opens no catalog and serves no query yet.

#include "config/config.h"

namespace sqe::app {

/// Logs the components of a coordinator-side process (local, hybrid, coordinator,
/// distributed).
void LogPendingCoordinatorComponents(const config::Config& config);

/// Logs the components of a worker process.
void LogPendingWorkerComponents(const config::Config& config);

}  // namespace sqe::app
