#include "catalog/rest/rest_session.h"

#include <chrono>
#include <thread>

#include <nlohmann/json.hpp>

#include "net/query_string.h"

namespace sqe::catalog {
namespace {

bool IsIdempotent(const std::string& method) { return method == "GET" || method == "HEAD"; }

bool IsRetryableStatus(int status) {
  return status == 429 || status == 502 || status == 503 || status == 504;
}

}  // namespace

RestSession::RestSession(RestSessionOptions options)
    : options_(std::move(options)), rng_(std::random_device{}()) {
  while (!options_.uri.empty() && options_.uri.back() == '/') options_.uri.pop_back();
  size_t scheme_end = options_.uri.find("://");
  size_t path_start =
      scheme_end == std::string::npos ? std::string::npos : options_.uri.find('/', scheme_end + 3);
  scheme_authority_ = options_.uri.substr(0, path_start);
  base_path_ = path_start == std::string::npos ? "" : options_.uri.substr(path_start);
}

Result<net::HttpOutcome> RestSession::SendOnce(const RestCall& call, const SecretString& token) {
  net::HttpRequest request;
  request.method = call.method;
  const std::string path = base_path_ + call.path;
  request.url = scheme_authority_ + path + net::QueryString(call.query);
  request.headers = options_.headers;
  request.headers.insert(request.headers.end(), call.headers.begin(), call.headers.end());
  request.headers.emplace_back("Accept", "application/json");
  if (!call.body.empty()) request.headers.emplace_back("Content-Type", "application/json");
  request.body = call.body;
  SecretString bearer(token.empty() ? std::string() : "Bearer " + std::string(token.Expose()));
  if (options_.sigv4) {
    // As Iceberg's RESTSigV4Signer does: the signature is the Authorization header and a
    // bearer token travels beside it as Original-Authorization.
    if (!bearer.empty()) request.headers.emplace_back("Original-Authorization", bearer.Expose());
    net::SignableRequest signable;
    signable.method = call.method;
    signable.path = path.empty() ? "/" : path;
    signable.query = call.query;
    std::string host = scheme_authority_.substr(scheme_authority_.find("://") + 3);
    signable.headers = {{"host", host}};
    for (const auto& [name, value] : request.headers) {
      if (name == "Content-Type") signable.headers.emplace_back("content-type", value);
    }
    signable.payload_sha256 = net::Sha256Hex(call.body);
    Result<net::SignedRequest> signed_request = net::SignRequest(
        signable, options_.signing_credentials, options_.signing_region, options_.signing_name,
        std::chrono::duration_cast<std::chrono::seconds>(
            std::chrono::system_clock::now().time_since_epoch())
            .count());
    if (!signed_request.ok()) {
      return Status::InvalidArgument(context() + ": cannot sign " + call.what +
                                     " with SigV4: " + signed_request.status().message() +
                                     " (set storage.s3_access_key/s3_secret_key or "
                                     "AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY)");
    }
    for (auto& header : signed_request->headers) request.headers.push_back(std::move(header));
  } else if (!bearer.empty()) {
    request.headers.emplace_back("Authorization", bearer.Expose());
  }
  net::HttpOutcome outcome = options_.http->Send(request);
  // The request headers held the token; wipe the copies before they are freed.
  for (auto& [name, value] : request.headers) SecureZero(value.data(), value.size());
  return outcome;
}

Result<RestOutcome> RestSession::Send(const RestCall& call) {
  const bool idempotent = IsIdempotent(call.method);
  const int max_attempts = idempotent ? std::max(1, options_.retry.max_attempts) : 1;
  bool refreshed = false;
  for (int attempt = 1;; ++attempt) {
    SecretString token;
    if (options_.tokens && options_.tokens->enabled()) {
      Result<SecretString> fetched = options_.tokens->Token();
      if (!fetched.ok()) return fetched.status().WithContext("while trying to " + call.what);
      token = std::move(*fetched);
    }
    SQE_ASSIGN_OR_RETURN(net::HttpOutcome outcome, SendOnce(call, token));
    if (outcome.ok() && outcome.response.status == 401 && !refreshed && options_.tokens &&
        options_.tokens->can_refresh()) {
      // The token expired or was revoked early: one fresh token, one more try. A 401
      // means the server did not act on the request, so repeating a POST is safe.
      options_.tokens->Invalidate(token);
      refreshed = true;
      --attempt;
      continue;
    }
    bool retry = attempt < max_attempts &&
                 (outcome.ok() ? IsRetryableStatus(outcome.response.status)
                               : net::IsRetryableTransportFailure(outcome.failure));
    if (retry) {
      int64_t delay;
      {
        std::lock_guard lock(rng_mu_);
        delay = net::BackoffDelayMs(options_.retry, attempt, rng_);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(delay));
      continue;
    }
    RestOutcome out;
    if (!outcome.ok()) {
      out.no_response = true;
      out.transport_error = outcome.error;
    } else {
      out.response = std::move(outcome.response);
    }
    return out;
  }
}

Status ErrorFromRestResponse(const net::HttpResponse& response, const std::string& context,
                             const std::string& what) {
  std::string message, type;
  nlohmann::json json = nlohmann::json::parse(response.body, nullptr, false);
  if (json.is_object() && json.contains("error") && json["error"].is_object()) {
    const nlohmann::json& error = json["error"];
    if (error.contains("message") && error["message"].is_string()) {
      message = error["message"].get<std::string>();
    }
    if (error.contains("type") && error["type"].is_string()) {
      type = error["type"].get<std::string>();
    }
  } else if (!response.body.empty()) {
    // Not an ErrorModel (a proxy's HTML page, plain text): a bounded excerpt.
    message = response.body.substr(0, 300);
  }
  const int code = response.status;
  std::string text = context + ": " + what +
                     " failed: " + (message.empty() ? std::string("no error message") : message) +
                     " (" + (type.empty() ? std::string() : type + ", ") + "HTTP " +
                     std::to_string(code) + ")";
  switch (code) {
    case 400:
    case 422:
      return Status::InvalidArgument(std::move(text));
    case 401:
    case 419:
      return Status::Unauthenticated(text +
                                     "; check catalog.backend.token or catalog.backend.credential");
    case 403:
      return Status::PermissionDenied(std::move(text));
    case 404:
      return Status::NotFound(std::move(text));
    case 406:
    case 501:
      return Status::NotImplemented(std::move(text));
    case 409:
      if (type.find("AlreadyExists") != std::string::npos) {
        return Status::AlreadyExists(std::move(text));
      }
      return Status::Conflict(std::move(text));
    case 429:
      return Status::ResourceExhausted(std::move(text));
    default:
      if (code >= 500) return Status::IOError(std::move(text));
      return Status::Internal(text + " (unexpected status)");
  }
}

}  // namespace sqe::catalog
