#include "iceberg/table_update.h"

#include <algorithm>
#include <set>

#include "iceberg/json_internal.h"

namespace sqe::iceberg {
namespace {

using internal::Json;
using internal::ObjectReader;

struct NamedKind {
  const char* name;
  TableRequirement::Kind kind;
};
constexpr NamedKind kRequirementNames[] = {
    {"assert-create", TableRequirement::Kind::kAssertCreate},
    {"assert-table-uuid", TableRequirement::Kind::kAssertTableUuid},
    {"assert-ref-snapshot-id", TableRequirement::Kind::kAssertRefSnapshotId},
    {"assert-last-assigned-field-id", TableRequirement::Kind::kAssertLastAssignedFieldId},
    {"assert-current-schema-id", TableRequirement::Kind::kAssertCurrentSchemaId},
    {"assert-last-assigned-partition-id", TableRequirement::Kind::kAssertLastAssignedPartitionId},
    {"assert-default-spec-id", TableRequirement::Kind::kAssertDefaultSpecId},
    {"assert-default-sort-order-id", TableRequirement::Kind::kAssertDefaultSortOrderId},
};

struct NamedAction {
  const char* name;
  TableUpdate::Action action;
};
constexpr NamedAction kActionNames[] = {
    {"assign-uuid", TableUpdate::Action::kAssignUuid},
    {"upgrade-format-version", TableUpdate::Action::kUpgradeFormatVersion},
    {"add-schema", TableUpdate::Action::kAddSchema},
    {"set-current-schema", TableUpdate::Action::kSetCurrentSchema},
    {"add-spec", TableUpdate::Action::kAddPartitionSpec},
    {"set-default-spec", TableUpdate::Action::kSetDefaultSpec},
    {"add-sort-order", TableUpdate::Action::kAddSortOrder},
    {"set-default-sort-order", TableUpdate::Action::kSetDefaultSortOrder},
    {"add-snapshot", TableUpdate::Action::kAddSnapshot},
    {"set-snapshot-ref", TableUpdate::Action::kSetSnapshotRef},
    {"remove-snapshots", TableUpdate::Action::kRemoveSnapshots},
    {"remove-snapshot-ref", TableUpdate::Action::kRemoveSnapshotRef},
    {"set-location", TableUpdate::Action::kSetLocation},
    {"set-properties", TableUpdate::Action::kSetProperties},
    {"remove-properties", TableUpdate::Action::kRemoveProperties},
    {"set-statistics", TableUpdate::Action::kSetStatistics},
    {"remove-statistics", TableUpdate::Action::kRemoveStatistics},
    {"set-partition-statistics", TableUpdate::Action::kSetPartitionStatistics},
    {"remove-partition-statistics", TableUpdate::Action::kRemovePartitionStatistics},
    {"remove-partition-specs", TableUpdate::Action::kRemovePartitionSpecs},
    {"remove-schemas", TableUpdate::Action::kRemoveSchemas},
};

const char* NameOf(TableRequirement::Kind kind) {
  for (const auto& n : kRequirementNames) {
    if (n.kind == kind) return n.name;
  }
  return "?";
}

const char* NameOf(TableUpdate::Action action) {
  for (const auto& n : kActionNames) {
    if (n.action == action) return n.name;
  }
  return "?";
}

std::string OptId(std::optional<int64_t> id) { return id ? std::to_string(*id) : "none"; }

Status Failed(const TableRequirement& r, const std::string& detail) {
  return Status::Conflict(std::string("commit requirement ") + NameOf(r.kind) + " failed: " +
                          detail + " (the table changed since it was read; refresh and retry)");
}

Status CheckOne(const TableMetadata* base, const TableRequirement& r) {
  using Kind = TableRequirement::Kind;
  if (r.kind == Kind::kAssertCreate) {
    return base == nullptr ? Status::OK() : Failed(r, "the table already exists");
  }
  if (base == nullptr) return Failed(r, "the table does not exist");
  switch (r.kind) {
    case Kind::kAssertCreate:
      break;
    case Kind::kAssertTableUuid:
      if (base->table_uuid != r.uuid) {
        return Failed(r, "table uuid is " + base->table_uuid + ", expected " + r.uuid);
      }
      break;
    case Kind::kAssertRefSnapshotId: {
      auto it = base->refs.find(r.ref);
      std::optional<int64_t> actual;
      if (it != base->refs.end()) actual = it->second.snapshot_id;
      if (actual != r.snapshot_id) {
        return Failed(r, "ref '" + r.ref + "' is at snapshot " + OptId(actual) + ", expected " +
                             OptId(r.snapshot_id));
      }
      break;
    }
    case Kind::kAssertLastAssignedFieldId:
      if (base->last_column_id != r.id) {
        return Failed(r, "last assigned field id is " + std::to_string(base->last_column_id) +
                             ", expected " + std::to_string(r.id));
      }
      break;
    case Kind::kAssertCurrentSchemaId:
      if (base->current_schema_id != r.id) {
        return Failed(r, "current schema id is " + std::to_string(base->current_schema_id) +
                             ", expected " + std::to_string(r.id));
      }
      break;
    case Kind::kAssertLastAssignedPartitionId:
      if (base->last_partition_id != r.id) {
        return Failed(r, "last assigned partition id is " +
                             std::to_string(base->last_partition_id) + ", expected " +
                             std::to_string(r.id));
      }
      break;
    case Kind::kAssertDefaultSpecId:
      if (base->default_spec_id != r.id) {
        return Failed(r, "default spec id is " + std::to_string(base->default_spec_id) +
                             ", expected " + std::to_string(r.id));
      }
      break;
    case Kind::kAssertDefaultSortOrderId:
      if (base->default_sort_order_id != r.id) {
        return Failed(r, "default sort order id is " + std::to_string(base->default_sort_order_id) +
                             ", expected " + std::to_string(r.id));
      }
      break;
  }
  return Status::OK();
}

Status Invalid(TableUpdate::Action action, const std::string& problem) {
  return Status::InvalidArgument(std::string("table update ") + NameOf(action) + ": " + problem);
}

// The state of one ApplyTableUpdates run.
class Applier {
 public:
  Applier(const TableMetadata& base, int64_t now_ms) : meta_(base), now_ms_(now_ms) {}

