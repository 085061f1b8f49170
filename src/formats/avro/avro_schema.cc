#include "formats/avro/avro_schema.h"

#include <algorithm>
#include <map>
#include <utility>

namespace sqe::avro {

namespace {

constexpr int kMaxSchemaDepth = 100;

struct LogicalName {
  LogicalType type;
  const char* name;
};
constexpr LogicalName kLogicalNames[] = {
    {LogicalType::kDate, "date"},
    {LogicalType::kTimeMillis, "time-millis"},
    {LogicalType::kTimeMicros, "time-micros"},
    {LogicalType::kTimestampMillis, "timestamp-millis"},
    {LogicalType::kTimestampMicros, "timestamp-micros"},
    {LogicalType::kTimestampNanos, "timestamp-nanos"},
    {LogicalType::kLocalTimestampMillis, "local-timestamp-millis"},
    {LogicalType::kLocalTimestampMicros, "local-timestamp-micros"},
    {LogicalType::kLocalTimestampNanos, "local-timestamp-nanos"},
    {LogicalType::kDecimal, "decimal"},
    {LogicalType::kUuid, "uuid"},
};

const char* LogicalTypeName(LogicalType type) {
  for (const auto& entry : kLogicalNames) {
    if (entry.type == type) return entry.name;
  }
  return "";
}

std::optional<AvroType> PrimitiveFromName(std::string_view name) {
  if (name == "null") return AvroType::kNull;
  if (name == "boolean") return AvroType::kBoolean;
  if (name == "int") return AvroType::kInt;
  if (name == "long") return AvroType::kLong;
  if (name == "float") return AvroType::kFloat;
  if (name == "double") return AvroType::kDouble;
  if (name == "bytes") return AvroType::kBytes;
  if (name == "string") return AvroType::kString;
  return std::nullopt;
}

bool IsPrimitive(AvroType type) { return type <= AvroType::kString; }

// Whether `logical` may annotate a node of `node`'s type (the spec: otherwise ignored).
bool LogicalFits(LogicalType logical, const Node& node) {
  switch (logical) {
    case LogicalType::kDate:
    case LogicalType::kTimeMillis:
      return node.type == AvroType::kInt;
    case LogicalType::kTimeMicros:
    case LogicalType::kTimestampMillis:
    case LogicalType::kTimestampMicros:
    case LogicalType::kTimestampNanos:
    case LogicalType::kLocalTimestampMillis:
    case LogicalType::kLocalTimestampMicros:
    case LogicalType::kLocalTimestampNanos:
      return node.type == AvroType::kLong;
    case LogicalType::kDecimal:
      return node.type == AvroType::kBytes || node.type == AvroType::kFixed;
    case LogicalType::kUuid:
      return node.type == AvroType::kString ||
             (node.type == AvroType::kFixed && node.fixed_size == 16);
    case LogicalType::kNone:
      return true;
  }
  return false;
}

Result<std::optional<int32_t>> OptionalId(const Json& object, const char* key,
                                          const std::string& where) {
  auto it = object.find(key);
  if (it == object.end()) return std::optional<int32_t>();
  if (it->is_number_integer()) {
    int64_t v = it->get<int64_t>();
    if (v >= INT32_MIN && v <= INT32_MAX) return std::optional<int32_t>(static_cast<int32_t>(v));
  } else if (it->is_string()) {
    // Some writers store ids as strings; accept decimal text.
    const std::string& s = it->get_ref<const std::string&>();
    char* end = nullptr;
    long long v = std::strtoll(s.c_str(), &end, 10);
    if (!s.empty() && end == s.c_str() + s.size() && v >= INT32_MIN && v <= INT32_MAX) {
      return std::optional<int32_t>(static_cast<int32_t>(v));
    }
  }
  return Status::InvalidArgument("avro schema: '" + std::string(key) + "' at " + where +
                                 " is not a 32-bit integer: " + it->dump());
}

Result<std::vector<std::string>> StringList(const Json& object, const char* key,
                                            const std::string& where) {
  std::vector<std::string> out;
  auto it = object.find(key);
  if (it == object.end()) return out;
  if (!it->is_array()) {
    return Status::InvalidArgument("avro schema: '" + std::string(key) + "' at " + where +
                                   " must be an array of strings");
  }
  for (const auto& item : *it) {
    if (!item.is_string()) {
      return Status::InvalidArgument("avro schema: '" + std::string(key) + "' at " + where +
                                     " must be an array of strings");
    }
    out.push_back(item.get<std::string>());
  }
  return out;
}

std::string FullName(const std::string& name, const std::string& name_space) {
  if (name.find('.') != std::string::npos || name_space.empty()) return name;
  return name_space + "." + name;
}

std::string NamespaceOf(const std::string& full_name) {
  auto dot = full_name.rfind('.');
  return dot == std::string::npos ? std::string() : full_name.substr(0, dot);
}

}  // namespace

std::string_view AvroTypeName(AvroType type) {
  switch (type) {
    case AvroType::kNull:
      return "null";
    case AvroType::kBoolean:
      return "boolean";
    case AvroType::kInt:
      return "int";
    case AvroType::kLong:
      return "long";
    case AvroType::kFloat:
      return "float";
    case AvroType::kDouble:
      return "double";
    case AvroType::kBytes:
      return "bytes";
    case AvroType::kString:
      return "string";
    case AvroType::kRecord:
      return "record";
    case AvroType::kEnum:
      return "enum";
    case AvroType::kArray:
      return "array";
    case AvroType::kMap:
      return "map";
    case AvroType::kUnion:
      return "union";
    case AvroType::kFixed:
      return "fixed";
  }
  return "?";
}

std::string_view Node::short_name() const {
  std::string_view n = name;
  auto dot = n.rfind('.');
  return dot == std::string_view::npos ? n : n.substr(dot + 1);
}

int Node::FieldIndex(std::string_view field_name) const {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].name == field_name) return static_cast<int>(i);
  }
  return -1;
}

