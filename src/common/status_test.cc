#include "common/status.h"

#include <gtest/gtest.h>

#include "common/result.h"

namespace sqe {
namespace {

Result<int> ParsePositive(int v) {
  if (v <= 0) return Status::InvalidArgument("value must be > 0, got " + std::to_string(v));
  return v;
}

Result<int> Doubled(int v) {
  SQE_ASSIGN_OR_RETURN(int x, ParsePositive(v));
  return x * 2;
}

Status Check(int v) {
  SQE_RETURN_NOT_OK(ParsePositive(v).status());
  return Status::OK();
}

TEST(StatusTest, OkHasNoMessage) {
  Status st;
  EXPECT_TRUE(st.ok());
  EXPECT_EQ(st.code(), StatusCode::kOk);
  EXPECT_EQ(st.message(), "");
  EXPECT_EQ(st.ToString(), "OK");
}

TEST(StatusTest, EveryCodeHasAName) {
  const StatusCode codes[] = {StatusCode::kInvalidArgument, StatusCode::kNotFound,
                              StatusCode::kAlreadyExists,   StatusCode::kPermissionDenied,
                              StatusCode::kUnauthenticated, StatusCode::kResourceExhausted,
                              StatusCode::kConflict,        StatusCode::kCancelled,
                              StatusCode::kDeadlineExceeded, StatusCode::kIOError,
                              StatusCode::kCorruption,      StatusCode::kNotImplemented,
                              StatusCode::kInternal};
  for (StatusCode c : codes) {
    Status st(c, "boom");
    EXPECT_FALSE(st.ok());
    EXPECT_EQ(st.code(), c);
    EXPECT_NE(StatusCodeName(c), "Unknown");
    EXPECT_EQ(st.ToString(), std::string(StatusCodeName(c)) + ": boom");
  }
  EXPECT_EQ(Status::ResourceExhausted("x").ToString(), "ResourceExhausted: x");
}

TEST(StatusTest, WithContextPrefixesMessage) {
  Status st = Status::NotFound("table 't' not found").WithContext("catalog 'lake'");
  EXPECT_EQ(st.code(), StatusCode::kNotFound);
  EXPECT_EQ(st.message(), "catalog 'lake': table 't' not found");
  EXPECT_TRUE(Status::OK().WithContext("x").ok());
}

TEST(ResultTest, ValueAndErrorPropagate) {
  auto ok = Doubled(21);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, 42);
  auto bad = Doubled(-1);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(bad.status().message(), "value must be > 0, got -1");
  EXPECT_EQ(bad.ValueOr(7), 7);
  EXPECT_TRUE(Check(3).ok());
  EXPECT_FALSE(Check(0).ok());
}

TEST(ResultTest, OkStatusIsNotAValue) {
  Result<int> r{Status::OK()};
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInternal);
}

}  // namespace
}  // namespace sqe
