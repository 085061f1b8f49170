#include "server/flight_sql/handle_table.h"

#include <openssl/rand.h>

#include "common/hex.h"

namespace sqe::server::flight_sql {

Result<std::string> NewHandle() {
  unsigned char bytes[16];
  if (RAND_bytes(bytes, sizeof(bytes)) != 1) {
    return Status::Internal("the random number generator failed");
  }
  return HexLower(bytes, sizeof(bytes));
}

}  // namespace sqe::server::flight_sql
