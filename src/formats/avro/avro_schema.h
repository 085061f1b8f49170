#pragma once
/// Avro schemas (Avro 1.11 specification, "Schema Declaration"): parsed from and written
/// back to JSON, with the attributes Iceberg adds ("field-id" on record fields,
/// "element-id" on arrays, "key-id"/"value-id" on maps) and any other custom attribute
/// preserved. Named types may be referenced by name, also recursively, so a Schema owns
/// its nodes in an arena and nodes point at each other with plain pointers.
///
/// A Schema is immutable once parsed and safe to share between threads.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/result.h"

namespace sqe::avro {

using Json = nlohmann::ordered_json;

/// The Avro type of a schema node.
enum class AvroType : uint8_t {
  kNull,
  kBoolean,
  kInt,
  kLong,
  kFloat,
  kDouble,
  kBytes,
  kString,
  kRecord,
  kEnum,
  kArray,
  kMap,
  kUnion,
  kFixed,
};

/// The spec's logical types that Iceberg uses (unknown ones stay kNone, the attribute is
/// kept in `attributes`).
enum class LogicalType : uint8_t {
  kNone,
  kDate,
  kTimeMillis,
  kTimeMicros,
  kTimestampMillis,
  kTimestampMicros,
  kTimestampNanos,
  kLocalTimestampMillis,
  kLocalTimestampMicros,
  kLocalTimestampNanos,
  kDecimal,
  kUuid,
};

std::string_view AvroTypeName(AvroType type);

struct Node;

/// One field of a record.
struct Field {
  std::string name;
  const Node* type = nullptr;
  std::string doc;
  std::vector<std::string> aliases;
  /// The JSON default as written in the schema (spec encoding: bytes as code points).
  std::optional<Json> default_value;
  /// Iceberg's "field-id".
  std::optional<int32_t> field_id;
  /// Every other attribute of the field, in schema order.
  Json attributes = Json::object();
};

/// A schema node. Named types (record, enum, fixed) carry a full name.
struct Node {
  AvroType type = AvroType::kNull;
  /// Named types: the full name ("ns.name"), its namespace, aliases and doc.
  std::string name;
  std::string name_space;
  std::vector<std::string> aliases;
  std::string doc;
  std::vector<Field> fields;         // record
  std::vector<std::string> symbols;  // enum
  std::optional<std::string> enum_default;
  const Node* items = nullptr;        // array
  const Node* values = nullptr;       // map
  std::vector<const Node*> branches;  // union
  int32_t fixed_size = 0;             // fixed
  LogicalType logical = LogicalType::kNone;
  int32_t precision = 0;              // decimal
  int32_t scale = 0;                  // decimal
  std::optional<int32_t> element_id;  // array (Iceberg)
  std::optional<int32_t> key_id;      // map (Iceberg)
  std::optional<int32_t> value_id;    // map (Iceberg)
  /// Custom attributes not listed above (including unknown "logicalType"s), in order.
  Json attributes = Json::object();

  /// The name without its namespace.
  std::string_view short_name() const;
  /// Index of the record field called `field_name`, or -1.
  int FieldIndex(std::string_view field_name) const;
  /// Index of the record field with Iceberg field id `id`, or -1.
  int FieldIndexById(int32_t id) const;
  /// For a union: the index of its null branch, or -1.
  int NullBranch() const;
  /// A union of null and exactly one other type: that other branch's index, else -1.
  int OptionalBranch() const;
};

/// A parsed schema: the root node and the arena owning every node.
class Schema {
 public:
  /// Parses JSON schema text. InvalidArgument naming the problem and the JSON path.
  static Result<std::shared_ptr<const Schema>> Parse(std::string_view json_text);
  static Result<std::shared_ptr<const Schema>> FromJson(const Json& json);

  const Node& root() const { return *root_; }
  /// The canonical-enough JSON form: every named type in full at first use, then by its
  /// full name; attributes preserved.
  Json ToJson() const;
  std::string ToString() const { return ToJson().dump(); }

  Schema(const Schema&) = delete;
  Schema& operator=(const Schema&) = delete;
  Schema() = default;

 private:
  friend class SchemaParser;
  std::vector<std::unique_ptr<Node>> nodes_;
  const Node* root_ = nullptr;
};

using SchemaPtr = std::shared_ptr<const Schema>;

/// Writes `node` as JSON (named types referenced by name after their first appearance
/// in `written`).
Json NodeToJson(const Node& node, std::vector<const Node*>* written);

}  // namespace sqe::avro
