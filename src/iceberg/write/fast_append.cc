#include "iceberg/write/fast_append.h"
#include "common/clock.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <memory>
#include <random>
#include <thread>

#include "common/uuid.h"
#include "iceberg/manifest/manifest_reader.h"
#include "iceberg/manifest/manifest_writer.h"
#include "iceberg/scan/file_manifest_source.h"
#include "iceberg/write/commit_support.h"
#include "iceberg/write/manifest_merge.h"

namespace sqe::iceberg {

TableOperations::~TableOperations() = default;

using write_internal::NewSnapshotId;
using write_internal::SummaryLong;

Result<AppendResult> FastAppend(TableOperations& table, const std::vector<DataFile>& files,
                                const AppendOptions& options) {
  io::FileSystem& fs = table.file_system();
  SQE_ASSIGN_OR_RETURN(TableMetadata base, table.Refresh());
  if (base.CurrentSchema() == nullptr || base.DefaultSpec() == nullptr) {
    return Status::Corruption("table metadata lacks its current schema or default spec");
  }
  // Copies: `base` is replaced on every retry.
  const std::shared_ptr<const Schema> schema =
      std::make_shared<const Schema>(*base.CurrentSchema());
  const std::shared_ptr<const PartitionSpec> spec =
      std::make_shared<const PartitionSpec>(*base.DefaultSpec());
  const int64_t snapshot_id = NewSnapshotId();
  const std::string metadata_dir = base.location + "/metadata/";

  // The manifest of the new files, written once.
  std::string manifest_path = metadata_dir + RandomUuid() + "-m0.avro";
  ManifestFile manifest;
  {
    ManifestWriterOptions mo;
    mo.format_version = base.format_version;
    mo.spec = *spec;
    mo.schema = *schema;
    mo.snapshot_id = snapshot_id;
    SQE_ASSIGN_OR_RETURN(auto out, fs.OpenForWrite(manifest_path, /*overwrite=*/false));
    std::shared_ptr<io::OutputStream> shared(std::move(out));
    SQE_ASSIGN_OR_RETURN(auto writer, ManifestWriter::Open(shared, mo));
    for (const DataFile& f : files) SQE_RETURN_NOT_OK(writer->AddFile(f));
    SQE_ASSIGN_OR_RETURN(manifest, writer->Close());
    manifest.manifest_path = manifest_path;
    manifest.partition_spec_id = spec->spec_id();
    manifest.added_snapshot_id = snapshot_id;
  }
  int64_t added_records = 0, added_size = 0;
  for (const DataFile& f : files) {
    added_records += f.record_count;
    added_size += f.file_size_in_bytes;
  }

  Status last;
  for (int attempt = 1; attempt <= std::max(1, options.max_attempts); ++attempt) {
    const Snapshot* parent = base.CurrentSnapshot();
    std::vector<ManifestFile> manifests = {manifest};
    if (parent != nullptr) {
      // Through the manifest source: a v1 parent may list its manifests inline.
      FileManifestSource source(fs);
      SQE_ASSIGN_OR_RETURN(auto parent_manifests, source.ReadManifestList(*parent));
      for (ManifestFile& m : parent_manifests) manifests.push_back(std::move(m));
    }
    std::vector<std::string> merged;  // manifests this attempt's merging wrote
    SQE_ASSIGN_OR_RETURN(manifests,
                         MergeManifests(fs, base, snapshot_id, std::move(manifests), &merged));
    const bool new_manifest_listed =
        std::any_of(manifests.begin(), manifests.end(),
                    [&](const ManifestFile& m) { return m.manifest_path == manifest_path; });
    const int64_t sequence_number = base.format_version >= 2 ? base.last_sequence_number + 1 : 0;
    std::string list_path = metadata_dir + "snap-" + std::to_string(snapshot_id) + "-" +
                            std::to_string(attempt) + "-" + RandomUuid() + ".avro";
    ManifestListWriterOptions lo;
    lo.format_version = base.format_version;
    lo.snapshot_id = snapshot_id;
    if (parent) lo.parent_snapshot_id = parent->snapshot_id;
    lo.sequence_number = sequence_number;
    if (base.format_version >= 3) lo.first_row_id = base.next_row_id.value_or(0);
    std::optional<int64_t> next_row_id;
    {
      SQE_ASSIGN_OR_RETURN(auto out, fs.OpenForWrite(list_path, /*overwrite=*/false));
      std::shared_ptr<io::OutputStream> shared(std::move(out));
      SQE_ASSIGN_OR_RETURN(auto writer, ManifestListWriter::Open(shared, lo));
      for (const ManifestFile& m : manifests) SQE_RETURN_NOT_OK(writer->Add(m));
      SQE_RETURN_NOT_OK(writer->Close().status());
      next_row_id = writer->next_row_id();
    }

    Snapshot snapshot;
    snapshot.snapshot_id = snapshot_id;
    if (parent) snapshot.parent_snapshot_id = parent->snapshot_id;
    snapshot.sequence_number = sequence_number;
    snapshot.timestamp_ms = std::max(WallClockMillis(), base.last_updated_ms);
    snapshot.manifest_list = list_path;
    snapshot.schema_id = schema->schema_id();
    snapshot.summary = options.summary;
    snapshot.summary["operation"] = "append";
    snapshot.summary["added-data-files"] = std::to_string(files.size());
    snapshot.summary["added-records"] = std::to_string(added_records);
    snapshot.summary["added-files-size"] = std::to_string(added_size);
    snapshot.summary["total-data-files"] = std::to_string(SummaryLong(parent, "total-data-files") +
                                                          static_cast<int64_t>(files.size()));
    snapshot.summary["total-records"] =
        std::to_string(SummaryLong(parent, "total-records") + added_records);
    snapshot.summary["total-files-size"] =
        std::to_string(SummaryLong(parent, "total-files-size") + added_size);
    for (const char* key :
         {"total-delete-files", "total-position-deletes", "total-equality-deletes"}) {
      snapshot.summary[key] = std::to_string(SummaryLong(parent, key));
    }
    if (base.format_version >= 3) {
      snapshot.first_row_id = lo.first_row_id;
      snapshot.added_rows = next_row_id ? *next_row_id - *lo.first_row_id : added_records;
    }

    std::vector<TableRequirement> requirements = {TableRequirement::AssertRefSnapshotId(
        SnapshotRef::kMainBranch,
        parent ? std::optional<int64_t>(parent->snapshot_id) : std::nullopt)};
    std::vector<TableUpdate> updates = {
        TableUpdate::AddSnapshot(snapshot),
        TableUpdate::SetBranch(SnapshotRef::kMainBranch, snapshot_id)};
    auto committed = table.Commit(requirements, updates);
    if (committed.ok()) {
      if (!new_manifest_listed) (void)fs.Delete({manifest_path});  // merged into another
      return AppendResult{std::move(*committed), snapshot_id, attempt};
    }
    last = committed.status();
    merged.push_back(list_path);
    (void)fs.Delete(merged);
    if (last.code() != StatusCode::kConflict) break;
    write_internal::BackoffBeforeRetry(attempt, options.retry_base_delay_ms);
    SQE_ASSIGN_OR_RETURN(base, table.Refresh());
  }
  (void)fs.Delete({manifest_path});
  if (last.code() == StatusCode::kConflict) {
    return Status::Conflict("append to " + base.location + " gave up after " +
                            std::to_string(options.max_attempts) +
                            " conflicting commits: " + last.message());
  }
  return last;
}

}  // namespace sqe::iceberg
