#pragma once
/// ApiKeyAuthenticator: the `api_key` provider. Keys come from the provider's keys file
/// (config::LoadApiKeysFile); a caller presents one as `Bearer <key>` or as the password
/// of Basic credentials. Only values starting with the provider's key prefix are its to
/// judge: others go to the next provider. Keys are held as SHA-256 digests, never logged.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "auth/authenticator.h"
#include "config/config.h"

namespace sqe::auth {

class ApiKeyAuthenticator : public Authenticator {
 public:
  /// From the entries of a keys file (already validated by the config loader).
  ApiKeyAuthenticator(const std::vector<config::ApiKeyEntry>& keys, std::string key_prefix);
  /// Loads `keys_file`; its errors name the file and entry, never a key.
  static Result<std::unique_ptr<ApiKeyAuthenticator>> FromFile(const std::string& keys_file,
                                                               const std::string& key_prefix);

  std::string_view type() const override { return "api_key"; }
  Result<std::optional<Identity>> Authenticate(const Credentials& credentials) const override;
  size_t size() const { return by_digest_.size(); }

 private:
  std::string prefix_;
  std::map<std::string, Identity> by_digest_;  // SHA-256 of the key -> who it is
};

/// The raw SHA-256 digest of `data` (32 bytes).
std::string Sha256Digest(std::string_view data);

}  // namespace sqe::auth
