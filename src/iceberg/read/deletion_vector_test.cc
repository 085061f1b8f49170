// deletion-vector-v1 blobs: known bytes from pyroaring (BitMap64.serialize after
// run_optimize, wrapped in the spec's length / magic / CRC-32), and corrupt input.
#include "iceberg/read/deletion_vector.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <string>

namespace sqe::iceberg {
namespace {

std::string Hex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  }
  return out;
}

// pyroaring: BitMap64([0, 3, 70000, 70001, 70002, 1 << 33 | 5] + range(200000, 205000)):
// an array container, a run container (keys 0..3 of the low bitmap) and a second bitmap
// for the high key 2.
const char* kMixedBlob =
    "00000047d1d339640200000000000000000000003b30020004000001000100020003008713000003007011711"
    "172110100400d8713020000003a3000000100000000000000100000000500421045d1";

TEST(DeletionVector, DecodesPyroaringBytes) {
  auto got = DecodeDeletionVector(Hex(kMixedBlob), 1 << 20);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  std::vector<int64_t> want = {0, 3, 70000, 70001, 70002};
  for (int64_t v = 200000; v < 205000; ++v) want.push_back(v);
  want.push_back((int64_t{1} << 33) | 5);
  EXPECT_EQ(*got, want);
}

TEST(DeletionVector, DecodesABitmapContainer) {
  // pyroaring: BitMap64(range(0, 20000, 2)) -> one 8192-byte bitmap container.
  std::string blob =
      Hex("00002020d1d339640100000000000000000000003a3000000100000000000f2710000000");
  for (int i = 0; i < 8192; ++i) {
    // bits 0, 2, 4, ... below 20000
    blob.push_back(i < 2500 ? '\x55' : '\0');
  }
  uint32_t crc = static_cast<uint32_t>(
      crc32(0, reinterpret_cast<const Bytef*>(blob.data() + 4), blob.size() - 4));
  for (int s = 24; s >= 0; s -= 8) blob.push_back(static_cast<char>(crc >> s));
  ASSERT_EQ(crc32(0, reinterpret_cast<const Bytef*>(blob.data()), blob.size()),
            3377409678u);  // the whole blob as pyroaring + zlib produced it
  auto got = DecodeDeletionVector(blob, 1 << 20);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_EQ(got->size(), 10000u);
  EXPECT_EQ((*got)[9999], 19998);
}

TEST(DeletionVector, CorruptBlobsAreCorruption) {
  const std::string good = Hex(kMixedBlob);
  std::string flipped = good;
  flipped[30] ^= 1;
  EXPECT_EQ(DecodeDeletionVector(flipped, 1 << 20).status().code(), StatusCode::kCorruption);
  for (size_t n = 0; n < good.size(); ++n) {
    EXPECT_EQ(DecodeDeletionVector(good.substr(0, n), 1 << 20).status().code(),
              StatusCode::kCorruption);
  }
  // More positions than the data file has rows.
  EXPECT_EQ(DecodeDeletionVector(good, 100).status().code(), StatusCode::kCorruption);
  // Every single-byte change with a recomputed CRC: an error or a result, never a crash.
  for (size_t i = 8; i + 4 < good.size(); ++i) {
    std::string b = good;
    b[i] = static_cast<char>(b[i] ^ 0xFF);
    uint32_t crc =
        static_cast<uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(b.data() + 4), b.size() - 8));
    for (int k = 0; k < 4; ++k) b[b.size() - 4 + k] = static_cast<char>(crc >> (24 - 8 * k));
    (void)DecodeDeletionVector(b, 1 << 20);
  }
}

}  // namespace
}  // namespace sqe::iceberg
