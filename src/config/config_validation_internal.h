#pragma once
/// Validation of a merged configuration: each rule is one function that reports through a
/// ValidationContext, so every broken rule shows up in one run, each error naming its field.
/// Rules make no network calls. The list of rules lives in config_validation.cc.

#include <string>

#include "config/config_loader.h"
#include "config/config_merge_internal.h"
#include "config/diagnostics_internal.h"

namespace sqe::config {

/// What a rule sees and where it reports. One per LoadConfig call.
class ValidationContext {
 public:
  ValidationContext(Config& config, const LoadOptions& options, const FieldOrigins& origins,
                    DiagnosticList* out)
      : config_(config), options_(options), origins_(origins), out_(out) {}

  const Config& config() const { return config_; }
  /// For schema walks (which hand out mutable references); rules never modify it.
  Config& walkable_config() const { return config_; }
  bool server_validation() const { return options_.server_validation; }

  /// Reports an error on `field`, unless loading already reported one there (its value is
  /// then a default, not what the user wrote). `message` starts with the field path.
  void Error(const std::string& field, std::string message);
  void Warning(const std::string& field, std::string message);
  /// " (set in <origin>)" when a source set `field`, "" when it has its default.
  std::string SetBy(const std::string& field) const;

 private:
  Config& config_;
  const LoadOptions& options_;
  const FieldOrigins& origins_;
  DiagnosticList* out_;
};

/// Runs every rule (the server-only ones only when options.server_validation).
void ValidateConfig(ValidationContext& ctx);

// Rules, grouped by file. Schema-driven (config_validation.cc):
void CheckEnumValues(ValidationContext& ctx);
void CheckNumericBounds(ValidationContext& ctx);
void WarnRedactedPlaceholders(ValidationContext& ctx);
// Listeners (listener_validation.cc), server-only:
void CheckPortRanges(ValidationContext& ctx);
void CheckListenerClashes(ValidationContext& ctx);
void CheckTls(ValidationContext& ctx);
void CheckAdvertiseUrl(ValidationContext& ctx);
// Authentication (auth_validation.cc), server-only:
void CheckLegacyAuth(ValidationContext& ctx);
void CheckProviders(ValidationContext& ctx);
void CheckAuthExternal(ValidationContext& ctx);
void WarnAuthRisks(ValidationContext& ctx);
// Catalog, query and session (catalog_validation.cc, query_validation.cc):
void CheckCatalogUrl(ValidationContext& ctx);
void CheckTableFormatVersion(ValidationContext& ctx);
void CheckBackendFields(ValidationContext& ctx);
void CheckWritePath(ValidationContext& ctx);
void CheckSessionPersistence(ValidationContext& ctx);
// Maintenance (maintenance_validation.cc):
void CheckMaintenancePrincipal(ValidationContext& ctx);
void CheckScheduler(ValidationContext& ctx);
void CheckPartialProgress(ValidationContext& ctx);
void WarnSharedPrincipalClientId(ValidationContext& ctx);  // server-only

/// Formats a number for messages: integers without a fraction, others shortest.
std::string NumberText(double value);

}  // namespace sqe::config
