#pragma once
/// The ManifestSource of a table on a FileSystem: manifest lists and manifests read with
/// the Avro readers (manifest/manifest_reader.h) from the table's storage. v1 snapshots
/// that list their manifests inline (no manifest list) are read too.

#include "iceberg/scan/scan_planner.h"
#include "io/file_system.h"

namespace sqe::iceberg {

class FileManifestSource final : public ManifestSource {
 public:
  explicit FileManifestSource(io::FileSystem& fs) : fs_(fs) {}
  Result<std::vector<ManifestFile>> ReadManifestList(const Snapshot& snapshot) override;
  Result<std::vector<ManifestEntry>> ReadEntries(const ManifestFile& manifest,
                                                 const PartitionSpec& spec,
                                                 const Schema& schema) override;

 private:
  Result<std::vector<ManifestFile>> InlineManifests(const Snapshot& snapshot);
  io::FileSystem& fs_;
};

}  // namespace sqe::iceberg
