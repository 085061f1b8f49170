#pragma once
/// Running the server: assemble the mode, bind every listener, serve, mark ready, wait for
/// SIGINT/SIGTERM, drain and stop. The caller must have called BlockTerminationSignals()
/// before any thread started.

#include "config/config_loader.h"

namespace sqe::app {

/// Runs until a termination signal; returns the process exit code: kExitOk after a clean
/// stop, kExitError when the mode cannot start or a port cannot be bound (then nothing
/// has served).
int RunServer(const config::LoadedConfig& loaded);

}  // namespace sqe::app
