#include "common/byte_size.h"

#include <gtest/gtest.h>

namespace sqe {
namespace {

TEST(ByteSizeTest, ParsesUnitsAs1024Based) {
  EXPECT_EQ(*ParseByteSize("0"), 0u);
  EXPECT_EQ(*ParseByteSize("1024"), 1024u);
  EXPECT_EQ(*ParseByteSize("17B"), 17u);
  EXPECT_EQ(*ParseByteSize("1KB"), 1024u);
  EXPECT_EQ(*ParseByteSize("256MB"), 256ull * 1024 * 1024);
  EXPECT_EQ(*ParseByteSize("8GB"), 8ull * 1024 * 1024 * 1024);
  EXPECT_EQ(*ParseByteSize("2TB"), 2ull * 1024 * 1024 * 1024 * 1024);
  EXPECT_EQ(*ParseByteSize("512 kb"), 512ull * 1024);
  EXPECT_EQ(*ParseByteSize(" 32MiB "), 32ull * 1024 * 1024);
  EXPECT_EQ(*ParseByteSize("1gb"), 1024ull * 1024 * 1024);
}

TEST(ByteSizeTest, RejectsBadInputWithTheText) {
  for (const char* bad : {"", "MB", "-1MB", "12XB", "1.5GB", "abc", "99999999999999999999",
                          "20000000TB"}) {
    auto r = ParseByteSize(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(r.status().message().find(std::string("'") + bad + "'"), std::string::npos)
        << r.status().message();
  }
}

TEST(ByteSizeTest, FormatRoundTrips) {
  EXPECT_EQ(FormatByteSize(0), "0");
  EXPECT_EQ(FormatByteSize(256ull << 20), "256MB");
  EXPECT_EQ(FormatByteSize(8ull << 30), "8GB");
  EXPECT_EQ(FormatByteSize(1536), "1536B");
  EXPECT_EQ(FormatByteSize(2048), "2KB");
  for (uint64_t v : {1ull, 1023ull, 1ull << 40, 3ull << 41, 123456789ull}) {
    EXPECT_EQ(*ParseByteSize(FormatByteSize(v)), v);
  }
}

}  // namespace
}  // namespace sqe
