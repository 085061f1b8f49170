// Upper bounds on the number of distinct values per column of an Iceberg table, from its
// data files' column metrics, for the optimizer's join estimates.
#pragma once

#include <cstdint>
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
                                                 const iceberg::Schema& schema,
                                                 io::FileSystem& fs);

}  // namespace sqe::engine
