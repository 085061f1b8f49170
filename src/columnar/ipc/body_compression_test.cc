#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "columnar/ipc/body_compression_internal.h"
#include "columnar/test_columns.h"

namespace sqe::columnar::ipc {
namespace {

class BodyCompressionTest : public ::testing::TestWithParam<Compression> {};

TEST_P(BodyCompressionTest, RoundTripsCompressibleAndIncompressibleData) {
  std::string repetitive(10000, 'a');
  std::string tiny = "xy";
  for (const std::string& data : {repetitive, tiny}) {
    std::string encoded;
    SQE_ASSERT_OK(CompressBuffer(GetParam(), 1, data, &encoded));
    int64_t prefix = 0;
    std::memcpy(&prefix, encoded.data(), 8);
    EXPECT_EQ(prefix, data.size() == 2 ? -1 : static_cast<int64_t>(data.size()));
    SQE_ASSIGN_OR_FAIL(auto decoded, DecompressBuffer(GetParam(), encoded, 1 << 20, nullptr));
    EXPECT_EQ(decoded->view(), data);
  }
}

TEST_P(BodyCompressionTest, RejectsLiesAndLimits) {
  std::string data(4096, 'b');
  std::string encoded;
  SQE_ASSERT_OK(CompressBuffer(GetParam(), 1, data, &encoded));
  // Over the caller's limit.
  EXPECT_EQ(DecompressBuffer(GetParam(), encoded, 100, nullptr).status().code(),
            StatusCode::kCorruption);
  // A prefix claiming a huge size is refused before allocating it.
  std::string lying = encoded;
  const int64_t huge = int64_t{1} << 40;
  std::memcpy(lying.data(), &huge, 8);
  EXPECT_EQ(DecompressBuffer(GetParam(), lying, int64_t{1} << 50, nullptr).status().code(),
            StatusCode::kCorruption);
  // Short prefix and damaged frames.
  EXPECT_EQ(DecompressBuffer(GetParam(), "abc", 100, nullptr).status().code(),
            StatusCode::kCorruption);
  std::string damaged = encoded;
  for (size_t i = 12; i < damaged.size(); ++i) damaged[i] = static_cast<char>(damaged[i] ^ 0x33);
  EXPECT_FALSE(DecompressBuffer(GetParam(), damaged, 1 << 20, nullptr).ok());
}

INSTANTIATE_TEST_SUITE_P(Codecs, BodyCompressionTest,
                         ::testing::Values(Compression::kLz4Frame, Compression::kZstd));

TEST(CompressionNameTest, ParsesAndNames) {
  SQE_ASSIGN_OR_FAIL(auto zstd, ParseCompression("zstd"));
  EXPECT_EQ(zstd, Compression::kZstd);
  EXPECT_EQ(CompressionName(Compression::kLz4Frame), "lz4");
  EXPECT_EQ(ParseCompression("gzip").status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace sqe::columnar::ipc
