#include "iceberg/snapshot.h"

#include "iceberg/json_internal.h"

namespace sqe::iceberg {

std::string Snapshot::Operation() const {
  auto it = summary.find("operation");
  return it == summary.end() ? "" : it->second;
}

namespace internal {

Result<Snapshot> SnapshotFromJson(const Json& value, int format_version) {
  SQE_ASSIGN_OR_RETURN(ObjectReader reader, ObjectReader::Make(value, "snapshot"));
  Snapshot s;
  SQE_ASSIGN_OR_RETURN(s.snapshot_id, reader.Long("snapshot-id"));
  ObjectReader r(value, "snapshot " + std::to_string(s.snapshot_id));
  r.Skip("snapshot-id");
  SQE_ASSIGN_OR_RETURN(s.parent_snapshot_id, r.OptLong("parent-snapshot-id"));
  // Java reads a missing sequence number as 0 (v1 snapshots kept in upgraded tables); in
  // a v1 document the field is not part of the format and stays an unknown field.
  if (format_version >= 2) {
    SQE_ASSIGN_OR_RETURN(std::optional<int64_t> sequence, r.OptLong("sequence-number"));
    s.sequence_number = sequence.value_or(0);
    if (s.sequence_number < 0) return r.Error("sequence-number", "must be >= 0");
  }
  SQE_ASSIGN_OR_RETURN(s.timestamp_ms, r.Long("timestamp-ms"));
  SQE_ASSIGN_OR_RETURN(std::optional<std::string> list, r.OptString("manifest-list"));
  SQE_ASSIGN_OR_RETURN(s.manifests, r.StringList("manifests"));
  if (list) {
    s.manifest_list = std::move(*list);
  } else if (format_version >= 2) {
    return r.Error("manifest-list", "is required but missing");
  } else if (!r.Has("manifests")) {
    return r.Error("manifest-list", "is missing and there is no 'manifests' list either");
  }
  SQE_ASSIGN_OR_RETURN(s.summary, r.StringMap("summary"));
  SQE_ASSIGN_OR_RETURN(s.schema_id, r.OptInt("schema-id"));
  SQE_ASSIGN_OR_RETURN(s.first_row_id, r.OptLong("first-row-id"));
  SQE_ASSIGN_OR_RETURN(s.added_rows, r.OptLong("added-rows"));
  if (s.first_row_id && *s.first_row_id < 0) return r.Error("first-row-id", "must be >= 0");
  if (s.added_rows && *s.added_rows < 0) return r.Error("added-rows", "must be >= 0");
  SQE_ASSIGN_OR_RETURN(s.key_id, r.OptString("key-id"));
  s.extra_json = r.Extras();
  return s;
}

Json SnapshotToJson(const Snapshot& s, int format_version) {
  Json out = Json::object();
  out["snapshot-id"] = s.snapshot_id;
  if (s.parent_snapshot_id) out["parent-snapshot-id"] = *s.parent_snapshot_id;
  if (format_version >= 2) out["sequence-number"] = s.sequence_number;
  out["timestamp-ms"] = s.timestamp_ms;
  if (!s.manifest_list.empty() || s.manifests.empty()) out["manifest-list"] = s.manifest_list;
  if (!s.manifests.empty()) out["manifests"] = s.manifests;
  if (!s.summary.empty() || format_version >= 2) out["summary"] = s.summary;
  if (s.schema_id) out["schema-id"] = *s.schema_id;
  if (s.first_row_id) out["first-row-id"] = *s.first_row_id;
  if (s.added_rows) out["added-rows"] = *s.added_rows;
  if (s.key_id) out["key-id"] = *s.key_id;
  MergeExtras(s.extra_json, &out);
  return out;
}

Result<SnapshotRef> SnapshotRefFromJson(const Json& value, const std::string& name) {
  SQE_ASSIGN_OR_RETURN(ObjectReader r, ObjectReader::Make(value, "snapshot ref '" + name + "'"));
  SnapshotRef ref;
  SQE_ASSIGN_OR_RETURN(ref.snapshot_id, r.Long("snapshot-id"));
  SQE_ASSIGN_OR_RETURN(std::string type, r.String("type"));
  if (type == "branch") {
    ref.type = SnapshotRefType::kBranch;
  } else if (type == "tag") {
    ref.type = SnapshotRefType::kTag;
  } else {
    return r.Error("type", "must be \"branch\" or \"tag\", got \"" + type + "\"");
  }
  SQE_ASSIGN_OR_RETURN(ref.min_snapshots_to_keep, r.OptInt("min-snapshots-to-keep"));
  SQE_ASSIGN_OR_RETURN(ref.max_snapshot_age_ms, r.OptLong("max-snapshot-age-ms"));
  SQE_ASSIGN_OR_RETURN(ref.max_ref_age_ms, r.OptLong("max-ref-age-ms"));
  if (ref.min_snapshots_to_keep && *ref.min_snapshots_to_keep <= 0) {
    return r.Error("min-snapshots-to-keep", "must be positive");
  }
  if (ref.max_snapshot_age_ms && *ref.max_snapshot_age_ms <= 0) {
    return r.Error("max-snapshot-age-ms", "must be positive");
  }
  if (ref.max_ref_age_ms && *ref.max_ref_age_ms <= 0) {
    return r.Error("max-ref-age-ms", "must be positive");
  }
  if (ref.type == SnapshotRefType::kTag && (ref.min_snapshots_to_keep || ref.max_snapshot_age_ms)) {
    return Status::Corruption("snapshot ref '" + name +
                              "': a tag cannot set min-snapshots-to-keep or max-snapshot-age-ms");
  }
  ref.extra_json = r.Extras();
  return ref;
}

Json SnapshotRefToJson(const SnapshotRef& ref) {
  Json out = Json::object();
  out["snapshot-id"] = ref.snapshot_id;
  out["type"] = ref.is_branch() ? "branch" : "tag";
  if (ref.min_snapshots_to_keep) out["min-snapshots-to-keep"] = *ref.min_snapshots_to_keep;
  if (ref.max_snapshot_age_ms) out["max-snapshot-age-ms"] = *ref.max_snapshot_age_ms;
  if (ref.max_ref_age_ms) out["max-ref-age-ms"] = *ref.max_ref_age_ms;
  MergeExtras(ref.extra_json, &out);
  return out;
}

}  // namespace internal

}  // namespace sqe::iceberg
