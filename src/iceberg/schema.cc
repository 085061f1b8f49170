#include "iceberg/schema.h"

#include <algorithm>
#include <cctype>

#include "iceberg/json_internal.h"

namespace sqe::iceberg {

namespace {
std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}
}  // namespace

Schema::Schema(int32_t schema_id, std::vector<NestedField> fields,
               std::vector<int32_t> identifier_field_ids, std::string extra_json)
    : schema_id_(schema_id),
      struct_type_(Type::Struct(std::move(fields))),
      identifier_field_ids_(std::move(identifier_field_ids)),
      extra_json_(std::move(extra_json)) {
  for (const NestedField& f : struct_type_->fields()) Index(f, f.name, f.name);
}

void Schema::Index(const NestedField& field, const std::string& full,
                   const std::string& short_name) {
  if (!by_id_.emplace(field.id, &field).second) duplicate_ids_ = true;
  name_of_id_.emplace(field.id, full);
  highest_field_id_ = std::max(highest_field_id_, field.id);
  by_name_.emplace(full, field.id);
  by_lower_name_.emplace(Lower(full), field.id);
  if (short_name != full) {
    by_name_.emplace(short_name, field.id);
    by_lower_name_.emplace(Lower(short_name), field.id);
  }
  if (!field.type) return;
  switch (field.type->id()) {
    case TypeId::kStruct:
      for (const NestedField& child : field.type->fields()) {
        Index(child, full + "." + child.name, short_name + "." + child.name);
      }
      break;
    case TypeId::kList:
      // The element itself has its full name only; its struct fields get short names.
      Index(field.type->element(), full + ".element", short_name);
      break;
    case TypeId::kMap:
      Index(field.type->key(), full + ".key", full + ".key");
      Index(field.type->value(), full + ".value", short_name);
      break;
    default:
      break;
  }
}

Result<Schema> Schema::Make(int32_t schema_id, std::vector<NestedField> fields,
                            std::vector<int32_t> identifier_field_ids, std::string extra_json) {
  Schema schema(schema_id, std::move(fields), std::move(identifier_field_ids),
                std::move(extra_json));
  std::string where = "schema " + std::to_string(schema_id);
  if (schema.duplicate_ids_) return Status::Corruption(where + ": field ids are not unique");
  for (const auto& [id, field] : schema.by_id_) {
    if (id < 0) return Status::Corruption(where + ": field id " + std::to_string(id) + " < 0");
    if (!field->type)
      return Status::Corruption(where + ": field " + std::to_string(id) + " has no type");
  }
  for (int32_t id : schema.identifier_field_ids_) {
    if (schema.by_id_.count(id) == 0) {
      return Status::Corruption(where + ": identifier field id " + std::to_string(id) +
                                " is not a field of the schema");
    }
  }
  return schema;
}

const NestedField* Schema::FindFieldById(int32_t id) const {
  auto it = by_id_.find(id);
  return it == by_id_.end() ? nullptr : it->second;
}

const NestedField* Schema::FindFieldByName(std::string_view name, bool case_sensitive) const {
  if (case_sensitive) {
    auto it = by_name_.find(name);
    return it == by_name_.end() ? nullptr : FindFieldById(it->second);
  }
  auto it = by_lower_name_.find(Lower(name));
  return it == by_lower_name_.end() ? nullptr : FindFieldById(it->second);
}

std::optional<std::string> Schema::FindNameById(int32_t id) const {
  auto it = name_of_id_.find(id);
  if (it == name_of_id_.end()) return std::nullopt;
  return it->second;
}

bool Schema::Equals(const Schema& other) const {
  return schema_id_ == other.schema_id_ && identifier_field_ids_ == other.identifier_field_ids_ &&
         extra_json_ == other.extra_json_ && struct_type_->Equals(*other.struct_type_);
}

namespace internal {

Result<Schema> SchemaFromJson(const Json& value, const std::string& context) {
  SQE_ASSIGN_OR_RETURN(ObjectReader reader, ObjectReader::Make(value, context));
  SQE_ASSIGN_OR_RETURN(std::optional<int32_t> id, reader.OptInt("schema-id"));
  std::string where = id ? "schema " + std::to_string(*id) : context;
  SQE_ASSIGN_OR_RETURN(std::string kind, reader.String("type"));
  if (kind != "struct") return reader.Error("type", "must be \"struct\", got \"" + kind + "\"");
  // The schema is a struct type plus schema-id and identifier-field-ids: parse the struct
  // part from a copy without the schema-only fields so its extras stay separate.
  Json struct_json = Json::object();
  struct_json["type"] = "struct";
  const Json* fields = reader.Get("fields");
  if (fields == nullptr) return reader.Error("fields", "is required but missing");
  struct_json["fields"] = *fields;
  SQE_ASSIGN_OR_RETURN(TypePtr type, TypeFromJson(struct_json, where, 0));
  SQE_ASSIGN_OR_RETURN(std::vector<int32_t> identifiers, reader.IntList("identifier-field-ids"));
  std::vector<NestedField> top = type->fields();
  return Schema::Make(id.value_or(0), std::move(top), std::move(identifiers), reader.Extras());
}

Json SchemaToJson(const Schema& schema) {
  Json out = Json::object();
  out["type"] = "struct";
  out["schema-id"] = schema.schema_id();
  if (!schema.identifier_field_ids().empty()) {
    out["identifier-field-ids"] = schema.identifier_field_ids();
  }
  out["fields"] = TypeToJson(*schema.struct_type())["fields"];
  MergeExtras(schema.extra_json(), &out);
  return out;
}

}  // namespace internal

Result<Schema> ParseSchemaJson(std::string_view json_text) {
  internal::Json value;
  SQE_RETURN_NOT_OK(internal::ParseJsonText(json_text, "Iceberg schema", &value));
  try {
    return internal::SchemaFromJson(value, "schema");
  } catch (const std::exception& e) {
    return Status::Corruption(std::string("Iceberg schema: ") + e.what());
  }
}

std::string WriteSchemaJson(const Schema& schema) {
  try {
    return internal::DumpJson(internal::SchemaToJson(schema), -1);
  } catch (const std::exception&) {
    return "";
  }
}

}  // namespace sqe::iceberg
