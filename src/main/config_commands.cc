#include "main/config_commands.h"

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "common/logging.h"

namespace sqe::app {
namespace {

using config::Diagnostic;

struct LoadOutcome {
  Result<config::LoadedConfig> loaded;
  std::vector<Diagnostic> diagnostics;
};

LoadOutcome Load(const ServerCommandLine& cmd) {
  std::vector<Diagnostic> diagnostics;
  Result<config::LoadedConfig> loaded = config::LoadConfig(MakeLoadOptions(cmd), &diagnostics);
  return {std::move(loaded), std::move(diagnostics)};
}

/// The error lines to show: the structured diagnostics, or, when the loader gave none
/// (an unreadable file, a TOML syntax error), the lines of the status message.
std::vector<std::string> ErrorLines(const LoadOutcome& outcome) {
  std::vector<std::string> lines;
  for (const Diagnostic& d : outcome.diagnostics) {
    if (d.severity == Diagnostic::Severity::kError) lines.push_back(d.ToString());
  }
  if (lines.empty() && !outcome.loaded.ok()) {
    std::istringstream in(outcome.loaded.status().message());
    for (std::string line; std::getline(in, line);) {
      if (line.empty()) continue;
      lines.push_back(line.rfind("error: ", 0) == 0 ? line : "error: " + line);
    }
  }
  return lines;
}

/// Warnings come from the loaded config when it loaded, else from the diagnostics.
std::vector<Diagnostic> Warnings(const LoadOutcome& outcome) {
  if (outcome.loaded.ok()) return outcome.loaded->warnings;
  std::vector<Diagnostic> out;
  for (const Diagnostic& d : outcome.diagnostics) {
    if (d.severity == Diagnostic::Severity::kWarning) out.push_back(d);
  }
  return out;
}

std::string Plural(size_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

}  // namespace

config::LoadOptions MakeLoadOptions(const ServerCommandLine& cmd) {
  config::LoadOptions options;
  options.config_path = cmd.config_path;
  options.mode = cmd.mode;
  options.set_overrides = cmd.set_overrides;
  options.env = config::CurrentEnvironment();
  options.server_validation = true;
  return options;
}

int RunCheckConfig(const ServerCommandLine& cmd) {
  LoadOutcome outcome = Load(cmd);
  std::vector<std::string> errors = ErrorLines(outcome);
  std::vector<Diagnostic> warnings = Warnings(outcome);
  for (const std::string& line : errors) std::cerr << log::Redact(line) << "\n";
  for (const Diagnostic& w : warnings) std::cerr << log::Redact(w.ToString()) << "\n";
  if (!outcome.loaded.ok()) {
    std::cerr << "sqe-server: configuration invalid (" << Plural(errors.size(), "error") << ", "
              << Plural(warnings.size(), "warning") << ")\n";
    return kExitError;
  }
  const std::string& source = outcome.loaded->source_path;
  std::cerr << "sqe-server: configuration OK ("
            << (source.empty() ? std::string("defaults, environment and flags") : source) << "; "
            << Plural(warnings.size(), "warning") << ")\n";
  return kExitOk;
}

int RunPrintConfig(const ServerCommandLine& cmd) {
  LoadOutcome outcome = Load(cmd);
  if (!outcome.loaded.ok()) {
    for (const std::string& line : ErrorLines(outcome)) std::cerr << log::Redact(line) << "\n";
    return kExitError;
  }
  for (const Diagnostic& w : Warnings(outcome)) std::cerr << log::Redact(w.ToString()) << "\n";
  std::cout << config::ToToml(outcome.loaded->config);
  std::cout.flush();
  return std::cout.good() ? kExitOk : kExitError;
}

Result<config::LoadedConfig> LoadConfigForServer(const ServerCommandLine& cmd) {
  LoadOutcome outcome = Load(cmd);
  for (const Diagnostic& w : Warnings(outcome)) {
    log::Warn("config.warning", {{"field", w.field}, {"message", w.message}});
  }
  if (!outcome.loaded.ok()) {
    for (const std::string& line : ErrorLines(outcome)) {
      log::Error("config.invalid", {{"error", line.substr(line.rfind("error: ", 0) == 0 ? 7 : 0)}});
    }
    return outcome.loaded.status();
  }
  log::Info("config.loaded",
            {{"source", outcome.loaded->source_path.empty() ? std::string("(none)")
                                                            : outcome.loaded->source_path},
             {"mode", outcome.loaded->config.coordinator.mode},
             {"warnings", outcome.loaded->warnings.size()}});
  return std::move(outcome.loaded);
}

}  // namespace sqe::app
