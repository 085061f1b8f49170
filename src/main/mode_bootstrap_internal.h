#pragma once
/// The per-mode assemblers AssembleServer() dispatches to, and what they share.

#include "common/result.h"
#include "main/server_context.h"

namespace sqe::app {

/// local, hybrid, coordinator, distributed.
Result<ServerAssembly> AssembleCoordinator(const ServerContext& context);

/// worker.
Result<ServerAssembly> AssembleWorker(const ServerContext& context);

/// Adds one listener per planned port. The metrics listener goes first: it is then
/// serving before the others and, since ListenerSet stops last-added first, still
/// answering /ready with "draining" until every other listener has stopped.
Status AddPlannedListeners(const ServerContext& context, ServerAssembly& assembly);

}  // namespace sqe::app
