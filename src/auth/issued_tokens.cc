#include "auth/issued_tokens.h"

#include <openssl/rand.h>

#include "auth/api_key_authenticator.h"
#include "common/hex.h"
#include "common/secret_string.h"

namespace sqe::auth {

IssuedTokens::IssuedTokens(size_t max_tokens) : max_tokens_(std::max<size_t>(1, max_tokens)) {}

Result<std::string> IssuedTokens::Issue(const Identity& identity, std::chrono::seconds lifetime) {
  unsigned char bytes[32];
  if (RAND_bytes(bytes, sizeof(bytes)) != 1) {
    return Status::Internal("the system random source failed; no token was issued");
  }
  std::string token = HexLower(bytes, sizeof(bytes));
  SecureZero(bytes, sizeof(bytes));
  const Clock::time_point now = Clock::now();
  std::lock_guard<std::mutex> lock(mu_);
  DropExpiredLocked(now);
  while (by_digest_.size() >= max_tokens_) {
    // Evict the one closest to expiry: the oldest of equal lifetimes.
    auto victim = by_digest_.begin();
    for (auto it = by_digest_.begin(); it != by_digest_.end(); ++it) {
      if (it->second.expires < victim->second.expires) victim = it;
    }
    by_digest_.erase(victim);
  }
  by_digest_[Sha256Digest(token)] = Entry{identity, now + lifetime};
  return token;
}

std::optional<Identity> IssuedTokens::Lookup(std::string_view token) const {
  const std::string digest = Sha256Digest(token);
  std::lock_guard<std::mutex> lock(mu_);
  auto it = by_digest_.find(digest);
  if (it == by_digest_.end() || it->second.expires <= Clock::now()) return std::nullopt;
  return it->second.identity;
}

void IssuedTokens::Clear() {
  std::lock_guard<std::mutex> lock(mu_);
  by_digest_.clear();
}

size_t IssuedTokens::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return by_digest_.size();
}

void IssuedTokens::DropExpiredLocked(Clock::time_point now) {
  for (auto it = by_digest_.begin(); it != by_digest_.end();) {
    it = it->second.expires <= now ? by_digest_.erase(it) : std::next(it);
  }
}

}  // namespace sqe::auth
