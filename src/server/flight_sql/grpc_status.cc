#include "server/flight_sql/grpc_status.h"

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

}  // namespace sqe::server::flight_sql
