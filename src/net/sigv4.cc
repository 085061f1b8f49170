#include "net/sigv4.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include <algorithm>
#include <cctype>
#include <ctime>

#include "common/hex.h"

namespace sqe::net {
namespace {

std::string HmacSha256(std::string_view key, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), out, &len);
  return std::string(reinterpret_cast<const char*>(out), len);
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Trims and collapses runs of spaces, as the canonical header value requires.
std::string CanonicalHeaderValue(std::string_view v) {
  std::string out;
  bool space = false;
  for (char c : v) {
    if (c == ' ' || c == '\t') {
      space = !out.empty();
      continue;
    }
    if (space) out.push_back(' ');
    space = false;
    out.push_back(c);
  }
  return out;
}

void Wipe(std::string& s) { SecureZero(s.data(), s.size()); }

}  // namespace

std::string Sha256Hex(std::string_view data) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest);
  return HexLower(digest, sizeof(digest));
}

std::string UriEncode(std::string_view text, bool encode_slash) {
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' ||
        (c == '/' && !encode_slash)) {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      AppendHexByte(c, true, &out);
    }
  }
  return out;
}

std::string AmzDate(int64_t unix_seconds) {
  std::time_t t = static_cast<std::time_t>(unix_seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[17];
  std::strftime(buf, sizeof(buf), "%Y%m%dT%H%M%SZ", &tm);
  return buf;
}

Result<SignedRequest> SignRequest(const SignableRequest& request, const AwsCredentials& credentials,
                                  std::string_view region, std::string_view service,
                                  int64_t unix_seconds) {
  if (credentials.access_key_id.empty() || credentials.secret_access_key.Expose().empty()) {
    return Status::InvalidArgument(
        "AWS credentials need an access key id and a secret access key (set them in the "
        "config or in AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY)");
  }
  const std::string amz_date = AmzDate(unix_seconds);
  const std::string date = amz_date.substr(0, 8);
  const std::string payload =
      request.payload_sha256.empty() ? Sha256Hex("") : request.payload_sha256;

  SignedRequest signed_request;
  signed_request.headers.emplace_back("x-amz-content-sha256", payload);
  signed_request.headers.emplace_back("x-amz-date", amz_date);
  if (!credentials.session_token.empty()) {
    signed_request.headers.emplace_back("x-amz-security-token", credentials.session_token);
  }

  // Canonical headers: lowercase names, sorted, values trimmed; duplicates joined by ','.
  std::vector<std::pair<std::string, std::string>> headers;
  bool has_host = false;
  for (const auto& [name, value] : request.headers) {
    std::string lower = Lower(name);
    if (lower == "authorization") continue;
    has_host |= lower == "host";
    headers.emplace_back(lower, CanonicalHeaderValue(value));
  }
  if (!has_host) return Status::InvalidArgument("a SigV4 request needs a host header");
  for (const auto& h : signed_request.headers) headers.push_back(h);
  std::stable_sort(headers.begin(), headers.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string canonical_headers, signed_headers;
  for (size_t i = 0; i < headers.size(); ++i) {
    if (i > 0 && headers[i].first == headers[i - 1].first) {
      canonical_headers.back() = ',';
      canonical_headers += headers[i].second + "\n";
      continue;
    }
    canonical_headers += headers[i].first + ":" + headers[i].second + "\n";
    signed_headers += (signed_headers.empty() ? "" : ";") + headers[i].first;
  }

  // Canonical query: encoded names and values, sorted by name then value.
  std::vector<std::pair<std::string, std::string>> query;
  for (const auto& [k, v] : request.query)
    query.emplace_back(UriEncode(k, true), UriEncode(v, true));
  std::sort(query.begin(), query.end());
  std::string canonical_query;
  for (const auto& [k, v] : query) {
    canonical_query += (canonical_query.empty() ? "" : "&") + k + "=" + v;
  }

  signed_request.canonical_request =
      request.method + "\n" + (request.path.empty() ? "/" : request.path) + "\n" + canonical_query +
      "\n" + canonical_headers + "\n" + signed_headers + "\n" + payload;
  const std::string scope =
      date + "/" + std::string(region) + "/" + std::string(service) + "/aws4_request";
  signed_request.string_to_sign = "AWS4-HMAC-SHA256\n" + amz_date + "\n" + scope + "\n" +
                                  Sha256Hex(signed_request.canonical_request);

  std::string key = "AWS4" + std::string(credentials.secret_access_key.Expose());
  std::string k_date = HmacSha256(key, date);
  std::string k_region = HmacSha256(k_date, region);
  std::string k_service = HmacSha256(k_region, service);
  std::string k_signing = HmacSha256(k_service, "aws4_request");
  std::string mac = HmacSha256(k_signing, signed_request.string_to_sign);
  std::string signature = HexLower(mac);
  Wipe(key);
  Wipe(k_date);
  Wipe(k_region);
  Wipe(k_service);
  Wipe(k_signing);

  signed_request.headers.emplace_back(
      "authorization", "AWS4-HMAC-SHA256 Credential=" + credentials.access_key_id + "/" + scope +
                           ",SignedHeaders=" + signed_headers + ",Signature=" + signature);
  return signed_request;
}

}  // namespace sqe::net
