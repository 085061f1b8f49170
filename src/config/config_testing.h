#pragma once
/// Test support for the config tests only: a scratch directory per test and a one-call
/// "load this TOML with this env and these --set flags" that returns every diagnostic.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "config/config_loader.h"

namespace sqe::config::testing {

/// A fresh directory under the system temp dir, deleted with everything in it.
class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "sqe-config-XXXXXX").string();
    path_ = ::mkdtemp(pattern.data());
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::string& path() const { return path_; }
  /// Writes `content` to `name` (sub-directories created) and returns the absolute path.
  std::string Write(const std::string& name, const std::string& content) const {
    std::filesystem::path p = std::filesystem::path(path_) / name;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << content;
    return p.string();
  }

 private:
  std::string path_;
};

/// The outcome of one load: the config (when it loaded) and everything reported.
struct LoadOutcome {
  bool ok = false;
  Config config;
  std::string status_message;
  std::vector<Diagnostic> diagnostics;

  std::vector<Diagnostic> errors() const {
    std::vector<Diagnostic> out;
    for (const Diagnostic& d : diagnostics) {
      if (d.severity == Diagnostic::Severity::kError) out.push_back(d);
    }
    return out;
  }
  std::vector<Diagnostic> warnings() const {
    std::vector<Diagnostic> out;
    for (const Diagnostic& d : diagnostics) {
      if (d.severity == Diagnostic::Severity::kWarning) out.push_back(d);
    }
    return out;
  }
  /// Every error message, one per line (for assertion output).
  std::string ErrorText() const {
    std::string out;
    for (const Diagnostic& d : errors()) out += d.field + " => " + d.message + "\n";
    return out;
  }
  /// The first error on `field`, or nullptr.
  const Diagnostic* ErrorOn(const std::string& field) const {
    for (const Diagnostic& d : diagnostics) {
      if (d.severity == Diagnostic::Severity::kError && d.field == field) return &d;
    }
    return nullptr;
  }
  const Diagnostic* WarningOn(const std::string& field) const {
    for (const Diagnostic& d : diagnostics) {
      if (d.severity == Diagnostic::Severity::kWarning && d.field == field) return &d;
    }
    return nullptr;
  }
};

/// Minimal auth that satisfies the legacy rule, for tests about other sections.
inline constexpr const char* kLegacyAuth =
    "[auth]\ntoken_endpoint = \"https://idp.example.com/oauth/token\"\n";

/// What to load: a TOML text (written to a scratch file, may be empty), env, CLI.
struct LoadInput {
  std::string toml;
  std::map<std::string, std::string> env;
  std::vector<std::string> sets;
  std::optional<std::string> mode;
  bool server_validation = true;
};

LoadOutcome LoadWith(const ScratchDir& dir, const LoadInput& input);

/// The same with the inputs as arguments: LoadWith(dir, toml, env, sets, mode).
inline LoadOutcome LoadWith(const ScratchDir& dir, const std::string& toml,
                            const std::map<std::string, std::string>& env = {},
                            const std::vector<std::string>& sets = {},
                            std::optional<std::string> mode = std::nullopt) {
  LoadInput input;
  input.toml = toml;
  input.env = env;
  input.sets = sets;
  input.mode = std::move(mode);
  return LoadWith(dir, input);
}

inline LoadOutcome LoadWith(const ScratchDir& dir, const LoadInput& input) {
  LoadOptions options;
  // Always a file, so a ./sqe.toml in the test's working directory never interferes.
  options.config_path = dir.Write("sqe.toml", input.toml);
  options.env = input.env;
  options.set_overrides = input.sets;
  options.mode = input.mode;
  options.server_validation = input.server_validation;
  LoadOutcome outcome;
  auto loaded = LoadConfig(options, &outcome.diagnostics);
  outcome.ok = loaded.ok();
  if (loaded.ok()) {
    outcome.config = loaded->config;
  } else {
    outcome.status_message = loaded.status().message();
  }
  return outcome;
}

/// Changes the working directory for one scope (tests of ./sqe.toml discovery).
class ScopedWorkingDirectory {
 public:
  explicit ScopedWorkingDirectory(const std::string& dir)
      : previous_(std::filesystem::current_path()) {
    std::filesystem::current_path(dir);
  }
  ~ScopedWorkingDirectory() { std::filesystem::current_path(previous_); }

 private:
  std::filesystem::path previous_;
};

/// The source tree: SQE_SOURCE_DIR (set by sqe_test for ctest), else the one configured.
inline std::string SourceDir() {
  const char* dir = std::getenv("SQE_SOURCE_DIR");
  if (dir != nullptr && *dir != '\0') return dir;
#ifdef SQE_DEFAULT_SOURCE_DIR
  return SQE_DEFAULT_SOURCE_DIR;
#else
  return "";
#endif
}

}  // namespace sqe::config::testing
