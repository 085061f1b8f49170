// The worker mode: a worker Flight port for fragments and DoExchange, the metrics port
// for health, and (with its issue) registration and heartbeats to the coordinator.

#include "common/logging.h"
#include "main/mode_bootstrap_internal.h"
#include "main/pending_components.h"

namespace sqe::app {

Result<ServerAssembly> AssembleWorker(const ServerContext& context) {
  const config::Config& config = context.config;
  log::Info(
      "server.mode",
      {{"mode", "worker"}, {"role", "worker"}, {"coordinator_url", config.worker.coordinator_url}});
  LogPendingWorkerComponents(config);
  ServerAssembly assembly;
  SQE_RETURN_NOT_OK(AddPlannedListeners(context, assembly));
  return assembly;
}

}  // namespace sqe::app
