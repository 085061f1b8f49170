#include "columnar/decimal128.h"

#include <gtest/gtest.h>

#include <cstring>

namespace sqe::columnar {
namespace {

TEST(Decimal128Test, ToStringWithScale) {
  EXPECT_EQ(Decimal128(1230).ToString(2), "12.30");
  EXPECT_EQ(Decimal128(-5).ToString(2), "-0.05");
  EXPECT_EQ(Decimal128(5).ToString(3), "0.005");
  EXPECT_EQ(Decimal128(0).ToString(2), "0.00");
  EXPECT_EQ(Decimal128(0).ToString(0), "0");
  EXPECT_EQ(Decimal128(-123).ToString(0), "-123");
  EXPECT_EQ(Decimal128(-100).ToString(2), "-1.00");
  EXPECT_EQ(Decimal128(7).ToString(-2), "700");
  EXPECT_EQ(Decimal128(INT64_MIN).ToString(0), "-9223372036854775808");
}

TEST(Decimal128Test, FullThirtyEightDigitRange) {
  auto max = Decimal128::FromString("99999999999999999999999999999999999999", 0);
  ASSERT_TRUE(max.ok());
  EXPECT_EQ(max->ToString(0), "99999999999999999999999999999999999999");
  EXPECT_EQ(max->ToString(10), "9999999999999999999999999999.9999999999");
  EXPECT_EQ(max->ToString(38), "0.99999999999999999999999999999999999999");
  EXPECT_TRUE(max->FitsInPrecision(38));
  EXPECT_FALSE(max->FitsInPrecision(37));
  auto min = Decimal128::FromString("-99999999999999999999999999999999999999", 0);
  ASSERT_TRUE(min.ok());
  EXPECT_EQ(min->ToString(2), "-999999999999999999999999999999999999.99");
  EXPECT_TRUE(min->IsNegative());
  EXPECT_EQ(Decimal128::PowerOfTen(38).ToString(0), "100000000000000000000000000000000000000");
  // The most negative 128-bit value (39 digits) still prints correctly.
  Decimal128 lowest(INT64_MIN, 0);
  EXPECT_EQ(lowest.ToString(0), "-170141183460469231731687303715884105728");
}

TEST(Decimal128Test, LittleEndianArrowLayout) {
  Decimal128 v(-2);
  uint8_t bytes[16];
  std::memcpy(bytes, &v, sizeof(v));
  EXPECT_EQ(bytes[0], 0xFE);
  for (int i = 1; i < 16; ++i) EXPECT_EQ(bytes[i], 0xFF) << i;
  Decimal128 one(1);
  std::memcpy(bytes, &one, sizeof(one));
  EXPECT_EQ(bytes[0], 1);
  for (int i = 1; i < 16; ++i) EXPECT_EQ(bytes[i], 0) << i;
  Decimal128 two_to_64(1, 0);
  std::memcpy(bytes, &two_to_64, sizeof(two_to_64));
  EXPECT_EQ(bytes[8], 1);
  EXPECT_EQ(two_to_64.ToString(0), "18446744073709551616");
}

TEST(Decimal128Test, FromStringPadsAndRejects) {
  EXPECT_EQ(*Decimal128::FromString("12.3", 2), Decimal128(1230));
  EXPECT_EQ(*Decimal128::FromString("-0.05", 2), Decimal128(-5));
  EXPECT_EQ(*Decimal128::FromString("+7", 1), Decimal128(70));
  EXPECT_EQ(*Decimal128::FromString(".5", 1), Decimal128(5));
  EXPECT_EQ(*Decimal128::FromString("000123", 0), Decimal128(123));
  EXPECT_EQ(Decimal128::FromString("1.234", 2).status().message(),
            "invalid decimal '1.234': more fractional digits than the scale");
  EXPECT_FALSE(Decimal128::FromString("", 0).ok());
  EXPECT_FALSE(Decimal128::FromString("-", 0).ok());
  EXPECT_FALSE(Decimal128::FromString("1e3", 0).ok());
  EXPECT_FALSE(Decimal128::FromString("1.2.3", 3).ok());
  EXPECT_FALSE(Decimal128::FromString("123456789012345678901234567890123456789", 0).ok());
  EXPECT_FALSE(Decimal128::FromString("1", 38).ok());  // 39 digits once scaled
  EXPECT_TRUE(Decimal128::FromString("0.1", 38).ok());
}

TEST(Decimal128Test, Ordering) {
  EXPECT_TRUE(Decimal128(-1) < Decimal128(0));
  EXPECT_TRUE(Decimal128(1) < Decimal128(1, 0));
  EXPECT_FALSE(Decimal128(3) < Decimal128(3));
}

}  // namespace
}  // namespace sqe::columnar