int Node::FieldIndexById(int32_t id) const {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].field_id == id) return static_cast<int>(i);
  }
  return -1;
}

int Node::NullBranch() const {
  for (size_t i = 0; i < branches.size(); ++i) {
    if (branches[i]->type == AvroType::kNull) return static_cast<int>(i);
  }
  return -1;
}

int Node::OptionalBranch() const {
  if (type != AvroType::kUnion || branches.size() != 2) return -1;
  if (branches[0]->type == AvroType::kNull) return 1;
  if (branches[1]->type == AvroType::kNull) return 0;
  return -1;
}

/// Builds a Schema's arena from JSON, resolving named references in scope.
class SchemaParser {
 public:
  explicit SchemaParser(Schema* schema) : schema_(schema) {}

  Result<const Node*> Parse(const Json& json, const std::string& name_space,
                            const std::string& where, int depth) {
    if (depth > kMaxSchemaDepth) {
      return Invalid(where, "nesting deeper than " + std::to_string(kMaxSchemaDepth));
    }
    if (json.is_string()) return ParseName(json.get<std::string>(), name_space, where);
    if (json.is_array()) return ParseUnion(json, name_space, where, depth);
    if (!json.is_object()) return Invalid(where, "expected a type name, object or array");
    auto type_it = json.find("type");
    if (type_it == json.end()) return Invalid(where, "object without \"type\"");
    if (!type_it->is_string()) {
      // {"type": {...}} or {"type": [...]}: a wrapped schema.
      return Parse(*type_it, name_space, where + ".type", depth + 1);
    }
    const std::string& type = type_it->get_ref<const std::string&>();
    if (auto primitive = PrimitiveFromName(type)) {
      Node* node = NewNode(*primitive);
      SQE_RETURN_NOT_OK(ReadCommon(json, node, {"type", "logicalType"}, where));
      return node;
    }
    if (type == "record" || type == "error") return ParseRecord(json, name_space, where, depth);
    if (type == "enum") return ParseEnum(json, name_space, where);
    if (type == "array") return ParseArray(json, name_space, where, depth);
    if (type == "map") return ParseMap(json, name_space, where, depth);
    if (type == "fixed") return ParseFixed(json, name_space, where);
    // {"type": "SomeNamedType"} refers to a named type.
    return ParseName(type, name_space, where);
  }

 private:
  static Status Invalid(const std::string& where, const std::string& what) {
    return Status::InvalidArgument("avro schema: " + what + " at " + where);
  }

  Node* NewNode(AvroType type) {
    schema_->nodes_.push_back(std::make_unique<Node>());
    Node* node = schema_->nodes_.back().get();
    node->type = type;
    return node;
  }

