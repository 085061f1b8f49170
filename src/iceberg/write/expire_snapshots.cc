#include "iceberg/write/expire_snapshots.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "common/clock.h"
#include "iceberg/scan/file_manifest_source.h"
#include "iceberg/write/commit_support.h"

namespace sqe::iceberg {
namespace {

int64_t LongProperty(const TableMetadata& m, const char* key, int64_t fallback) {
  auto it = m.properties.find(key);
  if (it == m.properties.end()) return fallback;
  try {
    return std::stoll(it->second);
  } catch (...) {
    return fallback;
  }
}

/// Which snapshots to expire from `m`, or InvalidArgument when a named one must stay.
Result<std::set<int64_t>> ChooseExpired(const TableMetadata& m, const ExpireSnapshotsOptions& o) {
  std::set<int64_t> kept;
  for (const auto& [name, ref] : m.refs) kept.insert(ref.snapshot_id);
  const int retain = std::max<int64_t>(
      1,
      o.retain_last ? *o.retain_last : LongProperty(m, "history.expire.min-snapshots-to-keep", 1));
  // The newest `retain` snapshots of main's history (walking parents from the current one).
  std::optional<int64_t> at = m.current_snapshot_id;
  for (int i = 0; i < retain && at; ++i) {
    kept.insert(*at);
    const Snapshot* s = m.SnapshotById(*at);
    at = s ? s->parent_snapshot_id : std::nullopt;
  }
  const int64_t older_than =
      o.older_than_ms ? *o.older_than_ms
                      : WallClockMillis() - LongProperty(m, "history.expire.max-snapshot-age-ms",
                                                         int64_t{5} * 24 * 3600 * 1000);
  std::set<int64_t> expired;
  for (int64_t id : o.snapshot_ids) {
    if (m.SnapshotById(id) == nullptr) {
      return Status::InvalidArgument("snapshot " + std::to_string(id) + " is not in the table");
    }
    if (kept.count(id)) {
      return Status::InvalidArgument("snapshot " + std::to_string(id) +
                                     " cannot be expired: a branch or tag points at it or it "
                                     "is among the snapshots kept (retain_last)");
    }
    expired.insert(id);
  }
  if (o.snapshot_ids.empty() || o.older_than_ms) {
    for (const Snapshot& s : m.snapshots) {
      if (s.timestamp_ms < older_than && !kept.count(s.snapshot_id)) expired.insert(s.snapshot_id);
    }
  }
  return expired;
}

/// Everything the snapshots `ids` read: manifest lists, manifests, and the live files.
struct Reach {
  std::set<std::string> manifest_lists;
  std::set<std::string> manifests;
  std::set<std::string> data_files;
  std::set<std::string> delete_files;
};

Status Collect(io::FileSystem& fs, const TableMetadata& m, const std::set<int64_t>& ids,
               bool live_only, Reach* out) {
  FileManifestSource source(fs);
  const Schema* schema = m.CurrentSchema();
  std::set<std::string> seen_manifests;
  for (int64_t id : ids) {
    const Snapshot* s = m.SnapshotById(id);
    if (s == nullptr) continue;
    if (!s->manifest_list.empty()) out->manifest_lists.insert(s->manifest_list);
    SQE_ASSIGN_OR_RETURN(std::vector<ManifestFile> manifests, source.ReadManifestList(*s));
    for (const ManifestFile& mf : manifests) {
      out->manifests.insert(mf.manifest_path);
      if (!seen_manifests.insert(mf.manifest_path).second) continue;
      const PartitionSpec* spec = m.SpecById(mf.partition_spec_id);
      if (spec == nullptr || schema == nullptr) {
        return Status::Corruption("manifest " + mf.manifest_path + " names partition spec " +
                                  std::to_string(mf.partition_spec_id) + ", which the table lacks");
      }
      SQE_ASSIGN_OR_RETURN(std::vector<ManifestEntry> entries,
                           source.ReadEntries(mf, *spec, *schema));
      for (const ManifestEntry& e : entries) {
        if (live_only && e.status == ManifestStatus::kDeleted) continue;
        (e.data_file.content == FileContent::kData ? out->data_files : out->delete_files)
            .insert(e.data_file.file_path);
      }
    }
  }
  return Status::OK();
}

}  // namespace

Result<ExpireSnapshotsResult> ExpireSnapshots(TableOperations& table,
                                              const ExpireSnapshotsOptions& options) {
  io::FileSystem& fs = table.file_system();
  SQE_ASSIGN_OR_RETURN(TableMetadata base, table.Refresh());
  constexpr int kAttempts = 10;
  for (int attempt = 1;; ++attempt) {
    SQE_ASSIGN_OR_RETURN(std::set<int64_t> expired, ChooseExpired(base, options));
    ExpireSnapshotsResult result;
    result.expired_snapshot_ids.assign(expired.begin(), expired.end());
    if (expired.empty() || options.dry_run) {
      result.metadata = std::move(base);
      return result;
    }
    std::set<int64_t> retained;
    for (const Snapshot& s : base.snapshots) {
      if (!expired.count(s.snapshot_id)) retained.insert(s.snapshot_id);
    }
    // What the expired snapshots read, before they are gone from the metadata.
    Reach gone, kept;
    SQE_RETURN_NOT_OK(Collect(fs, base, expired, /*live_only=*/false, &gone));
    std::set<std::string> stats_gone;
    for (const StatisticsFile& f : base.statistics) {
      if (expired.count(f.snapshot_id)) stats_gone.insert(f.statistics_path);
    }
    for (const PartitionStatisticsFile& f : base.partition_statistics) {
      if (expired.count(f.snapshot_id)) stats_gone.insert(f.statistics_path);
    }
    TableUpdate remove;
    remove.action = TableUpdate::Action::kRemoveSnapshots;
    remove.ids = result.expired_snapshot_ids;
    std::vector<TableRequirement> requirements = {
        TableRequirement::AssertRefSnapshotId(SnapshotRef::kMainBranch, base.current_snapshot_id)};
    Result<TableMetadata> committed = table.Commit(requirements, {remove});
    if (!committed.ok()) {
      if (committed.status().code() != StatusCode::kConflict || attempt >= kAttempts) {
        return committed.status();
      }
      write_internal::BackoffBeforeRetry(attempt, 20);
      SQE_ASSIGN_OR_RETURN(base, table.Refresh());
      continue;
    }
    result.metadata = std::move(*committed);
    // What the retained snapshots still read, from the committed metadata.
    SQE_RETURN_NOT_OK(Collect(fs, result.metadata, retained, /*live_only=*/true, &kept));
    for (const StatisticsFile& f : result.metadata.statistics) stats_gone.erase(f.statistics_path);
    for (const PartitionStatisticsFile& f : result.metadata.partition_statistics) {
      stats_gone.erase(f.statistics_path);
    }
    auto drop = [&](const std::set<std::string>& candidates, const std::set<std::string>& keep,
                    int64_t* counter) {
      std::vector<std::string> paths;
      for (const std::string& p : candidates) {
        if (!keep.count(p)) paths.push_back(p);
      }
      if (paths.empty()) return;
      if (fs.Delete(paths).ok()) {
        *counter += static_cast<int64_t>(paths.size());
      } else {
        for (const std::string& p : paths) {  // find which ones failed
          if (fs.Delete({p}).ok()) {
            ++*counter;
          } else {
            ++result.failed_deletes;
          }
        }
      }
    };
    drop(gone.data_files, kept.data_files, &result.deleted_data_files);
    drop(gone.delete_files, kept.delete_files, &result.deleted_delete_files);
    drop(gone.manifests, kept.manifests, &result.deleted_manifests);
    drop(gone.manifest_lists, kept.manifest_lists, &result.deleted_manifest_lists);
    drop(stats_gone, {}, &result.deleted_statistics_files);
    return result;
  }
}

}  // namespace sqe::iceberg
