#include "iceberg/murmur3.h"

#include <bit>

namespace sqe::iceberg {

namespace {
constexpr uint32_t kC1 = 0xcc9e2d51;
constexpr uint32_t kC2 = 0x1b873593;

uint32_t MixBlock(uint32_t k) {
  k *= kC1;
  k = std::rotl(k, 15);
  return k * kC2;
}
}  // namespace

uint32_t Murmur3X86_32(std::string_view bytes, uint32_t seed) {
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  const size_t n = bytes.size();
  uint32_t h = seed;
  size_t i = 0;
  // Blocks are read as little-endian 32-bit words whatever the host order.
  for (; i + 4 <= n; i += 4) {
    uint32_t k = static_cast<uint32_t>(data[i]) | static_cast<uint32_t>(data[i + 1]) << 8 |
                 static_cast<uint32_t>(data[i + 2]) << 16 |
                 static_cast<uint32_t>(data[i + 3]) << 24;
    h ^= MixBlock(k);
    h = std::rotl(h, 13);
    h = h * 5 + 0xe6546b64;
  }
  uint32_t tail = 0;
  switch (n & 3) {
    case 3:
      tail ^= static_cast<uint32_t>(data[i + 2]) << 16;
      [[fallthrough]];
    case 2:
      tail ^= static_cast<uint32_t>(data[i + 1]) << 8;
      [[fallthrough]];
    case 1:
      tail ^= data[i];
      h ^= MixBlock(tail);
  }
  h ^= static_cast<uint32_t>(n);
  h ^= h >> 16;
  h *= 0x85ebca6b;
  h ^= h >> 13;
  h *= 0xc2b2ae35;
  h ^= h >> 16;
  return h;
}

}  // namespace sqe::iceberg
