#pragma once
/// The one place where SQE's Status codes become gRPC status codes for Flight SQL clients
/// (ARCHITECTURE.md: each protocol maps codes in one place). The message is kept as is:
/// SQL errors carry their "line L:C:" position.

#include <grpcpp/support/status.h>

#include "common/status.h"

namespace sqe::server::flight_sql {

grpc::StatusCode ToGrpcCode(StatusCode code);
/// `status` as a gRPC status (OK stays OK).
grpc::Status ToGrpcStatus(const Status& status);

}  // namespace sqe::server::flight_sql