  Status Apply(const TableUpdate& u) {
    using A = TableUpdate::Action;
    switch (u.action) {
      case A::kAssignUuid:
        if (!meta_.table_uuid.empty() && meta_.table_uuid != u.uuid) {
          return Invalid(u.action, "the table already has uuid " + meta_.table_uuid);
        }
        meta_.table_uuid = u.uuid;
        return Status::OK();
      case A::kUpgradeFormatVersion:
        if (u.format_version < meta_.format_version) {
          return Invalid(u.action, "cannot downgrade format version " +
                                       std::to_string(meta_.format_version) + " to " +
                                       std::to_string(u.format_version));
        }
        if (u.format_version > TableMetadata::kMaxFormatVersion) {
          return Invalid(u.action, "format version " + std::to_string(u.format_version) +
                                       " is not supported (at most 3)");
        }
        meta_.format_version = u.format_version;
        return Status::OK();
      case A::kAddSchema:
        return AddSchema(u);
      case A::kSetCurrentSchema: {
        int64_t id = u.id == TableUpdate::kLastAdded ? last_schema_ : u.id;
        if (id < 0 || meta_.SchemaById(static_cast<int32_t>(id)) == nullptr) {
          return Invalid(u.action, "no schema " + std::to_string(u.id));
        }
        meta_.current_schema_id = static_cast<int32_t>(id);
        return Status::OK();
      }
      case A::kAddPartitionSpec:
        return AddSpec(u);
      case A::kSetDefaultSpec: {
        int64_t id = u.id == TableUpdate::kLastAdded ? last_spec_ : u.id;
        if (id < 0 || meta_.SpecById(static_cast<int32_t>(id)) == nullptr) {
          return Invalid(u.action, "no partition spec " + std::to_string(u.id));
        }
        meta_.default_spec_id = static_cast<int32_t>(id);
        return Status::OK();
      }
      case A::kAddSortOrder:
        return AddSortOrder(u);
      case A::kSetDefaultSortOrder: {
        int64_t id = u.id == TableUpdate::kLastAdded ? last_order_ : u.id;
        if (id < 0 || meta_.SortOrderById(static_cast<int32_t>(id)) == nullptr) {
          return Invalid(u.action, "no sort order " + std::to_string(u.id));
        }
        meta_.default_sort_order_id = static_cast<int32_t>(id);
        return Status::OK();
      }
      case A::kAddSnapshot:
        return AddSnapshot(u);
      case A::kSetSnapshotRef:
        return SetRef(u);
      case A::kRemoveSnapshots: {
        std::set<int64_t> gone(u.ids.begin(), u.ids.end());
        std::erase_if(meta_.snapshots,
                      [&](const Snapshot& s) { return gone.count(s.snapshot_id) > 0; });
        for (auto it = meta_.refs.begin(); it != meta_.refs.end();) {
          it = gone.count(it->second.snapshot_id) ? meta_.refs.erase(it) : std::next(it);
        }
        if (meta_.current_snapshot_id && gone.count(*meta_.current_snapshot_id)) {
          meta_.current_snapshot_id.reset();
        }
        std::erase_if(meta_.statistics,
                      [&](const StatisticsFile& s) { return gone.count(s.snapshot_id) > 0; });
        std::erase_if(meta_.partition_statistics, [&](const PartitionStatisticsFile& s) {
          return gone.count(s.snapshot_id) > 0;
        });
        return Status::OK();
      }
      case A::kRemoveSnapshotRef:
        meta_.refs.erase(u.ref_name);
        if (u.ref_name == SnapshotRef::kMainBranch) meta_.current_snapshot_id.reset();
        return Status::OK();
      case A::kSetLocation:
        if (u.location.empty()) return Invalid(u.action, "empty location");
        meta_.location = u.location;
        return Status::OK();
      case A::kSetProperties:
        for (const auto& [k, v] : u.updates) meta_.properties[k] = v;
        return Status::OK();
      case A::kRemoveProperties:
        for (const std::string& k : u.removals) meta_.properties.erase(k);
        return Status::OK();
      case A::kSetStatistics: {
        if (!u.statistics) return Invalid(u.action, "no statistics given");
        std::erase_if(meta_.statistics, [&](const StatisticsFile& s) {
          return s.snapshot_id == u.statistics->snapshot_id;
        });
        meta_.statistics.push_back(*u.statistics);
        return Status::OK();
      }
      case A::kRemoveStatistics:
        std::erase_if(meta_.statistics,
                      [&](const StatisticsFile& s) { return s.snapshot_id == u.id; });
        return Status::OK();
      case A::kSetPartitionStatistics: {
        if (!u.partition_statistics) return Invalid(u.action, "no partition statistics given");
        std::erase_if(meta_.partition_statistics, [&](const PartitionStatisticsFile& s) {
          return s.snapshot_id == u.partition_statistics->snapshot_id;
        });
        meta_.partition_statistics.push_back(*u.partition_statistics);
        return Status::OK();
      }
      case A::kRemovePartitionStatistics:
        std::erase_if(meta_.partition_statistics,
                      [&](const PartitionStatisticsFile& s) { return s.snapshot_id == u.id; });
        return Status::OK();
      case A::kRemovePartitionSpecs:
        for (int64_t id : u.ids) {
          if (id == meta_.default_spec_id) {
            return Invalid(u.action, "cannot remove the default spec " + std::to_string(id));
          }
        }
        std::erase_if(meta_.partition_specs, [&](const PartitionSpec& s) {
          return std::find(u.ids.begin(), u.ids.end(), s.spec_id()) != u.ids.end();
        });
        return Status::OK();
      case A::kRemoveSchemas:
        for (int64_t id : u.ids) {
          if (id == meta_.current_schema_id) {
            return Invalid(u.action, "cannot remove the current schema " + std::to_string(id));
          }
        }
        std::erase_if(meta_.schemas, [&](const Schema& s) {
          return std::find(u.ids.begin(), u.ids.end(), s.schema_id()) != u.ids.end();
        });
        return Status::OK();
    }
    return Invalid(u.action, "unknown action");
  }

