#pragma once
/// RetryPolicy: when and how long to wait before repeating a failed request to a remote
/// store: exponential backoff with full jitter (delay uniform in [0, min(max, base·2^n)]),
/// for throttling (429, 503 SlowDown), server errors (5xx) and broken connections.

#include <cstdint>
#include <random>
#include <string_view>

#include "net/http_client.h"

namespace sqe::net {

struct RetryPolicy {
  /// Attempts in total, the first included (1: never retry).
  int max_attempts = 5;
  int64_t base_delay_ms = 50;
  int64_t max_delay_ms = 5'000;
};

/// Whether an HTTP status is worth retrying: 500, 502, 503, 504, 429, and any 5xx;
/// also 400/403 bodies whose S3 code says so (RequestTimeout, RequestTimeTooSkewed,
/// SlowDown, InternalError, ...). `s3_code` may be empty.
bool IsRetryableHttpStatus(int status, std::string_view s3_code);

/// Whether a transport failure is worth retrying (everything but TLS failures).
bool IsRetryableTransportFailure(TransportFailure failure);

/// Delay before attempt `attempt` + 1, where `attempt` >= 1 counts the attempts made.
int64_t BackoffDelayMs(const RetryPolicy& policy, int attempt, std::mt19937_64& rng);

}  // namespace sqe::net
