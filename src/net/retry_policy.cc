#include "net/retry_policy.h"

#include <algorithm>
#include <array>

namespace sqe::net {
namespace {

// Error codes that AWS services (S3, STS, Glue) return for transient conditions:
// throttling, clock skew that a fresh signature fixes, and internal errors. Codes about
// the request or the credentials themselves (ExpiredToken, AccessDenied) are final.
constexpr std::array<std::string_view, 14> kRetryableCodes = {
    "RequestTimeout",
    "RequestTimeTooSkewed",
    "RequestExpired",
    "SlowDown",
    "Throttling",
    "ThrottlingException",
    "ThrottledException",
    "RequestThrottled",
    "RequestThrottledException",
    "TooManyRequestsException",
    "RequestLimitExceeded",
    "BandwidthLimitExceeded",
    "InternalError",
    "ServiceUnavailable",
};

}  // namespace

bool IsRetryableHttpStatus(int status, std::string_view s3_code) {
  if (status >= 500 && status <= 599) return true;
  if (status == 429) return true;
  // The code decides for the rest (400 RequestTimeout, 403 RequestTimeTooSkewed, and the
  // 200 with an InternalError body that CompleteMultipartUpload can return).
  if (s3_code.empty()) return false;
  return std::find(kRetryableCodes.begin(), kRetryableCodes.end(), s3_code) !=
         kRetryableCodes.end();
}

bool IsRetryableTransportFailure(TransportFailure failure) {
  switch (failure) {
    case TransportFailure::kNone:
    case TransportFailure::kTls:
      return false;
    case TransportFailure::kConnect:
    case TransportFailure::kTimeout:
    case TransportFailure::kStalled:
    case TransportFailure::kReset:
    case TransportFailure::kOther:
      return true;
  }
  return false;
}

int64_t BackoffDelayMs(const RetryPolicy& policy, int attempt, std::mt19937_64& rng) {
  int64_t max_delay = std::max<int64_t>(policy.max_delay_ms, 0);
  int64_t base = std::max<int64_t>(policy.base_delay_ms, 0);
  if (base == 0 || max_delay == 0) return 0;
  int shift = std::max(attempt, 1) - 1;
  // base * 2^shift, saturating at max_delay before it can overflow.
  int64_t cap = max_delay;
  if (shift < 62 && base <= (max_delay >> shift)) cap = base << shift;
  std::uniform_int_distribution<int64_t> dist(0, cap);
  return dist(rng);
}

}  // namespace sqe::net
