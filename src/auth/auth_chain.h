#pragma once
/// AuthChain: the configured `[[auth.providers]]`, tried in order; the first that vouches
/// for a caller wins. Tokens SQE issued itself (IssuedTokens) are checked first. A chain
/// that no provider accepts a caller through answers Unauthenticated naming what to send,
/// never echoing the credential. Providers this build does not implement yet are left out
/// of the chain (listed in not_implemented()), so it fails closed, never open. Thread-safe.

#include <memory>
#include <string>
#include <vector>

#include "auth/authenticator.h"
#include "auth/issued_tokens.h"
#include "config/config.h"

namespace sqe::auth {

class AuthChain {
 public:
  AuthChain(std::vector<std::unique_ptr<Authenticator>> providers,
            std::vector<std::string> not_implemented = {});

  /// Who the caller is, or Unauthenticated.
  Result<Identity> Authenticate(const Credentials& credentials) const;
  /// Authenticate() on a raw `Authorization` header value ("" = none).
  Result<Identity> AuthenticateHeader(std::string_view authorization) const;

  /// Tokens this process issues and accepts (shared by every listener of the process).
  IssuedTokens& issued_tokens() const { return *issued_; }
  /// Whether a caller without credentials is let in (an anonymous provider is configured).
  bool allows_anonymous() const;
  const std::vector<std::string>& not_implemented() const { return not_implemented_; }
  size_t provider_count() const { return providers_.size(); }

 private:
  std::vector<std::unique_ptr<Authenticator>> providers_;
  std::vector<std::string> not_implemented_;
  std::shared_ptr<IssuedTokens> issued_;
};

/// The chain `[auth]` configures: the `[[auth.providers]]` entries (anonymous and api_key
/// are built; the other types are recorded as not implemented), or, without entries, the
/// legacy single-provider fields (not implemented either). IOError / InvalidArgument for a
/// keys file that cannot be read.
Result<std::shared_ptr<AuthChain>> MakeAuthChain(const config::AuthConfig& auth);

}  // namespace sqe::auth
