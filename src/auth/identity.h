#pragma once
/// Identity: who a request runs as once a provider of the auth chain accepted it: the
/// user name, the roles (for access control), and which provider vouched for it.

#include <string>
#include <vector>

namespace sqe::auth {

struct Identity {
  std::string user;
  std::vector<std::string> roles;
  /// The provider type that authenticated the caller ("api_key", "anonymous", ...).
  std::string provider;

  bool operator==(const Identity&) const = default;
};

}  // namespace sqe::auth
