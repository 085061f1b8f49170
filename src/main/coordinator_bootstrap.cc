// The coordinator-side modes. What differs between them today is only what they log;
// the differences that matter arrive with their issues:
//   local        single process, embedded catalog by default, Iceberg REST server port
//   hybrid       coordinator that also executes fragments itself
//   coordinator  plans and dispatches to workers, executes nothing heavy itself
//   distributed  coordinator with a static worker list (coordinator.worker_urls)

#include "common/logging.h"
#include "main/mode_bootstrap_internal.h"
#include "main/pending_components.h"

namespace sqe::app {

Result<ServerAssembly> AssembleCoordinator(const ServerContext& context) {
  const config::Config& config = context.config;
  const std::string& mode = config.coordinator.mode;
  log::Info("server.mode", {{"mode", mode},
                            {"role", "coordinator"},
                            {"executes_locally", mode != "coordinator"},
                            {"workers", config.coordinator.worker_urls.size()}});
  LogPendingCoordinatorComponents(config);
  ServerAssembly assembly;
  SQE_RETURN_NOT_OK(AddPlannedListeners(context, assembly));
  return assembly;
}

}  // namespace sqe::app
