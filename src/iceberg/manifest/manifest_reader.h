#pragma once
/// Reads Iceberg manifest lists and manifests of format v1, v2 and v3 (also as Java and
/// PyIceberg write them: record names such as r2/r102 and older field names do not
/// matter, fields are matched by field id against the read schemas of
/// manifest_schema.h). v1 files lack content and sequence numbers: they read as data
/// with sequence number 0.
///
/// ReadManifest applies the spec's inheritance: a null snapshot id takes the manifest's
/// added_snapshot_id; a null data or file sequence number takes the manifest's sequence
/// number when the entry is ADDED (or the manifest is a v1 one, sequence number 0); in v3
/// data manifests, live data files without first_row_id get consecutive row ids from the
/// manifest's first_row_id.
///
/// Malformed files (bad Avro, missing required fields, out-of-range enums, partition
/// values that do not fit the spec) are Corruption naming the file. Stateless functions,
/// thread-safe for distinct files.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "iceberg/manifest/data_file.h"
#include "iceberg/partition_spec.h"
#include "iceberg/schema.h"
#include "io/file.h"

namespace sqe::iceberg {

/// Every manifest of a manifest list.
Result<std::vector<ManifestFile>> ReadManifestList(std::shared_ptr<io::RandomAccessFile> file);

/// The entries of a manifest written with `spec` over `schema`, inheritance applied
/// from `manifest` (its list entry).
Result<std::vector<ManifestEntry>> ReadManifest(std::shared_ptr<io::RandomAccessFile> file,
                                                const ManifestFile& manifest,
                                                const PartitionSpec& spec, const Schema& schema);

/// The entries exactly as stored (nulls kept).
Result<std::vector<ManifestEntry>> ReadManifestEntries(std::shared_ptr<io::RandomAccessFile> file,
                                                       const PartitionSpec& spec,
                                                       const Schema& schema);

/// Fills the inherited fields of `entries` from their manifest (see above).
void InheritManifestMetadata(const ManifestFile& manifest, std::vector<ManifestEntry>* entries);

/// What a manifest's header says about it (the metadata keys of spec "Manifests").
struct ManifestMetadata {
  /// "format-version"; 1 when absent.
  int format_version = 1;
  ManifestContent content = ManifestContent::kData;
  std::optional<Schema> schema;
  std::optional<PartitionSpec> spec;
};

/// Parses the header metadata. Corruption when a present key cannot be parsed.
Result<ManifestMetadata> ReadManifestMetadata(std::shared_ptr<io::RandomAccessFile> file);

}  // namespace sqe::iceberg
