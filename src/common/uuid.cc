#include "common/uuid.h"

#include <openssl/rand.h>

#include <random>

#include "common/hex.h"

namespace sqe {

std::string RandomUuid() {
  unsigned char bytes[16];
  if (RAND_bytes(bytes, sizeof(bytes)) != 1) {
    // The OS generator failed (it practically never does): fall back to random_device.
    std::random_device device;
    for (unsigned char& b : bytes) b = static_cast<unsigned char>(device());
  }
  bytes[6] = static_cast<unsigned char>((bytes[6] & 0x0f) | 0x40);  // version 4
  bytes[8] = static_cast<unsigned char>((bytes[8] & 0x3f) | 0x80);  // RFC 4122 variant
  return UuidText(std::string_view(reinterpret_cast<const char*>(bytes), sizeof(bytes)));
}

}  // namespace sqe
