#include "net/retry_policy.h"

#include <gtest/gtest.h>

#include <limits>

namespace sqe::net {
namespace {

TEST(RetryPolicyTest, HttpStatusClassification) {
  struct Case {
    int status;
    std::string_view code;
    bool retryable;
  };
  const Case cases[] = {
      {500, "", true},
      {502, "", true},
      {503, "", true},
      {503, "SlowDown", true},
      {504, "", true},
      {599, "", true},
      {429, "", true},
      {400, "RequestTimeout", true},
      {400, "ExpiredToken", false},
      {400, "InvalidArgument", false},
      {400, "", false},
      {403, "RequestTimeTooSkewed", true},
      {403, "AccessDenied", false},
      {403, "SignatureDoesNotMatch", false},
      {400, "Throttling", true},
      {400, "ThrottlingException", true},
      {400, "SlowDown", true},
      {200, "InternalError", true},
      {200, "", false},
      {204, "", false},
      {301, "", false},
      {404, "", false},
      {404, "NoSuchKey", false},
      {409, "", false},
      {412, "PreconditionFailed", false},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(IsRetryableHttpStatus(c.status, c.code), c.retryable) << c.status << " " << c.code;
  }
}

TEST(RetryPolicyTest, TransportFailureClassification) {
  EXPECT_FALSE(IsRetryableTransportFailure(TransportFailure::kNone));
  EXPECT_FALSE(IsRetryableTransportFailure(TransportFailure::kTls));
  EXPECT_TRUE(IsRetryableTransportFailure(TransportFailure::kConnect));
  EXPECT_TRUE(IsRetryableTransportFailure(TransportFailure::kTimeout));
  EXPECT_TRUE(IsRetryableTransportFailure(TransportFailure::kStalled));
  EXPECT_TRUE(IsRetryableTransportFailure(TransportFailure::kReset));
  EXPECT_TRUE(IsRetryableTransportFailure(TransportFailure::kOther));
}

TEST(RetryPolicyTest, BackoffStaysWithinExponentialCap) {
  RetryPolicy policy;  // base 50, max 5000
  std::mt19937_64 rng(1234);
  for (int attempt = 1; attempt <= 10; ++attempt) {
    int64_t cap = std::min<int64_t>(policy.max_delay_ms, policy.base_delay_ms << (attempt - 1));
    int64_t lo = std::numeric_limits<int64_t>::max();
    int64_t hi = 0;
    double sum = 0;
    const int kSamples = 2000;
    for (int i = 0; i < kSamples; ++i) {
      int64_t d = BackoffDelayMs(policy, attempt, rng);
      ASSERT_GE(d, 0);
      ASSERT_LE(d, cap) << "attempt " << attempt;
      lo = std::min(lo, d);
      hi = std::max(hi, d);
      sum += static_cast<double>(d);
    }
    // Full jitter: the samples spread over the whole range, mean near cap / 2.
    EXPECT_LE(lo, cap / 10) << "attempt " << attempt;
    EXPECT_GE(hi, cap - cap / 10) << "attempt " << attempt;
    EXPECT_NEAR(sum / kSamples, cap / 2.0, cap * 0.1) << "attempt " << attempt;
  }
}

TEST(RetryPolicyTest, FirstAttemptAtMostBase) {
  RetryPolicy policy;
  std::mt19937_64 rng(7);
  for (int i = 0; i < 1000; ++i) {
    EXPECT_LE(BackoffDelayMs(policy, 1, rng), policy.base_delay_ms);
    EXPECT_LE(BackoffDelayMs(policy, 0, rng), policy.base_delay_ms);  // clamped to 1
  }
}

TEST(RetryPolicyTest, NeverExceedsMaxEvenForHugeAttempts) {
  RetryPolicy policy;
  policy.base_delay_ms = 1'000;
  policy.max_delay_ms = 30'000;
  std::mt19937_64 rng(99);
  for (int attempt : {20, 62, 63, 64, 100, 1000, std::numeric_limits<int>::max()}) {
    for (int i = 0; i < 200; ++i) {
      int64_t d = BackoffDelayMs(policy, attempt, rng);
      ASSERT_GE(d, 0);
      ASSERT_LE(d, policy.max_delay_ms) << attempt;
    }
  }
  RetryPolicy huge;
  huge.base_delay_ms = std::numeric_limits<int64_t>::max() / 2;
  huge.max_delay_ms = std::numeric_limits<int64_t>::max();
  for (int attempt = 1; attempt < 70; ++attempt) {
    ASSERT_GE(BackoffDelayMs(huge, attempt, rng), 0);
  }
}

TEST(RetryPolicyTest, ZeroDelaysGiveZero) {
  std::mt19937_64 rng(1);
  RetryPolicy zero_base;
  zero_base.base_delay_ms = 0;
  EXPECT_EQ(BackoffDelayMs(zero_base, 3, rng), 0);
  RetryPolicy zero_max;
  zero_max.max_delay_ms = 0;
  EXPECT_EQ(BackoffDelayMs(zero_max, 3, rng), 0);
}

}  // namespace
}  // namespace sqe::net
