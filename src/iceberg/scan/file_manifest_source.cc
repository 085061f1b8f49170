#include "iceberg/scan/file_manifest_source.h"

#include "iceberg/manifest/manifest_reader.h"

namespace sqe::iceberg {

// A v1 snapshot may list manifest paths instead of a manifest list: each manifest's own
// header gives its spec and content; there are no partition summaries to prune with and
// the sequence numbers are v1's 0.
Result<std::vector<ManifestFile>> FileManifestSource::InlineManifests(const Snapshot& snapshot) {
  std::vector<ManifestFile> out;
  out.reserve(snapshot.manifests.size());
  for (const std::string& path : snapshot.manifests) {
    SQE_ASSIGN_OR_RETURN(auto opened, fs_.OpenForRead(path));
    std::shared_ptr<io::RandomAccessFile> file(std::move(opened));
    SQE_ASSIGN_OR_RETURN(int64_t size, file->Size());
    Result<ManifestMetadata> header = ReadManifestMetadata(file);
    if (!header.ok()) {
      return Status(header.status().code(), "manifest " + path + " of snapshot " +
                                                std::to_string(snapshot.snapshot_id) + ": " +
                                                header.status().message());
    }
    ManifestFile m;
    m.manifest_path = path;
    m.manifest_length = size;
    m.partition_spec_id = header->spec ? header->spec->spec_id() : 0;
    m.content = header->content;
    m.sequence_number = 0;
    m.min_sequence_number = 0;
    m.added_snapshot_id = snapshot.snapshot_id;
    out.push_back(std::move(m));
  }
  return out;
}

Result<std::vector<ManifestFile>> FileManifestSource::ReadManifestList(const Snapshot& snapshot) {
  if (snapshot.manifest_list.empty()) return InlineManifests(snapshot);
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
