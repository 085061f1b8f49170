#pragma once
/// Loading the configuration for sqe-server, and the two commands that only look at it:
/// --check-config and --print-config.

#include "common/result.h"
#include "config/config_loader.h"
#include "main/server_command_line.h"

namespace sqe::app {

/// The loader's options for this command line and the process environment.
config::LoadOptions MakeLoadOptions(const ServerCommandLine& cmd);

/// --check-config: loads and validates; prints every error and warning to stderr, one per
/// line ("error: ..." / "warning: ..."), then a summary line. Prints nothing on stdout.
/// Returns kExitOk when valid, kExitError otherwise.
int RunCheckConfig(const ServerCommandLine& cmd);

/// --print-config: on success prints config::ToToml (secrets "***") on stdout and any
/// warnings to stderr, returns kExitOk; on failure prints the errors to stderr and
/// returns kExitError.
int RunPrintConfig(const ServerCommandLine& cmd);

/// For a normal start: loads the configuration (the loader registers its secrets with the
/// log redactor) and logs each warning as a `config.warning` line. On failure logs each error
/// as a `config.invalid` line and returns the status.
Result<config::LoadedConfig> LoadConfigForServer(const ServerCommandLine& cmd);

}  // namespace sqe::app
