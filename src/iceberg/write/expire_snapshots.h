#pragma once
/// ExpireSnapshots: removes old snapshots from a table's metadata and then deletes the
/// files only they reached (manifest lists, manifests, data and delete files, statistics
/// files). Kept always: every snapshot a branch or tag points at, and the most recent
/// `retain_last` snapshots of main's history (history.expire.min-snapshots-to-keep,
/// default 1). Expired: snapshots older than `older_than_ms`
/// (default now - history.expire.max-snapshot-age-ms, Iceberg's 5 days) and those named
/// in `snapshot_ids` (naming a kept one is InvalidArgument).
///
/// The metadata commit asserts main has not moved and is retried on Conflict with the
/// choice recomputed. Files are deleted only after the commit, and only when no retained
/// snapshot reads them; a failed commit deletes nothing. Deletion errors are counted,
/// not fatal (an orphan file loses nothing).

#include <cstdint>
#include <optional>
#include <vector>

#include "common/result.h"
#include "iceberg/write/table_operations.h"

namespace sqe::iceberg {

struct ExpireSnapshotsOptions {
  std::optional<int64_t> older_than_ms;
  std::optional<int> retain_last;
  std::vector<int64_t> snapshot_ids;
  /// Only report what would go (no commit, no deletion).
  bool dry_run = false;
};

struct ExpireSnapshotsResult {
  TableMetadata metadata;
  std::vector<int64_t> expired_snapshot_ids;
  int64_t deleted_manifest_lists = 0;
  int64_t deleted_manifests = 0;
  int64_t deleted_data_files = 0;
  int64_t deleted_delete_files = 0;
  int64_t deleted_statistics_files = 0;
  int64_t failed_deletes = 0;
};

Result<ExpireSnapshotsResult> ExpireSnapshots(TableOperations& table,
                                              const ExpireSnapshotsOptions& options);

}  // namespace sqe::iceberg