  Result<const Node*> ParseName(const std::string& name, const std::string& name_space,
                                const std::string& where) {
    if (auto primitive = PrimitiveFromName(name)) return NewNode(*primitive);
    auto it = named_.find(FullName(name, name_space));
    if (it == named_.end()) it = named_.find(name);
    if (it == named_.end()) return Invalid(where, "unknown type name '" + name + "'");
    return it->second;
  }

  Status ReadName(const Json& json, const std::string& name_space, const std::string& where,
                  Node* node) {
    auto it = json.find("name");
    if (it == json.end() || !it->is_string() || it->get_ref<const std::string&>().empty()) {
      return Invalid(where, std::string(AvroTypeName(node->type)) + " without a \"name\"");
    }
    std::string ns = name_space;
    auto ns_it = json.find("namespace");
    if (ns_it != json.end() && ns_it->is_string()) ns = ns_it->get<std::string>();
    node->name = FullName(it->get<std::string>(), ns);
    node->name_space = NamespaceOf(node->name);
    SQE_ASSIGN_OR_RETURN(node->aliases, StringList(json, "aliases", where));
    auto doc = json.find("doc");
    if (doc != json.end() && doc->is_string()) node->doc = doc->get<std::string>();
    if (named_.count(node->name) != 0) return Invalid(where, "type '" + node->name + "' redefined");
    named_[node->name] = node;
    return Status::OK();
  }

  // Logical type and custom attributes; `known` keys are not kept as attributes.
  Status ReadCommon(const Json& json, Node* node, std::initializer_list<const char*> known,
                    const std::string& where) {
    auto logical = json.find("logicalType");
    bool logical_kept = false;
    if (logical != json.end() && logical->is_string()) {
      const std::string& lname = logical->get_ref<const std::string&>();
      for (const auto& entry : kLogicalNames) {
        if (lname == entry.name) node->logical = entry.type;
      }
      if (node->logical == LogicalType::kDecimal) {
        auto p = json.find("precision");
        auto s = json.find("scale");
        if (p == json.end() || !p->is_number_integer() || p->get<int64_t>() <= 0 ||
            p->get<int64_t>() > 1000) {
          node->logical = LogicalType::kNone;  // invalid decimal: ignored per the spec
        } else {
          node->precision = static_cast<int32_t>(p->get<int64_t>());
          if (s != json.end() && s->is_number_integer()) {
            int64_t scale = s->get<int64_t>();
            if (scale < 0 || scale > node->precision) {
              node->logical = LogicalType::kNone;
            } else {
              node->scale = static_cast<int32_t>(scale);
            }
          }
        }
      }
      if (!LogicalFits(node->logical, *node)) node->logical = LogicalType::kNone;
      logical_kept = node->logical == LogicalType::kNone;
    }
    for (auto it = json.begin(); it != json.end(); ++it) {
      const std::string& key = it.key();
      bool is_known =
          std::any_of(known.begin(), known.end(), [&](const char* k) { return key == k; });
      if (key == "logicalType" && logical_kept) is_known = false;
      if ((key == "precision" || key == "scale") && node->logical == LogicalType::kDecimal) {
        is_known = true;
      }
      if (!is_known) node->attributes[key] = it.value();
    }
    (void)where;
    return Status::OK();
  }

  Result<const Node*> ParseRecord(const Json& json, const std::string& name_space,
                                  const std::string& where, int depth) {
    Node* node = NewNode(AvroType::kRecord);
    SQE_RETURN_NOT_OK(ReadName(json, name_space, where, node));
    auto fields = json.find("fields");
    if (fields == json.end() || !fields->is_array()) {
      return Invalid(where, "record '" + node->name + "' without a \"fields\" array");
    }
    for (size_t i = 0; i < fields->size(); ++i) {
      const Json& f = (*fields)[i];
      std::string fwhere =
          where + "." + node->short_name().data() + ".fields[" + std::to_string(i) + "]";
      if (!f.is_object()) return Invalid(fwhere, "field is not an object");
      Field field;
      auto name = f.find("name");
      if (name == f.end() || !name->is_string()) return Invalid(fwhere, "field without a name");
      field.name = name->get<std::string>();
      if (node->FieldIndex(field.name) >= 0) {
        return Invalid(fwhere, "duplicate field '" + field.name + "'");
      }
      auto type = f.find("type");
      if (type == f.end()) return Invalid(fwhere, "field '" + field.name + "' without a type");
      SQE_ASSIGN_OR_RETURN(field.type, Parse(*type, node->name_space, fwhere, depth + 1));
      auto def = f.find("default");
      if (def != f.end()) field.default_value = *def;
      auto doc = f.find("doc");
      if (doc != f.end() && doc->is_string()) field.doc = doc->get<std::string>();
      SQE_ASSIGN_OR_RETURN(field.aliases, StringList(f, "aliases", fwhere));
      SQE_ASSIGN_OR_RETURN(field.field_id, OptionalId(f, "field-id", fwhere));
      for (auto it = f.begin(); it != f.end(); ++it) {
        const std::string& key = it.key();
        if (key == "name" || key == "type" || key == "default" || key == "doc" ||
            key == "aliases" || key == "field-id") {
          continue;
        }
        field.attributes[key] = it.value();
      }
      node->fields.push_back(std::move(field));
    }
    SQE_RETURN_NOT_OK(
        ReadCommon(json, node, {"type", "name", "namespace", "fields", "aliases", "doc"}, where));
    return node;
  }

