#pragma once
/// Private to src/iceberg: typed, non-throwing access to the fields of one JSON object of
/// Iceberg metadata, and the JSON (de)serializers of each metadata object. Every error is
/// a Corruption naming the object and the field; every field not read is kept as an
/// "extra" (unknown field) so a rewrite preserves it.

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/result.h"
#include "iceberg/partition_spec.h"
#include "iceberg/schema.h"
#include "iceberg/snapshot.h"
#include "iceberg/sort_order.h"
#include "iceberg/statistics_file.h"
#include "iceberg/types.h"

namespace sqe::iceberg::internal {

using Json = nlohmann::json;

/// Upper bounds that keep hostile metadata from exhausting memory or the stack.
inline constexpr size_t kMaxListEntries = 1000000;
inline constexpr int kMaxTypeDepth = 64;

/// Reads the fields of one JSON object. `context` names the object in errors
/// ("table metadata", "snapshot 12", "schema 0 field 'id'").
class ObjectReader {
 public:
  ObjectReader(const Json& object, std::string context)
      : object_(object), context_(std::move(context)) {}

  /// Builds a reader after checking that `value` is an object.
  static Result<ObjectReader> Make(const Json& value, std::string context);

  /// The field's value, or nullptr when absent or JSON null. Marks the field as known.
  const Json* Get(const char* key);
  /// Marks a field as known without reading it (it will not be kept as an extra).
  void Skip(const char* key) { known_.insert(key); }
  bool Has(const char* key);

  Result<int32_t> Int(const char* key);
  Result<std::optional<int32_t>> OptInt(const char* key);
  Result<int64_t> Long(const char* key);
  Result<std::optional<int64_t>> OptLong(const char* key);
  Result<std::string> String(const char* key);
  Result<std::optional<std::string>> OptString(const char* key);
  Result<bool> Bool(const char* key);
  Result<std::optional<bool>> OptBool(const char* key);
  Result<std::map<std::string, std::string>> StringMap(const char* key);  // absent: empty
  Result<std::vector<int32_t>> IntList(const char* key);                  // absent: empty
  Result<std::vector<std::string>> StringList(const char* key);           // absent: empty
  /// The field as an array (absent: nullptr), checked against kMaxListEntries.
  Result<const Json*> Array(const char* key);

  /// The JSON text of an object with every field not read so far ("" when none).
  std::string Extras() const;

  const std::string& context() const { return context_; }
  Status Error(const char* key, const std::string& problem) const;

 private:
  Result<int64_t> IntegerIn(const char* key, const Json& value, int64_t min, int64_t max);

  const Json& object_;
  std::string context_;
  std::set<std::string> known_;
};

/// The JSON type name of a value for error messages ("string", "object", ...).
std::string JsonKind(const Json& value);
/// Adds the fields of `extras_json` (an object text from ObjectReader::Extras) to *out,
/// except fields *out already has.
void MergeExtras(const std::string& extras_json, Json* out);
/// Parses text into *out without throwing; rejects nesting deeper than a sane bound.
Status ParseJsonText(std::string_view text, const std::string& what, Json* out);
/// Serializes without throwing (invalid UTF-8 is replaced).
std::string DumpJson(const Json& value, int indent);

// Serializers of each metadata object (implemented beside the object).
Result<TypePtr> TypeFromJson(const Json& value, const std::string& context, int depth);
Json TypeToJson(const Type& type);
Result<Schema> SchemaFromJson(const Json& value, const std::string& context);
Json SchemaToJson(const Schema& schema);
Result<PartitionField> PartitionFieldFromJson(const Json& value, const std::string& context,
                                              std::optional<int32_t> default_field_id);
Json PartitionFieldToJson(const PartitionField& field);
/// `v1_field_ids`: a missing field-id is assigned 1000, 1001, ... (v1 tables).
Result<PartitionSpec> PartitionSpecFromJson(const Json& value, const std::string& context,
                                            bool v1_field_ids = false);
Json PartitionSpecToJson(const PartitionSpec& spec);
Result<SortOrder> SortOrderFromJson(const Json& value, const std::string& context);
Json SortOrderToJson(const SortOrder& order);
Result<Snapshot> SnapshotFromJson(const Json& value, int format_version);
Json SnapshotToJson(const Snapshot& snapshot, int format_version);
Result<SnapshotRef> SnapshotRefFromJson(const Json& value, const std::string& name);
Json SnapshotRefToJson(const SnapshotRef& ref);
Result<StatisticsFile> StatisticsFileFromJson(const Json& value);
Json StatisticsFileToJson(const StatisticsFile& file);
Result<PartitionStatisticsFile> PartitionStatisticsFileFromJson(const Json& value);
Json PartitionStatisticsFileToJson(const PartitionStatisticsFile& file);

}  // namespace sqe::iceberg::internal
