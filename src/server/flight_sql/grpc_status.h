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

/// The status a client sees (coordinator.debug): without `debug`, an internal error's
/// message (an implementation detail) goes to the server log and the client reads that
/// an internal error happened; with it, every message keeps its text and adds the SQE
/// status code. Other errors (SQL errors with their position, auth, limits) read the same.
grpc::Status ToClientStatus(const Status& status, bool debug);

}  // namespace sqe::server::flight_sql
