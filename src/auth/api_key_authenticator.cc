#include "auth/api_key_authenticator.h"

#include <openssl/sha.h>

#include "config/config_loader.h"

namespace sqe::auth {

std::string Sha256Digest(std::string_view data) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest);
  return std::string(reinterpret_cast<const char*>(digest), sizeof(digest));
}

ApiKeyAuthenticator::ApiKeyAuthenticator(const std::vector<config::ApiKeyEntry>& keys,
                                         std::string key_prefix)
    : prefix_(std::move(key_prefix)) {
  for (const config::ApiKeyEntry& entry : keys) {
    by_digest_[Sha256Digest(entry.key.Expose())] = Identity{entry.user, entry.roles, "api_key"};
  }
}

Result<std::unique_ptr<ApiKeyAuthenticator>> ApiKeyAuthenticator::FromFile(
    const std::string& keys_file, const std::string& key_prefix) {
  SQE_ASSIGN_OR_RETURN(std::vector<config::ApiKeyEntry> keys,
                       config::LoadApiKeysFile(keys_file, key_prefix));
  return std::make_unique<ApiKeyAuthenticator>(keys, key_prefix);
}

Result<std::optional<Identity>> ApiKeyAuthenticator::Authenticate(
    const Credentials& credentials) const {
  if (credentials.kind == Credentials::Kind::kNone) return std::optional<Identity>();
  std::string_view key = credentials.secret.Expose();
  if (key.substr(0, prefix_.size()) != prefix_) return std::optional<Identity>();
  // Looking up the digest, not the key, keeps the comparison's timing independent of how
  // much of a guessed key is right.
  auto it = by_digest_.find(Sha256Digest(key));
  if (it == by_digest_.end()) {
    return Status::Unauthenticated(
        "the API key is not known (api_key provider); check the key "
        "or the provider's keys_file");
  }
  return std::optional<Identity>(it->second);
}

}  // namespace sqe::auth
