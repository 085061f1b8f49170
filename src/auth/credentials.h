#pragma once
/// Credentials: what a caller presented, parsed from an HTTP `Authorization` header (or
/// a protocol's equivalent): nothing, a bearer token, or a user and password (Basic).
/// Secrets stay in SecretString so formatting a Credentials never leaks them.

#include <string>
#include <string_view>

#include "common/result.h"
#include "common/secret_string.h"

namespace sqe::auth {

struct Credentials {
  enum class Kind { kNone, kBearer, kBasic };
  Kind kind = Kind::kNone;
  /// kBasic: the user name.
  std::string user;
  /// kBearer: the token; kBasic: the password.
  SecretString secret;

  static Credentials None() { return {}; }
  static Credentials Bearer(std::string token);
  static Credentials Basic(std::string user, std::string password);
};

/// Parses an `Authorization` header value ("" = no credentials). Unauthenticated for a
/// scheme other than Bearer/Basic or a malformed value; the message never holds the value.
Result<Credentials> ParseAuthorizationHeader(std::string_view value);

}  // namespace sqe::auth
