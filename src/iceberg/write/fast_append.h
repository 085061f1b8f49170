#pragma once
/// FastAppend: adds data files to a table as one new snapshot (operation "append"):
/// a manifest of the new files, a manifest list holding it plus the parent snapshot's
/// manifests, and a commit of add-snapshot + set main that asserts main has not moved.
/// When another writer commits first (Conflict) it refreshes, re-points the manifest
/// list at the new parent and tries again, up to `max_attempts` (the new manifest is
/// written once and reused), so concurrent appends all land, each once. Files of a
/// failed append are deleted; the data files stay the caller's.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/result.h"
#include "iceberg/manifest/data_file.h"
#include "iceberg/write/table_operations.h"

namespace sqe::iceberg {

struct AppendOptions {
  int max_attempts = 30;
  int64_t retry_base_delay_ms = 10;
  /// Extra snapshot summary properties.
  std::map<std::string, std::string> summary;
};

struct AppendResult {
  TableMetadata metadata;
  int64_t snapshot_id = 0;
  int attempts = 0;
};

Result<AppendResult> FastAppend(TableOperations& table, const std::vector<DataFile>& files,
                                const AppendOptions& options = {});

}  // namespace sqe::iceberg
