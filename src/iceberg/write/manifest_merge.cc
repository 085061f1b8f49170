#include "iceberg/write/manifest_merge.h"

#include <map>

#include "common/uuid.h"
#include "iceberg/manifest/manifest_reader.h"
#include "iceberg/manifest/manifest_writer.h"
#include "iceberg/scan/file_manifest_source.h"

namespace sqe::iceberg {
namespace {

int64_t Property(const TableMetadata& m, const char* key, int64_t fallback) {
  auto it = m.properties.find(key);
  if (it == m.properties.end()) return fallback;
  try {
    return std::stoll(it->second);
  } catch (...) {
    return fallback;
  }
}

bool IsNew(const ManifestFile& m, int64_t snapshot_id) {
  return m.added_snapshot_id == snapshot_id;
}

Result<ManifestFile> MergeBin(io::FileSystem& fs, const TableMetadata& base, int64_t snapshot_id,
                              const std::vector<ManifestFile>& bin) {
  const ManifestFile& first = bin.front();
  const PartitionSpec* spec = base.SpecById(first.partition_spec_id);
  const Schema* schema = base.CurrentSchema();
  if (spec == nullptr || schema == nullptr) {
    return Status::Corruption("manifest " + first.manifest_path + " names partition spec " +
                              std::to_string(first.partition_spec_id) + ", which the table lacks");
  }
  ManifestWriterOptions o;
  o.format_version = base.format_version;
  o.spec = *spec;
  o.schema = *schema;
  o.snapshot_id = snapshot_id;
  o.content = first.content;
  const std::string path = base.location + "/metadata/" + RandomUuid() + "-merged.avro";
  SQE_ASSIGN_OR_RETURN(auto stream, fs.OpenForWrite(path, /*overwrite=*/false));
  std::shared_ptr<io::OutputStream> shared(std::move(stream));
  SQE_ASSIGN_OR_RETURN(auto writer, ManifestWriter::Open(shared, o));
  FileManifestSource source(fs);
  for (const ManifestFile& m : bin) {
    if (IsNew(m, snapshot_id)) {
      // This snapshot's own manifest: entries as written (sequence numbers still to inherit).
      SQE_ASSIGN_OR_RETURN(auto opened, fs.OpenForRead(m.manifest_path));
      SQE_ASSIGN_OR_RETURN(
          std::vector<ManifestEntry> entries,
          ReadManifestEntries(std::shared_ptr<io::RandomAccessFile>(std::move(opened)), *spec,
                              *schema));
      for (const ManifestEntry& e : entries) SQE_RETURN_NOT_OK(writer->Add(e));
      continue;
    }
    SQE_ASSIGN_OR_RETURN(std::vector<ManifestEntry> entries, source.ReadEntries(m, *spec, *schema));
    for (const ManifestEntry& e : entries) {
      if (e.status == ManifestStatus::kDeleted) continue;  // deleted by an older snapshot
      SQE_RETURN_NOT_OK(writer->AddExisting(e.data_file, e.snapshot_id.value_or(0),
                                            e.sequence_number.value_or(0), e.file_sequence_number));
    }
  }
  SQE_ASSIGN_OR_RETURN(ManifestFile merged, writer->Close());
  merged.manifest_path = path;
  merged.partition_spec_id = spec->spec_id();
  merged.added_snapshot_id = snapshot_id;
  return merged;
}

}  // namespace

Result<std::vector<ManifestFile>> MergeManifests(io::FileSystem& fs, const TableMetadata& base,
                                                 int64_t snapshot_id,
                                                 std::vector<ManifestFile> manifests,
                                                 std::vector<std::string>* written) {
  auto enabled = base.properties.find("commit.manifest-merge.enabled");
  if (enabled != base.properties.end() && enabled->second == "false") return manifests;
  const int64_t min_count =
      std::max<int64_t>(2, Property(base, "commit.manifest.min-count-to-merge", 100));
  const int64_t target =
      std::max<int64_t>(1, Property(base, "commit.manifest.target-size-bytes", 8 << 20));
  // Groups by (content, spec) in list order; bins within a group in order, first fit.
  std::map<std::pair<int, int32_t>, std::vector<std::vector<ManifestFile>>> bins;
  std::vector<std::pair<int, int32_t>> order;
  for (ManifestFile& m : manifests) {
    auto key = std::make_pair(static_cast<int>(m.content), m.partition_spec_id);
    auto& group = bins[key];
    if (group.empty()) order.push_back(key);
    int64_t size = 0;
    if (!group.empty()) {
      for (const ManifestFile& x : group.back()) size += x.manifest_length;
    }
    if (group.empty() || size + m.manifest_length > target) group.emplace_back();
    group.back().push_back(std::move(m));
  }
  std::vector<ManifestFile> out;
  for (const auto& key : order) {
    for (std::vector<ManifestFile>& bin : bins[key]) {
      bool holds_new = false;
      for (const ManifestFile& m : bin) holds_new = holds_new || IsNew(m, snapshot_id);
      if (bin.size() == 1 || (holds_new && static_cast<int64_t>(bin.size()) < min_count)) {
        for (ManifestFile& m : bin) out.push_back(std::move(m));
        continue;
      }
      SQE_ASSIGN_OR_RETURN(ManifestFile merged, MergeBin(fs, base, snapshot_id, bin));
      written->push_back(merged.manifest_path);
      out.push_back(std::move(merged));
    }
  }
  return out;
}

}  // namespace sqe::iceberg
