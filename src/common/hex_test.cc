#include "common/hex.h"

#include <gtest/gtest.h>

#include <string>

namespace sqe {
namespace {

const std::string kBytes("\x00\x01\x7f\x80\xab\xff", 6);

TEST(HexTest, EncodesInEitherCase) {
  EXPECT_EQ(HexLower(kBytes), "00017f80abff");
  EXPECT_EQ(HexUpper(kBytes), "00017F80ABFF");
  EXPECT_EQ(HexLower(std::string_view()), "");
  const unsigned char digest[] = {0xde, 0xad, 0xbe, 0xef};
  EXPECT_EQ(HexLower(digest, sizeof(digest)), "deadbeef");
}

TEST(HexTest, AppendsToExistingText) {
  std::string out = "X'";
  AppendHexUpper("\x0f\xf0", &out);
  out += "' ";
  AppendHexLower("\x0f\xf0", &out);
  EXPECT_EQ(out, "X'0FF0' 0ff0");
  std::string escape = "%";
  AppendHexByte(0x2f, true, &escape);
  AppendHexByte(0x2f, false, &escape);
  EXPECT_EQ(escape, "%2F2f");
}

TEST(HexTest, SixtyFourBitValuesArePaddedToSixteenDigits) {
  EXPECT_EQ(HexLower64(0), "0000000000000000");
  EXPECT_EQ(HexLower64(255), "00000000000000ff");
  EXPECT_EQ(HexLower64(~uint64_t{0}), "ffffffffffffffff");
  EXPECT_EQ(HexLower64(0x0123456789abcdefULL), "0123456789abcdef");
}

TEST(HexTest, UuidTextPutsDashesAfterBytesFourSixEightAndTen) {
  const std::string bytes("\x12\x3e\x45\x67\xe8\x9b\x12\xd3\xa4\x56\x42\x66\x14\x17\x40\x00", 16);
  EXPECT_EQ(UuidText(bytes), "123e4567-e89b-12d3-a456-426614174000");
  std::string out = "\"";
  AppendUuidText(bytes, &out);
  EXPECT_EQ(out, "\"123e4567-e89b-12d3-a456-426614174000");
}

TEST(HexTest, DigitValues) {
  EXPECT_EQ(HexDigitValue('0'), 0);
  EXPECT_EQ(HexDigitValue('9'), 9);
  EXPECT_EQ(HexDigitValue('a'), 10);
  EXPECT_EQ(HexDigitValue('F'), 15);
  EXPECT_EQ(HexDigitValue('g'), -1);
  EXPECT_EQ(HexDigitValue('/'), -1);
  EXPECT_EQ(HexDigitValue('\0'), -1);
}

TEST(HexTest, DecodeRoundTripsAndRejectsBadText) {
  EXPECT_EQ(HexDecode("00017f80ABff"), kBytes);
  EXPECT_EQ(HexDecode(HexUpper(kBytes)), kBytes);
  EXPECT_EQ(HexDecode(""), std::string());
  EXPECT_EQ(HexDecode("abc"), std::nullopt);
  EXPECT_EQ(HexDecode("zz"), std::nullopt);
  EXPECT_EQ(HexDecode("0 "), std::nullopt);
}

}  // namespace
}  // namespace sqe
