#pragma once
/// IssuedTokens: opaque access tokens SQE itself hands out (the REST catalog's OAuth2
/// token endpoint, later Flight SQL handshakes) for an identity a provider accepted, so a
/// client exchanges its credential once and then sends `Bearer <token>`. Tokens are 256
/// random bits, held as SHA-256 digests, expire after their lifetime and are capped in
/// number (the oldest go first). Thread-safe.

#include <chrono>
#include <cstddef>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "auth/identity.h"
#include "common/result.h"

namespace sqe::auth {

class IssuedTokens {
 public:
  using Clock = std::chrono::steady_clock;
  explicit IssuedTokens(size_t max_tokens = 100000);

  /// A fresh token for `identity`, valid for `lifetime`.
  Result<std::string> Issue(const Identity& identity, std::chrono::seconds lifetime);
  /// Who `token` was issued to, while it has not expired.
  std::optional<Identity> Lookup(std::string_view token) const;
  /// Drops every token (tests, shutdown).
  void Clear();
  size_t size() const;

 private:
  struct Entry {
    Identity identity;
    Clock::time_point expires;
  };
  void DropExpiredLocked(Clock::time_point now);

  const size_t max_tokens_;
  mutable std::mutex mu_;
  std::map<std::string, Entry> by_digest_;
};

}  // namespace sqe::auth
