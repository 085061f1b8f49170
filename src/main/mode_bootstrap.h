#pragma once
/// Per-mode assembly of the process: which parts a mode starts. `local`, `hybrid`,
/// `coordinator` and `distributed` are coordinator-side (coordinator_bootstrap.cc);
/// `worker` is worker_bootstrap.cc. Both build one listener per config::PlannedListeners
/// entry, so the port plan of the config module is the one the process binds.

#include "common/result.h"
#include "main/server_context.h"

namespace sqe::app {

/// Builds the parts of `context.config.coordinator.mode`; nothing is bound or started yet.
Result<ServerAssembly> AssembleServer(const ServerContext& context);

}  // namespace sqe::app
