#pragma once
/// Helpers shared by the snapshot-producing commits of src/iceberg/write (FastAppend,
/// CommitSnapshot): fresh snapshot ids, summary counters, and the retry backoff.

#include <cstdint>

#include "iceberg/snapshot.h"

namespace sqe::iceberg::write_internal {

/// A random positive snapshot id.
int64_t NewSnapshotId();

/// The integer summary property `key` of `s` (0 when `s` is null, the key absent or not a
/// number).
int64_t SummaryLong(const Snapshot* s, const char* key);

/// Sleeps before retry `attempt` (1-based): full jitter between `base_ms` and
/// min(1 s, base_ms * 2^attempt).
void BackoffBeforeRetry(int attempt, int64_t base_ms);

}  // namespace sqe::iceberg::write_internal
