#include "iceberg/write/snapshot_update.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "common/clock.h"
#include "common/uuid.h"
#include "iceberg/expr/strict_metrics.h"
#include "iceberg/manifest/manifest_writer.h"
#include "iceberg/scan/file_manifest_source.h"
#include "iceberg/scan/scan_planner.h"
#include "iceberg/write/commit_support.h"
#include "iceberg/write/manifest_merge.h"

namespace sqe::iceberg {
namespace {

using write_internal::SummaryLong;

bool IsDeleteFile(const DataFile& f) { return f.content != FileContent::kData; }

int64_t PositionDeletes(const DataFile& f) {
  return f.content == FileContent::kPositionDeletes ? f.record_count : 0;
}
int64_t EqualityDeletes(const DataFile& f) {
  return f.content == FileContent::kEqualityDeletes ? f.record_count : 0;
}

std::string PartitionKey(const DataFile& f) {
  std::string key;
  for (const auto& v : f.partition) key += "|" + (v ? v->ToString() : std::string("null"));
  return key;
}

/// A data file's metrics, plus what its identity partition values say about their source
/// columns (every row holds the value), so both evaluators decide those exactly.
expr::FileStats StatsWithPartition(const DataFile& f, const PartitionSpec& spec,
                                   const Schema& schema) {
  expr::FileStats s = DataFileStats(f, schema);
  for (size_t i = 0; i < spec.fields().size() && i < f.partition.size(); ++i) {
    const PartitionField& field = spec.fields()[i];
    if (field.transform.kind() != TransformKind::kIdentity) continue;
    const int32_t id = field.source_id;
    s.value_counts[id] = f.record_count;
    if (f.partition[i]) {
      s.null_counts[id] = 0;
      s.lower_bounds.insert_or_assign(id, *f.partition[i]);
      s.upper_bounds.insert_or_assign(id, *f.partition[i]);
      if (f.partition[i]->type() == TypeId::kFloat || f.partition[i]->type() == TypeId::kDouble) {
        s.nan_counts[id] = std::isnan(f.partition[i]->double_value()) ? f.record_count : 0;
      }
    } else {
      s.null_counts[id] = f.record_count;
      s.lower_bounds.erase(id);
      s.upper_bounds.erase(id);
    }
  }
  return s;
}

Status WriteManifest(io::FileSystem& fs, const std::string& path, ManifestWriterOptions options,
                     const std::function<Status(ManifestWriter&)>& fill, ManifestFile* out) {
  SQE_ASSIGN_OR_RETURN(auto stream, fs.OpenForWrite(path, /*overwrite=*/false));
  std::shared_ptr<io::OutputStream> shared(std::move(stream));
  const int32_t spec_id = options.spec.spec_id();
  const std::optional<int64_t> snapshot_id = options.snapshot_id;
  SQE_ASSIGN_OR_RETURN(auto writer, ManifestWriter::Open(shared, std::move(options)));
  SQE_RETURN_NOT_OK(fill(*writer));
  SQE_ASSIGN_OR_RETURN(*out, writer->Close());
  out->manifest_path = path;
  out->partition_spec_id = spec_id;
  out->added_snapshot_id = snapshot_id.value_or(0);
  return Status::OK();
}

/// What one attempt read from the parent and decided to write.
struct Attempt {
  std::vector<ManifestFile> manifests;  // the new manifest list, in order
  std::vector<std::string> written;     // rewritten manifests of this attempt (to clean up)
  std::vector<DataFile> removed;
};

int RetriesOf(const TableMetadata& m) {
  auto it = m.properties.find("commit.retry.num-retries");
  if (it == m.properties.end()) return 4;
  try {
    return std::clamp(std::stoi(it->second), 0, 100);
  } catch (...) {
    return 4;
  }
}

}  // namespace

Result<SnapshotCommit> CommitSnapshot(TableOperations& table, const SnapshotChanges& changes) {
  io::FileSystem& fs = table.file_system();
  SQE_ASSIGN_OR_RETURN(TableMetadata base, table.Refresh());
  if (base.CurrentSchema() == nullptr || base.DefaultSpec() == nullptr) {
    return Status::Corruption("table metadata lacks its current schema or default spec");
  }
  if (base.format_version < 2 && !changes.add_deletes.empty()) {
    return Status::InvalidArgument(
        "delete files need table format version 2 or later; the "
        "table is v1 (upgrade it with format-version = 2)");
  }
  for (const DataFile& f : changes.add_data) {
    if (IsDeleteFile(f))
      return Status::InvalidArgument(f.file_path + " is a delete file, added as data");
  }
  for (const DataFile& f : changes.add_deletes) {
    if (!IsDeleteFile(f))
      return Status::InvalidArgument(f.file_path + " is a data file, added as deletes");
  }
  const int64_t snapshot_id = write_internal::NewSnapshotId();
  const std::string metadata_dir = base.location + "/metadata/";
  const int max_attempts = changes.max_attempts > 0 ? changes.max_attempts : RetriesOf(base) + 1;
  const Schema schema = *base.CurrentSchema();
  const PartitionSpec spec = *base.DefaultSpec();
  expr::ExprPtr filter;
  if (changes.remove_filter) {
    SQE_ASSIGN_OR_RETURN(filter, expr::Bind(changes.remove_filter, schema, true));
  }

  // The manifests of the new files, written once and reused by every attempt.
  std::vector<ManifestFile> added_manifests;
  std::vector<std::string> added_paths;
  auto write_added = [&](const std::vector<DataFile>& files, ManifestContent content) -> Status {
    if (files.empty()) return Status::OK();
    ManifestWriterOptions o;
    o.format_version = base.format_version;
    o.spec = spec;
    o.schema = schema;
    o.snapshot_id = snapshot_id;
    o.content = content;
    std::string path =
        metadata_dir + RandomUuid() + "-m" + std::to_string(added_paths.size()) + ".avro";
    ManifestFile m;
    SQE_RETURN_NOT_OK(WriteManifest(
        fs, path, o,
        [&](ManifestWriter& w) -> Status {
          for (const DataFile& f : files) {
            ManifestEntry e;
            e.status = ManifestStatus::kAdded;
            e.snapshot_id = snapshot_id;
            if (content == ManifestContent::kData && changes.data_sequence_number) {
              e.sequence_number = changes.data_sequence_number;
            }
            e.data_file = f;
            SQE_RETURN_NOT_OK(w.Add(e));
          }
          return Status::OK();
        },
        &m));
    added_paths.push_back(path);
    added_manifests.push_back(std::move(m));
    return Status::OK();
  };
  auto cleanup_added = [&] { (void)fs.Delete(added_paths); };
  if (Status st = write_added(changes.add_data, ManifestContent::kData); !st.ok()) {
    cleanup_added();
    return st;
  }
  if (Status st = write_added(changes.add_deletes, ManifestContent::kDeletes); !st.ok()) {
    cleanup_added();
    return st;
  }

  // One attempt against `meta`: rewrite the manifests holding removed files, validate.
  auto plan = [&](const TableMetadata& meta) -> Result<Attempt> {
    Attempt a;
    a.manifests = added_manifests;
    const Snapshot* parent = meta.CurrentSnapshot();
    if (parent == nullptr) {
      if (!changes.remove_paths.empty() && changes.require_removed_live) {
        return Status::Conflict("the table has no snapshot: files to remove are gone");
      }
      if (!changes.referenced_data_files.empty()) {
        return Status::Conflict(
            "the table has no snapshot: the data files deletes refer to are gone");
      }
      return a;
    }
    FileManifestSource source(fs);
    SQE_ASSIGN_OR_RETURN(std::vector<ManifestFile> parent_manifests,
                         source.ReadManifestList(*parent));
    const bool removes =
        !changes.remove_paths.empty() || filter != nullptr || !changes.replace_dvs.empty();
    std::set<std::string> found, live_data, found_dvs;
    const bool need_live_data = !changes.referenced_data_files.empty();
    for (const ManifestFile& m : parent_manifests) {
      const bool check_deletes =
          changes.fail_on_deletes_after_sequence && m.content == ManifestContent::kDeletes;
      if (!removes && !check_deletes && !(need_live_data && m.content == ManifestContent::kData)) {
        a.manifests.push_back(m);
        continue;
      }
      const PartitionSpec* mspec = meta.SpecById(m.partition_spec_id);
      if (mspec == nullptr) {
        return Status::Corruption("manifest " + m.manifest_path + " names partition spec " +
                                  std::to_string(m.partition_spec_id) + ", which the table lacks");
      }
      SQE_ASSIGN_OR_RETURN(std::vector<ManifestEntry> entries,
                           source.ReadEntries(m, *mspec, schema));
      std::vector<bool> remove(entries.size(), false);
      bool any = false;
      for (size_t i = 0; i < entries.size(); ++i) {
        const ManifestEntry& e = entries[i];
        if (e.status == ManifestStatus::kDeleted) continue;
        const DataFile& f = e.data_file;
        if (f.content == FileContent::kData) live_data.insert(f.file_path);
        if (IsDeleteFile(f) && changes.fail_on_deletes_after_sequence &&
            e.sequence_number.value_or(0) > *changes.fail_on_deletes_after_sequence &&
            !changes.remove_paths.count(f.file_path)) {
          (void)fs.Delete(a.written);
          return Status::Conflict("delete file " + f.file_path +
                                  " was committed while these files were rewritten; its rows "
                                  "would come back, so the rewrite is abandoned (run it again)");
        }
        if (f.file_format == FileFormat::kPuffin && f.referenced_data_file &&
            changes.replace_dvs.count(*f.referenced_data_file)) {
          const auto& expected = changes.replace_dvs.at(*f.referenced_data_file);
          if (!expected || expected->first != f.file_path ||
              expected->second != f.content_offset.value_or(-1)) {
            (void)fs.Delete(a.written);
            return Status::Conflict("a concurrent commit added a deletion vector for " +
                                    *f.referenced_data_file + "; run the delete again");
          }
          remove[i] = true;
          found_dvs.insert(*f.referenced_data_file);
        } else if (changes.remove_paths.count(f.file_path)) {
          remove[i] = true;
          found.insert(f.file_path);
        } else if (filter && f.content == FileContent::kData) {
          expr::FileStats stats = StatsWithPartition(f, *mspec, schema);
          SQE_ASSIGN_OR_RETURN(bool all, expr::StrictMetricsMatch(filter, stats));
          if (all) {
            remove[i] = true;
          } else {
            SQE_ASSIGN_OR_RETURN(bool some, expr::MetricsMightMatch(filter, stats));
            if (some) {
              return Status::InvalidArgument(
                  "cannot delete file " + f.file_path +
                  " by filter: some, but not all, of its rows may match; delete those rows "
                  "with position or equality deletes (a row-level DELETE) instead");
            }
          }
        }
        any = any || remove[i];
      }
      if (!any) {
        a.manifests.push_back(m);
        continue;
      }
      ManifestWriterOptions o;
      o.format_version = meta.format_version;
      o.spec = *mspec;
      o.schema = schema;
      o.snapshot_id = snapshot_id;
      o.content = m.content;
      std::string path = metadata_dir + RandomUuid() + "-r.avro";
      ManifestFile rewritten;
      SQE_RETURN_NOT_OK(WriteManifest(
          fs, path, o,
          [&](ManifestWriter& w) -> Status {
            for (size_t i = 0; i < entries.size(); ++i) {
              const ManifestEntry& e = entries[i];
              if (e.status == ManifestStatus::kDeleted) continue;  // deleted before: dropped
              const int64_t seq = e.sequence_number.value_or(0);
              if (remove[i]) {
                a.removed.push_back(e.data_file);
                SQE_RETURN_NOT_OK(
                    w.AddDeleted(e.data_file, snapshot_id, seq, e.file_sequence_number));
              } else {
                SQE_RETURN_NOT_OK(w.AddExisting(e.data_file, e.snapshot_id.value_or(0), seq,
                                                e.file_sequence_number));
              }
            }
            return Status::OK();
          },
          &rewritten));
      a.written.push_back(path);
      a.manifests.push_back(std::move(rewritten));
    }
    if (changes.require_removed_live) {
      for (const std::string& p : changes.remove_paths) {
        if (!found.count(p)) {
          (void)fs.Delete(a.written);
          return Status::Conflict("file " + p +
                                  " is no longer in the table (a concurrent commit removed it)");
        }
      }
    }
    for (const auto& [data_file, expected] : changes.replace_dvs) {
      if (expected && !found_dvs.count(data_file)) {
        (void)fs.Delete(a.written);
        return Status::Conflict("the deletion vector of " + data_file +
                                " was replaced by a concurrent commit; run the delete again");
      }
    }
    for (const std::string& p : changes.referenced_data_files) {
      if (!live_data.count(p)) {
        (void)fs.Delete(a.written);
        return Status::Conflict(
            "data file " + p + " that the new deletes refer to was removed by a concurrent commit");
      }
    }
    return a;
  };

  Status last;
  for (int attempt = 1; attempt <= max_attempts; ++attempt) {
    Result<Attempt> planned = plan(base);
    if (!planned.ok()) {
      cleanup_added();  // validation failures are final: a retry would read the same files
      return planned.status();
    }
    Attempt& a = *planned;
    {
      std::vector<std::string> merged;
      Result<std::vector<ManifestFile>> listed_manifests =
          MergeManifests(fs, base, snapshot_id, std::move(a.manifests), &merged);
      a.written.insert(a.written.end(), merged.begin(), merged.end());
      if (!listed_manifests.ok()) {
        (void)fs.Delete(a.written);
        last = listed_manifests.status();
        break;
      }
      a.manifests = std::move(*listed_manifests);
    }
    const Snapshot* parent = base.CurrentSnapshot();
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
    Status listed = [&]() -> Status {
      SQE_ASSIGN_OR_RETURN(auto out, fs.OpenForWrite(list_path, /*overwrite=*/false));
      std::shared_ptr<io::OutputStream> shared(std::move(out));
      SQE_ASSIGN_OR_RETURN(auto writer, ManifestListWriter::Open(shared, lo));
      for (const ManifestFile& m : a.manifests) SQE_RETURN_NOT_OK(writer->Add(m));
      SQE_RETURN_NOT_OK(writer->Close().status());
      next_row_id = writer->next_row_id();
      return Status::OK();
    }();
    if (!listed.ok()) {
      (void)fs.Delete(a.written);
      last = listed;
      break;
    }

    // The summary: this snapshot's changes and the running totals.
    std::map<std::string, std::string> summary = changes.summary;
    int64_t added_records = 0, added_size = 0, deleted_records = 0, removed_size = 0;
    int64_t added_pos = 0, added_eq = 0, removed_pos = 0, removed_eq = 0;
    int64_t removed_data_files = 0, removed_delete_files = 0;
    std::set<std::string> partitions;
    for (const DataFile& f : changes.add_data) {
      added_records += f.record_count;
      added_size += f.file_size_in_bytes;
      partitions.insert(PartitionKey(f));
    }
    for (const DataFile& f : changes.add_deletes) {
      added_pos += PositionDeletes(f);
      added_eq += EqualityDeletes(f);
      added_size += f.file_size_in_bytes;
      partitions.insert(PartitionKey(f));
    }
    for (const DataFile& f : a.removed) {
      removed_size += f.file_size_in_bytes;
      partitions.insert(PartitionKey(f));
      if (IsDeleteFile(f)) {
        ++removed_delete_files;
        removed_pos += PositionDeletes(f);
        removed_eq += EqualityDeletes(f);
      } else {
        ++removed_data_files;
        deleted_records += f.record_count;
      }
    }
    std::string operation = changes.operation;
    if (operation.empty()) {
      if (a.removed.empty() && changes.add_deletes.empty()) {
        operation = "append";
      } else if (changes.add_data.empty()) {
        operation = "delete";
      } else {
        operation = "overwrite";
      }
    }
    auto put = [&](const char* key, int64_t v) {
      if (v != 0) summary[key] = std::to_string(v);
    };
    summary["operation"] = operation;
    put("added-data-files", static_cast<int64_t>(changes.add_data.size()));
    put("deleted-data-files", removed_data_files);
    put("added-delete-files", static_cast<int64_t>(changes.add_deletes.size()));
    put("removed-delete-files", removed_delete_files);
    put("added-records", added_records);
    put("deleted-records", deleted_records);
    put("added-files-size", added_size);
    put("removed-files-size", removed_size);
    put("added-position-deletes", added_pos);
    put("removed-position-deletes", removed_pos);
    put("added-equality-deletes", added_eq);
    put("removed-equality-deletes", removed_eq);
    summary["changed-partition-count"] = std::to_string(partitions.size());
    auto total = [&](const char* key, int64_t delta) {
      summary[key] = std::to_string(std::max<int64_t>(0, SummaryLong(parent, key) + delta));
    };
    total("total-data-files", static_cast<int64_t>(changes.add_data.size()) - removed_data_files);
    total("total-delete-files",
          static_cast<int64_t>(changes.add_deletes.size()) - removed_delete_files);
    total("total-records", added_records - deleted_records);
    total("total-files-size", added_size - removed_size);
    total("total-position-deletes", added_pos - removed_pos);
    total("total-equality-deletes", added_eq - removed_eq);

    Snapshot snapshot;
    snapshot.snapshot_id = snapshot_id;
    if (parent) snapshot.parent_snapshot_id = parent->snapshot_id;
    snapshot.sequence_number = sequence_number;
    snapshot.timestamp_ms = std::max(WallClockMillis(), base.last_updated_ms);
    snapshot.manifest_list = list_path;
    snapshot.schema_id = schema.schema_id();
    snapshot.summary = std::move(summary);
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
    Result<TableMetadata> committed = table.Commit(requirements, updates);
    if (committed.ok()) {
      // New manifests merged into others are not referenced: remove them.
      std::vector<std::string> unlisted;
      for (const std::string& p : added_paths) {
        if (std::none_of(a.manifests.begin(), a.manifests.end(),
                         [&](const ManifestFile& m) { return m.manifest_path == p; })) {
          unlisted.push_back(p);
        }
      }
      if (!unlisted.empty()) (void)fs.Delete(unlisted);
      return SnapshotCommit{std::move(*committed), snapshot_id, attempt, std::move(a.removed)};
    }
    last = committed.status();
    if (last.code() != StatusCode::kConflict) {
      // The outcome may be unknown (an I/O error after the catalog took it): keep the files.
      return last;
    }
    std::vector<std::string> junk = a.written;
    junk.push_back(list_path);
    (void)fs.Delete(junk);
    if (attempt == max_attempts) break;
    write_internal::BackoffBeforeRetry(attempt, 10);
    SQE_ASSIGN_OR_RETURN(base, table.Refresh());
  }
  cleanup_added();
  if (last.code() == StatusCode::kConflict) {
    return Status::Conflict("commit to " + base.location + " gave up after " +
                            std::to_string(max_attempts) +
                            " conflicting attempts: " + last.message());
  }
  return last;
}

}  // namespace sqe::iceberg
