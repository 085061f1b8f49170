#pragma once
/// Iceberg snapshots and snapshot references (spec "Snapshots", "Snapshot References"):
/// the state of a table at one commit, and the named branches and tags pointing at
/// snapshots. Value types.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sqe::iceberg {

/// One snapshot. v1 snapshots may list `manifests` instead of a `manifest_list`.
/// `sequence_number` is 0 for v1 snapshots (Appendix E). The summary holds "operation"
/// (append, replace, overwrite, delete) and the optional summary fields.
struct Snapshot {
  int64_t snapshot_id = 0;
  std::optional<int64_t> parent_snapshot_id;
  int64_t sequence_number = 0;
  int64_t timestamp_ms = 0;
  std::string manifest_list;
  std::vector<std::string> manifests;
  std::map<std::string, std::string> summary;
  std::optional<int32_t> schema_id;
  std::optional<int64_t> first_row_id;  // v3 row lineage
  std::optional<int64_t> added_rows;    // v3 row lineage
  std::optional<std::string> key_id;    // v3 encryption key of the manifest list
  std::string extra_json;

  /// summary["operation"], or "" when absent.
  std::string Operation() const;
  bool operator==(const Snapshot&) const = default;
};

enum class SnapshotRefType : uint8_t { kBranch, kTag };

/// A named reference: a branch (mutable, has retention settings) or a tag.
struct SnapshotRef {
  static constexpr const char* kMainBranch = "main";

  int64_t snapshot_id = 0;
  SnapshotRefType type = SnapshotRefType::kBranch;
  std::optional<int32_t> min_snapshots_to_keep;
  std::optional<int64_t> max_snapshot_age_ms;
  std::optional<int64_t> max_ref_age_ms;
  std::string extra_json;

  bool is_branch() const { return type == SnapshotRefType::kBranch; }
  bool operator==(const SnapshotRef&) const = default;
};

}  // namespace sqe::iceberg
