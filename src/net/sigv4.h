#pragma once
/// AWS Signature Version 4 (header authorization), as S3, STS and Glue expect it: the
/// canonical request, the string to sign, the derived signing key and the Authorization
/// header, per AWS's "Signature Version 4 signing process" documentation. Pure functions
/// over an explicit timestamp, so tests check them against AWS's published examples.
///
/// The secret key is used only inside SignRequest; it never appears in the returned
/// strings (the Authorization header carries the access key id, scope and signature).

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/result.h"
#include "common/secret_string.h"

namespace sqe::net {

struct AwsCredentials {
  std::string access_key_id;
  SecretString secret_access_key;
  std::string session_token;  // empty: long-term credentials
};

/// A request to sign. `path` is the URI path as sent (each segment already
/// URI-encoded once, as S3 wants); query parameters and headers are raw (the signer
/// encodes and canonicalizes them). `headers` must contain "host".
struct SignableRequest {
  std::string method = "GET";
  std::string path = "/";
  std::vector<std::pair<std::string, std::string>> query;
  std::vector<std::pair<std::string, std::string>> headers;
  /// Hex SHA-256 of the body, or "UNSIGNED-PAYLOAD".
  std::string payload_sha256;
};

struct SignedRequest {
  /// Headers to add to the request: authorization, x-amz-date, x-amz-content-sha256 and,
  /// with a session token, x-amz-security-token.
  std::vector<std::pair<std::string, std::string>> headers;
  std::string canonical_request;  // for debugging signature mismatches (no secrets)
  std::string string_to_sign;
};

/// Signs `request` for `region`/`service` at `unix_seconds` (UTC). InvalidArgument for a
/// request without a host header or credentials without a key id or secret.
Result<SignedRequest> SignRequest(const SignableRequest& request, const AwsCredentials& credentials,
                                  std::string_view region, std::string_view service,
                                  int64_t unix_seconds);

/// RFC 3986 percent-encoding as SigV4 defines it (unreserved A-Z a-z 0-9 - _ . ~ kept;
/// '/' kept unless `encode_slash`).
std::string UriEncode(std::string_view text, bool encode_slash);

/// Lowercase hex SHA-256 of `data`.
std::string Sha256Hex(std::string_view data);

/// "20130524T000000Z" for a Unix time.
std::string AmzDate(int64_t unix_seconds);

}  // namespace sqe::net
