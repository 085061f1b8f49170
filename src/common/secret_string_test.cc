#include "common/secret_string.h"

#include <gtest/gtest.h>

#include <sstream>

#include "common/logging.h"

namespace sqe {
namespace {

TEST(SecretStringTest, NeverPrintsTheValue) {
  SecretString s("hunter2-very-secret");
  std::ostringstream os;
  os << s;
  EXPECT_EQ(os.str(), "***");
  EXPECT_EQ(s.ToString(), "***");
  EXPECT_EQ(s.Expose(), "hunter2-very-secret");
  EXPECT_EQ(SecretString().ToString(), "");
  EXPECT_EQ(log::FormatLine("e", {{"secret", s}}), "event=e secret=***");
}

TEST(SecretStringTest, CopyMoveAndCompare) {
  SecretString a("abc-123");
  SecretString b = a;
  EXPECT_EQ(a, b);
  SecretString c = std::move(a);
  EXPECT_EQ(c.Expose(), "abc-123");
  EXPECT_TRUE(a.empty());  // NOLINT: moved-from is defined as empty
  b = SecretString("other");
  EXPECT_FALSE(b == c);
}

TEST(SecretStringTest, SecureZeroClearsBytes) {
  char buf[16];
  for (char& ch : buf) ch = 'x';
  SecureZero(buf, sizeof(buf));
  for (char ch : buf) EXPECT_EQ(ch, 0);
}

}  // namespace
}  // namespace sqe
