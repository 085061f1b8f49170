// Upper bounds on the number of distinct values per column of an Iceberg table, from its
// data files' column metrics, for the optimizer's join estimates.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "common/result.h"
#include "iceberg/schema.h"
#include "iceberg/snapshot.h"
#include "iceberg/table_metadata.h"
#include "io/file_system.h"

namespace sqe::engine {

/// Manifests read at most to bound a table's columns; a larger snapshot is left unknown
/// (planning must stay cheap; the scan reads the manifests again with its filter).
inline constexpr size_t kDistinctBoundMaxManifests = 64;

/// Per top-level field of `schema` (in order): an upper bound on its distinct non-null values,
/// or -1 when unknown. Integer-like columns (int, long, date) with lower and upper bounds in
/// every live data file are bounded by max - min + 1 over all files; every column by the
/// table's row count. Reads the snapshot's manifests (at most kDistinctBoundMaxManifests).
Result<std::vector<int64_t>> DistinctValueBounds(const iceberg::TableMetadata& metadata,
                                                 const iceberg::Snapshot& snapshot,
                                                 const iceberg::Schema& schema, io::FileSystem& fs);

/// DistinctValueBounds remembered per (table location, snapshot id, schema id): a snapshot
/// never changes, so planning the same table again reads no manifests. Bounded (the oldest
/// half is dropped when full); thread-safe; one per engine.
class DistinctBoundsCache {
 public:
  explicit DistinctBoundsCache(size_t capacity = 1024) : capacity_(capacity) {}

  /// The cached bounds, or DistinctValueBounds' (cached when it succeeds).
  Result<std::vector<int64_t>> Get(const iceberg::TableMetadata& metadata,
                                   const iceberg::Snapshot& snapshot, const iceberg::Schema& schema,
                                   io::FileSystem& fs);

  size_t size() const;

 private:
  const size_t capacity_;
  mutable std::mutex mutex_;
  /// key -> (insertion number, bounds)
  std::map<std::string, std::pair<uint64_t, std::vector<int64_t>>> entries_;
  uint64_t inserted_ = 0;
};

}  // namespace sqe::engine
