#pragma once
/// Authenticator: one provider of the auth chain. Given the caller's credentials it either
/// vouches for them (an Identity), does not recognise their form (nullopt: the chain asks
/// the next provider), or recognises and rejects them (Unauthenticated). Thread-safe.

#include <optional>
#include <string_view>

#include "auth/credentials.h"
#include "auth/identity.h"
#include "common/result.h"

namespace sqe::auth {

class Authenticator {
 public:
  virtual ~Authenticator();
  /// The provider type, as configured ("api_key", "anonymous", ...).
  virtual std::string_view type() const = 0;
  virtual Result<std::optional<Identity>> Authenticate(const Credentials& credentials) const = 0;
};

}  // namespace sqe::auth
