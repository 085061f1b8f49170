#include "io/s3/s3_options.h"

#include <algorithm>

#include "common/logging.h"

namespace sqe::io::s3 {

Result<S3Endpoint> ParseS3Endpoint(const std::string& url, const std::string& region,
                                   bool allow_http) {
  if (url.empty()) return S3Endpoint{"https", "s3." + region + ".amazonaws.com"};
  size_t sep = url.find("://");
  if (sep == std::string::npos) {
    return Status::InvalidArgument("S3 endpoint '" + url +
                                   "' has no scheme: write it as https://host[:port] "
                                   "(storage.s3_endpoint)");
  }
  S3Endpoint endpoint;
  endpoint.scheme = url.substr(0, sep);
  std::transform(endpoint.scheme.begin(), endpoint.scheme.end(), endpoint.scheme.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::string rest = url.substr(sep + 3);
  while (!rest.empty() && rest.back() == '/') rest.pop_back();
  if (endpoint.scheme != "http" && endpoint.scheme != "https") {
    return Status::InvalidArgument("S3 endpoint '" + url + "' must use https:// or http:// " +
                                   "(storage.s3_endpoint)");
  }
  if (rest.empty() || rest.find_first_of("/?#@ ") != std::string::npos) {
    return Status::InvalidArgument("S3 endpoint '" + url +
                                   "' must be scheme://host[:port] with no path, query or "
                                   "user info (storage.s3_endpoint)");
  }
  if (endpoint.scheme == "http" && !allow_http) {
    return Status::InvalidArgument(
        "S3 endpoint '" + url +
        "' uses plain HTTP, which is refused by default: use https://, or set "
        "storage.s3_allow_http = true for a local test store (credentials and data then "
        "travel unencrypted)");
  }
  endpoint.authority = rest;
  return endpoint;
}

Result<net::AwsCredentials> ResolveCredentials(const config::StorageConfig& storage,
                                               const std::map<std::string, std::string>& env) {
  net::AwsCredentials credentials;
  std::string key(storage.s3_access_key.Expose());
  std::string secret(storage.s3_secret_key.Expose());
  if (!key.empty() || !secret.empty()) {
    if (key.empty() || secret.empty()) {
      return Status::InvalidArgument(
          std::string("storage.") + (key.empty() ? "s3_access_key" : "s3_secret_key") +
          " is empty while storage." + (key.empty() ? "s3_secret_key" : "s3_access_key") +
          " is set: set both (or neither, to use AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY)");
    }
    credentials.access_key_id = key;
    credentials.secret_access_key = SecretString(secret);
    return credentials;
  }
  auto get = [&](const char* name) {
    auto it = env.find(name);
    return it == env.end() ? std::string() : it->second;
  };
  std::string env_key = get("AWS_ACCESS_KEY_ID");
  std::string env_secret = get("AWS_SECRET_ACCESS_KEY");
  if (env_key.empty() && env_secret.empty()) return credentials;
  if (env_key.empty() || env_secret.empty()) {
    return Status::InvalidArgument(
        std::string(env_key.empty() ? "AWS_ACCESS_KEY_ID" : "AWS_SECRET_ACCESS_KEY") +
        " is not set while " + (env_key.empty() ? "AWS_SECRET_ACCESS_KEY" : "AWS_ACCESS_KEY_ID") +
        " is: set both");
  }
  credentials.access_key_id = env_key;
  credentials.secret_access_key = SecretString(env_secret);
  credentials.session_token = get("AWS_SESSION_TOKEN");
  return credentials;
}

Status ValidateS3Options(const S3Options& options) {
  constexpr int64_t kMinPart = int64_t{5} << 20;
  constexpr int64_t kMaxPart = int64_t{5} << 30;
  if (options.part_size < kMinPart || options.part_size > kMaxPart) {
    return Status::InvalidArgument("S3 part size " + std::to_string(options.part_size) +
                                   " bytes is outside S3's limits of 5 MiB to 5 GiB");
  }
  if (options.concurrent_requests_per_file < 1) {
    return Status::InvalidArgument("storage.concurrent_requests_per_file must be at least 1");
  }
  if (options.max_concurrent_files < 1) {
    return Status::InvalidArgument("storage.max_concurrent_files must be at least 1");
  }
  if (options.retry.max_attempts < 1) {
    return Status::InvalidArgument("S3 max attempts must be at least 1");
  }
  if (options.read_split_size < (int64_t{64} << 10)) {
    return Status::InvalidArgument("S3 read split size must be at least 64 KiB");
  }
  return Status::OK();
}

Result<S3Options> S3OptionsFromConfig(const config::Config& config,
                                      const std::map<std::string, std::string>& env) {
  const config::StorageConfig& storage = config.storage;
  S3Options options;
  options.endpoint = storage.s3_endpoint;
  options.region = storage.s3_region;
  options.path_style = storage.s3_path_style;
  options.allow_http = storage.s3_allow_http;
  options.verify_tls = config.auth.ssl_verification;
  for (const char* name : {"AWS_CA_BUNDLE", "SSL_CERT_FILE"}) {
    auto it = env.find(name);
    if (it != env.end() && !it->second.empty()) {
      options.ca_bundle = it->second;
      break;
    }
  }
  SQE_ASSIGN_OR_RETURN(options.credentials, ResolveCredentials(storage, env));
  options.concurrent_requests_per_file =
      static_cast<int>(std::clamp<int64_t>(storage.concurrent_requests_per_file, 1, 256));
  options.max_concurrent_files =
      static_cast<int>(std::clamp<int64_t>(storage.max_concurrent_files, 1, 1024));
  int64_t prefetch = static_cast<int64_t>(storage.prefetch_buffer);
  options.tail_prefetch = std::min<int64_t>(options.tail_prefetch, prefetch);
  options.small_file_threshold =
      std::min<int64_t>(config.catalog.small_file_threshold_mb << 20, prefetch);
  if (!options.verify_tls) {
    log::Warn(
        "tls_verification_disabled",
        {{"component", "s3"},
         {"detail", "auth.ssl_verification = false: S3 server certificates are not checked"}});
  }
  SQE_RETURN_NOT_OK(ParseS3Endpoint(options.endpoint, options.region, options.allow_http).status());
  SQE_RETURN_NOT_OK(ValidateS3Options(options));
  return options;
}

}  // namespace sqe::io::s3
