#include "iceberg/types.h"

#include <cctype>
#include <charconv>

#include "iceberg/json_internal.h"

namespace sqe::iceberg {

namespace {

struct PrimitiveName {
  const char* name;
  TypeId id;
};

constexpr PrimitiveName kPrimitiveNames[] = {
    {"unknown", TypeId::kUnknown},
    {"boolean", TypeId::kBoolean},
    {"int", TypeId::kInt},
    {"long", TypeId::kLong},
    {"float", TypeId::kFloat},
    {"double", TypeId::kDouble},
    {"date", TypeId::kDate},
    {"time", TypeId::kTime},
    {"timestamp", TypeId::kTimestamp},
    {"timestamptz", TypeId::kTimestampTz},
    {"timestamp_ns", TypeId::kTimestampNs},
    {"timestamptz_ns", TypeId::kTimestampTzNs},
    {"string", TypeId::kString},
    {"uuid", TypeId::kUuid},
    {"binary", TypeId::kBinary},
    {"variant", TypeId::kVariant},
};

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool ParseDigits(std::string_view text, int32_t* out) {
  text = Trim(text);
  if (text.empty()) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

// "name(args)" or "name[args]": the args between the brackets when `text` starts with
// `name` (case-insensitive) followed by `open` and ends with `close`.
std::optional<std::string_view> Args(std::string_view text, std::string_view name, char open,
                                     char close) {
  if (text.size() < name.size() + 2) return std::nullopt;
  if (Lower(text.substr(0, name.size())) != name) return std::nullopt;
  std::string_view rest = Trim(text.substr(name.size()));
  if (rest.size() < 2 || rest.front() != open || rest.back() != close) return std::nullopt;
  return rest.substr(1, rest.size() - 2);
}

Status BadType(std::string_view text, const std::string& why) {
  return Status::Corruption("invalid Iceberg type '" + std::string(text) + "': " + why);
}

}  // namespace

bool NestedField::Equals(const NestedField& other) const {
  if (id != other.id || name != other.name || required != other.required || doc != other.doc ||
      initial_default_json != other.initial_default_json ||
      write_default_json != other.write_default_json || extra_json != other.extra_json) {
    return false;
  }
  if (!type || !other.type) return type == other.type;
  return type->Equals(*other.type);
}

TypePtr Type::Primitive(TypeId id) { return TypePtr(new Type(id)); }

TypePtr Type::Decimal(int32_t precision, int32_t scale) {
  auto* t = new Type(TypeId::kDecimal);
  t->precision_ = precision;
  t->scale_ = scale;
  return TypePtr(t);
}

TypePtr Type::Fixed(int32_t length) {
  auto* t = new Type(TypeId::kFixed);
  t->length_ = length;
  return TypePtr(t);
}

TypePtr Type::Geometry(std::string crs) {
  auto* t = new Type(TypeId::kGeometry);
  t->crs_ = std::move(crs);
  return TypePtr(t);
}

TypePtr Type::Geography(std::string crs, std::string algorithm) {
  auto* t = new Type(TypeId::kGeography);
  t->crs_ = std::move(crs);
  t->algorithm_ = std::move(algorithm);
  return TypePtr(t);
}

TypePtr Type::Struct(std::vector<NestedField> fields, std::string extra_json) {
  auto* t = new Type(TypeId::kStruct);
  t->fields_ = std::move(fields);
  t->extra_json_ = std::move(extra_json);
  return TypePtr(t);
}

TypePtr Type::List(NestedField element, std::string extra_json) {
  auto* t = new Type(TypeId::kList);
  element.name = "element";
  t->fields_.push_back(std::move(element));
  t->extra_json_ = std::move(extra_json);
  return TypePtr(t);
}

TypePtr Type::Map(NestedField key, NestedField value, std::string extra_json) {
  auto* t = new Type(TypeId::kMap);
  key.name = "key";
  key.required = true;
  value.name = "value";
  t->fields_.push_back(std::move(key));
  t->fields_.push_back(std::move(value));
  t->extra_json_ = std::move(extra_json);
  return TypePtr(t);
}

Result<TypePtr> Type::ParsePrimitive(std::string_view text) {
  std::string_view trimmed = Trim(text);
  std::string lower = Lower(trimmed);
  for (const PrimitiveName& p : kPrimitiveNames) {
    if (lower == p.name) return Primitive(p.id);
  }
  if (auto args = Args(trimmed, "decimal", '(', ')')) {
    size_t comma = args->find(',');
    int32_t precision = 0;
    int32_t scale = 0;
    if (comma == std::string_view::npos || !ParseDigits(args->substr(0, comma), &precision) ||
        !ParseDigits(args->substr(comma + 1), &scale)) {
      return BadType(text, "expected decimal(P,S)");
    }
    if (precision < 1 || precision > 38) return BadType(text, "precision must be 1..38");
    if (scale > precision) return BadType(text, "scale must not exceed the precision");
    return Decimal(precision, scale);
  }
  if (auto args = Args(trimmed, "fixed", '[', ']')) {
    int32_t length = 0;
    if (!ParseDigits(*args, &length) || length < 1) {
      return BadType(text, "expected fixed[L] with L > 0");
    }
    return Fixed(length);
  }
  if (lower == "geometry") return Geometry("");
  if (auto args = Args(trimmed, "geometry", '(', ')')) {
    std::string_view crs = Trim(*args);
    if (crs.empty()) return BadType(text, "empty CRS");
    return Geometry(std::string(crs));
  }
  if (lower == "geography") return Geography("", "");
  if (auto args = Args(trimmed, "geography", '(', ')')) {
    size_t comma = args->rfind(',');
    std::string_view crs = Trim(args->substr(0, comma));
    std::string_view algorithm =
        comma == std::string_view::npos ? std::string_view() : Trim(args->substr(comma + 1));
    if (crs.empty()) return BadType(text, "empty CRS");
    if (comma != std::string_view::npos && algorithm.empty()) {
      return BadType(text, "empty edge algorithm");
    }
    return Geography(std::string(crs), Lower(algorithm));
  }
  return BadType(text, "unknown type name");
}

std::string Type::ToString() const {
  switch (id_) {
    case TypeId::kDecimal:
      return "decimal(" + std::to_string(precision_) + "," + std::to_string(scale_) + ")";
    case TypeId::kFixed:
      return "fixed[" + std::to_string(length_) + "]";
    case TypeId::kGeometry:
      return crs_.empty() ? "geometry" : "geometry(" + crs_ + ")";
    case TypeId::kGeography:
      if (crs_.empty()) return "geography";
      return algorithm_.empty() ? "geography(" + crs_ + ")"
                                : "geography(" + crs_ + ", " + algorithm_ + ")";
    case TypeId::kStruct: {
      std::string out = "struct<";
      for (size_t i = 0; i < fields_.size(); ++i) {
        const NestedField& f = fields_[i];
        if (i > 0) out += ", ";
        out += std::to_string(f.id) + ": " + f.name + ": " +
               (f.required ? "required " : "optional ") + (f.type ? f.type->ToString() : "?");
      }
      return out + ">";
    }
    case TypeId::kList:
      return "list<" + (element().type ? element().type->ToString() : "?") + ">";
    case TypeId::kMap:
      return "map<" + (key().type ? key().type->ToString() : "?") + ", " +
             (value().type ? value().type->ToString() : "?") + ">";
    default:
      for (const PrimitiveName& p : kPrimitiveNames) {
        if (p.id == id_) return p.name;
      }
      return "?";
  }
}

bool Type::Equals(const Type& other) const {
  if (id_ != other.id_ || precision_ != other.precision_ || scale_ != other.scale_ ||
      length_ != other.length_ || crs_ != other.crs_ || algorithm_ != other.algorithm_ ||
      extra_json_ != other.extra_json_ || fields_.size() != other.fields_.size()) {
    return false;
  }
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (!fields_[i].Equals(other.fields_[i])) return false;
  }
  return true;
}

namespace internal {

namespace {

Status CheckFieldId(int32_t id, const std::string& context) {
  if (id < 0) return Status::Corruption(context + ": field id " + std::to_string(id) + " < 0");
  return Status::OK();
}

std::optional<std::string> DefaultJson(ObjectReader& reader, const char* key) {
  const Json* value = reader.Get(key);
  if (value == nullptr) return std::nullopt;
  std::string text = DumpJson(*value, -1);
  if (text == "null") return std::nullopt;  // e.g. a number too large for a double
  return text;
}

Result<NestedField> StructFieldFromJson(const Json& value, const std::string& context, int depth) {
  SQE_ASSIGN_OR_RETURN(ObjectReader reader, ObjectReader::Make(value, context + " field"));
  NestedField field;
  SQE_ASSIGN_OR_RETURN(field.id, reader.Int("id"));
  SQE_ASSIGN_OR_RETURN(field.name, reader.String("name"));
  std::string where = context + " field " + std::to_string(field.id) + " '" + field.name + "'";
  SQE_RETURN_NOT_OK(CheckFieldId(field.id, where));
  SQE_ASSIGN_OR_RETURN(field.required, reader.Bool("required"));
  const Json* type = reader.Get("type");
  if (type == nullptr) return Status::Corruption(where + ": field 'type' is required but missing");
  SQE_ASSIGN_OR_RETURN(field.type, TypeFromJson(*type, where, depth + 1));
  SQE_ASSIGN_OR_RETURN(field.doc, reader.OptString("doc"));
  field.initial_default_json = DefaultJson(reader, "initial-default");
  field.write_default_json = DefaultJson(reader, "write-default");
  field.extra_json = reader.Extras();
  return field;
}

}  // namespace

Result<TypePtr> TypeFromJson(const Json& value, const std::string& context, int depth) {
  if (depth > kMaxTypeDepth) {
    return Status::Corruption(context + ": types nest deeper than " +
                              std::to_string(kMaxTypeDepth) + " levels");
  }
  if (value.is_string()) {
    Result<TypePtr> type = Type::ParsePrimitive(value.get_ref<const std::string&>());
    if (!type.ok()) return type.status().WithContext(context);
    return type;
  }
  SQE_ASSIGN_OR_RETURN(ObjectReader reader, ObjectReader::Make(value, context + " type"));
  SQE_ASSIGN_OR_RETURN(std::string kind, reader.String("type"));
  if (kind == "struct") {
    SQE_ASSIGN_OR_RETURN(const Json* list, reader.Array("fields"));
    if (list == nullptr) return reader.Error("fields", "is required but missing");
    std::vector<NestedField> fields;
    fields.reserve(list->size());
    for (const Json& item : *list) {
      SQE_ASSIGN_OR_RETURN(NestedField f, StructFieldFromJson(item, context, depth));
      fields.push_back(std::move(f));
    }
    return Type::Struct(std::move(fields), reader.Extras());
  }
  if (kind == "list") {
    NestedField element;
    SQE_ASSIGN_OR_RETURN(element.id, reader.Int("element-id"));
    SQE_RETURN_NOT_OK(CheckFieldId(element.id, context + " list element"));
    SQE_ASSIGN_OR_RETURN(element.required, reader.Bool("element-required"));
    const Json* type = reader.Get("element");
    if (type == nullptr) return reader.Error("element", "is required but missing");
    SQE_ASSIGN_OR_RETURN(element.type, TypeFromJson(*type, context + " list element", depth + 1));
    return Type::List(std::move(element), reader.Extras());
  }
  if (kind == "map") {
    NestedField key;
    NestedField val;
    SQE_ASSIGN_OR_RETURN(key.id, reader.Int("key-id"));
    SQE_RETURN_NOT_OK(CheckFieldId(key.id, context + " map key"));
    SQE_ASSIGN_OR_RETURN(val.id, reader.Int("value-id"));
    SQE_RETURN_NOT_OK(CheckFieldId(val.id, context + " map value"));
    SQE_ASSIGN_OR_RETURN(val.required, reader.Bool("value-required"));
    const Json* key_type = reader.Get("key");
    if (key_type == nullptr) return reader.Error("key", "is required but missing");
    const Json* value_type = reader.Get("value");
    if (value_type == nullptr) return reader.Error("value", "is required but missing");
    SQE_ASSIGN_OR_RETURN(key.type, TypeFromJson(*key_type, context + " map key", depth + 1));
    SQE_ASSIGN_OR_RETURN(val.type, TypeFromJson(*value_type, context + " map value", depth + 1));
    return Type::Map(std::move(key), std::move(val), reader.Extras());
  }
  return reader.Error("type", "has unknown nested type '" + kind + "'");
}

Json TypeToJson(const Type& type) {
  Json out;
  switch (type.id()) {
    case TypeId::kStruct: {
      out = Json::object();
      out["type"] = "struct";
      Json fields = Json::array();
      for (const NestedField& f : type.fields()) {
        Json field = Json::object();
        field["id"] = f.id;
        field["name"] = f.name;
        field["required"] = f.required;
        field["type"] = f.type ? TypeToJson(*f.type) : Json("unknown");
        if (f.doc) field["doc"] = *f.doc;
        if (f.initial_default_json) {
          field["initial-default"] = Json::parse(*f.initial_default_json, nullptr, false);
        }
        if (f.write_default_json) {
          field["write-default"] = Json::parse(*f.write_default_json, nullptr, false);
        }
        MergeExtras(f.extra_json, &field);
        fields.push_back(std::move(field));
      }
      out["fields"] = std::move(fields);
      break;
    }
    case TypeId::kList:
      out = Json::object();
      out["type"] = "list";
      out["element-id"] = type.element().id;
      out["element"] = type.element().type ? TypeToJson(*type.element().type) : Json("unknown");
      out["element-required"] = type.element().required;
      break;
    case TypeId::kMap:
      out = Json::object();
      out["type"] = "map";
      out["key-id"] = type.key().id;
      out["key"] = type.key().type ? TypeToJson(*type.key().type) : Json("unknown");
      out["value-id"] = type.value().id;
      out["value"] = type.value().type ? TypeToJson(*type.value().type) : Json("unknown");
      out["value-required"] = type.value().required;
      break;
    default:
      return Json(type.ToString());
  }
  MergeExtras(type.extra_json(), &out);
  return out;
}

}  // namespace internal

Result<TypePtr> ParseTypeJson(std::string_view json_text) {
  internal::Json value;
  SQE_RETURN_NOT_OK(internal::ParseJsonText(json_text, "Iceberg type", &value));
  try {
    return internal::TypeFromJson(value, "type", 0);
  } catch (const std::exception& e) {
    return Status::Corruption(std::string("Iceberg type: ") + e.what());
  }
}

std::string WriteTypeJson(const Type& type) {
  try {
    return internal::DumpJson(internal::TypeToJson(type), -1);
  } catch (const std::exception& e) {
    return "";
  }
}

}  // namespace sqe::iceberg
