#pragma once
/// MergeManifests: Iceberg's manifest merging at commit time (table properties
/// commit.manifest-merge.enabled, default true; commit.manifest.min-count-to-merge, default
/// 100; commit.manifest.target-size-bytes, default 8 MiB). Manifests of one content and
/// partition spec are packed in list order into bins of the target size; a bin of more
/// than one manifest is rewritten as one, except the bin holding this snapshot's new
/// manifests while it has fewer than min-count-to-merge (so small tables do not rewrite
/// manifests on every commit). Merged entries keep their status for this snapshot's files
/// (ADDED, DELETED) and become EXISTING, with their own snapshot ids and sequence numbers,
/// for older ones; files deleted by older snapshots are dropped.

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"
#include "iceberg/manifest/data_file.h"
#include "iceberg/table_metadata.h"
#include "io/file_system.h"

namespace sqe::iceberg {

/// The manifest list after merging `manifests` (new ones first) of snapshot `snapshot_id`;
/// the paths of the manifests it wrote are appended to `written`.
Result<std::vector<ManifestFile>> MergeManifests(io::FileSystem& fs, const TableMetadata& base,
                                                 int64_t snapshot_id,
                                                 std::vector<ManifestFile> manifests,
                                                 std::vector<std::string>* written);

}  // namespace sqe::iceberg
