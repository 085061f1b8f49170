#pragma once
/// CommitSnapshot: one snapshot that adds and removes files, the engine of every write
/// besides FastAppend: overwrite (by file or by row filter), row-delta (data + delete
/// files), delete, and rewrite (compaction). Each attempt reads the current snapshot's
/// manifests, rewrites those holding removed files (removed entries become DELETED with
/// this snapshot's id, the others EXISTING with their own ids and sequence numbers),
/// carries the rest over, writes the new files' manifests (data, and v2+ delete manifests),
/// the manifest list and a summary, and commits asserting main has not moved. On Conflict
/// it refreshes and RE-VALIDATES against the new current snapshot (files to remove must
/// still be live; data files that new position deletes reference must still exist), then
/// tries again; files of failed attempts are deleted. The caller's data/delete files stay
/// the caller's.
///
/// Overwrite by filter removes a data file only when every row provably matches (strict
/// metrics, identity partition values); a file the filter may match in part is
/// InvalidArgument naming it, as Iceberg's "Cannot delete file where some, but not all,
/// rows match filter" (delete those rows with position deletes instead).

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/result.h"
#include "iceberg/expr/expression.h"
#include "iceberg/manifest/data_file.h"
#include "iceberg/write/table_operations.h"

namespace sqe::iceberg {

struct SnapshotChanges {
  /// The summary's operation: "append", "overwrite", "delete" or "replace"; empty picks
  /// one from what the change does.
  std::string operation;
  std::vector<DataFile> add_data;
  /// Position / equality delete files (format v2+).
  std::vector<DataFile> add_deletes;
  /// Data or delete files to remove, by path.
  std::set<std::string> remove_paths;
  /// Unbound row filter: data files all of whose rows match are removed.
  expr::ExprPtr remove_filter;
  /// Conflict (nothing committed) when a file of remove_paths is no longer live: a
  /// rewrite must not resurrect rows a concurrent delete removed.
  bool require_removed_live = true;
  /// Data files the added position deletes point at: Conflict when one is gone.
  std::set<std::string> referenced_data_files;
  /// v3: data file -> the deletion vector (Puffin path, content offset) this change
  /// replaces, or nullopt when it had none. That vector is removed; any other vector of
  /// the data file (a concurrent delete's) is a Conflict, so no deletes are lost.
  std::map<std::string, std::optional<std::pair<std::string, int64_t>>> replace_dvs;
  /// Rewrites: Conflict when a delete file newer than this sequence number is live (a
  /// concurrent delete whose rows the rewritten files would bring back).
  std::optional<int64_t> fail_on_deletes_after_sequence;
  /// Rewrites: the data sequence number the added data files keep (that of the snapshot
  /// the rewritten rows were read from), so older equality deletes still apply to them.
  std::optional<int64_t> data_sequence_number;
  /// Extra summary properties.
  std::map<std::string, std::string> summary;
  /// Attempts before giving up on conflicts; 0 = commit.retry.num-retries + 1 (default 5).
  int max_attempts = 0;
};

struct SnapshotCommit {
  TableMetadata metadata;
  int64_t snapshot_id = 0;
  int attempts = 0;
  /// The files this snapshot removed (as they were in their manifests).
  std::vector<DataFile> removed;
};

Result<SnapshotCommit> CommitSnapshot(TableOperations& table, const SnapshotChanges& changes);

}  // namespace sqe::iceberg
