#include "server/trino/trino_error.h"

#include <cstdlib>

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

/// "line L:C: ..." at the start of `message`: L and C.
bool ParseLocation(const std::string& message, int* line, int* column) {
  if (message.rfind("line ", 0) != 0) return false;
  const char* p = message.c_str() + 5;
  char* end = nullptr;
  long l = std::strtol(p, &end, 10);
  if (end == p || *end != ':') return false;
  p = end + 1;
  long c = std::strtol(p, &end, 10);
  if (end == p || *end != ':') return false;
  *line = static_cast<int>(l);
  *column = static_cast<int>(c);
  return true;
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
  TrinoError e = Make(syntax ? kSyntax : CodeFor(status.code()), std::move(message));
  int line = 0;
  int column = 0;
  if (ParseLocation(e.message, &line, &column)) {
    e.line = line;
    e.column = column;
  }
  return e;
}

TrinoError CanceledError() { return Make(kUserCanceled, "Query was canceled"); }

}  // namespace sqe::server::trino
