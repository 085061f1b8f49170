#include "server/trino/trino_error.h"

#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

namespace sqe::server::trino {
namespace {

struct Code {
  int code;
  const char* name;
  const char* type;
};

// Trino's StandardErrorCode numbers for the codes we produce.
constexpr Code kGenericUser{0, "GENERIC_USER_ERROR", "USER_ERROR"};
constexpr Code kSyntax{1, "SYNTAX_ERROR", "USER_ERROR"};
constexpr Code kUserCanceled{3, "USER_CANCELED", "USER_ERROR"};
constexpr Code kPermissionDenied{4, "PERMISSION_DENIED", "USER_ERROR"};
constexpr Code kNotFound{5, "NOT_FOUND", "USER_ERROR"};
constexpr Code kAlreadyExists{12, "ALREADY_EXISTS", "USER_ERROR"};
constexpr Code kNotSupported{13, "NOT_SUPPORTED", "USER_ERROR"};
constexpr Code kTransactionConflict{17, "TRANSACTION_CONFLICT", "USER_ERROR"};
constexpr Code kInternal{65536, "GENERIC_INTERNAL_ERROR", "INTERNAL_ERROR"};
constexpr Code kInsufficientResources{131072, "GENERIC_INSUFFICIENT_RESOURCES",
                                      "INSUFFICIENT_RESOURCES"};
constexpr Code kTimeLimit{131075, "EXCEEDED_TIME_LIMIT", "INSUFFICIENT_RESOURCES"};

Code CodeFor(StatusCode code) {
  switch (code) {
    case StatusCode::kInvalidArgument:
      return kGenericUser;
    case StatusCode::kNotFound:
      return kNotFound;
    case StatusCode::kAlreadyExists:
      return kAlreadyExists;
    case StatusCode::kPermissionDenied:
    case StatusCode::kUnauthenticated:
      return kPermissionDenied;
    case StatusCode::kResourceExhausted:
      return kInsufficientResources;
    case StatusCode::kConflict:
      return kTransactionConflict;
    case StatusCode::kCancelled:
      return kUserCanceled;
    case StatusCode::kDeadlineExceeded:
      return kTimeLimit;
    case StatusCode::kNotImplemented:
      return kNotSupported;
    default:
      return kInternal;
  }
}

/// The "line L:C: " prefix the engine puts on SQL errors, taken apart.
struct Location {
  int line = 0;
  int column = 0;
  std::string_view rest;  ///< the message after the prefix (leading spaces dropped)
};

std::optional<Location> SplitLocation(std::string_view message) {
  if (message.rfind("line ", 0) != 0) return std::nullopt;
  std::string_view p = message.substr(5);
  auto number = [&p](int* out) {
    size_t digits = 0;
    while (digits < p.size() && p[digits] >= '0' && p[digits] <= '9') ++digits;
    if (digits == 0 || digits >= p.size() || p[digits] != ':') return false;
    *out = std::atoi(std::string(p.substr(0, digits)).c_str());
    p.remove_prefix(digits + 1);
    return true;
  };
  Location at;
  if (!number(&at.line) || !number(&at.column)) return std::nullopt;
  while (!p.empty() && p.front() == ' ') p.remove_prefix(1);
  at.rest = p;
  return at;
}

// The specific codes Trino gives the errors clients react to (a tool offers to create a
// missing schema, retries on a missing table), recognised by the engine's wording.
constexpr Code kFunctionNotFound{6, "FUNCTION_NOT_FOUND", "USER_ERROR"};
constexpr Code kDivisionByZero{8, "DIVISION_BY_ZERO", "USER_ERROR"};
constexpr Code kCatalogNotFound{44, "CATALOG_NOT_FOUND", "USER_ERROR"};
constexpr Code kSchemaNotFound{45, "SCHEMA_NOT_FOUND", "USER_ERROR"};
constexpr Code kTableNotFound{46, "TABLE_NOT_FOUND", "USER_ERROR"};
constexpr Code kColumnNotFound{47, "COLUMN_NOT_FOUND", "USER_ERROR"};
constexpr Code kSchemaAlreadyExists{49, "SCHEMA_ALREADY_EXISTS", "USER_ERROR"};
constexpr Code kTableAlreadyExists{50, "TABLE_ALREADY_EXISTS", "USER_ERROR"};

/// A more specific code than `general` for a user error whose message names the missing
/// or existing object; `general` otherwise.
Code Refine(const Code& general, std::string_view message) {
  if (general.type != std::string_view("USER_ERROR")) return general;
  std::optional<Location> at = SplitLocation(message);
  std::string_view m = at.has_value() ? at->rest : std::string_view(message);
  auto starts = [&](std::string_view prefix) { return m.rfind(prefix, 0) == 0; };
  auto has = [&](std::string_view part) { return m.find(part) != std::string_view::npos; };
  bool missing = has("does not exist") || has("not found");
  if (missing && starts("Table '")) return kTableNotFound;
  if (missing && starts("Schema '")) return kSchemaNotFound;
  if (missing && starts("Catalog '")) return kCatalogNotFound;
  if (starts("Column '") && has("cannot be resolved")) return kColumnNotFound;
  if (starts("function '") && has("not found")) return kFunctionNotFound;
  if (has("already exists") && starts("Table '")) return kTableAlreadyExists;
  if (has("already exists") && starts("Schema '")) return kSchemaAlreadyExists;
  if (starts("Division by zero")) return kDivisionByZero;
  return general;
}

TrinoError Make(const Code& code, std::string message) {
  TrinoError e;
  e.code = code.code;
  e.name = code.name;
  e.type = code.type;
  e.message = std::move(message);
  return e;
}

}  // namespace

nlohmann::json TrinoError::ToJson() const {
  nlohmann::json failure = {{"type", "io.trino.spi.TrinoException"},
                            {"message", message},
                            {"suppressed", nlohmann::json::array()},
                            {"stack", nlohmann::json::array()}};
  nlohmann::json out = {{"message", message},
                        {"errorCode", code},
                        {"errorName", name},
                        {"errorType", type},
                        {"failureInfo", failure}};
  if (line && column) {
    nlohmann::json location = {{"lineNumber", *line}, {"columnNumber", *column}};
    out["errorLocation"] = location;
    out["failureInfo"]["errorLocation"] = location;
  }
  return out;
}

TrinoError ToTrinoError(const Status& status, bool syntax) {
  std::string message = status.message();
  // SQL errors carry the offending line and a caret after the first line; clients draw
  // their own from errorLocation.
  if (size_t nl = message.find('\n'); nl != std::string::npos) message.resize(nl);
  Code code = syntax ? kSyntax : Refine(CodeFor(status.code()), message);
  TrinoError e = Make(code, std::move(message));
  if (std::optional<Location> at = SplitLocation(e.message)) {
    e.line = at->line;
    e.column = at->column;
  }
  return e;
}

TrinoError CanceledError() { return Make(kUserCanceled, "Query was canceled"); }

}  // namespace sqe::server::trino