  TableMetadata Finish(bool changed) {
    if (changed) meta_.last_updated_ms = std::max(meta_.last_updated_ms, now_ms_);
    return std::move(meta_);
  }

 private:
  Status AddSchema(const TableUpdate& u) {
    if (!u.schema) return Invalid(u.action, "no schema given");
    // An identical schema already present is reused (Java does the same).
    for (const Schema& s : meta_.schemas) {
      if (s.struct_type()->Equals(*u.schema->struct_type()) &&
          s.identifier_field_ids() == u.schema->identifier_field_ids()) {
        last_schema_ = s.schema_id();
        return Status::OK();
      }
    }
    int32_t id = u.schema->schema_id();
    if (meta_.SchemaById(id) != nullptr || id < 0) {
      id = 0;
      for (const Schema& s : meta_.schemas) id = std::max(id, s.schema_id() + 1);
    }
    meta_.schemas.emplace_back(id, u.schema->fields(), u.schema->identifier_field_ids(),
                               u.schema->extra_json());
    meta_.last_column_id = std::max(meta_.last_column_id, u.schema->HighestFieldId());
    last_schema_ = id;
    return Status::OK();
  }

  Status AddSpec(const TableUpdate& u) {
    if (!u.spec) return Invalid(u.action, "no partition spec given");
    for (const PartitionSpec& s : meta_.partition_specs) {
      if (s.fields() == u.spec->fields()) {
        last_spec_ = s.spec_id();
        return Status::OK();
      }
    }
    int32_t id = u.spec->spec_id();
    if (meta_.SpecById(id) != nullptr || id < 0) {
      id = 0;
      for (const PartitionSpec& s : meta_.partition_specs) id = std::max(id, s.spec_id() + 1);
    }
    meta_.partition_specs.emplace_back(id, u.spec->fields(), u.spec->extra_json());
    meta_.last_partition_id = std::max(meta_.last_partition_id, u.spec->LastFieldId());
    last_spec_ = id;
    return Status::OK();
  }

