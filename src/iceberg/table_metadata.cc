#include "iceberg/table_metadata.h"

#include <algorithm>
#include <set>

#include "iceberg/json_internal.h"

namespace sqe::iceberg {

using internal::Json;
using internal::ObjectReader;

const Schema* TableMetadata::SchemaById(int32_t schema_id) const {
  for (const Schema& s : schemas) {
    if (s.schema_id() == schema_id) return &s;
  }
  return nullptr;
}

const PartitionSpec* TableMetadata::SpecById(int32_t spec_id) const {
  for (const PartitionSpec& s : partition_specs) {
    if (s.spec_id() == spec_id) return &s;
  }
  return nullptr;
}

const SortOrder* TableMetadata::SortOrderById(int32_t order_id) const {
  for (const SortOrder& o : sort_orders) {
    if (o.order_id() == order_id) return &o;
  }
  return nullptr;
}

const Snapshot* TableMetadata::SnapshotById(int64_t snapshot_id) const {
  for (const Snapshot& s : snapshots) {
    if (s.snapshot_id == snapshot_id) return &s;
  }
  return nullptr;
}

const Snapshot* TableMetadata::CurrentSnapshot() const {
  return current_snapshot_id ? SnapshotById(*current_snapshot_id) : nullptr;
}

Result<const Snapshot*> TableMetadata::SnapshotForRef(std::string_view ref_name) const {
  auto it = refs.find(std::string(ref_name));
  if (it == refs.end()) {
    std::string names;
    for (const auto& [name, ref] : refs) names += (names.empty() ? "" : ", ") + name;
    return Status::NotFound("branch or tag '" + std::string(ref_name) + "' not found in table " +
                            location + " (refs: " + (names.empty() ? "none" : names) + ")");
  }
  const Snapshot* snapshot = SnapshotById(it->second.snapshot_id);
  if (snapshot == nullptr) {
    return Status::NotFound("ref '" + std::string(ref_name) + "' points at snapshot " +
                            std::to_string(it->second.snapshot_id) + ", which does not exist");
  }
  return snapshot;
}

Result<const Snapshot*> TableMetadata::SnapshotAsOf(int64_t timestamp_ms) const {
  const SnapshotLogEntry* found = nullptr;
  for (const SnapshotLogEntry& e : snapshot_log) {
    if (e.timestamp_ms <= timestamp_ms) found = &e;
  }
  if (found == nullptr) {
    std::string earliest = snapshot_log.empty()
                               ? "the snapshot log is empty"
                               : "the earliest snapshot-log entry is at " +
                                     std::to_string(snapshot_log.front().timestamp_ms) + " ms";
    return Status::NotFound("no snapshot of table " + location + " at or before " +
                            std::to_string(timestamp_ms) + " ms (" + earliest + ")");
  }
  const Snapshot* snapshot = SnapshotById(found->snapshot_id);
  if (snapshot == nullptr) {
    return Status::NotFound("the snapshot current at " + std::to_string(timestamp_ms) + " ms (" +
                            std::to_string(found->snapshot_id) + ") has expired");
  }
  return snapshot;
}

Result<const Schema*> TableMetadata::SchemaForSnapshot(int64_t snapshot_id) const {
  const Snapshot* snapshot = SnapshotById(snapshot_id);
  if (snapshot == nullptr) {
    return Status::NotFound("snapshot " + std::to_string(snapshot_id) + " not found in table " +
                            location);
  }
  if (snapshot->schema_id) {
    const Schema* schema = SchemaById(*snapshot->schema_id);
    if (schema != nullptr) return schema;
  }
  const Schema* current = CurrentSchema();
  if (current == nullptr) return Status::Corruption("table has no current schema");
  return current;
}

namespace {

Status Invalid(const std::string& message) {
  return Status::Corruption("table metadata: " + message);
}

template <typename T, typename IdOf>
Status CheckUniqueIds(const std::vector<T>& items, IdOf id_of, const char* field) {
  std::set<int64_t> seen;
  for (const T& item : items) {
    if (!seen.insert(id_of(item)).second) {
      return Invalid(std::string("field '") + field + "' has duplicate id " +
                     std::to_string(id_of(item)));
    }
  }
  return Status::OK();
}

}  // namespace

Status TableMetadata::Validate() const {
  if (format_version < kMinFormatVersion || format_version > kMaxFormatVersion) {
    return Status::InvalidArgument("table metadata: unsupported format-version " +
                                   std::to_string(format_version) + " (supported: 1, 2, 3)");
  }
  if (format_version >= 2 && table_uuid.empty()) {
    return Invalid("field 'table-uuid' is required for format-version 2+");
  }
  if (last_column_id < 0) return Invalid("field 'last-column-id' must be >= 0");
  if (last_sequence_number < 0) return Invalid("field 'last-sequence-number' must be >= 0");
  if (schemas.empty()) return Invalid("field 'schemas' must list at least one schema");
  SQE_RETURN_NOT_OK(CheckUniqueIds(
      schemas, [](const Schema& s) { return s.schema_id(); }, "schemas"));
  if (CurrentSchema() == nullptr) {
    return Invalid("field 'current-schema-id' is " + std::to_string(current_schema_id) +
                   ", which is not the id of any schema in 'schemas'");
  }
  if (partition_specs.empty()) {
    return Invalid("field 'partition-specs' must list at least one spec");
  }
  SQE_RETURN_NOT_OK(CheckUniqueIds(
      partition_specs, [](const PartitionSpec& s) { return s.spec_id(); }, "partition-specs"));
  if (DefaultSpec() == nullptr) {
    return Invalid("field 'default-spec-id' is " + std::to_string(default_spec_id) +
                   ", which is not the id of any spec in 'partition-specs'");
  }
  if (sort_orders.empty()) return Invalid("field 'sort-orders' must list at least one order");
  SQE_RETURN_NOT_OK(CheckUniqueIds(
      sort_orders, [](const SortOrder& o) { return o.order_id(); }, "sort-orders"));
  if (DefaultSortOrder() == nullptr) {
    return Invalid("field 'default-sort-order-id' is " + std::to_string(default_sort_order_id) +
                   ", which is not the id of any order in 'sort-orders'");
  }
  SQE_RETURN_NOT_OK(CheckUniqueIds(
      snapshots, [](const Snapshot& s) { return s.snapshot_id; }, "snapshots"));
  for (const Snapshot& s : snapshots) {
    if (format_version >= 2 && s.sequence_number > last_sequence_number) {
      return Invalid("snapshot " + std::to_string(s.snapshot_id) + " has sequence-number " +
                     std::to_string(s.sequence_number) + " above 'last-sequence-number' " +
                     std::to_string(last_sequence_number));
    }
  }
  if (current_snapshot_id && SnapshotById(*current_snapshot_id) == nullptr) {
    return Invalid("field 'current-snapshot-id' is " + std::to_string(*current_snapshot_id) +
                   ", which is not the id of any snapshot in 'snapshots'");
  }
  for (const auto& [name, ref] : refs) {
    if (SnapshotById(ref.snapshot_id) == nullptr) {
      return Invalid("ref '" + name + "' points at snapshot " + std::to_string(ref.snapshot_id) +
                     ", which is not in 'snapshots'");
    }
  }
  auto main = refs.find(SnapshotRef::kMainBranch);
  if (main != refs.end()) {
    if (!main->second.is_branch()) return Invalid("ref 'main' must be a branch");
    if (current_snapshot_id != main->second.snapshot_id) {
      return Invalid("field 'current-snapshot-id' does not match the 'main' branch (snapshot " +
                     std::to_string(main->second.snapshot_id) + ")");
    }
  }
  if (format_version >= 3) {
    if (!next_row_id) return Invalid("field 'next-row-id' is required for format-version 3");
    if (*next_row_id < 0) return Invalid("field 'next-row-id' must be >= 0");
  }
  return Status::OK();
}

bool TableMetadata::operator==(const TableMetadata& o) const {
  if (schemas.size() != o.schemas.size()) return false;
  for (size_t i = 0; i < schemas.size(); ++i) {
    if (!schemas[i].Equals(o.schemas[i])) return false;
  }
  return format_version == o.format_version && table_uuid == o.table_uuid &&
         location == o.location && last_sequence_number == o.last_sequence_number &&
         last_updated_ms == o.last_updated_ms && last_column_id == o.last_column_id &&
         current_schema_id == o.current_schema_id && partition_specs == o.partition_specs &&
         default_spec_id == o.default_spec_id && last_partition_id == o.last_partition_id &&
         properties == o.properties && current_snapshot_id == o.current_snapshot_id &&
         snapshots == o.snapshots && snapshot_log == o.snapshot_log &&
         metadata_log == o.metadata_log && sort_orders == o.sort_orders &&
         default_sort_order_id == o.default_sort_order_id && refs == o.refs &&
         statistics == o.statistics && partition_statistics == o.partition_statistics &&
         next_row_id == o.next_row_id && encryption_keys == o.encryption_keys &&
         extra_json == o.extra_json;
}

namespace {

std::string Indexed(const char* field, size_t i) {
  return std::string(field) + "[" + std::to_string(i) + "]";
}

// Parses each entry of the array field `key` with `parse(entry, index)`.
template <typename T, typename Parse>
Status ParseList(ObjectReader& reader, const char* key, bool required, std::vector<T>* out,
                 Parse parse) {
  SQE_ASSIGN_OR_RETURN(const Json* list, reader.Array(key));
  if (list == nullptr) {
    if (required) return reader.Error(key, "is required but missing");
    return Status::OK();
  }
  out->reserve(list->size());
  for (size_t i = 0; i < list->size(); ++i) {
    Result<T> item = parse((*list)[i], i);
    if (!item.ok()) return item.status();
    out->push_back(std::move(item).value());
  }
  return Status::OK();
}

Status ParseSchemas(ObjectReader& r, int version, TableMetadata* m) {
  SQE_RETURN_NOT_OK(ParseList(r, "schemas", version >= 2, &m->schemas, [](const Json& j, size_t i) {
    return internal::SchemaFromJson(j, Indexed("schemas", i));
  }));
  const Json* legacy = r.Get("schema");
  if (!m->schemas.empty()) {
    SQE_ASSIGN_OR_RETURN(m->current_schema_id, r.Int("current-schema-id"));
    return Status::OK();
  }
  // v1 without "schemas": the deprecated single "schema" is the only and current one.
  if (legacy == nullptr) return r.Error("schema", "is required when 'schemas' is missing");
  SQE_ASSIGN_OR_RETURN(Schema schema, internal::SchemaFromJson(*legacy, "schema"));
  SQE_ASSIGN_OR_RETURN(std::optional<int32_t> current, r.OptInt("current-schema-id"));
  m->current_schema_id = current.value_or(schema.schema_id());
  m->schemas.push_back(std::move(schema));
  return Status::OK();
}

Status ParseSpecs(ObjectReader& r, int version, TableMetadata* m) {
  SQE_RETURN_NOT_OK(ParseList(
      r, "partition-specs", version >= 2, &m->partition_specs, [version](const Json& j, size_t i) {
        return internal::PartitionSpecFromJson(j, Indexed("partition-specs", i), version == 1);
      }));
  SQE_ASSIGN_OR_RETURN(const Json* legacy, r.Array("partition-spec"));
  if (!m->partition_specs.empty()) {
    SQE_ASSIGN_OR_RETURN(m->default_spec_id, r.Int("default-spec-id"));
  } else {
    if (legacy == nullptr) {
      return r.Error("partition-spec", "is required when 'partition-specs' is missing");
    }
    SQE_ASSIGN_OR_RETURN(std::optional<int32_t> default_id, r.OptInt("default-spec-id"));
    m->default_spec_id = default_id.value_or(0);
    std::vector<PartitionField> fields;
    int32_t next_id = PartitionSpec::kFirstFieldId;
    for (const Json& item : *legacy) {
      SQE_ASSIGN_OR_RETURN(PartitionField f,
                           internal::PartitionFieldFromJson(item, "partition-spec", next_id));
      next_id = f.field_id + 1;
      fields.push_back(std::move(f));
    }
    m->partition_specs.emplace_back(m->default_spec_id, std::move(fields));
  }
  SQE_ASSIGN_OR_RETURN(std::optional<int32_t> last_partition_id, r.OptInt("last-partition-id"));
  if (!last_partition_id) {
    if (version >= 2) return r.Error("last-partition-id", "is required but missing");
    int32_t last = PartitionSpec::kFirstFieldId - 1;
    for (const PartitionSpec& s : m->partition_specs) last = std::max(last, s.LastFieldId());
    last_partition_id = last;
  }
  m->last_partition_id = *last_partition_id;
  return Status::OK();
}

Status ParseSortOrders(ObjectReader& r, int version, TableMetadata* m) {
  SQE_RETURN_NOT_OK(
      ParseList(r, "sort-orders", version >= 2, &m->sort_orders, [](const Json& j, size_t i) {
        return internal::SortOrderFromJson(j, Indexed("sort-orders", i));
      }));
  SQE_ASSIGN_OR_RETURN(std::optional<int32_t> default_id, r.OptInt("default-sort-order-id"));
  if (!default_id && version >= 2) {
    return r.Error("default-sort-order-id", "is required but missing");
  }
  if (m->sort_orders.empty()) m->sort_orders.push_back(SortOrder::Unsorted());
  m->default_sort_order_id = default_id.value_or(SortOrder::kUnsortedOrderId);
  return Status::OK();
}

Status ParseRefs(ObjectReader& r, TableMetadata* m) {
  const Json* refs = r.Get("refs");
  if (refs != nullptr) {
    if (!refs->is_object())
      return r.Error("refs", "must be an object, got " + internal::JsonKind(*refs));
    if (refs->size() > internal::kMaxListEntries) return r.Error("refs", "has too many entries");
    for (auto it = refs->begin(); it != refs->end(); ++it) {
      SQE_ASSIGN_OR_RETURN(SnapshotRef ref, internal::SnapshotRefFromJson(*it, it.key()));
      m->refs.emplace(it.key(), std::move(ref));
    }
  }
  auto main = m->refs.find(SnapshotRef::kMainBranch);
  if (main == m->refs.end()) {
    // The main branch is implied by current-snapshot-id.
    if (m->current_snapshot_id) {
      SnapshotRef ref;
      ref.snapshot_id = *m->current_snapshot_id;
      m->refs.emplace(SnapshotRef::kMainBranch, ref);
    }
  } else if (!m->current_snapshot_id) {
    m->current_snapshot_id = main->second.snapshot_id;
  }
  return Status::OK();
}

Result<SnapshotLogEntry> SnapshotLogFromJson(const Json& value, size_t i) {
  SQE_ASSIGN_OR_RETURN(ObjectReader r, ObjectReader::Make(value, Indexed("snapshot-log", i)));
  SnapshotLogEntry e;
  SQE_ASSIGN_OR_RETURN(e.timestamp_ms, r.Long("timestamp-ms"));
  SQE_ASSIGN_OR_RETURN(e.snapshot_id, r.Long("snapshot-id"));
  e.extra_json = r.Extras();
  return e;
}

Result<MetadataLogEntry> MetadataLogFromJson(const Json& value, size_t i) {
  SQE_ASSIGN_OR_RETURN(ObjectReader r, ObjectReader::Make(value, Indexed("metadata-log", i)));
  MetadataLogEntry e;
  SQE_ASSIGN_OR_RETURN(e.timestamp_ms, r.Long("timestamp-ms"));
  SQE_ASSIGN_OR_RETURN(e.metadata_file, r.String("metadata-file"));
  e.extra_json = r.Extras();
  return e;
}

Result<EncryptionKey> EncryptionKeyFromJson(const Json& value, size_t i) {
  SQE_ASSIGN_OR_RETURN(ObjectReader r, ObjectReader::Make(value, Indexed("encryption-keys", i)));
  EncryptionKey k;
  SQE_ASSIGN_OR_RETURN(k.key_id, r.String("key-id"));
  SQE_ASSIGN_OR_RETURN(k.encrypted_key_metadata, r.String("encrypted-key-metadata"));
  SQE_ASSIGN_OR_RETURN(k.encrypted_by_id, r.OptString("encrypted-by-id"));
  SQE_ASSIGN_OR_RETURN(k.properties, r.StringMap("properties"));
  k.extra_json = r.Extras();
  return k;
}

Result<TableMetadata> FromJson(const Json& root) {
  SQE_ASSIGN_OR_RETURN(ObjectReader r, ObjectReader::Make(root, "table metadata"));
  TableMetadata m;
  SQE_ASSIGN_OR_RETURN(m.format_version, r.Int("format-version"));
  if (m.format_version < TableMetadata::kMinFormatVersion ||
      m.format_version > TableMetadata::kMaxFormatVersion) {
    return Status::InvalidArgument("table metadata: unsupported format-version " +
                                   std::to_string(m.format_version) + " (supported: 1, 2, 3)");
  }
  const int v = m.format_version;
  SQE_ASSIGN_OR_RETURN(std::optional<std::string> uuid, r.OptString("table-uuid"));
  if (!uuid && v >= 2) return r.Error("table-uuid", "is required but missing");
  m.table_uuid = uuid.value_or("");
  SQE_ASSIGN_OR_RETURN(m.location, r.String("location"));
  // v1 has no sequence numbers (they read as 0); a v1 document that has the field anyway
  // keeps it as an unknown field.
  if (v >= 2) {
    SQE_ASSIGN_OR_RETURN(m.last_sequence_number, r.Long("last-sequence-number"));
  }
  SQE_ASSIGN_OR_RETURN(m.last_updated_ms, r.Long("last-updated-ms"));
  SQE_ASSIGN_OR_RETURN(m.last_column_id, r.Int("last-column-id"));
  SQE_RETURN_NOT_OK(ParseSchemas(r, v, &m));
  SQE_RETURN_NOT_OK(ParseSpecs(r, v, &m));
  SQE_ASSIGN_OR_RETURN(m.properties, r.StringMap("properties"));
  SQE_ASSIGN_OR_RETURN(std::optional<int64_t> current, r.OptLong("current-snapshot-id"));
  if (current && *current != -1) m.current_snapshot_id = current;
  SQE_RETURN_NOT_OK(ParseList(r, "snapshots", false, &m.snapshots, [v](const Json& j, size_t) {
    return internal::SnapshotFromJson(j, v);
  }));
  SQE_RETURN_NOT_OK(ParseList(r, "snapshot-log", false, &m.snapshot_log, SnapshotLogFromJson));
  SQE_RETURN_NOT_OK(ParseList(r, "metadata-log", false, &m.metadata_log, MetadataLogFromJson));
  SQE_RETURN_NOT_OK(ParseSortOrders(r, v, &m));
  SQE_RETURN_NOT_OK(ParseRefs(r, &m));
  SQE_RETURN_NOT_OK(ParseList(r, "statistics", false, &m.statistics, [](const Json& j, size_t) {
    return internal::StatisticsFileFromJson(j);
  }));
  SQE_RETURN_NOT_OK(ParseList(
      r, "partition-statistics", false, &m.partition_statistics,
      [](const Json& j, size_t) { return internal::PartitionStatisticsFileFromJson(j); }));
  if (v >= 3) {  // before v3 the field is unknown and kept as such
    SQE_ASSIGN_OR_RETURN(m.next_row_id, r.OptLong("next-row-id"));
  }
  SQE_RETURN_NOT_OK(
      ParseList(r, "encryption-keys", false, &m.encryption_keys, EncryptionKeyFromJson));
  m.extra_json = r.Extras();
  SQE_RETURN_NOT_OK(m.Validate());
  return m;
}

Json ToJson(const TableMetadata& m) {
  const int v = m.format_version;
  Json out = Json::object();
  out["format-version"] = v;
  if (!m.table_uuid.empty()) out["table-uuid"] = m.table_uuid;
  out["location"] = m.location;
  if (v >= 2) out["last-sequence-number"] = m.last_sequence_number;
  out["last-updated-ms"] = m.last_updated_ms;
  out["last-column-id"] = m.last_column_id;
  if (v == 1 && m.CurrentSchema() != nullptr) {
    out["schema"] = internal::SchemaToJson(*m.CurrentSchema());
  }
  Json schemas = Json::array();
  for (const Schema& s : m.schemas) schemas.push_back(internal::SchemaToJson(s));
  out["schemas"] = std::move(schemas);
  out["current-schema-id"] = m.current_schema_id;
  if (v == 1 && m.DefaultSpec() != nullptr) {
    out["partition-spec"] = internal::PartitionSpecToJson(*m.DefaultSpec())["fields"];
  }
  Json specs = Json::array();
  for (const PartitionSpec& s : m.partition_specs)
    specs.push_back(internal::PartitionSpecToJson(s));
  out["partition-specs"] = std::move(specs);
  out["default-spec-id"] = m.default_spec_id;
  out["last-partition-id"] = m.last_partition_id;
  out["properties"] = m.properties;
  if (m.current_snapshot_id) {
    out["current-snapshot-id"] = *m.current_snapshot_id;
  } else {
    // Java wrote -1 for "none" before v3 and null from v3 on (Appendix F).
    out["current-snapshot-id"] = v >= 3 ? Json(nullptr) : Json(-1);
  }
  // v1 does not have refs; write them only when they say more than the implied main.
  SnapshotRef implied_main;
  implied_main.snapshot_id = m.current_snapshot_id.value_or(-1);
  bool only_implied_main = m.refs.size() == 1 && m.refs.count(SnapshotRef::kMainBranch) == 1 &&
                           m.refs.begin()->second == implied_main;
  if (v >= 2 || (!m.refs.empty() && !only_implied_main)) {
    Json refs = Json::object();
    for (const auto& [name, ref] : m.refs) refs[name] = internal::SnapshotRefToJson(ref);
    out["refs"] = std::move(refs);
  }
  Json snapshots = Json::array();
  for (const Snapshot& s : m.snapshots) snapshots.push_back(internal::SnapshotToJson(s, v));
  out["snapshots"] = std::move(snapshots);
  if (!m.statistics.empty()) {
    Json stats = Json::array();
    for (const StatisticsFile& f : m.statistics) stats.push_back(internal::StatisticsFileToJson(f));
    out["statistics"] = std::move(stats);
  }
  if (!m.partition_statistics.empty()) {
    Json stats = Json::array();
    for (const PartitionStatisticsFile& f : m.partition_statistics) {
      stats.push_back(internal::PartitionStatisticsFileToJson(f));
    }
    out["partition-statistics"] = std::move(stats);
  }
  Json snapshot_log = Json::array();
  for (const SnapshotLogEntry& e : m.snapshot_log) {
    Json entry = {{"timestamp-ms", e.timestamp_ms}, {"snapshot-id", e.snapshot_id}};
    internal::MergeExtras(e.extra_json, &entry);
    snapshot_log.push_back(std::move(entry));
  }
  out["snapshot-log"] = std::move(snapshot_log);
  Json metadata_log = Json::array();
  for (const MetadataLogEntry& e : m.metadata_log) {
    Json entry = {{"timestamp-ms", e.timestamp_ms}, {"metadata-file", e.metadata_file}};
    internal::MergeExtras(e.extra_json, &entry);
    metadata_log.push_back(std::move(entry));
  }
  out["metadata-log"] = std::move(metadata_log);
  Json orders = Json::array();
  for (const SortOrder& o : m.sort_orders) orders.push_back(internal::SortOrderToJson(o));
  out["sort-orders"] = std::move(orders);
  out["default-sort-order-id"] = m.default_sort_order_id;
  if (v >= 3 && m.next_row_id) out["next-row-id"] = *m.next_row_id;
  if (!m.encryption_keys.empty()) {
    Json keys = Json::array();
    for (const EncryptionKey& k : m.encryption_keys) {
      Json key = {{"key-id", k.key_id}, {"encrypted-key-metadata", k.encrypted_key_metadata}};
      if (k.encrypted_by_id) key["encrypted-by-id"] = *k.encrypted_by_id;
      if (!k.properties.empty()) key["properties"] = k.properties;
      internal::MergeExtras(k.extra_json, &key);
      keys.push_back(std::move(key));
    }
    out["encryption-keys"] = std::move(keys);
  }
  internal::MergeExtras(m.extra_json, &out);
  return out;
}

}  // namespace

Result<TableMetadata> ParseTableMetadata(std::string_view json_text) {
  Json root;
  SQE_RETURN_NOT_OK(internal::ParseJsonText(json_text, "table metadata", &root));
  try {
    return FromJson(root);
  } catch (const std::exception& e) {
    return Status::Corruption(std::string("table metadata: ") + e.what());
  }
}

Result<std::string> WriteTableMetadata(const TableMetadata& metadata, bool pretty) {
  SQE_RETURN_NOT_OK(metadata.Validate());
  try {
    return internal::DumpJson(ToJson(metadata), pretty ? 2 : -1);
  } catch (const std::exception& e) {
    return Status::Internal(std::string("writing table metadata: ") + e.what());
  }
}

}  // namespace sqe::iceberg
