#include "server/flight_sql/grpc_status.h"

#include "common/logging.h"

namespace sqe::server::flight_sql {

grpc::StatusCode ToGrpcCode(StatusCode code) {
  switch (code) {
    case StatusCode::kOk:
      return grpc::StatusCode::OK;
    case StatusCode::kInvalidArgument:
      return grpc::StatusCode::INVALID_ARGUMENT;
    case StatusCode::kNotFound:
      return grpc::StatusCode::NOT_FOUND;
    case StatusCode::kAlreadyExists:
      return grpc::StatusCode::ALREADY_EXISTS;
    case StatusCode::kPermissionDenied:
      return grpc::StatusCode::PERMISSION_DENIED;
    case StatusCode::kUnauthenticated:
      return grpc::StatusCode::UNAUTHENTICATED;
    case StatusCode::kResourceExhausted:
      return grpc::StatusCode::RESOURCE_EXHAUSTED;
    case StatusCode::kConflict:
      return grpc::StatusCode::ABORTED;
    case StatusCode::kCancelled:
      return grpc::StatusCode::CANCELLED;
    case StatusCode::kDeadlineExceeded:
      return grpc::StatusCode::DEADLINE_EXCEEDED;
    case StatusCode::kNotImplemented:
      return grpc::StatusCode::UNIMPLEMENTED;
    case StatusCode::kIOError:
      return grpc::StatusCode::UNAVAILABLE;
    case StatusCode::kCorruption:
      return grpc::StatusCode::DATA_LOSS;
    case StatusCode::kInternal:
      return grpc::StatusCode::INTERNAL;
  }
  return grpc::StatusCode::UNKNOWN;
}

grpc::Status ToGrpcStatus(const Status& status) {
  if (status.ok()) return grpc::Status::OK;
  return grpc::Status(ToGrpcCode(status.code()), status.message());
}

grpc::Status ToClientStatus(const Status& status, bool debug) {
  if (status.ok()) return grpc::Status::OK;
  if (debug) {
    return grpc::Status(
        ToGrpcCode(status.code()),
        status.message() + " [sqe status " + std::string(StatusCodeName(status.code())) + "]");
  }
  if (status.code() == StatusCode::kInternal) {
    log::Error("flight_sql.internal_error", {{"error", status.message()}});
    return grpc::Status(grpc::StatusCode::INTERNAL,
                        "internal error; the server log has the details (coordinator.debug = "
                        "true adds them to error messages)");
  }
  return ToGrpcStatus(status);
}

}  // namespace sqe::server::flight_sql
