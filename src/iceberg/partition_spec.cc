#include "iceberg/partition_spec.h"

#include <algorithm>

#include "iceberg/json_internal.h"

namespace sqe::iceberg {

bool PartitionSpec::is_unpartitioned() const {
  return std::all_of(fields_.begin(), fields_.end(), [](const PartitionField& f) {
    return f.transform.kind() == TransformKind::kVoid;
  });
}

int32_t PartitionSpec::LastFieldId() const {
  int32_t last = kFirstFieldId - 1;
  for (const PartitionField& f : fields_) last = std::max(last, f.field_id);
  return last;
}

Result<TypePtr> PartitionSpec::PartitionType(const Schema& schema) const {
  std::vector<NestedField> out;
  for (const PartitionField& f : fields_) {
    const NestedField* source = schema.FindFieldById(f.source_id);
    if (source == nullptr) {
      return Status::InvalidArgument("partition spec " + std::to_string(spec_id_) + " field '" +
                                     f.name + "': source column " + std::to_string(f.source_id) +
                                     " is not in schema " + std::to_string(schema.schema_id()));
    }
    Result<TypePtr> type = f.transform.ResultType(source->type);
    if (!type.ok()) {
      return type.status().WithContext("partition spec " + std::to_string(spec_id_) + " field '" +
                                       f.name + "'");
    }
    NestedField field;
    field.id = f.field_id;
    field.name = f.name;
    field.required = false;
    field.type = *type;
    out.push_back(std::move(field));
  }
  return Type::Struct(std::move(out));
}

namespace internal {

Result<PartitionField> PartitionFieldFromJson(const Json& value, const std::string& context,
                                              std::optional<int32_t> default_field_id) {
  SQE_ASSIGN_OR_RETURN(ObjectReader reader, ObjectReader::Make(value, context + " field"));
  PartitionField field;
  SQE_ASSIGN_OR_RETURN(field.name, reader.String("name"));
  ObjectReader named(value, context + " field '" + field.name + "'");
  named.Skip("name");
  SQE_ASSIGN_OR_RETURN(std::string transform, named.String("transform"));
  Result<Transform> parsed = Transform::Parse(transform);
  if (!parsed.ok()) return Status::Corruption(named.context() + ": " + parsed.status().message());
  field.transform = *parsed;
  SQE_ASSIGN_OR_RETURN(std::optional<int32_t> source_id, named.OptInt("source-id"));
  SQE_ASSIGN_OR_RETURN(field.source_ids, named.IntList("source-ids"));
  // One source: only source_id is kept (a one-entry "source-ids" is the same thing);
  // several: source_id mirrors source_ids.front().
  if (field.source_ids.size() > 1) {
    field.source_id = field.source_ids.front();
  } else if (source_id) {
    field.source_id = *source_id;
    field.source_ids.clear();
  } else if (field.source_ids.size() == 1) {
    field.source_id = field.source_ids.front();
    field.source_ids.clear();
  } else {
    return named.Error("source-id", "is required but missing (nor is there 'source-ids')");
  }
  SQE_ASSIGN_OR_RETURN(std::optional<int32_t> field_id, named.OptInt("field-id"));
  if (!field_id && !default_field_id) return named.Error("field-id", "is required but missing");
  field.field_id = field_id ? *field_id : *default_field_id;
  if (field.field_id < 0) return named.Error("field-id", "must be >= 0");
  field.extra_json = named.Extras();
  return field;
}

Json PartitionFieldToJson(const PartitionField& field) {
  Json out = Json::object();
  if (field.source_ids.size() > 1) {
    out["source-ids"] = field.source_ids;
  } else {
    out["source-id"] = field.source_id;
  }
  out["field-id"] = field.field_id;
  out["name"] = field.name;
  out["transform"] = field.transform.ToString();
  MergeExtras(field.extra_json, &out);
  return out;
}

Result<PartitionSpec> PartitionSpecFromJson(const Json& value, const std::string& context,
                                            bool v1_field_ids) {
  SQE_ASSIGN_OR_RETURN(ObjectReader reader, ObjectReader::Make(value, context));
  SQE_ASSIGN_OR_RETURN(int32_t spec_id, reader.Int("spec-id"));
  std::string where = "partition spec " + std::to_string(spec_id);
  SQE_ASSIGN_OR_RETURN(const Json* list, reader.Array("fields"));
  if (list == nullptr) return reader.Error("fields", "is required but missing");
  std::vector<PartitionField> fields;
  int32_t next_id = PartitionSpec::kFirstFieldId;
  for (const Json& item : *list) {
    SQE_ASSIGN_OR_RETURN(
        PartitionField f,
        PartitionFieldFromJson(item, where,
                               v1_field_ids ? std::optional<int32_t>(next_id) : std::nullopt));
    next_id = f.field_id + 1;
    fields.push_back(std::move(f));
  }
  return PartitionSpec(spec_id, std::move(fields), reader.Extras());
}

Json PartitionSpecToJson(const PartitionSpec& spec) {
  Json out = Json::object();
  out["spec-id"] = spec.spec_id();
  Json fields = Json::array();
  for (const PartitionField& f : spec.fields()) fields.push_back(PartitionFieldToJson(f));
  out["fields"] = std::move(fields);
  MergeExtras(spec.extra_json(), &out);
  return out;
}

}  // namespace internal

Result<PartitionSpec> ParsePartitionSpecJson(std::string_view json_text) {
  internal::Json value;
  SQE_RETURN_NOT_OK(internal::ParseJsonText(json_text, "Iceberg partition spec", &value));
  try {
    return internal::PartitionSpecFromJson(value, "partition spec", false);
  } catch (const std::exception& e) {
    return Status::Corruption(std::string("Iceberg partition spec: ") + e.what());
  }
}

std::string WritePartitionSpecJson(const PartitionSpec& spec) {
  try {
    return internal::DumpJson(internal::PartitionSpecToJson(spec), -1);
  } catch (const std::exception&) {
    return "";
  }
}

}  // namespace sqe::iceberg
