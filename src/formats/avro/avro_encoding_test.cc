#include "formats/avro/avro_encoding.h"

#include <gtest/gtest.h>

#include <limits>

namespace sqe::avro {
namespace {

TEST(AvroEncoding, ZigZagVarintsMatchTheSpecTable) {
  // The specification's examples: 0->00, -1->01, 1->02, -2->03, 2->04, -64->7f, 64->80 01.
  const std::pair<int64_t, std::string> cases[] = {{0, std::string(1, '\0')},
                                                   {-1, "\x01"},
                                                   {1, "\x02"},
                                                   {-2, "\x03"},
                                                   {2, "\x04"},
                                                   {-64, "\x7f"},
                                                   {64, std::string("\x80\x01")}};
  for (const auto& [v, bytes] : cases) {
    std::string out;
    Encoder(&out).WriteLong(v);
    EXPECT_EQ(out, bytes) << v;
  }
}

TEST(AvroEncoding, RoundTripsExtremes) {
  std::string out;
  Encoder e(&out);
  const int64_t longs[] = {0,
                           1,
                           -1,
                           std::numeric_limits<int64_t>::max(),
                           std::numeric_limits<int64_t>::min(),
                           1234567890123LL};
  for (int64_t v : longs) e.WriteLong(v);
  e.WriteInt(std::numeric_limits<int32_t>::min());
  e.WriteFloat(1.5f);
  e.WriteDouble(-2.25);
  e.WriteBytes("hello");
  e.WriteBoolean(true);
  Decoder d(out);
  for (int64_t v : longs) {
    auto got = d.ReadLong();
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(*got, v);
  }
  EXPECT_EQ(*d.ReadInt(), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(*d.ReadFloat(), 1.5f);
  EXPECT_EQ(*d.ReadDouble(), -2.25);
  EXPECT_EQ(*d.ReadBytes(), "hello");
  EXPECT_TRUE(*d.ReadBoolean());
  EXPECT_TRUE(d.at_end());
}

TEST(AvroEncoding, DoubleIsLittleEndian) {
  std::string out;
  Encoder(&out).WriteDouble(1.0);
  EXPECT_EQ(out, std::string("\x00\x00\x00\x00\x00\x00\xf0\x3f", 8));
}

TEST(AvroEncoding, HostileInputIsCorruption) {
  std::string eleven(11, '\x80');
  Decoder d1(eleven, 100, "test");
  auto r1 = d1.ReadLong();
  ASSERT_FALSE(r1.ok());
  EXPECT_EQ(r1.status().code(), StatusCode::kCorruption);
  EXPECT_NE(r1.status().message().find("offset"), std::string::npos);

  std::string truncated("\x80", 1);
  EXPECT_FALSE(Decoder(truncated).ReadLong().ok());

  std::string big_int;
  Encoder(&big_int).WriteLong(int64_t{1} << 40);
  EXPECT_FALSE(Decoder(big_int).ReadInt().ok());

  std::string long_len;
  Encoder(&long_len).WriteLong(1000);
  long_len += "abc";
  auto r2 = Decoder(long_len).ReadBytes();
  ASSERT_FALSE(r2.ok());
  EXPECT_EQ(r2.status().code(), StatusCode::kCorruption);

  std::string neg_len;
  Encoder(&neg_len).WriteLong(-5);
  EXPECT_FALSE(Decoder(neg_len).ReadBytes().ok());
  EXPECT_FALSE(Decoder(std::string_view("\x02", 1)).ReadBoolean().ok());
  EXPECT_FALSE(Decoder(std::string_view("abc")).ReadDouble().ok());
}

}  // namespace
}  // namespace sqe::avro
