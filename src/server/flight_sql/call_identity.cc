#include "server/flight_sql/call_identity.h"

namespace sqe::server::flight_sql {

std::string AuthorizationHeader(const grpc::ServerContext& context) {
  const auto& metadata = context.client_metadata();
  auto it = metadata.find("authorization");
  if (it == metadata.end()) return "";
  return std::string(it->second.data(), it->second.size());
}

Result<auth::Identity> AuthenticateCall(const auth::AuthChain& chain,
                                        const grpc::ServerContext& context) {
  std::string header = AuthorizationHeader(context);
  if (header.empty() && !chain.allows_anonymous()) {
    return Status::Unauthenticated(
        "authentication required: call Handshake with 'authorization: Basic <user:password>' "
        "(or an API key as the password) and send the returned 'authorization: Bearer <token>' "
        "on every call");
  }
  return chain.AuthenticateHeader(header);
}

}  // namespace sqe::server::flight_sql
