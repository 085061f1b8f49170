#include "formats/parquet/bloom_filter.h"

#include <bit>
#include <cmath>
#include <cstring>

namespace sqe::parquet {
namespace {

constexpr uint64_t kP1 = 11400714785074694791ULL;
constexpr uint64_t kP2 = 14029467366897019727ULL;
constexpr uint64_t kP3 = 1609587929392839161ULL;
constexpr uint64_t kP4 = 9650029242287828579ULL;
constexpr uint64_t kP5 = 2870177450012600261ULL;

uint64_t Read64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
uint32_t Read32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
uint64_t Round(uint64_t acc, uint64_t input) {
  acc += input * kP2;
  return std::rotl(acc, 31) * kP1;
}
uint64_t Merge(uint64_t acc, uint64_t v) {
  acc ^= Round(0, v);
  return acc * kP1 + kP4;
}

// The salts of BloomFilter.md: one per word of a block.
constexpr uint32_t kSalt[8] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                               0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};

int32_t RoundUpPowerOfTwo(int64_t n) {
  if (n <= SplitBlockBloomFilter::kMinBytes) return SplitBlockBloomFilter::kMinBytes;
  if (n >= SplitBlockBloomFilter::kMaxBytes) return SplitBlockBloomFilter::kMaxBytes;
  return static_cast<int32_t>(std::bit_ceil(static_cast<uint64_t>(n)));
}

}  // namespace

uint64_t XxHash64(std::string_view data, uint64_t seed) {
  const char* p = data.data();
  size_t len = data.size();
  const char* end = p + len;
  uint64_t h;
  if (len >= 32) {
    uint64_t v1 = seed + kP1 + kP2, v2 = seed + kP2, v3 = seed, v4 = seed - kP1;
    for (; end - p >= 32; p += 32) {
      v1 = Round(v1, Read64(p));
      v2 = Round(v2, Read64(p + 8));
      v3 = Round(v3, Read64(p + 16));
      v4 = Round(v4, Read64(p + 24));
    }
    h = std::rotl(v1, 1) + std::rotl(v2, 7) + std::rotl(v3, 12) + std::rotl(v4, 18);
    h = Merge(h, v1);
    h = Merge(h, v2);
    h = Merge(h, v3);
    h = Merge(h, v4);
  } else {
    h = seed + kP5;
  }
  h += len;
  for (; end - p >= 8; p += 8) {
    h ^= Round(0, Read64(p));
    h = std::rotl(h, 27) * kP1 + kP4;
  }
  if (end - p >= 4) {
    h ^= static_cast<uint64_t>(Read32(p)) * kP1;
    h = std::rotl(h, 23) * kP2 + kP3;
    p += 4;
  }
  for (; p < end; ++p) {
    h ^= static_cast<uint64_t>(static_cast<uint8_t>(*p)) * kP5;
    h = std::rotl(h, 11) * kP1;
  }
  h ^= h >> 33;
  h *= kP2;
  h ^= h >> 29;
  h *= kP3;
  h ^= h >> 32;
  return h;
}

SplitBlockBloomFilter::SplitBlockBloomFilter(int32_t num_bytes)
    : bitset_(static_cast<size_t>(RoundUpPowerOfTwo(num_bytes)), '\0') {}

Result<SplitBlockBloomFilter> SplitBlockBloomFilter::FromFile(const BloomFilterHeader& header,
                                                              std::string bitset) {
  if (header.algorithm != 1 || header.hash != 1 || header.compression != 1) {
    return Status::NotImplemented("parquet bloom filter: unknown algorithm, hash or compression");
  }
  if (header.num_bytes <= 0 || header.num_bytes % kBytesPerBlock != 0 ||
      header.num_bytes > kMaxBytes || bitset.size() != static_cast<size_t>(header.num_bytes)) {
    return Status::Corruption("parquet bloom filter: bitset of " + std::to_string(bitset.size()) +
                              " bytes does not match header size " +
                              std::to_string(header.num_bytes));
  }
  SplitBlockBloomFilter f;
  f.bitset_ = std::move(bitset);
  return f;
}

int32_t SplitBlockBloomFilter::OptimalNumBytes(int64_t ndv, double fpp) {
  if (ndv <= 0) return kMinBytes;
  if (fpp <= 0 || fpp >= 1) fpp = 0.01;
  // m = -8 * ndv / ln(1 - fpp^(1/8)) bits.
  double bits = -8.0 * static_cast<double>(ndv) / std::log(1.0 - std::pow(fpp, 1.0 / 8.0));
  double bytes = bits / 8.0;
  if (!(bytes < kMaxBytes)) return kMaxBytes;
  return RoundUpPowerOfTwo(static_cast<int64_t>(bytes));
}

void SplitBlockBloomFilter::Insert(uint64_t hash) {
  const uint64_t num_blocks = bitset_.size() / kBytesPerBlock;
  const uint64_t block = ((hash >> 32) * num_blocks) >> 32;
  const auto key = static_cast<uint32_t>(hash);
  char* words = bitset_.data() + block * kBytesPerBlock;
  for (int i = 0; i < 8; ++i) {
    uint32_t w;
    std::memcpy(&w, words + 4 * i, 4);
    w |= uint32_t{1} << ((key * kSalt[i]) >> 27);
    std::memcpy(words + 4 * i, &w, 4);
  }
}

bool SplitBlockBloomFilter::MightContain(uint64_t hash) const {
  const uint64_t num_blocks = bitset_.size() / kBytesPerBlock;
  const uint64_t block = ((hash >> 32) * num_blocks) >> 32;
  const auto key = static_cast<uint32_t>(hash);
  const char* words = bitset_.data() + block * kBytesPerBlock;
  for (int i = 0; i < 8; ++i) {
    uint32_t w;
    std::memcpy(&w, words + 4 * i, 4);
    if ((w & (uint32_t{1} << ((key * kSalt[i]) >> 27))) == 0) return false;
  }
  return true;
}

BloomFilterHeader SplitBlockBloomFilter::header() const {
  BloomFilterHeader h;
  h.num_bytes = static_cast<int32_t>(bitset_.size());
  return h;
}

}  // namespace sqe::parquet
