#pragma once
/// Random (version 4) UUIDs, as Iceberg uses for table uuids and metadata file names,
/// from the operating system's random generator (RAND_bytes).

#include <string>

namespace sqe {

/// "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx", lowercase hex.
std::string RandomUuid();

}  // namespace sqe
