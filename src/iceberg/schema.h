#pragma once
/// An Iceberg schema (spec "Schemas"): a struct of top-level fields with a schema id and
/// the optional identifier field ids, indexed by field id and by dotted name. Immutable
/// after construction; copies share the type tree, so the pointers returned stay valid
/// while any copy lives. Thread-safe to read.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "iceberg/types.h"

namespace sqe::iceberg {

class Schema {
 public:
  Schema() : Schema(0, {}) {}
  Schema(int32_t schema_id, std::vector<NestedField> fields,
         std::vector<int32_t> identifier_field_ids = {}, std::string extra_json = "");

  /// Builds a schema and checks it: field ids unique and >= 0, identifier ids exist.
  static Result<Schema> Make(int32_t schema_id, std::vector<NestedField> fields,
                             std::vector<int32_t> identifier_field_ids = {},
                             std::string extra_json = "");

  int32_t schema_id() const { return schema_id_; }
  const std::vector<NestedField>& fields() const { return struct_type_->fields(); }
  const TypePtr& struct_type() const { return struct_type_; }
  const std::vector<int32_t>& identifier_field_ids() const { return identifier_field_ids_; }
  const std::string& extra_json() const { return extra_json_; }

  /// The field (at any depth, list elements and map keys/values included) with this id.
  const NestedField* FindFieldById(int32_t id) const;
  /// By dotted name ("location.lat", "tags.element", "attrs.key"); inside lists and map
  /// values the "element"/"value" step may be left out ("points.x"), like Java Iceberg.
  const NestedField* FindFieldByName(std::string_view name, bool case_sensitive = true) const;
  /// The full dotted name of a field id, or nullopt.
  std::optional<std::string> FindNameById(int32_t id) const;
  /// The highest field id in the schema (0 when it has no fields).
  int32_t HighestFieldId() const { return highest_field_id_; }

  bool Equals(const Schema& other) const;

 private:
  void Index(const NestedField& field, const std::string& full, const std::string& short_name);

  int32_t schema_id_ = 0;
  TypePtr struct_type_;
  std::vector<int32_t> identifier_field_ids_;
  std::string extra_json_;
  std::map<int32_t, const NestedField*> by_id_;
  std::map<int32_t, std::string> name_of_id_;
  std::map<std::string, int32_t, std::less<>> by_name_;
  std::map<std::string, int32_t, std::less<>> by_lower_name_;
  int32_t highest_field_id_ = 0;
  bool duplicate_ids_ = false;
};

/// A schema from its JSON form (Appendix C). Errors are Corruption.
Result<Schema> ParseSchemaJson(std::string_view json_text);
/// The JSON form of a schema (compact).
std::string WriteSchemaJson(const Schema& schema);

}  // namespace sqe::iceberg
