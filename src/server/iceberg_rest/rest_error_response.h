#pragma once
/// The REST spec's error model, {"error": {"message", "type", "code"}}, with the Java
/// exception names clients switch on. A Status maps to one response; what a NotFound or a
/// Conflict means depends on the route, so the route says which object it is about.

#include "common/status.h"
#include "server/http/http_types.h"

namespace sqe::server {

/// The object a route's NotFound / Conflict is about.
enum class RestSubject {
  kNamespace,  ///< NotFound -> NoSuchNamespaceException, Conflict -> NamespaceNotEmpty
  kTable,      ///< NotFound -> NoSuchTableException, Conflict -> CommitFailedException
};

/// One ErrorModel response: `code` is the HTTP status, `type` the exception name.
HttpResponse RestError(int code, const char* type, const std::string& message);

/// The ErrorModel response for a failed catalog call (`status` must not be OK).
HttpResponse RestErrorFromStatus(const Status& status, RestSubject subject);

}  // namespace sqe::server
