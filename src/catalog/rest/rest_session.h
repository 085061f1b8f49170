#pragma once
/// RestSession: the HTTP side of one REST catalog client. It builds each request's URL
/// under the catalog URI, adds the bearer token (OAuth2TokenSource) or a SigV4 signature,
/// fetches a fresh token and repeats the request once when the server answers 401, and
/// repeats idempotent requests (GET, HEAD) on broken connections, 429 and 502/503/504.
/// Other requests are sent once: a commit that may have reached the server is never
/// repeated blindly (the caller turns that into "commit state unknown").
///
/// ErrorFromRestResponse maps the REST ErrorModel ({"error": {message, type, code}}) to a
/// Status. Messages name the catalog URI and the operation, never a token or secret.
/// Thread safety: Send may be called concurrently.

#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "catalog/rest/oauth2_token_source.h"
#include "common/result.h"
#include "net/http_client.h"
#include "net/retry_policy.h"
#include "net/sigv4.h"

namespace sqe::catalog {

struct RestSessionOptions {
  /// The catalog URI, http(s)://host[:port][/path], without a trailing '/'.
  std::string uri;
  std::shared_ptr<net::HttpClient> http;
  std::shared_ptr<OAuth2TokenSource> tokens;
  /// SigV4 instead of (or in addition to, as Original-Authorization) the bearer token.
  bool sigv4 = false;
  std::string signing_region;
  std::string signing_name = "execute-api";
  net::AwsCredentials signing_credentials;
  /// For GET and HEAD only.
  net::RetryPolicy retry{4, 50, 2'000};
  /// Headers every request carries (e.g. X-Iceberg-Access-Delegation).
  std::vector<std::pair<std::string, std::string>> headers;
};

/// One request: `path` is percent-encoded and relative to the catalog URI ("/v1/config");
/// `query` holds raw names and values (encoded here).
struct RestCall {
  std::string method = "GET";
  std::string path;
  std::vector<std::pair<std::string, std::string>> query;
  std::string body;  // JSON, or empty
  std::vector<std::pair<std::string, std::string>> headers;
  /// What the call does, for messages: "load table 'db.t'".
  std::string what;
};

/// What Send saw: a response with any status, or that no response arrived.
struct RestOutcome {
  /// True when the request may have reached the server but no answer came back.
  bool no_response = false;
  std::string transport_error;
  net::HttpResponse response;
};

class RestSession {
 public:
  explicit RestSession(RestSessionOptions options);

  /// Sends `call` (see the class comment for retries). An error only for a token that
  /// could not be obtained or a request that could not be signed; a transport failure is
  /// an outcome with no_response.
  Result<RestOutcome> Send(const RestCall& call);

  const std::string& uri() const { return options_.uri; }
  /// "REST catalog <uri>", the prefix of every message.
  std::string context() const { return "REST catalog " + options_.uri; }

 private:
  Result<net::HttpOutcome> SendOnce(const RestCall& call, const SecretString& token);

  RestSessionOptions options_;
  std::string scheme_authority_;  // "http://host:port"
  std::string base_path_;         // "/api/catalog" or ""
  std::mutex rng_mu_;
  std::mt19937_64 rng_;
};

/// The Status for a non-2xx REST response: 400 InvalidArgument, 401/419 Unauthenticated,
/// 403 PermissionDenied, 404 NotFound, 406/501 NotImplemented, 409 AlreadyExists
/// (AlreadyExistsException) or Conflict (CommitFailedException, NamespaceNotEmptyException,
/// others), 429 ResourceExhausted, 5xx IOError. The message is "<context>: <what>: <server
/// message> (<type>, HTTP <code>)".
Status ErrorFromRestResponse(const net::HttpResponse& response, const std::string& context,
                             const std::string& what);

}  // namespace sqe::catalog
