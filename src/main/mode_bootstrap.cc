#include "main/mode_bootstrap.h"

#include <algorithm>

#include "main/listener_factory.h"
#include "main/mode_bootstrap_internal.h"

namespace sqe::app {

Result<ServerAssembly> AssembleServer(const ServerContext& context) {
  const std::string& mode = context.config.coordinator.mode;
  if (mode == "worker") return AssembleWorker(context);
  if (mode == "local" || mode == "hybrid" || mode == "coordinator" || mode == "distributed") {
    return AssembleCoordinator(context);
  }
  return Status::InvalidArgument("coordinator.mode = '" + mode +
                                 "' is not a mode (local, hybrid, coordinator, worker, "
                                 "distributed)");
}

Status AddPlannedListeners(const ServerContext& context, ServerAssembly& assembly) {
  std::vector<config::ListenerSpec> plan = config::PlannedListeners(context.config);
  std::stable_partition(plan.begin(), plan.end(),
                        [](const config::ListenerSpec& s) { return s.name == "metrics"; });
  for (const config::ListenerSpec& spec : plan) {
    SQE_ASSIGN_OR_RETURN(MadeListener made, MakeListener(spec, context));
    if (!made.not_implemented.empty()) {
      assembly.not_implemented.emplace_back(spec, std::move(made.not_implemented));
    }
    assembly.listeners.Add(spec, std::move(made.listener));
  }
  return Status::OK();
}

}  // namespace sqe::app
