#pragma once
/// Table evolution as Iceberg defines it: SchemaUpdate (add, rename, drop, widen, make
/// optional, document columns, set identifier fields), PartitionSpecUpdate (add, remove,
/// rename partition fields) and a sort order replacement. Each records what to change by
/// column NAME and resolves it against the metadata it is applied to, so a writer that lost
/// a commit race replays it on the refreshed metadata (as Iceberg Java does). Apply()
/// gives the requirements + updates of one commit (TableChange), or InvalidArgument naming
/// the column and the rule it breaks; nothing is half-applied.
///
/// Rules (spec "Schema Evolution", "Partition Evolution"): new columns get fresh ids above
/// last-column-id (nested fields too); a required column needs an initial default; only
/// int->long, float->double and decimal(P,S)->decimal(P',S) with P' >= P widen; identifier
/// fields cannot be dropped; names stay unique per struct; v1 tables replace a removed
/// partition field with a void transform (its id stays), v2+ drop it.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/result.h"
#include "iceberg/table_metadata.h"
#include "iceberg/table_update.h"

namespace sqe::iceberg {

class SchemaUpdate {
 public:
  /// Adds `name` under `parent` ("" = top level; else a struct column's dotted name, or a
  /// list's "<col>.element" / a map's "<col>.value" when those are structs).
  SchemaUpdate& AddColumn(std::string parent, std::string name, TypePtr type, bool required = false,
                          std::optional<std::string> doc = std::nullopt,
                          std::optional<std::string> initial_default_json = std::nullopt);
  SchemaUpdate& RenameColumn(std::string column, std::string new_name);
  SchemaUpdate& DeleteColumn(std::string column);
  SchemaUpdate& UpdateColumnType(std::string column, TypePtr new_type);
  SchemaUpdate& MakeColumnOptional(std::string column);
  SchemaUpdate& UpdateColumnDoc(std::string column, std::string doc);
  SchemaUpdate& SetIdentifierFields(std::vector<std::string> columns);

  /// The schema this update gives on `base`'s current schema (its id not yet assigned).
  Result<Schema> ApplyToSchema(const TableMetadata& base) const;
  /// add-schema + set-current-schema, asserting the current schema id and the last
  /// assigned field id of `base`; empty when the schema would not change.
  Result<TableChange> Apply(const TableMetadata& base) const;

 private:
  struct Op {
    enum class Kind { kAdd, kRename, kDelete, kType, kOptional, kDoc } kind;
    std::string column;  // the column changed; kAdd: the parent ("" = top level)
    std::string name;    // kAdd: the new column; kRename: the new name; kDoc: the doc
    TypePtr type;
    bool required = false;
    std::optional<std::string> doc;
    std::optional<std::string> initial_default_json;
  };
  std::vector<Op> ops_;
  std::optional<std::vector<std::string>> identifier_fields_;
};

class PartitionSpecUpdate {
 public:
  /// A partition field of `transform` over `source_column`; `name` "" picks Iceberg's
  /// default ("day" of ts -> "ts_day", identity -> the column's name, bucket[16] of id ->
  /// "id_bucket_16"), as Iceberg Java's partition evolution names them.
  PartitionSpecUpdate& AddField(std::string source_column, Transform transform,
                                std::string name = "");
  PartitionSpecUpdate& RemoveField(std::string name);
  PartitionSpecUpdate& RenameField(std::string name, std::string new_name);

  /// The spec this update gives on `base`'s default spec (its id not yet assigned).
  Result<PartitionSpec> ApplyToSpec(const TableMetadata& base) const;
  /// add-spec + set-default-spec asserting the default spec id and last partition id.
  Result<TableChange> Apply(const TableMetadata& base) const;

 private:
  struct Op {
    enum class Kind { kAdd, kRemove, kRename } kind;
    std::string column_or_name;
    Transform transform = Transform::Identity();
    std::string name;
  };
  std::vector<Op> ops_;
};

/// One field of a sort order by column name.
struct SortTerm {
  std::string column;
  Transform transform = Transform::Identity();
  SortDirection direction = SortDirection::kAsc;
  NullOrder null_order = NullOrder::kNullsFirst;
};

/// add-sort-order + set-default-sort-order replacing `base`'s default order with `terms`
/// (empty = unsorted), asserting the default sort order id.
Result<TableChange> ReplaceSortOrder(const TableMetadata& base, const std::vector<SortTerm>& terms);

/// The partition field name Iceberg gives `transform` over `column` by default.
std::string DefaultPartitionFieldName(const std::string& column, const Transform& transform);

}  // namespace sqe::iceberg
