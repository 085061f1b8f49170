#pragma once
/// Iceberg data types (table spec "Schemas and Data Types"): the primitives of v1-v3
/// (including v3 unknown, variant, timestamp_ns, geometry, geography), and the nested
/// struct, list and map whose fields carry Iceberg field ids. Types are immutable and
/// shared (TypePtr), so pointers into a type tree stay valid while any owner lives.
/// Thread-safe to read.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace sqe::iceberg {

enum class TypeId : uint8_t {
  kUnknown,
  kBoolean,
  kInt,
  kLong,
  kFloat,
  kDouble,
  kDecimal,
  kDate,
  kTime,
  kTimestamp,
  kTimestampTz,
  kTimestampNs,
  kTimestampTzNs,
  kString,
  kUuid,
  kFixed,
  kBinary,
  kVariant,
  kGeometry,
  kGeography,
  kStruct,
  kList,
  kMap,
};

class Type;
using TypePtr = std::shared_ptr<const Type>;

/// A field of a struct, or the element of a list, or the key or value of a map.
/// Defaults are kept as JSON text in the spec's single-value form (Appendix D).
struct NestedField {
  int32_t id = 0;
  std::string name;
  bool required = false;
  TypePtr type;
  std::optional<std::string> doc;
  std::optional<std::string> initial_default_json;
  std::optional<std::string> write_default_json;
  std::string extra_json;  // unknown fields of the field object, written back verbatim

  bool Equals(const NestedField& other) const;
};

/// One Iceberg type. Primitive parameters: decimal precision/scale, fixed length,
/// geometry/geography CRS and edge algorithm ("" = the spec's default).
class Type {
 public:
  static TypePtr Primitive(TypeId id);  // every parameterless primitive
  static TypePtr Decimal(int32_t precision, int32_t scale);
  static TypePtr Fixed(int32_t length);
  static TypePtr Geometry(std::string crs);
  static TypePtr Geography(std::string crs, std::string algorithm);
  static TypePtr Struct(std::vector<NestedField> fields, std::string extra_json = "");
  /// The element is a field named "element"; id and required come from the JSON.
  static TypePtr List(NestedField element, std::string extra_json = "");
  static TypePtr Map(NestedField key, NestedField value, std::string extra_json = "");

  /// Parses a primitive type string ("long", "decimal(9, 2)", "fixed[16]",
  /// "geography(srid:4326, spherical)"); whitespace around parameters is accepted.
  static Result<TypePtr> ParsePrimitive(std::string_view text);

  TypeId id() const { return id_; }
  bool is_primitive() const { return id_ < TypeId::kStruct && id_ != TypeId::kVariant; }
  bool is_nested() const { return id_ >= TypeId::kStruct; }
  int32_t precision() const { return precision_; }
  int32_t scale() const { return scale_; }
  int32_t length() const { return length_; }
  const std::string& crs() const { return crs_; }
  const std::string& algorithm() const { return algorithm_; }

  /// Children: struct fields; list: {element}; map: {key, value}; empty otherwise.
  const std::vector<NestedField>& fields() const { return fields_; }
  const NestedField& element() const { return fields_.at(0); }
  const NestedField& key() const { return fields_.at(0); }
  const NestedField& value() const { return fields_.at(1); }
  /// Unknown fields of a nested type's JSON object.
  const std::string& extra_json() const { return extra_json_; }

  /// Primitives: the canonical JSON spelling ("decimal(9,2)"); nested types a readable
  /// form ("struct<1: id: required long>", "list<string>", "map<string, int>").
  std::string ToString() const;
  bool Equals(const Type& other) const;

 private:
  explicit Type(TypeId id) : id_(id) {}

  TypeId id_;
  int32_t precision_ = 0;
  int32_t scale_ = 0;
  int32_t length_ = 0;
  std::string crs_;
  std::string algorithm_;
  std::vector<NestedField> fields_;
  std::string extra_json_;
};

/// A type from its JSON form (Appendix C): a string for primitives, an object for
/// struct/list/map. Errors are Corruption.
Result<TypePtr> ParseTypeJson(std::string_view json_text);
/// The JSON form of a type (compact).
std::string WriteTypeJson(const Type& type);

}  // namespace sqe::iceberg
