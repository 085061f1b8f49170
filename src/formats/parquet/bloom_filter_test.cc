#include "formats/parquet/bloom_filter.h"

#include <gtest/gtest.h>

namespace sqe::parquet {
namespace {

TEST(XxHash64, KnownVectors) {
  EXPECT_EQ(XxHash64(""), 0xEF46DB3751D8E999ULL);
  EXPECT_EQ(XxHash64("abc"), 0x44BC2CF5AD770999ULL);
}

TEST(XxHash64, EveryLengthPathIsStable) {
  std::string s;
  uint64_t prev = XxHash64(s);
  for (int i = 0; i < 100; ++i) {
    s.push_back(static_cast<char>('a' + i % 26));
    uint64_t h = XxHash64(s);
    EXPECT_NE(h, prev) << i;
    EXPECT_EQ(h, XxHash64(std::string_view(s)));
    prev = h;
  }
}

TEST(SplitBlockBloomFilter, NoFalseNegativesAndFewFalsePositives) {
  const int n = 10000;
  SplitBlockBloomFilter f(SplitBlockBloomFilter::OptimalNumBytes(n, 0.01));
  EXPECT_EQ(f.bitset().size() % 32, 0u);
  for (int64_t i = 0; i < n; ++i) {
    f.Insert(XxHash64(std::string_view(reinterpret_cast<const char*>(&i), 8)));
  }
  for (int64_t i = 0; i < n; ++i) {
    EXPECT_TRUE(f.MightContain(XxHash64(std::string_view(reinterpret_cast<const char*>(&i), 8))));
  }
  int false_positives = 0;
  for (int64_t i = n; i < 2 * n; ++i) {
    false_positives +=
        f.MightContain(XxHash64(std::string_view(reinterpret_cast<const char*>(&i), 8)));
  }
  EXPECT_LT(false_positives, n / 30);
}

TEST(SplitBlockBloomFilter, FromFileChecksHeader) {
  SplitBlockBloomFilter f(64);
  f.Insert(XxHash64("hello"));
  auto back = SplitBlockBloomFilter::FromFile(f.header(), f.bitset());
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(back->MightContain(XxHash64("hello")));
  BloomFilterHeader h = f.header();
  EXPECT_EQ(SplitBlockBloomFilter::FromFile(h, "short").status().code(), StatusCode::kCorruption);
  h.num_bytes = 33;
  EXPECT_EQ(SplitBlockBloomFilter::FromFile(h, std::string(33, '\0')).status().code(),
            StatusCode::kCorruption);
  h = f.header();
  h.hash = 0;
  EXPECT_EQ(SplitBlockBloomFilter::FromFile(h, f.bitset()).status().code(),
            StatusCode::kNotImplemented);
}

}  // namespace
}  // namespace sqe::parquet
