// S3Client's free helpers: the HTTP date of Last-Modified headers.

#include <gtest/gtest.h>

#include "io/s3/s3_client.h"

namespace sqe::io::s3 {
namespace {

TEST(HttpDateTest, ParsesImfFixdate) {
  auto t = ParseHttpDate("Sun, 06 Nov 1994 08:49:37 GMT");
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(*t, int64_t{784111777} * 1000000);
  t = ParseHttpDate("Thu, 01 Jan 1970 00:00:00 GMT");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(*t, 0);
  t = ParseHttpDate("Tue, 29 Feb 2028 23:59:59 GMT");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(*t, int64_t{1835481599} * 1000000);
}

TEST(HttpDateTest, RejectsOtherForms) {
  for (const char* text : {"", "2024-01-01T00:00:00Z", "Sun, 06 Nov 1994 08:49:37 UTC",
                           "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:49:37 GMT",
                           "Sun, 06 Nov 1994 08:49:37 GMT trailing", "Sunday 06 Nov 1994"}) {
    auto t = ParseHttpDate(text);
    EXPECT_FALSE(t.ok()) << text;
    if (!t.ok()) EXPECT_EQ(t.status().code(), StatusCode::kInvalidArgument) << text;
  }
}

}  // namespace
}  // namespace sqe::io::s3
