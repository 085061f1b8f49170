#pragma once
/// TableMetadata: the content of an Iceberg metadata.json (spec "Table Metadata" and
/// Appendix C), format versions 1-3. Parsing validates the document (required fields per
/// version, types, references between ids) and keeps every unknown field, at the top
/// level and inside each object, so WriteTableMetadata writes them back. v1 documents
/// are read into the v2 model: "schema" and "partition-spec" become schemas[0] / specs[0]
/// when the lists are absent, missing sequence numbers read as 0, and no sort order
/// means the unsorted order 0. A value type; thread-safe to read.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "iceberg/partition_spec.h"
#include "iceberg/schema.h"
#include "iceberg/snapshot.h"
#include "iceberg/sort_order.h"
#include "iceberg/statistics_file.h"

namespace sqe::iceberg {

/// An entry of "snapshot-log": the current snapshot changed to `snapshot_id` at
/// `timestamp_ms`.
struct SnapshotLogEntry {
  int64_t timestamp_ms = 0;
  int64_t snapshot_id = 0;
  std::string extra_json;
  bool operator==(const SnapshotLogEntry&) const = default;
};

/// An entry of "metadata-log": a previous metadata file.
struct MetadataLogEntry {
  int64_t timestamp_ms = 0;
  std::string metadata_file;
  std::string extra_json;
  bool operator==(const MetadataLogEntry&) const = default;
};

/// An entry of v3 "encryption-keys".
struct EncryptionKey {
  std::string key_id;
  std::string encrypted_key_metadata;
  std::optional<std::string> encrypted_by_id;
  std::map<std::string, std::string> properties;
  std::string extra_json;
  bool operator==(const EncryptionKey&) const = default;
};

struct TableMetadata {
  static constexpr int kMinFormatVersion = 1;
  static constexpr int kMaxFormatVersion = 3;

  int format_version = 2;
  std::string table_uuid;  // optional in v1 (then "")
  std::string location;
  int64_t last_sequence_number = 0;
  int64_t last_updated_ms = 0;
  int32_t last_column_id = 0;
  std::vector<Schema> schemas;
  int32_t current_schema_id = 0;
  std::vector<PartitionSpec> partition_specs;
  int32_t default_spec_id = 0;
  int32_t last_partition_id = 0;
  std::map<std::string, std::string> properties;
  std::optional<int64_t> current_snapshot_id;  // JSON -1 or null: none
  std::vector<Snapshot> snapshots;
  std::vector<SnapshotLogEntry> snapshot_log;
  std::vector<MetadataLogEntry> metadata_log;
  std::vector<SortOrder> sort_orders;
  int32_t default_sort_order_id = 0;
  /// Always holds "main" when there is a current snapshot (implied when absent in JSON).
  std::map<std::string, SnapshotRef> refs;
  std::vector<StatisticsFile> statistics;
  std::vector<PartitionStatisticsFile> partition_statistics;
  std::optional<int64_t> next_row_id;  // v3
  std::vector<EncryptionKey> encryption_keys;
  std::string extra_json;  // unknown top-level fields

  const Schema* CurrentSchema() const { return SchemaById(current_schema_id); }
  const Schema* SchemaById(int32_t schema_id) const;
  const PartitionSpec* DefaultSpec() const { return SpecById(default_spec_id); }
  const PartitionSpec* SpecById(int32_t spec_id) const;
  const SortOrder* DefaultSortOrder() const { return SortOrderById(default_sort_order_id); }
  const SortOrder* SortOrderById(int32_t order_id) const;
  const Snapshot* SnapshotById(int64_t snapshot_id) const;
  /// nullptr when the table has no current snapshot (an empty table).
  const Snapshot* CurrentSnapshot() const;
  /// The snapshot a branch or tag points at; NotFound naming the refs that exist.
  Result<const Snapshot*> SnapshotForRef(std::string_view ref_name) const;
  /// The snapshot that was current at `timestamp_ms` according to the snapshot log (the
  /// last entry at or before it); NotFound when the log has none that early.
  Result<const Snapshot*> SnapshotAsOf(int64_t timestamp_ms) const;
  /// The schema a snapshot was written with (its schema-id), else the current schema.
  Result<const Schema*> SchemaForSnapshot(int64_t snapshot_id) const;

  /// Checks the invariants ParseTableMetadata enforces (ids referenced exist, sizes);
  /// for metadata built in memory before writing it.
  Status Validate() const;

  bool operator==(const TableMetadata& other) const;
};

/// Parses metadata.json text. Corruption for malformed or inconsistent documents (the
/// message names the field), InvalidArgument for an unsupported format-version.
Result<TableMetadata> ParseTableMetadata(std::string_view json_text);

/// The JSON text of `metadata` for its format version (v1 also writes the deprecated
/// "schema" and "partition-spec"; v1/v2 write current-snapshot-id -1 when there is none,
/// v3 writes null). `pretty` indents by 2.
Result<std::string> WriteTableMetadata(const TableMetadata& metadata, bool pretty = false);

}  // namespace sqe::iceberg
