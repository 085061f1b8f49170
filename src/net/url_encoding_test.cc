#include "net/url_encoding.h"

#include <gtest/gtest.h>

namespace sqe::net {
namespace {

TEST(UrlEncodingTest, KeepsWhatJavaKeepsAndEscapesTheRest) {
  EXPECT_EQ(FormUrlEncode("aZ09.-*_"), "aZ09.-*_");
  EXPECT_EQ(FormUrlEncode("a b"), "a+b");
  EXPECT_EQ(FormUrlEncode("x/y=z&~%+"), "x%2Fy%3Dz%26%7E%25%2B");
  EXPECT_EQ(FormUrlEncode("\xc3\xa9"), "%C3%A9");
  EXPECT_EQ(FormUrlEncode(std::string_view("\0", 1)), "%00");
  EXPECT_EQ(FormUrlEncode(""), "");
}

TEST(UrlEncodingTest, AppendsToExistingText) {
  std::string out = "id=";
  AppendFormUrlEncoded("1 2", &out);
  EXPECT_EQ(out, "id=1+2");
}

}  // namespace
}  // namespace sqe::net