  Status AddSortOrder(const TableUpdate& u) {
    if (!u.sort_order) return Invalid(u.action, "no sort order given");
    for (const SortOrder& s : meta_.sort_orders) {
      if (s.fields() == u.sort_order->fields()) {
        last_order_ = s.order_id();
        return Status::OK();
      }
    }
    int32_t id =
        u.sort_order->is_unsorted() ? SortOrder::kUnsortedOrderId : u.sort_order->order_id();
    if (meta_.SortOrderById(id) != nullptr || id < 0) {
      id = 1;
      for (const SortOrder& s : meta_.sort_orders) id = std::max(id, s.order_id() + 1);
    }
    meta_.sort_orders.emplace_back(id, u.sort_order->fields(), u.sort_order->extra_json());
    last_order_ = id;
    return Status::OK();
  }

  Status AddSnapshot(const TableUpdate& u) {
    if (!u.snapshot) return Invalid(u.action, "no snapshot given");
    const Snapshot& s = *u.snapshot;
    if (meta_.SnapshotById(s.snapshot_id) != nullptr) {
      return Invalid(u.action, "snapshot " + std::to_string(s.snapshot_id) + " already exists");
    }
    if (meta_.format_version >= 2 && s.sequence_number <= meta_.last_sequence_number &&
        s.parent_snapshot_id.has_value()) {
      return Invalid(u.action, "snapshot " + std::to_string(s.snapshot_id) +
                                   " has sequence number " + std::to_string(s.sequence_number) +
                                   ", not above the table's last " +
                                   std::to_string(meta_.last_sequence_number));
    }
    if (meta_.format_version >= 3 && meta_.next_row_id) {
      if (s.first_row_id && *s.first_row_id < *meta_.next_row_id) {
        return Invalid(u.action, "snapshot first-row-id " + std::to_string(*s.first_row_id) +
                                     " is below the table's next-row-id " +
                                     std::to_string(*meta_.next_row_id));
      }
      if (s.added_rows) *meta_.next_row_id += *s.added_rows;
    }
    meta_.snapshots.push_back(s);
    meta_.last_sequence_number = std::max(meta_.last_sequence_number, s.sequence_number);
    added_snapshots_.insert(s.snapshot_id);
    return Status::OK();
  }

  Status SetRef(const TableUpdate& u) {
    if (u.ref_name.empty()) return Invalid(u.action, "empty ref name");
    const Snapshot* snapshot = meta_.SnapshotById(u.ref.snapshot_id);
    if (snapshot == nullptr) {
      return Invalid(u.action, "ref '" + u.ref_name + "' names unknown snapshot " +
                                   std::to_string(u.ref.snapshot_id));
    }
    if (u.ref_name == SnapshotRef::kMainBranch && !u.ref.is_branch()) {
      return Invalid(u.action, "'main' must be a branch");
    }
    auto existing = meta_.refs.find(u.ref_name);
    if (existing != meta_.refs.end() && existing->second.snapshot_id == u.ref.snapshot_id &&
        existing->second.type == u.ref.type) {
      existing->second = u.ref;
      return Status::OK();
    }
    meta_.refs[u.ref_name] = u.ref;
    if (u.ref_name == SnapshotRef::kMainBranch) {
      meta_.current_snapshot_id = u.ref.snapshot_id;
      int64_t when = added_snapshots_.count(u.ref.snapshot_id) ? snapshot->timestamp_ms : now_ms_;
      meta_.snapshot_log.push_back({when, u.ref.snapshot_id, ""});
    }
    return Status::OK();
  }

