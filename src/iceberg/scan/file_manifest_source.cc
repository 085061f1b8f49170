#include "iceberg/scan/file_manifest_source.h"

#include "iceberg/manifest/manifest_reader.h"

namespace sqe::iceberg {

Result<std::vector<ManifestFile>> FileManifestSource::ReadManifestList(const Snapshot& snapshot) {
  if (snapshot.manifest_list.empty()) {
    return Status::NotImplemented("snapshot " + std::to_string(snapshot.snapshot_id) +
                                  " lists its manifests inline (format v1 without a manifest "
                                  "list), which SQE does not read yet");
  }
  SQE_ASSIGN_OR_RETURN(auto file, fs_.OpenForRead(snapshot.manifest_list));
  return iceberg::ReadManifestList(std::shared_ptr<io::RandomAccessFile>(std::move(file)));
}

Result<std::vector<ManifestEntry>> FileManifestSource::ReadEntries(const ManifestFile& manifest,
                                                                   const PartitionSpec& spec,
                                                                   const Schema& schema) {
  Result<std::unique_ptr<io::RandomAccessFile>> file =
      manifest.manifest_length > 0
          ? fs_.OpenForReadWithSize(manifest.manifest_path, manifest.manifest_length)
          : fs_.OpenForRead(manifest.manifest_path);
  SQE_RETURN_NOT_OK(file.status());
  return ReadManifest(std::shared_ptr<io::RandomAccessFile>(std::move(*file)), manifest, spec,
                      schema);
}

}  // namespace sqe::iceberg
