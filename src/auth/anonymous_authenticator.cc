#include "auth/anonymous_authenticator.h"

namespace sqe::auth {

Authenticator::~Authenticator() = default;

AnonymousAuthenticator::AnonymousAuthenticator(std::string user, std::vector<std::string> roles)
    : identity_{std::move(user), std::move(roles), "anonymous"} {}

Result<std::optional<Identity>> AnonymousAuthenticator::Authenticate(const Credentials&) const {
  return std::optional<Identity>(identity_);
}

}  // namespace sqe::auth