  Result<const Node*> ParseEnum(const Json& json, const std::string& name_space,
                                const std::string& where) {
    Node* node = NewNode(AvroType::kEnum);
    SQE_RETURN_NOT_OK(ReadName(json, name_space, where, node));
    if (json.find("symbols") == json.end()) return Invalid(where, "enum without \"symbols\"");
    SQE_ASSIGN_OR_RETURN(node->symbols, StringList(json, "symbols", where));
    auto def = json.find("default");
    if (def != json.end() && def->is_string()) {
      node->enum_default = def->get<std::string>();
      if (std::find(node->symbols.begin(), node->symbols.end(), *node->enum_default) ==
          node->symbols.end()) {
        return Invalid(where, "enum default '" + *node->enum_default + "' is not a symbol");
      }
    }
    SQE_RETURN_NOT_OK(ReadCommon(
        json, node, {"type", "name", "namespace", "symbols", "aliases", "doc", "default"}, where));
    return node;
  }

  Result<const Node*> ParseArray(const Json& json, const std::string& name_space,
                                 const std::string& where, int depth) {
    Node* node = NewNode(AvroType::kArray);
    auto items = json.find("items");
    if (items == json.end()) return Invalid(where, "array without \"items\"");
    SQE_ASSIGN_OR_RETURN(node->items, Parse(*items, name_space, where + ".items", depth + 1));
    SQE_ASSIGN_OR_RETURN(node->element_id, OptionalId(json, "element-id", where));
    SQE_RETURN_NOT_OK(ReadCommon(json, node, {"type", "items", "element-id"}, where));
    return node;
  }

  Result<const Node*> ParseMap(const Json& json, const std::string& name_space,
                               const std::string& where, int depth) {
    Node* node = NewNode(AvroType::kMap);
    auto values = json.find("values");
    if (values == json.end()) return Invalid(where, "map without \"values\"");
    SQE_ASSIGN_OR_RETURN(node->values, Parse(*values, name_space, where + ".values", depth + 1));
    SQE_ASSIGN_OR_RETURN(node->key_id, OptionalId(json, "key-id", where));
    SQE_ASSIGN_OR_RETURN(node->value_id, OptionalId(json, "value-id", where));
    SQE_RETURN_NOT_OK(ReadCommon(json, node, {"type", "values", "key-id", "value-id"}, where));
    return node;
  }

  Result<const Node*> ParseFixed(const Json& json, const std::string& name_space,
                                 const std::string& where) {
    Node* node = NewNode(AvroType::kFixed);
    SQE_RETURN_NOT_OK(ReadName(json, name_space, where, node));
    auto size = json.find("size");
    if (size == json.end() || !size->is_number_integer() || size->get<int64_t>() < 0 ||
        size->get<int64_t>() > (int64_t{1} << 30)) {
      return Invalid(where, "fixed '" + node->name + "' needs a \"size\" in [0, 2^30]");
    }
    node->fixed_size = static_cast<int32_t>(size->get<int64_t>());
    SQE_RETURN_NOT_OK(
        ReadCommon(json, node, {"type", "name", "namespace", "size", "aliases", "doc"}, where));
    return node;
  }

