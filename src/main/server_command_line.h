#pragma once
/// The command line of sqe-server, parsed by CLI11 (whose exceptions stay in the .cc).
///
///   sqe-server [--config FILE] [--mode MODE] [--set section.field=value]...
///              [--check-config | --print-config] [--version] [--help]

#include <optional>
#include <string>
#include <vector>

namespace sqe::app {

/// Process exit codes of every SQE binary.
enum ExitCode : int {
  kExitOk = 0,     ///< success, or a clean stop on SIGINT/SIGTERM
  kExitError = 1,  ///< invalid configuration, a port that cannot be bound, a startup failure
  kExitUsage = 2,  ///< bad or unknown flags
};

/// What the user asked for.
struct ServerCommandLine {
  std::optional<std::string> config_path;  ///< --config
  std::optional<std::string> mode;         ///< --mode
  std::vector<std::string> set_overrides;  ///< --set, in order
  bool check_config = false;               ///< --check-config
  bool print_config = false;               ///< --print-config
};

/// The outcome of parsing: either a command line to run, or an exit code because parsing
/// already finished the job (--help and --version print to stdout and give 0; a usage
/// error prints to stderr and gives kExitUsage).
struct ParsedCommandLine {
  std::optional<ServerCommandLine> command;
  int exit_code = kExitOk;
};

/// Parses argv. Never throws.
ParsedCommandLine ParseServerCommandLine(int argc, const char* const* argv);

}  // namespace sqe::app