  TableMetadata meta_;
  int64_t now_ms_;
  int64_t last_schema_ = -1, last_spec_ = -1, last_order_ = -1;
  std::set<int64_t> added_snapshots_;
};

Result<TableRequirement::Kind> RequirementKind(const std::string& name) {
  for (const auto& n : kRequirementNames) {
    if (name == n.name) return n.kind;
  }
  return Status::InvalidArgument("unknown commit requirement type '" + name + "'");
}

Result<TableUpdate::Action> UpdateAction(const std::string& name) {
  for (const auto& n : kActionNames) {
    if (name == n.name) return n.action;
  }
  return Status::InvalidArgument("unknown table update action '" + name + "'");
}

Result<TableRequirement> RequirementFromJson(const Json& value) {
  SQE_ASSIGN_OR_RETURN(ObjectReader r, ObjectReader::Make(value, "commit requirement"));
  SQE_ASSIGN_OR_RETURN(std::string type, r.String("type"));
  TableRequirement q;
  SQE_ASSIGN_OR_RETURN(q.kind, RequirementKind(type));
  using Kind = TableRequirement::Kind;
  switch (q.kind) {
    case Kind::kAssertCreate:
      break;
    case Kind::kAssertTableUuid: {
      SQE_ASSIGN_OR_RETURN(q.uuid, r.String("uuid"));
      break;
    }
    case Kind::kAssertRefSnapshotId: {
      SQE_ASSIGN_OR_RETURN(q.ref, r.String("ref"));
      SQE_ASSIGN_OR_RETURN(q.snapshot_id, r.OptLong("snapshot-id"));
      break;
    }
    case Kind::kAssertLastAssignedFieldId: {
      SQE_ASSIGN_OR_RETURN(q.id, r.Long("last-assigned-field-id"));
      break;
    }
    case Kind::kAssertCurrentSchemaId: {
      SQE_ASSIGN_OR_RETURN(q.id, r.Long("current-schema-id"));
      break;
    }
    case Kind::kAssertLastAssignedPartitionId: {
      SQE_ASSIGN_OR_RETURN(q.id, r.Long("last-assigned-partition-id"));
      break;
    }
    case Kind::kAssertDefaultSpecId: {
      SQE_ASSIGN_OR_RETURN(q.id, r.Long("default-spec-id"));
      break;
    }
    case Kind::kAssertDefaultSortOrderId: {
      SQE_ASSIGN_OR_RETURN(q.id, r.Long("default-sort-order-id"));
      break;
    }
  }
  return q;
}

Json RequirementToJson(const TableRequirement& q) {
  using Kind = TableRequirement::Kind;
  Json j = Json::object();
  j["type"] = NameOf(q.kind);
  switch (q.kind) {
    case Kind::kAssertCreate:
      break;
    case Kind::kAssertTableUuid:
      j["uuid"] = q.uuid;
      break;
    case Kind::kAssertRefSnapshotId:
      j["ref"] = q.ref;
      j["snapshot-id"] = q.snapshot_id ? Json(*q.snapshot_id) : Json(nullptr);
      break;
    case Kind::kAssertLastAssignedFieldId:
      j["last-assigned-field-id"] = q.id;
      break;
    case Kind::kAssertCurrentSchemaId:
      j["current-schema-id"] = q.id;
      break;
    case Kind::kAssertLastAssignedPartitionId:
      j["last-assigned-partition-id"] = q.id;
      break;
    case Kind::kAssertDefaultSpecId:
      j["default-spec-id"] = q.id;
      break;
    case Kind::kAssertDefaultSortOrderId:
      j["default-sort-order-id"] = q.id;
      break;
  }
  return j;
}

Result<std::vector<int64_t>> LongList(const Json* value, const std::string& what) {
  std::vector<int64_t> out;
  if (value == nullptr) return out;
  if (!value->is_array()) return Status::InvalidArgument(what + " must be an array");
  for (const Json& v : *value) {
    if (!v.is_number_integer()) return Status::InvalidArgument(what + " must hold integers");
    out.push_back(v.get<int64_t>());
  }
  return out;
}

Result<TableUpdate> UpdateFromJson(const Json& value, int format_version) {
  SQE_ASSIGN_OR_RETURN(ObjectReader r, ObjectReader::Make(value, "table update"));
  SQE_ASSIGN_OR_RETURN(std::string name, r.String("action"));
  TableUpdate u;
  SQE_ASSIGN_OR_RETURN(u.action, UpdateAction(name));
  using A = TableUpdate::Action;
  const std::string context = "table update " + name;
  switch (u.action) {
    case A::kAssignUuid: {
      SQE_ASSIGN_OR_RETURN(u.uuid, r.String("uuid"));
      break;
    }
    case A::kUpgradeFormatVersion: {
      SQE_ASSIGN_OR_RETURN(u.format_version, r.Int("format-version"));
      break;
    }
    case A::kAddSchema: {
      const Json* schema = r.Get("schema");
      if (schema == nullptr) return Status::InvalidArgument(context + ": missing 'schema'");
      SQE_ASSIGN_OR_RETURN(Schema s, internal::SchemaFromJson(*schema, context + " schema"));
      u.schema = std::move(s);
      r.Skip("last-column-id");
      break;
    }
    case A::kSetCurrentSchema: {
      SQE_ASSIGN_OR_RETURN(u.id, r.Long("schema-id"));
      break;
    }
    case A::kAddPartitionSpec: {
      const Json* spec = r.Get("spec");
      if (spec == nullptr) return Status::InvalidArgument(context + ": missing 'spec'");
      SQE_ASSIGN_OR_RETURN(PartitionSpec s, internal::PartitionSpecFromJson(*spec, context));
      u.spec = std::move(s);
      break;
    }
    case A::kSetDefaultSpec: {
      SQE_ASSIGN_OR_RETURN(u.id, r.Long("spec-id"));
      break;
    }
    case A::kAddSortOrder: {
      const Json* order = r.Get("sort-order");
      if (order == nullptr) return Status::InvalidArgument(context + ": missing 'sort-order'");
      SQE_ASSIGN_OR_RETURN(SortOrder s, internal::SortOrderFromJson(*order, context));
      u.sort_order = std::move(s);
      break;
    }
    case A::kSetDefaultSortOrder: {
      SQE_ASSIGN_OR_RETURN(u.id, r.Long("sort-order-id"));
      break;
    }
    case A::kAddSnapshot: {
      const Json* snapshot = r.Get("snapshot");
      if (snapshot == nullptr) return Status::InvalidArgument(context + ": missing 'snapshot'");
      SQE_ASSIGN_OR_RETURN(Snapshot s, internal::SnapshotFromJson(*snapshot, format_version));
      u.snapshot = std::move(s);
      break;
    }
    case A::kSetSnapshotRef: {
      SQE_ASSIGN_OR_RETURN(u.ref_name, r.String("ref-name"));
      // The ref's own fields sit beside ref-name in the update object.
      Json ref = value;
      ref.erase("action");
      ref.erase("ref-name");
      SQE_ASSIGN_OR_RETURN(u.ref, internal::SnapshotRefFromJson(ref, u.ref_name));
      for (const char* k : {"type", "snapshot-id", "max-ref-age-ms", "max-snapshot-age-ms",
                            "min-snapshots-to-keep"}) {
        r.Skip(k);
      }
      break;
    }
    case A::kRemoveSnapshots: {
      SQE_ASSIGN_OR_RETURN(u.ids, LongList(r.Get("snapshot-ids"), context + " snapshot-ids"));
      break;
    }
    case A::kRemoveSnapshotRef: {
      SQE_ASSIGN_OR_RETURN(u.ref_name, r.String("ref-name"));
      break;
    }
    case A::kSetLocation: {
      SQE_ASSIGN_OR_RETURN(u.location, r.String("location"));
      break;
    }
    case A::kSetProperties: {
      SQE_ASSIGN_OR_RETURN(u.updates, r.StringMap("updates"));
      break;
    }
    case A::kRemoveProperties: {
      SQE_ASSIGN_OR_RETURN(u.removals, r.StringList("removals"));
      break;
    }
    case A::kSetStatistics: {
      const Json* stats = r.Get("statistics");
      if (stats == nullptr) return Status::InvalidArgument(context + ": missing 'statistics'");
      SQE_ASSIGN_OR_RETURN(StatisticsFile f, internal::StatisticsFileFromJson(*stats));
      u.statistics = std::move(f);
      r.Skip("snapshot-id");
      break;
    }
    case A::kRemoveStatistics:
    case A::kRemovePartitionStatistics: {
      SQE_ASSIGN_OR_RETURN(u.id, r.Long("snapshot-id"));
      break;
    }
    case A::kSetPartitionStatistics: {
      const Json* stats = r.Get("partition-statistics");
      if (stats == nullptr) {
        return Status::InvalidArgument(context + ": missing 'partition-statistics'");
      }
      SQE_ASSIGN_OR_RETURN(PartitionStatisticsFile f,
                           internal::PartitionStatisticsFileFromJson(*stats));
      u.partition_statistics = std::move(f);
      break;
    }
    case A::kRemovePartitionSpecs: {
      SQE_ASSIGN_OR_RETURN(u.ids, LongList(r.Get("spec-ids"), context + " spec-ids"));
      break;
    }
    case A::kRemoveSchemas: {
      SQE_ASSIGN_OR_RETURN(u.ids, LongList(r.Get("schema-ids"), context + " schema-ids"));
      break;
    }
  }
  return u;
}

Json UpdateToJson(const TableUpdate& u, int format_version) {
  using A = TableUpdate::Action;
  Json j = Json::object();
  j["action"] = NameOf(u.action);
  switch (u.action) {
    case A::kAssignUuid:
      j["uuid"] = u.uuid;
      break;
    case A::kUpgradeFormatVersion:
      j["format-version"] = u.format_version;
      break;
    case A::kAddSchema:
      if (u.schema) {
        j["schema"] = internal::SchemaToJson(*u.schema);
        j["last-column-id"] = u.schema->HighestFieldId();
      }
      break;
    case A::kSetCurrentSchema:
      j["schema-id"] = u.id;
      break;
    case A::kAddPartitionSpec:
      if (u.spec) j["spec"] = internal::PartitionSpecToJson(*u.spec);
      break;
    case A::kSetDefaultSpec:
      j["spec-id"] = u.id;
      break;
    case A::kAddSortOrder:
      if (u.sort_order) j["sort-order"] = internal::SortOrderToJson(*u.sort_order);
      break;
    case A::kSetDefaultSortOrder:
      j["sort-order-id"] = u.id;
      break;
    case A::kAddSnapshot:
      if (u.snapshot) j["snapshot"] = internal::SnapshotToJson(*u.snapshot, format_version);
      break;
    case A::kSetSnapshotRef: {
      j["ref-name"] = u.ref_name;
      Json ref = internal::SnapshotRefToJson(u.ref);
      for (auto it = ref.begin(); it != ref.end(); ++it) j[it.key()] = it.value();
      break;
    }
    case A::kRemoveSnapshots:
      j["snapshot-ids"] = u.ids;
      break;
    case A::kRemoveSnapshotRef:
      j["ref-name"] = u.ref_name;
      break;
    case A::kSetLocation:
      j["location"] = u.location;
      break;
    case A::kSetProperties:
      j["updates"] = u.updates;
      break;
    case A::kRemoveProperties:
      j["removals"] = u.removals;
      break;
    case A::kSetStatistics:
      if (u.statistics) j["statistics"] = internal::StatisticsFileToJson(*u.statistics);
      break;
    case A::kRemoveStatistics:
    case A::kRemovePartitionStatistics:
      j["snapshot-id"] = u.id;
      break;
    case A::kSetPartitionStatistics:
      if (u.partition_statistics) {
        j["partition-statistics"] =
            internal::PartitionStatisticsFileToJson(*u.partition_statistics);
      }
      break;
    case A::kRemovePartitionSpecs:
      j["spec-ids"] = u.ids;
      break;
    case A::kRemoveSchemas:
      j["schema-ids"] = u.ids;
      break;
  }
  return j;
}

Result<Json> ParseArray(std::string_view text, const std::string& what) {
  Json doc;
  SQE_RETURN_NOT_OK(internal::ParseJsonText(text, what, &doc));
  if (!doc.is_array()) return Status::InvalidArgument(what + " must be a JSON array");
  if (doc.size() > internal::kMaxListEntries) {
    return Status::InvalidArgument(what + " has too many entries");
  }
  return doc;
}

}  // namespace

TableRequirement TableRequirement::AssertRefSnapshotId(std::string ref, std::optional<int64_t> id) {
  TableRequirement r;
  r.kind = Kind::kAssertRefSnapshotId;
  r.ref = std::move(ref);
  r.snapshot_id = id;
  return r;
}

TableRequirement TableRequirement::AssertCurrentSchemaId(int32_t id) {
  TableRequirement r;
  r.kind = Kind::kAssertCurrentSchemaId;
  r.id = id;
  return r;
}

TableRequirement TableRequirement::AssertTableUuid(std::string uuid) {
  TableRequirement r;
  r.kind = Kind::kAssertTableUuid;
  r.uuid = std::move(uuid);
  return r;
}

TableUpdate TableUpdate::AddSnapshot(Snapshot snapshot) {
  TableUpdate u;
  u.action = Action::kAddSnapshot;
  u.snapshot = std::move(snapshot);
  return u;
}

TableUpdate TableUpdate::SetBranch(std::string name, int64_t snapshot_id) {
  TableUpdate u;
  u.action = Action::kSetSnapshotRef;
  u.ref_name = std::move(name);
  u.ref.snapshot_id = snapshot_id;
  u.ref.type = SnapshotRefType::kBranch;
  return u;
}

TableUpdate TableUpdate::SetProperties(std::map<std::string, std::string> updates) {
  TableUpdate u;
  u.action = Action::kSetProperties;
  u.updates = std::move(updates);
  return u;
}

TableUpdate TableUpdate::AddSchema(Schema schema) {
  TableUpdate u;
  u.action = Action::kAddSchema;
  u.schema = std::move(schema);
  return u;
}

TableUpdate TableUpdate::SetCurrentSchema(int32_t schema_id) {
  TableUpdate u;
  u.action = Action::kSetCurrentSchema;
  u.id = schema_id;
  return u;
}

Status CheckTableRequirements(const TableMetadata* base,
                              const std::vector<TableRequirement>& requirements) {
  for (const TableRequirement& r : requirements) SQE_RETURN_NOT_OK(CheckOne(base, r));
  return Status::OK();
}

Result<TableMetadata> ApplyTableUpdates(const TableMetadata& base,
                                        const std::vector<TableUpdate>& updates, int64_t now_ms) {
  Applier applier(base, now_ms);
  for (const TableUpdate& u : updates) SQE_RETURN_NOT_OK(applier.Apply(u));
  TableMetadata next = applier.Finish(!updates.empty());
  SQE_RETURN_NOT_OK(next.Validate());
  return next;
}

void AppendMetadataLog(const TableMetadata& previous, const std::string& previous_location,
                       TableMetadata* next) {
  if (previous_location.empty()) return;
  size_t keep = 100;
  auto it = next->properties.find("write.metadata.previous-versions-max");
  if (it != next->properties.end()) {
    try {
      keep = static_cast<size_t>(std::max(1LL, std::stoll(it->second)));
    } catch (...) {
    }
  }
  next->metadata_log.push_back({previous.last_updated_ms, previous_location, ""});
  if (next->metadata_log.size() > keep) {
    next->metadata_log.erase(next->metadata_log.begin(),
                             next->metadata_log.end() - static_cast<std::ptrdiff_t>(keep));
  }
}

Result<std::vector<TableRequirement>> ParseTableRequirements(std::string_view json_array) {
  SQE_ASSIGN_OR_RETURN(Json doc, ParseArray(json_array, "commit requirements"));
  std::vector<TableRequirement> out;
  for (const Json& v : doc) {
    SQE_ASSIGN_OR_RETURN(TableRequirement r, RequirementFromJson(v));
    out.push_back(std::move(r));
  }
  return out;
}

Result<std::vector<TableUpdate>> ParseTableUpdates(std::string_view json_array,
                                                   int format_version) {
  SQE_ASSIGN_OR_RETURN(Json doc, ParseArray(json_array, "table updates"));
  std::vector<TableUpdate> out;
  for (const Json& v : doc) {
    SQE_ASSIGN_OR_RETURN(TableUpdate u, UpdateFromJson(v, format_version));
    out.push_back(std::move(u));
  }
  return out;
}

std::string WriteTableRequirements(const std::vector<TableRequirement>& requirements) {
  Json out = Json::array();
  for (const TableRequirement& r : requirements) out.push_back(RequirementToJson(r));
  return internal::DumpJson(out, -1);
}

std::string WriteTableUpdates(const std::vector<TableUpdate>& updates, int format_version) {
  Json out = Json::array();
  for (const TableUpdate& u : updates) out.push_back(UpdateToJson(u, format_version));
  return internal::DumpJson(out, -1);
}

}  // namespace sqe::iceberg
