#include "formats/parquet/value_conversion.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace sqe::parquet {
namespace {

using columnar::Decimal128;

TEST(ValueConversion, DecimalBigEndianRoundTrips) {
  for (int64_t v : {int64_t{0}, int64_t{1}, int64_t{-1}, int64_t{127}, int64_t{-128},
                    int64_t{123456789012345}, std::numeric_limits<int64_t>::min()}) {
    for (int width : {8, 9, 11, 16}) {
      uint8_t buf[16];
      ASSERT_TRUE(DecimalToBigEndian(Decimal128(v), width, buf).ok()) << v << " " << width;
      auto back = DecimalFromBigEndian(std::string_view(reinterpret_cast<char*>(buf), width));
      ASSERT_TRUE(back.ok());
      EXPECT_EQ(*back, Decimal128(v)) << v << " " << width;
    }
  }
  auto big = DecimalFromBigEndian(std::string("\x01\x00\x00\x00\x00\x00\x00\x00\x00", 9));
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(*big, Decimal128(1, 0));
  // Sign-extended 17 bytes are fine; real overflow is not.
  EXPECT_TRUE(DecimalFromBigEndian(std::string(17, '\xff')).ok());
  EXPECT_EQ(DecimalFromBigEndian(std::string("\x01") + std::string(16, '\0')).status().code(),
            StatusCode::kCorruption);
  EXPECT_FALSE(DecimalFromBigEndian("").ok());
  uint8_t small[1];
  EXPECT_EQ(DecimalToBigEndian(Decimal128(128), 1, small).code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(DecimalToBigEndian(Decimal128(-128), 1, small).ok());
  EXPECT_EQ(small[0], 0x80);
}

TEST(ValueConversion, Float16) {
  EXPECT_EQ(Float16ToFloat32(0x3c00), 1.0f);
  EXPECT_EQ(Float16ToFloat32(0xc000), -2.0f);
  EXPECT_EQ(Float16ToFloat32(0x7bff), 65504.0f);
  EXPECT_EQ(Float16ToFloat32(0x0001), std::ldexp(1.0f, -24));  // smallest subnormal
  EXPECT_EQ(Float16ToFloat32(0x03ff), std::ldexp(1023.0f, -24));
  EXPECT_TRUE(std::isinf(Float16ToFloat32(0x7c00)));
  EXPECT_TRUE(std::isnan(Float16ToFloat32(0x7e00)));
  EXPECT_TRUE(std::signbit(Float16ToFloat32(0x8000)));
}

TEST(ValueConversion, MillisToMicros) {
  int64_t v[3] = {1, -2, 0};
  ASSERT_TRUE(MillisToMicros(v, 3).ok());
  EXPECT_EQ(v[0], 1000);
  EXPECT_EQ(v[1], -2000);
  int64_t big = std::numeric_limits<int64_t>::max() / 10;
  EXPECT_EQ(MillisToMicros(&big, 1).code(), StatusCode::kCorruption);
}

}  // namespace
}  // namespace sqe::parquet
