#include "server/iceberg_rest/rest_error_response.h"

#include <nlohmann/json.hpp>

namespace sqe::server {

HttpResponse RestError(int code, const char* type, const std::string& message) {
  nlohmann::json body = {{"error", {{"message", message}, {"type", type}, {"code", code}}}};
  // Replacement, not an exception, for a message that is not valid UTF-8.
  return HttpResponse::Json(code,
                            body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

HttpResponse RestErrorFromStatus(const Status& status, RestSubject subject) {
  const bool ns = subject == RestSubject::kNamespace;
  const std::string& m = status.message();
  switch (status.code()) {
    case StatusCode::kInvalidArgument:
      return RestError(400, "BadRequestException", m);
    case StatusCode::kNotFound:
      return RestError(404, ns ? "NoSuchNamespaceException" : "NoSuchTableException", m);
    case StatusCode::kAlreadyExists:
      return RestError(409, "AlreadyExistsException", m);
    case StatusCode::kConflict:
      return RestError(409, ns ? "NamespaceNotEmptyException" : "CommitFailedException", m);
    case StatusCode::kUnauthenticated:
      return RestError(401, "NotAuthorizedException", m);
    case StatusCode::kPermissionDenied:
      return RestError(403, "ForbiddenException", m);
    case StatusCode::kNotImplemented:
      return RestError(501, "NotImplementedException", m);
    case StatusCode::kResourceExhausted:
      return RestError(503, "SlowDownException", m);
    default:
      // IOError, Corruption of stored metadata, Internal...: the server failed, not the
      // request (requests that fail to parse are InvalidArgument before they get here).
      return RestError(500, "ServiceFailureException", m);
  }
}

}  // namespace sqe::server
