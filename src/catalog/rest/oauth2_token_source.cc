#include "catalog/rest/oauth2_token_source.h"

#include <nlohmann/json.hpp>

#include "net/sigv4.h"

namespace sqe::catalog {

OAuth2TokenSource::OAuth2TokenSource(OAuth2TokenSourceOptions options,
                                     std::shared_ptr<net::HttpClient> http,
                                     std::shared_ptr<Clock> clock)
    : options_(std::move(options)), http_(std::move(http)), clock_(std::move(clock)) {
  if (!clock_) clock_ = Clock::System();
}

Result<SecretString> OAuth2TokenSource::Token() {
  std::lock_guard lock(mu_);
  if (!options_.token.empty() && options_.credential.empty()) return options_.token;
  if (options_.credential.empty()) return SecretString();
  if (!cached_.empty() && (!has_expiry_ || clock_->MonotonicNow() < refresh_at_)) return cached_;
  return Fetch();
}

void OAuth2TokenSource::Invalidate(const SecretString& rejected) {
  std::lock_guard lock(mu_);
  if (cached_ == rejected) cached_ = SecretString();
}

int OAuth2TokenSource::fetches() const {
  std::lock_guard lock(mu_);
  return fetches_;
}

// Called with mu_ held, so concurrent callers wait for one fetch instead of each making one.
Result<SecretString> OAuth2TokenSource::Fetch() {
  ++fetches_;
  std::string_view credential = options_.credential.Expose();
  std::string client_id;
  std::string_view secret = credential;
  if (size_t colon = credential.find(':'); colon != std::string_view::npos) {
    client_id = std::string(credential.substr(0, colon));
    secret = credential.substr(colon + 1);
  }
  SecretString body(
      "grant_type=client_credentials" +
      (client_id.empty() ? std::string() : "&client_id=" + net::UriEncode(client_id, true)) +
      "&client_secret=" + net::UriEncode(secret, true) +
      (options_.scope.empty() ? std::string() : "&scope=" + net::UriEncode(options_.scope, true)));
  net::HttpRequest request;
  request.method = "POST";
  request.url = options_.token_endpoint;
  request.headers = {{"Content-Type", "application/x-www-form-urlencoded"},
                     {"Accept", "application/json"}};
  request.body = body.Expose();
  const std::string where = options_.context + ": OAuth2 token request to " +
                            options_.token_endpoint +
                            (client_id.empty() ? "" : " for client '" + client_id + "'");
  net::HttpOutcome outcome = http_->Send(request);
  if (!outcome.ok()) {
    return Status::IOError(where + " failed: " + outcome.error +
                           " (check catalog.backend.oauth2_server_uri)");
  }
  const net::HttpResponse& response = outcome.response;
  nlohmann::json json = nlohmann::json::parse(response.body, nullptr, false);
  if (response.status != 200) {
    // RFC 6749 section 5.2: {"error": "invalid_client", "error_description": "..."}.
    std::string reason = "HTTP " + std::to_string(response.status);
    if (json.is_object() && json.contains("error")) {
      const nlohmann::json& error = json["error"];
      if (error.is_string()) reason += " " + error.get<std::string>();
      if (error.is_object() && error.contains("message") && error["message"].is_string()) {
        reason += " " + error["message"].get<std::string>();
      }
      if (json.contains("error_description") && json["error_description"].is_string()) {
        reason += ": " + json["error_description"].get<std::string>();
      }
    }
    if (response.status == 400 || response.status == 401 || response.status == 403) {
      return Status::Unauthenticated(where + " was rejected (" + reason +
                                     "); check catalog.backend.credential and scope");
    }
    return Status::IOError(where + " failed (" + reason + ")");
  }
  if (!json.is_object() || !json.contains("access_token") || !json["access_token"].is_string()) {
    return Status::Corruption(where + " answered without a string access_token");
  }
  cached_ = SecretString(json["access_token"].get<std::string>());
  has_expiry_ = false;
  if (json.contains("expires_in") && json["expires_in"].is_number()) {
    auto lifetime = std::chrono::seconds(json["expires_in"].get<int64_t>());
    auto margin = std::min<std::chrono::seconds>(options_.refresh_margin, lifetime / 2);
    refresh_at_ = clock_->MonotonicNow() + (lifetime - margin);
    has_expiry_ = true;
  }
  return cached_;
}

}  // namespace sqe::catalog
