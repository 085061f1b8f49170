#include "formats/parquet/compression.h"

#include <gtest/gtest.h>

#include <random>

namespace sqe::parquet {
namespace {

const CompressionCodec kCodecs[] = {CompressionCodec::kUncompressed, CompressionCodec::kSnappy,
                                    CompressionCodec::kGzip,         CompressionCodec::kZstd,
                                    CompressionCodec::kLz4Raw,       CompressionCodec::kLz4,
                                    CompressionCodec::kBrotli};

std::string SampleData(size_t n) {
  std::mt19937 rng(42);
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    s.push_back(i % 100 < 50 ? 'a' + (i % 7) : static_cast<char>(rng()));
  }
  return s;
}

class CodecTest : public ::testing::TestWithParam<CompressionCodec> {};

TEST_P(CodecTest, RoundTripsEmptySmallAndLarge) {
  for (size_t n : {size_t{0}, size_t{1}, size_t{100}, size_t{1} << 20}) {
    std::string data = SampleData(n);
    auto compressed = Compress(GetParam(), data);
    ASSERT_TRUE(compressed.ok()) << compressed.status().ToString();
    auto back = Decompress(GetParam(), *compressed, static_cast<int64_t>(n));
    ASSERT_TRUE(back.ok()) << back.status().ToString() << " n=" << n;
    EXPECT_EQ(*back, data);
  }
}

TEST_P(CodecTest, WrongDeclaredSizeIsCorruption) {
  std::string data = SampleData(10000);
  auto compressed = Compress(GetParam(), data);
  ASSERT_TRUE(compressed.ok());
  // Too small a declaration: the bomb case. Never writes past the declared size (ASan).
  auto small = Decompress(GetParam(), *compressed, 100);
  EXPECT_EQ(small.status().code(), StatusCode::kCorruption) << small.status().ToString();
  auto big = Decompress(GetParam(), *compressed, 20000);
  EXPECT_EQ(big.status().code(), StatusCode::kCorruption);
  EXPECT_EQ(Decompress(GetParam(), *compressed, -1).status().code(), StatusCode::kCorruption);
  EXPECT_EQ(Decompress(GetParam(), *compressed, int64_t{1} << 40).status().code(),
            StatusCode::kCorruption);
}

TEST_P(CodecTest, GarbageAndTruncatedInputAreCorruption) {
  if (GetParam() == CompressionCodec::kUncompressed) GTEST_SKIP();
  std::string data = SampleData(5000);
  auto compressed = Compress(GetParam(), data);
  ASSERT_TRUE(compressed.ok());
  for (size_t cut : {size_t{0}, size_t{1}, compressed->size() / 2, compressed->size() - 1}) {
    auto r = Decompress(GetParam(), compressed->substr(0, cut), 5000);
    EXPECT_EQ(r.status().code(), StatusCode::kCorruption) << cut;
  }
  std::mt19937 rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    std::string mutated = *compressed;
    for (int k = 0; k < 4; ++k)
      mutated[rng() % mutated.size()] ^= static_cast<char>(1 + rng() % 255);
    auto r = Decompress(GetParam(), mutated, 5000);
    if (r.ok()) {
      EXPECT_EQ(r->size(), 5000u);
    } else {
      EXPECT_EQ(r.status().code(), StatusCode::kCorruption);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllCodecs, CodecTest, ::testing::ValuesIn(kCodecs), [](const auto& info) {
  return std::string(CompressionCodecName(info.param));
});

TEST(Compression, ZeroFilledBombIsBoundedByDeclaredSize) {
  std::string zeros(64 << 20, '\0');
  for (CompressionCodec c : {CompressionCodec::kGzip, CompressionCodec::kZstd,
                             CompressionCodec::kBrotli, CompressionCodec::kSnappy}) {
    auto compressed = Compress(c, zeros);
    ASSERT_TRUE(compressed.ok());
    auto r = Decompress(c, *compressed, 4096);
    EXPECT_EQ(r.status().code(), StatusCode::kCorruption) << CompressionCodecName(c);
  }
}

TEST(Compression, Lz4FallsBackToRawBlocks) {
  std::string data = SampleData(3000);
  auto raw = Compress(CompressionCodec::kLz4Raw, data);
  ASSERT_TRUE(raw.ok());
  auto back = Decompress(CompressionCodec::kLz4, *raw, 3000);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, data);
}

TEST(Compression, Lz4HadoopMultipleFrames) {
  std::string a = SampleData(1000), b = SampleData(500);
  auto fa = Compress(CompressionCodec::kLz4, a);
  auto fb = Compress(CompressionCodec::kLz4, b);
  ASSERT_TRUE(fa.ok() && fb.ok());
  auto back = Decompress(CompressionCodec::kLz4, *fa + *fb, 1500);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, a + b);
}

TEST(Compression, LzoIsNotImplemented) {
  EXPECT_FALSE(IsCodecSupported(CompressionCodec::kLzo));
  EXPECT_EQ(Decompress(CompressionCodec::kLzo, "x", 1).status().code(),
            StatusCode::kNotImplemented);
}

}  // namespace
}  // namespace sqe::parquet
