#include "iceberg/json_internal.h"

#include <limits>

namespace sqe::iceberg::internal {

Result<ObjectReader> ObjectReader::Make(const Json& value, std::string context) {
  if (!value.is_object()) {
    return Status::Corruption(context + ": expected a JSON object, got " + JsonKind(value));
  }
  return ObjectReader(value, std::move(context));
}

std::string JsonKind(const Json& value) {
  switch (value.type()) {
    case Json::value_t::null:
      return "null";
    case Json::value_t::object:
      return "object";
    case Json::value_t::array:
      return "array";
    case Json::value_t::string:
      return "string";
    case Json::value_t::boolean:
      return "boolean";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
      return "integer";
    case Json::value_t::number_float:
      return "number with a fraction";
    default:
      return "binary or discarded value";
  }
}

Status ObjectReader::Error(const char* key, const std::string& problem) const {
  return Status::Corruption(context_ + ": field '" + key + "' " + problem);
}

const Json* ObjectReader::Get(const char* key) {
  known_.insert(key);
  auto it = object_.find(key);
  if (it == object_.end() || it->is_null()) return nullptr;
  return &*it;
}

bool ObjectReader::Has(const char* key) {
  auto it = object_.find(key);
  return it != object_.end() && !it->is_null();
}

Result<int64_t> ObjectReader::IntegerIn(const char* key, const Json& value, int64_t min,
                                        int64_t max) {
  int64_t v = 0;
  if (value.is_number_unsigned()) {
    uint64_t u = value.get<uint64_t>();
    if (u > static_cast<uint64_t>(max)) {
      return Error(key, "is out of range: " + std::to_string(u));
    }
    v = static_cast<int64_t>(u);
  } else if (value.is_number_integer()) {
    v = value.get<int64_t>();
  } else {
    return Error(key, "must be an integer, got " + JsonKind(value));
  }
  if (v < min || v > max) return Error(key, "is out of range: " + std::to_string(v));
  return v;
}

Result<int32_t> ObjectReader::Int(const char* key) {
  SQE_ASSIGN_OR_RETURN(auto v, OptInt(key));
  if (!v) return Error(key, "is required but missing");
  return *v;
}

Result<std::optional<int32_t>> ObjectReader::OptInt(const char* key) {
  const Json* value = Get(key);
  if (value == nullptr) return std::optional<int32_t>();
  SQE_ASSIGN_OR_RETURN(int64_t v, IntegerIn(key, *value, std::numeric_limits<int32_t>::min(),
                                            std::numeric_limits<int32_t>::max()));
  return std::optional<int32_t>(static_cast<int32_t>(v));
}

Result<int64_t> ObjectReader::Long(const char* key) {
  SQE_ASSIGN_OR_RETURN(auto v, OptLong(key));
  if (!v) return Error(key, "is required but missing");
  return *v;
}

Result<std::optional<int64_t>> ObjectReader::OptLong(const char* key) {
  const Json* value = Get(key);
  if (value == nullptr) return std::optional<int64_t>();
  SQE_ASSIGN_OR_RETURN(int64_t v, IntegerIn(key, *value, std::numeric_limits<int64_t>::min(),
                                            std::numeric_limits<int64_t>::max()));
  return std::optional<int64_t>(v);
}

Result<std::string> ObjectReader::String(const char* key) {
  SQE_ASSIGN_OR_RETURN(auto v, OptString(key));
  if (!v) return Error(key, "is required but missing");
  return std::move(*v);
}

Result<std::optional<std::string>> ObjectReader::OptString(const char* key) {
  const Json* value = Get(key);
  if (value == nullptr) return std::optional<std::string>();
  if (!value->is_string()) return Error(key, "must be a string, got " + JsonKind(*value));
  return std::optional<std::string>(value->get_ref<const std::string&>());
}

Result<bool> ObjectReader::Bool(const char* key) {
  SQE_ASSIGN_OR_RETURN(auto v, OptBool(key));
  if (!v) return Error(key, "is required but missing");
  return *v;
}

Result<std::optional<bool>> ObjectReader::OptBool(const char* key) {
  const Json* value = Get(key);
  if (value == nullptr) return std::optional<bool>();
  if (!value->is_boolean()) return Error(key, "must be a boolean, got " + JsonKind(*value));
  return std::optional<bool>(value->get<bool>());
}

Result<std::map<std::string, std::string>> ObjectReader::StringMap(const char* key) {
  std::map<std::string, std::string> out;
  const Json* value = Get(key);
  if (value == nullptr) return out;
  if (!value->is_object()) return Error(key, "must be an object, got " + JsonKind(*value));
  for (auto it = value->begin(); it != value->end(); ++it) {
    if (!it->is_string()) {
      return Error(key, "must map strings to strings, but '" + it.key() + "' is " + JsonKind(*it));
    }
    out.emplace(it.key(), it->get_ref<const std::string&>());
  }
  return out;
}

Result<const Json*> ObjectReader::Array(const char* key) {
  const Json* value = Get(key);
  if (value == nullptr) return value;
  if (!value->is_array()) return Error(key, "must be a list, got " + JsonKind(*value));
  if (value->size() > kMaxListEntries) {
    return Error(key, "has " + std::to_string(value->size()) + " entries, more than the " +
                          std::to_string(kMaxListEntries) + " allowed");
  }
  return value;
}

Result<std::vector<int32_t>> ObjectReader::IntList(const char* key) {
  std::vector<int32_t> out;
  SQE_ASSIGN_OR_RETURN(const Json* list, Array(key));
  if (list == nullptr) return out;
  for (const Json& item : *list) {
    SQE_ASSIGN_OR_RETURN(int64_t v, IntegerIn(key, item, std::numeric_limits<int32_t>::min(),
                                              std::numeric_limits<int32_t>::max()));
    out.push_back(static_cast<int32_t>(v));
  }
  return out;
}

Result<std::vector<std::string>> ObjectReader::StringList(const char* key) {
  std::vector<std::string> out;
  SQE_ASSIGN_OR_RETURN(const Json* list, Array(key));
  if (list == nullptr) return out;
  for (const Json& item : *list) {
    if (!item.is_string()) return Error(key, "must be a list of strings");
    out.push_back(item.get_ref<const std::string&>());
  }
  return out;
}

std::string ObjectReader::Extras() const {
  Json extras = Json::object();
  for (auto it = object_.begin(); it != object_.end(); ++it) {
    if (known_.count(it.key()) == 0) extras[it.key()] = *it;
  }
  if (extras.empty()) return "";
  return DumpJson(extras, -1);
}

void MergeExtras(const std::string& extras_json, Json* out) {
  if (extras_json.empty()) return;
  Json extras = Json::parse(extras_json, nullptr, /*allow_exceptions=*/false);
  if (!extras.is_object()) return;
  for (auto it = extras.begin(); it != extras.end(); ++it) {
    if (!out->contains(it.key())) (*out)[it.key()] = *it;
  }
}

namespace {
// nlohmann's parser is iterative but destroying and walking a value recurse, so very deep
// nesting is refused before parsing. Strings are skipped so brackets in them do not count.
bool NestingWithin(std::string_view text, int max_depth) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > max_depth) return false;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return true;
}
}  // namespace

Status ParseJsonText(std::string_view text, const std::string& what, Json* out) {
  if (!NestingWithin(text, 4 * kMaxTypeDepth + 16)) {
    return Status::Corruption(what + ": JSON nesting is deeper than " +
                              std::to_string(4 * kMaxTypeDepth + 16) + " levels");
  }
  *out = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (out->is_discarded()) return Status::Corruption(what + ": not valid JSON");
  return Status::OK();
}

std::string DumpJson(const Json& value, int indent) {
  return value.dump(indent, ' ', /*ensure_ascii=*/false, Json::error_handler_t::replace);
}

}  // namespace sqe::iceberg::internal
