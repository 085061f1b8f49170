#pragma once
/// S3Options: everything the S3 client and file system need, resolved once from the
/// configuration ([storage], [auth] ssl_verification, [catalog] small_file_threshold_mb)
/// or built by hand (sqe-fs flags, tests). Also the endpoint parser (with the
/// s3_allow_http rule) and the credentials chain: config fields, then the
/// AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN environment; per-table
/// vended credentials from a catalog replace both (S3Options::credentials).

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "common/result.h"
#include "config/config.h"
#include "net/retry_policy.h"
#include "net/sigv4.h"

namespace sqe::io::s3 {

/// A parsed endpoint: scheme://host[:port] (a path is not allowed).
struct S3Endpoint {
  std::string scheme;     // "http" or "https"
  std::string authority;  // host[:port], as sent in the Host header
};

/// Parses `url` ("" means AWS: https://s3.<region>.amazonaws.com). InvalidArgument for a
/// malformed URL, and for http:// unless `allow_http` (naming storage.s3_allow_http).
Result<S3Endpoint> ParseS3Endpoint(const std::string& url, const std::string& region,
                                   bool allow_http);

struct S3Options {
  std::string endpoint;  // "" = AWS for `region`
  std::string region = "us-east-1";
  bool path_style = true;
  bool allow_http = false;
  bool verify_tls = true;
  /// PEM bundle of CAs to trust ("": the system's), e.g. a private CA of an on-prem
  /// store; from AWS_CA_BUNDLE, else SSL_CERT_FILE, in the environment.
  std::string ca_bundle;
  /// Empty access key id: requests go unsigned (public buckets).
  net::AwsCredentials credentials;

  int64_t connect_timeout_ms = 10'000;
  int64_t request_timeout_ms = 0;
  int64_t stall_timeout_ms = 30'000;
  net::RetryPolicy retry;

  /// Multipart part size for writes (>= 5 MiB, as S3 requires for all but the last part);
  /// smaller files are written with one PUT.
  int64_t part_size = int64_t{8} << 20;
  /// Ranged GETs in flight per file, and files with requests in flight at once.
  int concurrent_requests_per_file = 4;
  int max_concurrent_files = 8;
  /// A read longer than this is split into pieces fetched in parallel.
  int64_t read_split_size = int64_t{8} << 20;
  /// Bytes of the file's end fetched with the first read near it (Parquet footer and page
  /// index); bounded by prefetch_buffer.
  int64_t tail_prefetch = int64_t{64} << 10;
  /// Files at or below this size are fetched whole by their first read (0: never).
  int64_t small_file_threshold = int64_t{3} << 20;
};

/// The options the configuration describes. `env` supplies AWS_* when the config has no
/// keys (tests pass a map; callers pass config::CurrentEnvironment()).
Result<S3Options> S3OptionsFromConfig(const config::Config& config,
                                      const std::map<std::string, std::string>& env);

/// Credentials from the config fields, else AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY /
/// AWS_SESSION_TOKEN from `env`; empty when neither has a key. InvalidArgument when only
/// one of key id and secret is given (naming where).
Result<net::AwsCredentials> ResolveCredentials(const config::StorageConfig& storage,
                                               const std::map<std::string, std::string>& env);

/// Checks part size and concurrency bounds (InvalidArgument naming the field).
Status ValidateS3Options(const S3Options& options);

}  // namespace sqe::io::s3
