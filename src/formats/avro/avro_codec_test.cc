#include "formats/avro/avro_codec.h"

#include <gtest/gtest.h>

#include <zlib.h>

namespace sqe::avro {
namespace {

std::string Sample() {
  std::string s;
  for (int i = 0; i < 5000; ++i) s += "manifest entry " + std::to_string(i % 97) + ";";
  return s;
}

TEST(AvroCodec, Names) {
  EXPECT_EQ(*CodecFromName("null"), Codec::kNull);
  EXPECT_EQ(*CodecFromName("deflate"), Codec::kDeflate);
  EXPECT_EQ(*CodecFromName("snappy"), Codec::kSnappy);
  EXPECT_EQ(*CodecFromName("zstandard"), Codec::kZstandard);
  EXPECT_FALSE(CodecFromName("lzo").ok());
  EXPECT_EQ(CodecName(Codec::kZstandard), "zstandard");
}

TEST(AvroCodec, RoundTripEveryCodec) {
  const std::string input = Sample();
  for (Codec c : {Codec::kNull, Codec::kDeflate, Codec::kSnappy, Codec::kZstandard}) {
    std::string compressed, back;
    ASSERT_TRUE(Compress(c, input, &compressed).ok());
    ASSERT_TRUE(Decompress(c, compressed, &back, 1 << 30).ok()) << CodecName(c);
    EXPECT_EQ(back, input) << CodecName(c);
    // Empty input too.
    ASSERT_TRUE(Compress(c, "", &compressed).ok());
    ASSERT_TRUE(Decompress(c, compressed, &back, 1 << 30).ok()) << CodecName(c);
    EXPECT_EQ(back, "");
  }
}

TEST(AvroCodec, DeflateIsRawWithoutZlibHeader) {
  std::string compressed;
  ASSERT_TRUE(Compress(Codec::kDeflate, "aaaaaaaaaa", &compressed).ok());
  // A zlib stream would start with 0x78; raw deflate with a final fixed-Huffman block.
  EXPECT_NE(static_cast<uint8_t>(compressed[0]), 0x78);
  z_stream zs{};
  ASSERT_EQ(inflateInit2(&zs, -15), Z_OK);
  char out[32];
  zs.next_in = reinterpret_cast<Bytef*>(compressed.data());
  zs.avail_in = static_cast<uInt>(compressed.size());
  zs.next_out = reinterpret_cast<Bytef*>(out);
  zs.avail_out = sizeof(out);
  EXPECT_EQ(inflate(&zs, Z_FINISH), Z_STREAM_END);
  EXPECT_EQ(std::string(out, zs.total_out), "aaaaaaaaaa");
  inflateEnd(&zs);
}

TEST(AvroCodec, SnappyCarriesBigEndianCrc) {
  std::string compressed;
  ASSERT_TRUE(Compress(Codec::kSnappy, "hello", &compressed).ok());
  uLong crc = crc32(0, reinterpret_cast<const Bytef*>("hello"), 5);
  const auto* tail = reinterpret_cast<const uint8_t*>(compressed.data() + compressed.size() - 4);
  EXPECT_EQ(
      (uint32_t{tail[0]} << 24) | (uint32_t{tail[1]} << 16) | (uint32_t{tail[2]} << 8) | tail[3],
      static_cast<uint32_t>(crc));
  compressed.back() ^= 1;
  std::string back;
  Status st = Decompress(Codec::kSnappy, compressed, &back, 1 << 20);
  EXPECT_EQ(st.code(), StatusCode::kCorruption);
  EXPECT_NE(st.message().find("CRC"), std::string::npos);
}

TEST(AvroCodec, BombsAndGarbageAreBounded) {
  const std::string zeros(1 << 20, '\0');
  for (Codec c : {Codec::kDeflate, Codec::kSnappy, Codec::kZstandard}) {
    std::string compressed, back;
    ASSERT_TRUE(Compress(c, zeros, &compressed).ok());
    Status st = Decompress(c, compressed, &back, 1000);
    EXPECT_EQ(st.code(), StatusCode::kCorruption) << CodecName(c);
    EXPECT_LE(back.size(), 1000u);
    // Truncated streams.
    st = Decompress(c, compressed.substr(0, compressed.size() / 2), &back, 1 << 21);
    EXPECT_FALSE(st.ok()) << CodecName(c);
    st = Decompress(c, "garbage!garbage!", &back, 1 << 21);
    EXPECT_FALSE(st.ok()) << CodecName(c);
  }
}

}  // namespace
}  // namespace sqe::avro
