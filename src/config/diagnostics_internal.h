#pragma once
/// DiagnosticList: collects every error and warning of one load, so the user sees all of
/// them at once instead of fixing one per restart.

#include <string>
#include <string_view>
#include <vector>

#include "config/config_loader.h"

namespace sqe::config {

/// Ordered errors and warnings. Not thread-safe (one per LoadConfig call).
class DiagnosticList {
 public:
  void Error(std::string field, std::string message);
  void Warning(std::string field, std::string message);

  bool has_errors() const { return error_count_ > 0; }
  size_t error_count() const { return error_count_; }
  /// True when an error about `field` was already reported (validation skips the field
  /// then: its value is the default, not what the user wrote).
  bool HasErrorFor(std::string_view field) const;

  const std::vector<Diagnostic>& all() const { return entries_; }
  std::vector<Diagnostic> warnings() const;
  /// "configuration has N error(s):" followed by one "error: ..." line per error.
  std::string ErrorReport() const;

 private:
  std::vector<Diagnostic> entries_;
  size_t error_count_ = 0;
};

}  // namespace sqe::config
