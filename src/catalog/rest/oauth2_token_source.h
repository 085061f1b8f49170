#pragma once
/// OAuth2TokenSource: the bearer token a REST catalog client sends, from a static token
/// or from the OAuth2 client-credentials grant (RFC 6749 section 4.4) against a token
/// endpoint (the catalog's own /v1/oauth/tokens, or an identity provider). A fetched token
/// is cached and fetched again shortly before it expires (expires_in), and on demand after
/// the server rejected it (Invalidate, on a 401).
///
/// The client secret and the tokens never appear in a Status message or a log line.
/// Thread safety: every method may be called concurrently; one fetch runs at a time.

#include <chrono>
#include <memory>
#include <mutex>
#include <string>

#include "common/clock.h"
#include "common/result.h"
#include "common/secret_string.h"
#include "net/http_client.h"

namespace sqe::catalog {

struct OAuth2TokenSourceOptions {
  /// A pre-minted bearer token; when set, no grant is made.
  SecretString token;
  /// "client_id:client_secret" (or just a secret, sent without a client id).
  SecretString credential;
  /// The token endpoint, an absolute http(s) URL.
  std::string token_endpoint;
  std::string scope = "catalog";
  /// Refresh this long before expiry (or at half the lifetime of a short-lived token).
  std::chrono::seconds refresh_margin{60};
  /// Where the request comes from in error messages ("REST catalog http://...").
  std::string context;
};

class OAuth2TokenSource {
 public:
  OAuth2TokenSource(OAuth2TokenSourceOptions options, std::shared_ptr<net::HttpClient> http,
                    std::shared_ptr<Clock> clock);

  /// Whether requests carry a token at all (a static token or a credential is set).
  bool enabled() const { return !options_.token.empty() || !options_.credential.empty(); }
  /// Whether the token can be renewed (a credential is set).
  bool can_refresh() const { return !options_.credential.empty(); }

  /// The current token, fetching one when none is cached or it is about to expire.
  /// Unauthenticated when the endpoint rejects the credential; IOError when it cannot be
  /// reached. An empty token when !enabled().
  Result<SecretString> Token();
  /// Forgets a cached token the server rejected, unless it was already replaced (so
  /// concurrent 401s lead to one fetch). `rejected` is the token that was sent.
  void Invalidate(const SecretString& rejected);

  /// Token requests made so far (for tests).
  int fetches() const;

 private:
  Result<SecretString> Fetch();

  OAuth2TokenSourceOptions options_;
  std::shared_ptr<net::HttpClient> http_;
  std::shared_ptr<Clock> clock_;
  mutable std::mutex mu_;
  SecretString cached_;
  Clock::MonoTime refresh_at_{};
  bool has_expiry_ = false;
  int fetches_ = 0;
};

}  // namespace sqe::catalog