  Result<const Node*> ParseUnion(const Json& json, const std::string& name_space,
                                 const std::string& where, int depth) {
    Node* node = NewNode(AvroType::kUnion);
    for (size_t i = 0; i < json.size(); ++i) {
      std::string bwhere = where + "[" + std::to_string(i) + "]";
      SQE_ASSIGN_OR_RETURN(const Node* branch, Parse(json[i], name_space, bwhere, depth + 1));
      if (branch->type == AvroType::kUnion) {
        return Invalid(bwhere, "a union directly inside a union");
      }
      for (const Node* other : node->branches) {
        bool named = branch->type == AvroType::kRecord || branch->type == AvroType::kEnum ||
                     branch->type == AvroType::kFixed;
        if (other->type == branch->type && (!named || other->name == branch->name)) {
          return Invalid(bwhere, "union holds two branches of type " +
                                     std::string(named ? branch->name
                                                       : std::string(AvroTypeName(branch->type))));
        }
      }
      node->branches.push_back(branch);
    }
    if (node->branches.empty()) return Invalid(where, "empty union");
    return node;
  }

  Schema* schema_;
  std::map<std::string, const Node*> named_;
};

Result<std::shared_ptr<const Schema>> Schema::FromJson(const Json& json) {
  auto schema = std::make_shared<Schema>();
  SchemaParser parser(schema.get());
  SQE_ASSIGN_OR_RETURN(schema->root_, parser.Parse(json, "", "$", 0));
  return std::shared_ptr<const Schema>(std::move(schema));
}

Result<std::shared_ptr<const Schema>> Schema::Parse(std::string_view json_text) {
  Json json = Json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) return Status::InvalidArgument("avro schema: not valid JSON");
  return FromJson(json);
}

Json NodeToJson(const Node& node, std::vector<const Node*>* written) {
  const bool named = node.type == AvroType::kRecord || node.type == AvroType::kEnum ||
                     node.type == AvroType::kFixed;
  if (named && std::find(written->begin(), written->end(), &node) != written->end()) {
    return node.name;
  }
  if (IsPrimitive(node.type) && node.logical == LogicalType::kNone && node.attributes.empty()) {
    return std::string(AvroTypeName(node.type));
  }
  if (node.type == AvroType::kUnion) {
    Json out = Json::array();
    for (const Node* b : node.branches) out.push_back(NodeToJson(*b, written));
    return out;
  }
  Json out = Json::object();
  out["type"] = std::string(AvroTypeName(node.type));
  if (named) {
    written->push_back(&node);
    out["name"] = std::string(node.short_name());
    if (!node.name_space.empty()) out["namespace"] = node.name_space;
    if (!node.doc.empty()) out["doc"] = node.doc;
    if (!node.aliases.empty()) out["aliases"] = node.aliases;
  }
  switch (node.type) {
    case AvroType::kRecord: {
      Json fields = Json::array();
      for (const Field& f : node.fields) {
        Json jf = Json::object();
        jf["name"] = f.name;
        jf["type"] = NodeToJson(*f.type, written);
        if (f.default_value) jf["default"] = *f.default_value;
        if (!f.doc.empty()) jf["doc"] = f.doc;
        if (!f.aliases.empty()) jf["aliases"] = f.aliases;
        if (f.field_id) jf["field-id"] = *f.field_id;
        for (auto it = f.attributes.begin(); it != f.attributes.end(); ++it) {
          jf[it.key()] = it.value();
        }
        fields.push_back(std::move(jf));
      }
      out["fields"] = std::move(fields);
      break;
    }
    case AvroType::kEnum:
      out["symbols"] = node.symbols;
      if (node.enum_default) out["default"] = *node.enum_default;
      break;
    case AvroType::kArray:
      out["items"] = NodeToJson(*node.items, written);
      if (node.element_id) out["element-id"] = *node.element_id;
      break;
    case AvroType::kMap:
      out["values"] = NodeToJson(*node.values, written);
      if (node.key_id) out["key-id"] = *node.key_id;
      if (node.value_id) out["value-id"] = *node.value_id;
      break;
    case AvroType::kFixed:
      out["size"] = node.fixed_size;
      break;
    default:
      break;
  }
  if (node.logical != LogicalType::kNone) {
    out["logicalType"] = LogicalTypeName(node.logical);
    if (node.logical == LogicalType::kDecimal) {
      out["precision"] = node.precision;
      out["scale"] = node.scale;
    }
  }
  for (auto it = node.attributes.begin(); it != node.attributes.end(); ++it) {
    out[it.key()] = it.value();
  }
  return out;
}

Json Schema::ToJson() const {
  std::vector<const Node*> written;
  return NodeToJson(*root_, &written);
}

}  // namespace sqe::avro
