#include "server/flight_sql/handle_table.h"

#include <openssl/rand.h>

namespace sqe::server::flight_sql {

Result<std::string> NewHandle() {
  unsigned char bytes[16];
  if (RAND_bytes(bytes, sizeof(bytes)) != 1) {
    return Status::Internal("the random number generator failed");
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char b : bytes) {
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  return out;
}

}  // namespace sqe::server::flight_sql
