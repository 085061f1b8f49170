#pragma once
/// Table commits as the Iceberg REST protocol describes them (CommitTableRequest):
/// requirements a writer asserts about the metadata it started from, and updates that
/// turn that metadata into the next one. Every catalog commits through these, so the REST
/// server, the REST client and the metastore catalogs agree: the REST server applies a
/// client's request with ApplyTableUpdates, the others build the same update lists.
///
/// JSON forms follow the REST OpenAPI spec ("type": "assert-ref-snapshot-id", ...;
/// "action": "add-snapshot", ...). Unknown requirement types or actions are
/// InvalidArgument naming them (never silently ignored).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/result.h"
#include "iceberg/table_metadata.h"

namespace sqe::iceberg {

/// A precondition on the base metadata (nullptr base: the table must not exist yet).
struct TableRequirement {
  enum class Kind {
    kAssertCreate,
    kAssertTableUuid,
    kAssertRefSnapshotId,
    kAssertLastAssignedFieldId,
    kAssertCurrentSchemaId,
    kAssertLastAssignedPartitionId,
    kAssertDefaultSpecId,
    kAssertDefaultSortOrderId,
  };
  Kind kind = Kind::kAssertCreate;
  std::string uuid;                    // assert-table-uuid
  std::string ref;                     // assert-ref-snapshot-id
  std::optional<int64_t> snapshot_id;  // assert-ref-snapshot-id (nullopt: ref must not exist)
  int64_t id = 0;                      // the other asserts' expected id

  static TableRequirement AssertRefSnapshotId(std::string ref, std::optional<int64_t> id);
  static TableRequirement AssertCurrentSchemaId(int32_t id);
  static TableRequirement AssertTableUuid(std::string uuid);
};

/// One change to table metadata.
struct TableUpdate {
  enum class Action {
    kAssignUuid,
    kUpgradeFormatVersion,
    kAddSchema,
    kSetCurrentSchema,
    kAddPartitionSpec,
    kSetDefaultSpec,
    kAddSortOrder,
    kSetDefaultSortOrder,
    kAddSnapshot,
    kSetSnapshotRef,
    kRemoveSnapshots,
    kRemoveSnapshotRef,
    kSetLocation,
    kSetProperties,
    kRemoveProperties,
    kSetStatistics,
    kRemoveStatistics,
    kSetPartitionStatistics,
    kRemovePartitionStatistics,
    kRemovePartitionSpecs,
    kRemoveSchemas,
  };
  /// -1 in set-current-schema / set-default-spec / set-default-sort-order: the one added
  /// last in the same commit.
  static constexpr int32_t kLastAdded = -1;

  Action action = Action::kSetProperties;
  std::string uuid;                     // assign-uuid
  int format_version = 0;               // upgrade-format-version
  std::optional<Schema> schema;         // add-schema
  std::optional<PartitionSpec> spec;    // add-spec
  std::optional<SortOrder> sort_order;  // add-sort-order
  std::optional<Snapshot> snapshot;     // add-snapshot
  int64_t id = 0;  // set-current-schema, set-default-spec, set-default-sort-order, stats snapshot
  std::string ref_name;                        // set/remove-snapshot-ref
  SnapshotRef ref;                             // set-snapshot-ref
  std::vector<int64_t> ids;                    // remove-snapshots, -partition-specs, -schemas
  std::string location;                        // set-location
  std::map<std::string, std::string> updates;  // set-properties
  std::vector<std::string> removals;           // remove-properties
  std::optional<StatisticsFile> statistics;    // set-statistics
  std::optional<PartitionStatisticsFile> partition_statistics;  // set-partition-statistics

  static TableUpdate AddSnapshot(Snapshot snapshot);
  static TableUpdate SetBranch(std::string name, int64_t snapshot_id);
  static TableUpdate SetProperties(std::map<std::string, std::string> updates);
  static TableUpdate AddSchema(Schema schema);
  static TableUpdate SetCurrentSchema(int32_t schema_id);
};

/// One commit's worth of metadata change: what the writer asserts and what it changes.
struct TableChange {
  std::vector<TableRequirement> requirements;
  std::vector<TableUpdate> updates;
  bool empty() const { return updates.empty(); }
};

/// Conflict naming the failed requirement when `base` does not satisfy them all.
Status CheckTableRequirements(const TableMetadata* base,
                              const std::vector<TableRequirement>& requirements);

/// The metadata after `updates`, in order, with last-updated-ms = `now_ms` when anything
/// changed. InvalidArgument for an update that cannot apply (an unknown snapshot in a
/// ref, a format downgrade, removing the current schema, ...), naming it.
Result<TableMetadata> ApplyTableUpdates(const TableMetadata& base,
                                        const std::vector<TableUpdate>& updates, int64_t now_ms);

/// Records `previous_location` (the metadata file `previous` was read from) in the
/// metadata log of `next`, keeping at most write.metadata.previous-versions-max (100)
/// entries, as writers do when they write a new metadata file.
void AppendMetadataLog(const TableMetadata& previous, const std::string& previous_location,
                       TableMetadata* next);

/// JSON (REST CommitTableRequest parts).
Result<std::vector<TableRequirement>> ParseTableRequirements(std::string_view json_array);
Result<std::vector<TableUpdate>> ParseTableUpdates(std::string_view json_array, int format_version);
std::string WriteTableRequirements(const std::vector<TableRequirement>& requirements);
std::string WriteTableUpdates(const std::vector<TableUpdate>& updates, int format_version);

}  // namespace sqe::iceberg
