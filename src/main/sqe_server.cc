// sqe-server: the one SQE server binary. Parses the command line, then either answers a
// config command (--check-config, --print-config) or runs the server in its mode.
// Exit codes: 0 ok / clean stop, 1 error, 2 usage (server_command_line.h).

#include <exception>
#include <iostream>

#include "main/config_commands.h"
#include "main/server_command_line.h"
#include "main/server_run.h"
#include "main/termination_signals.h"

namespace {

int ServerMain(int argc, char** argv) {
  // Before any thread exists, so that only sigwait() ever receives SIGINT/SIGTERM.
  sqe::app::BlockTerminationSignals();

  sqe::app::ParsedCommandLine parsed = sqe::app::ParseServerCommandLine(argc, argv);
  if (!parsed.command) return parsed.exit_code;
  const sqe::app::ServerCommandLine& cmd = *parsed.command;

  if (cmd.check_config) return sqe::app::RunCheckConfig(cmd);
  if (cmd.print_config) return sqe::app::RunPrintConfig(cmd);

  auto loaded = sqe::app::LoadConfigForServer(cmd);
  if (!loaded.ok()) return sqe::app::kExitError;
  return sqe::app::RunServer(*loaded);
}

}  // namespace

int main(int argc, char** argv) {
  // No exception may end the process with abort(): report it and exit 1.
  try {
    return ServerMain(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "sqe-server: fatal: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "sqe-server: fatal: unknown exception\n";
  }
  return sqe::app::kExitError;
}
