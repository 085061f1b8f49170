#pragma once
/// Who is making a Flight call: the `authorization` header of the call (Bearer: a token
/// SQE issued at a handshake, or an API key; Basic: user and password / API key) judged by
/// the process's auth chain. A call without the header runs as the anonymous provider's
/// user when one is configured, and is Unauthenticated otherwise. Thread-safe.

#include <string>

#include <grpcpp/server_context.h>

#include "auth/auth_chain.h"
#include "common/result.h"

namespace sqe::server::flight_sql {

/// The call's `authorization` header value, "" when absent.
std::string AuthorizationHeader(const grpc::ServerContext& context);

/// The caller's identity, or Unauthenticated (the message never holds the credential).
Result<auth::Identity> AuthenticateCall(const auth::AuthChain& chain,
                                        const grpc::ServerContext& context);

}  // namespace sqe::server::flight_sql
