#include "main/server_command_line.h"

#include <CLI/CLI.hpp>
#include <iostream>

#include "main/version.h"

namespace sqe::app {
namespace {

constexpr const char* kDescription =
    "SQE: a distributed SQL query engine for Apache Iceberg.\n"
    "Configuration: defaults < TOML file (--config, $SQE_CONFIG, ./sqe.toml) < SQE_* "
    "environment variables < --mode/--set.\n"
    "Exit codes: 0 ok or clean stop, 1 error (invalid config, port in use), 2 usage.\n"
    "Logs and warnings go to stderr; stdout carries only --print-config's TOML.";

}  // namespace

ParsedCommandLine ParseServerCommandLine(int argc, const char* const* argv) {
  ParsedCommandLine result;
  ServerCommandLine cmd;
  std::string config_path;
  std::string mode;

  CLI::App app{kDescription, "sqe-server"};
  app.set_version_flag("--version", std::string("sqe-server ") + kSqeVersion);
  auto* config_opt =
      app.add_option("--config", config_path, "TOML configuration file")->type_name("FILE");
  auto* mode_opt =
      app.add_option("--mode", mode, "process mode, overrides coordinator.mode")
          ->type_name("MODE")
          ->check(CLI::IsMember({"local", "hybrid", "coordinator", "worker", "distributed"}));
  app.add_option("--set", cmd.set_overrides,
                 "override one field, e.g. --set metrics.prometheus_port=9091 (repeatable)")
      ->type_name("SECTION.FIELD=VALUE")
      ->allow_extra_args(false)
      ->take_all();
  auto* check = app.add_flag("--check-config", cmd.check_config,
                             "validate the configuration, print every error and warning to "
                             "stderr, exit 0 when valid and 1 otherwise (stdout stays empty)");
  auto* print = app.add_flag("--print-config", cmd.print_config,
                             "print the effective configuration as TOML on stdout, secrets "
                             "as \"***\"");
  check->excludes(print);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11 reports --help/--version as "errors" with exit code 0 and prints them itself.
    int rc = app.exit(e, std::cout, std::cerr);
    result.exit_code = rc == 0 ? kExitOk : kExitUsage;
    return result;
  } catch (const std::exception& e) {
    std::cerr << "sqe-server: " << e.what() << "\n";
    result.exit_code = kExitUsage;
    return result;
  }
  if (config_opt->count() > 0) cmd.config_path = config_path;
  if (mode_opt->count() > 0) cmd.mode = mode;
  result.command = std::move(cmd);
  return result;
}

}  // namespace sqe::app
