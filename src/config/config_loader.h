#pragma once
/// Loading the configuration: defaults < file < environment < CLI, then mode resolution
/// and validation. The env-name rule: a field `a.b.c` is overridden by `SQE_A__B__C`
/// (upper case, sections chained with `__`); array-of-table entries by index
/// (`SQE_AUTH__PROVIDERS__0__CLIENT_SECRET`), map entries by key
/// (`SQE_QUERY__ROLE_OVERRIDES__ADMIN=3600`, key lower-cased). Every secret field `x`
/// also accepts `x_file` naming a file whose contents (trailing newline trimmed) are the
/// value. See docs/configuration.md.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "config/config.h"

namespace sqe::config {

/// A finding of validation: an error stops startup, a warning is logged.
struct Diagnostic {
  enum class Severity { kError, kWarning };
  Severity severity = Severity::kError;
  std::string field;    ///< dotted path, e.g. "coordinator.tls.cert_file" ("" if global)
  std::string message;  ///< full sentence; names the field, the value and the fix
  /// "error: <message>" / "warning: <message>"
  std::string ToString() const;
};

/// Where the configuration comes from. Tests fill `env` instead of the process environment.
struct LoadOptions {
  std::optional<std::string> config_path;  ///< --config
  std::optional<std::string> mode;         ///< --mode
  std::vector<std::string> set_overrides;  ///< --set section.field=value, in order
  std::map<std::string, std::string> env;  ///< environment snapshot (SQE_CONFIG, SQE_*__*)
  /// False for sqe-shell: skip the rules that only matter to a server (ports, auth).
  bool server_validation = true;
};

/// A merged, resolved, validated configuration and what validation warned about.
struct LoadedConfig {
  Config config;
  std::vector<Diagnostic> warnings;
  std::string source_path;  ///< the file read, "" when only defaults/env/CLI were used
};

/// The process environment as a map (for LoadOptions::env).
std::map<std::string, std::string> CurrentEnvironment();

/// Loads, merges, resolves and validates. On failure the status is InvalidArgument and its
/// message lists every error found (one "error: ..." line each), not only the first;
/// `diagnostics`, when given, receives the errors and warnings as structured entries.
/// Every secret value loaded is registered with log::RegisterSecret before it returns.
/// It does not log: the caller logs `warnings` (and the errors). Never throws.
Result<LoadedConfig> LoadConfig(const LoadOptions& options,
                                std::vector<Diagnostic>* diagnostics = nullptr);

/// Parses an api-keys TOML file (`[[keys]]` key/user/roles); `prefix` is the provider's
/// key_prefix, which every key must start with.
Result<std::vector<ApiKeyEntry>> LoadApiKeysFile(const std::string& path,
                                                 const std::string& prefix);

/// The effective configuration as TOML, every section and field (fields of other provider /
/// backend types left out), secrets as "***", a password inside catalog.backend.url masked.
/// Loading the output again gives the same configuration, secrets aside.
std::string ToToml(const Config& config);

/// Markdown reference of every field: path, type, default, env name, description.
/// docs/configuration.md embeds it; a test keeps the two in step.
std::string FieldReferenceMarkdown();

}  // namespace sqe::config
