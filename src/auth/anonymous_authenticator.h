#pragma once
/// AnonymousAuthenticator: the `anonymous` provider for development and tests: every
/// caller, with or without credentials, runs as one fixed user with fixed roles.

#include <string>
#include <vector>

#include "auth/authenticator.h"

namespace sqe::auth {

class AnonymousAuthenticator : public Authenticator {
 public:
  AnonymousAuthenticator(std::string user, std::vector<std::string> roles);
  std::string_view type() const override { return "anonymous"; }
  Result<std::optional<Identity>> Authenticate(const Credentials& credentials) const override;

 private:
  Identity identity_;
};

}  // namespace sqe::auth
