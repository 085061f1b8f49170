// LoadConfig: defaults < file < environment < command line, then mode defaults, type
// checks and validation, every problem collected before failing.

#include "config/config_loader.h"

#include <filesystem>

#include "common/logging.h"
#include "config/config_merge_internal.h"
#include "config/config_source_internal.h"
#include "config/config_validation_internal.h"
#include "config/diagnostics_internal.h"
#include "config/schema_internal.h"
#include "config/url_credentials_internal.h"

extern char** environ;  // NOLINT: POSIX

namespace sqe::config {
namespace {

constexpr const char* kDefaultConfigFile = "sqe.toml";

/// The file to read: --config, else SQE_CONFIG, else ./sqe.toml when it exists. A file
/// named explicitly must exist; the implicit one is optional.
std::optional<std::string> ChooseConfigFile(const LoadOptions& options,
                                            DiagnosticList* diagnostics) {
  auto explicit_file = [&](const std::string& path,
                           const std::string& how) -> std::optional<std::string> {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
      diagnostics->Error("", "config file '" + path + "' (from " + how + ") does not exist");
      return std::nullopt;
    }
    if (std::filesystem::is_directory(path, ec)) {
      diagnostics->Error("", "config file '" + path + "' (from " + how + ") is a directory");
      return std::nullopt;
    }
    return path;
  };
  if (options.config_path.has_value()) return explicit_file(*options.config_path, "--config");
  auto env = options.env.find("SQE_CONFIG");
  if (env != options.env.end() && !env->second.empty()) {
    return explicit_file(env->second, "SQE_CONFIG");
  }
  std::error_code ec;
  if (std::filesystem::is_regular_file(kDefaultConfigFile, ec)) return kDefaultConfigFile;
  return std::nullopt;
}

/// Every secret value from now on is scrubbed from log lines.
void RegisterSecrets(Config& config) {
  WalkFields(config, [](const FieldVisit& v) {
    if (v.node->type == FieldType::kSecret) {
      std::string_view secret = std::get<SecretString*>(v.value)->Expose();
      log::RegisterSecret(secret);
      // "client_id:client_secret" credentials: the secret half may travel alone.
      if (size_t colon = secret.find(':'); colon != std::string_view::npos) {
        log::RegisterSecret(secret.substr(colon + 1));
      }
    } else if (v.node->url_with_credentials) {
      for (const std::string& password : UrlPasswords(*std::get<std::string*>(v.value))) {
        log::RegisterSecret(password);
      }
    }
  });
}

Result<LoadedConfig> Load(const LoadOptions& options, std::vector<Diagnostic>* diagnostics) {
  DiagnosticList diags;
  LoadedConfig loaded;
  std::vector<Layer> layers;

  if (std::optional<std::string> path = ChooseConfigFile(options, &diags)) {
    auto layer = ReadFileLayer(*path);
    if (layer.ok()) {
      loaded.source_path = *path;
      layers.push_back(std::move(*layer));
    } else {
      diags.Error("", layer.status().message());
    }
  }
  layers.push_back(EnvLayer(options.env));
  layers.push_back(CliLayer(options, &diags));

  Config& config = loaded.config;
  FieldOrigins origins;
  for (const Layer& layer : layers) ApplyLayer(layer, &config, &origins, &diags);
  ResolveModeDefaults(&config, origins);
  CheckFieldsBelongToType(config, origins, &diags);
  ValidationContext ctx(config, options, origins, &diags);
  ValidateConfig(ctx);
  RegisterSecrets(config);

  if (diagnostics != nullptr) *diagnostics = diags.all();
  if (diags.has_errors()) return Status::InvalidArgument(diags.ErrorReport());
  loaded.warnings = diags.warnings();
  return loaded;
}

}  // namespace

std::map<std::string, std::string> CurrentEnvironment() {
  std::map<std::string, std::string> env;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    std::string_view text(*entry);
    size_t eq = text.find('=');
    if (eq == std::string_view::npos) continue;
    env.emplace(std::string(text.substr(0, eq)), std::string(text.substr(eq + 1)));
  }
  return env;
}

Result<LoadedConfig> LoadConfig(const LoadOptions& options, std::vector<Diagnostic>* diagnostics) {
  // No exception leaves the module: anything unexpected becomes a Status.
  try {
    return Load(options, diagnostics);
  } catch (const std::exception& e) {
    return Status::Internal(std::string("configuration loading failed: ") + e.what());
  } catch (...) {
    return Status::Internal("configuration loading failed with an unknown exception");
  }
}

}  // namespace sqe::config
