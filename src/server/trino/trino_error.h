#pragma once
/// The Trino protocol's query error: a Status (or a syntax error) as the "error" object of
/// a FAILED response: message, errorCode, errorName, errorType (USER_ERROR,
/// INTERNAL_ERROR, INSUFFICIENT_RESOURCES) and errorLocation when the message names a
/// position ("line 3:14: ..."). The one place Status codes map to Trino error codes.

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "common/status.h"

namespace sqe::server::trino {

/// One failure as Trino reports it.
struct TrinoError {
  std::string message;  ///< one line; the caret excerpt of SQL errors is dropped
  int code = 65536;
  std::string name = "GENERIC_INTERNAL_ERROR";
  std::string type = "INTERNAL_ERROR";
  std::optional<int> line;  ///< 1-based, when the message names a position
  std::optional<int> column;

  /// The response's "error" object (with a minimal failureInfo for JDBC).
  nlohmann::json ToJson() const;
};

/// `status` (not OK) as a Trino error; `syntax` marks a parse failure (SYNTAX_ERROR).
TrinoError ToTrinoError(const Status& status, bool syntax = false);

/// The USER_CANCELED error of a query the client cancelled.
TrinoError CanceledError();

}  // namespace sqe::server::trino
