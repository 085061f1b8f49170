#include "config/diagnostics_internal.h"

namespace sqe::config {

std::string Diagnostic::ToString() const {
  return (severity == Severity::kError ? "error: " : "warning: ") + message;
}

void DiagnosticList::Error(std::string field, std::string message) {
  entries_.push_back({Diagnostic::Severity::kError, std::move(field), std::move(message)});
  ++error_count_;
}

void DiagnosticList::Warning(std::string field, std::string message) {
  entries_.push_back({Diagnostic::Severity::kWarning, std::move(field), std::move(message)});
}

bool DiagnosticList::HasErrorFor(std::string_view field) const {
  for (const Diagnostic& d : entries_) {
    if (d.severity == Diagnostic::Severity::kError && d.field == field) return true;
  }
  return false;
}

std::vector<Diagnostic> DiagnosticList::warnings() const {
  std::vector<Diagnostic> out;
  for (const Diagnostic& d : entries_) {
    if (d.severity == Diagnostic::Severity::kWarning) out.push_back(d);
  }
  return out;
}

std::string DiagnosticList::ErrorReport() const {
  std::string out = "configuration has " + std::to_string(error_count_) +
                    (error_count_ == 1 ? " error:" : " errors:");
  for (const Diagnostic& d : entries_) {
    if (d.severity == Diagnostic::Severity::kError) out += "\n" + d.ToString();
  }
  return out;
}

}  // namespace sqe::config
