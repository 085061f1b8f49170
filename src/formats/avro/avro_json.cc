#include "formats/avro/avro_json.h"

#include <cmath>
#include <limits>

#include "formats/avro/avro_datum.h"

namespace sqe::avro {

namespace {

constexpr char kBase64Alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

Status NotFit(const Json& json, const Node& schema) {
  std::string text = json.dump();
  if (text.size() > 60) text = text.substr(0, 60) + "...";
  return Status::InvalidArgument("avro json: " + text + " is not a valid " +
                                 std::string(AvroTypeName(schema.type)) +
                                 (schema.name.empty() ? "" : " '" + schema.name + "'"));
}

// UTF-8 text whose code points are all <= 255, as those bytes.
Result<std::string> CodePointsToBytes(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    auto c = static_cast<uint8_t>(text[i]);
    if (c < 0x80) {
      out.push_back(static_cast<char>(c));
    } else if ((c & 0xe0) == 0xc0 && i + 1 < text.size()) {
      uint32_t cp = ((c & 0x1f) << 6) | (static_cast<uint8_t>(text[i + 1]) & 0x3f);
      if (cp > 0xff)
        return Status::InvalidArgument("avro json: bytes default has a code point > 255");
      out.push_back(static_cast<char>(cp));
      ++i;
    } else {
      return Status::InvalidArgument("avro json: bytes default has a code point > 255");
    }
  }
  return out;
}

std::string BytesToCodePoints(const std::string& bytes) {
  std::string out;
  for (char ch : bytes) {
    auto c = static_cast<uint8_t>(ch);
    if (c < 0x80) {
      out.push_back(ch);
    } else {
      out.push_back(static_cast<char>(0xc0 | (c >> 6)));
      out.push_back(static_cast<char>(0x80 | (c & 0x3f)));
    }
  }
  return out;
}

Result<double> JsonNumber(const Json& json, const Node& schema) {
  if (json.is_number()) return json.get<double>();
  if (json.is_string()) {
    const std::string& s = json.get_ref<const std::string&>();
    if (s == "NaN") return std::numeric_limits<double>::quiet_NaN();
    if (s == "Infinity") return std::numeric_limits<double>::infinity();
    if (s == "-Infinity") return -std::numeric_limits<double>::infinity();
  }
  return NotFit(json, schema);
}

Json JsonDouble(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  return v;
}

Result<std::string> JsonBytesValue(const Json& json, const Node& schema, JsonBytes bytes) {
  if (!json.is_string()) return NotFit(json, schema);
  const std::string& s = json.get_ref<const std::string&>();
  if (bytes == JsonBytes::kBase64) return Base64Decode(s);
  return CodePointsToBytes(s);
}

Result<Value> FromJsonAt(const Json& json, const Node& schema, JsonBytes bytes, int depth) {
  if (depth > kMaxDatumDepth) return Status::InvalidArgument("avro json: nested too deep");
  switch (schema.type) {
    case AvroType::kNull:
      if (!json.is_null()) return NotFit(json, schema);
      return Value::Null();
    case AvroType::kBoolean:
      if (!json.is_boolean()) return NotFit(json, schema);
      return Value::Boolean(json.get<bool>());
    case AvroType::kInt:
    case AvroType::kLong: {
      int64_t v;
      if (json.is_number_unsigned()) {
        uint64_t u = json.get<uint64_t>();
        if (u > static_cast<uint64_t>(INT64_MAX)) return NotFit(json, schema);
        v = static_cast<int64_t>(u);
      } else if (json.is_number_integer()) {
        v = json.get<int64_t>();
      } else {
        return NotFit(json, schema);
      }
      if (schema.type == AvroType::kLong) return Value::Long(v);
      if (v < INT32_MIN || v > INT32_MAX) return NotFit(json, schema);
      return Value::Int(static_cast<int32_t>(v));
    }
    case AvroType::kFloat: {
      SQE_ASSIGN_OR_RETURN(double v, JsonNumber(json, schema));
      return Value::Float(static_cast<float>(v));
    }
    case AvroType::kDouble: {
      SQE_ASSIGN_OR_RETURN(double v, JsonNumber(json, schema));
      return Value::Double(v);
    }
    case AvroType::kBytes: {
      SQE_ASSIGN_OR_RETURN(std::string v, JsonBytesValue(json, schema, bytes));
      return Value::Bytes(std::move(v));
    }
    case AvroType::kFixed: {
      SQE_ASSIGN_OR_RETURN(std::string v, JsonBytesValue(json, schema, bytes));
      if (v.size() != static_cast<size_t>(schema.fixed_size)) return NotFit(json, schema);
      return Value::Fixed(std::move(v));
    }
    case AvroType::kString:
      if (!json.is_string()) return NotFit(json, schema);
      return Value::String(json.get<std::string>());
    case AvroType::kEnum: {
      if (!json.is_string()) return NotFit(json, schema);
      for (size_t i = 0; i < schema.symbols.size(); ++i) {
        if (schema.symbols[i] == json.get_ref<const std::string&>()) {
          return Value::Enum(static_cast<int32_t>(i));
        }
      }
      return NotFit(json, schema);
    }
    case AvroType::kRecord: {
      if (!json.is_object()) return NotFit(json, schema);
      std::vector<Value> fields;
      fields.reserve(schema.fields.size());
      for (const Field& f : schema.fields) {
        auto it = json.find(f.name);
        if (it != json.end()) {
          auto v = FromJsonAt(*it, *f.type, bytes, depth + 1);
          if (!v.ok()) return v.status().WithContext("field '" + f.name + "'");
          fields.push_back(std::move(*v));
        } else if (f.default_value) {
          SQE_ASSIGN_OR_RETURN(
              Value v, FromJsonAt(*f.default_value, *f.type, JsonBytes::kCodePoints, depth + 1));
          fields.push_back(std::move(v));
        } else if (f.type->type == AvroType::kUnion && f.type->NullBranch() >= 0) {
          Value v = Value::Null();
          v.set_union_branch(f.type->NullBranch());
          fields.push_back(std::move(v));
        } else {
          return Status::InvalidArgument("avro json: record '" + schema.name +
                                         "' lacks required field '" + f.name + "'");
        }
      }
      return Value::Record(std::move(fields));
    }
    case AvroType::kArray: {
      if (!json.is_array()) return NotFit(json, schema);
      std::vector<Value> items;
      items.reserve(json.size());
      for (const auto& item : json) {
        SQE_ASSIGN_OR_RETURN(Value v, FromJsonAt(item, *schema.items, bytes, depth + 1));
        items.push_back(std::move(v));
      }
      return Value::Array(std::move(items));
    }
    case AvroType::kMap: {
      if (!json.is_object()) return NotFit(json, schema);
      Value::MapEntries entries;
      for (auto it = json.begin(); it != json.end(); ++it) {
        SQE_ASSIGN_OR_RETURN(Value v, FromJsonAt(it.value(), *schema.values, bytes, depth + 1));
        entries.emplace_back(it.key(), std::move(v));
      }
      return Value::Map(std::move(entries));
    }
    case AvroType::kUnion: {
      Status first_error;
      for (size_t i = 0; i < schema.branches.size(); ++i) {
        const Node& b = *schema.branches[i];
        if (json.is_null() != (b.type == AvroType::kNull)) continue;
        auto v = FromJsonAt(json, b, bytes, depth + 1);
        if (v.ok()) {
          v->set_union_branch(static_cast<int>(i));
          return std::move(*v);
        }
        if (first_error.ok()) first_error = v.status();
      }
      if (!first_error.ok()) return first_error;
      return NotFit(json, schema);
    }
  }
  return NotFit(json, schema);
}

Json ToJsonAt(const Value& v, const Node& schema, JsonBytes bytes) {
  switch (schema.type) {
    case AvroType::kUnion: {
      int branch = ChooseUnionBranch(v, schema);
      if (branch < 0) return nullptr;
      return ToJsonAt(v, *schema.branches[branch], bytes);
    }
    case AvroType::kNull:
      return nullptr;
    case AvroType::kBoolean:
      return v.boolean();
    case AvroType::kInt:
    case AvroType::kLong:
      return v.long_value();
    case AvroType::kFloat:
    case AvroType::kDouble:
      return JsonDouble(v.double_value());
    case AvroType::kBytes:
    case AvroType::kFixed:
      return bytes == JsonBytes::kBase64 ? Base64Encode(v.bytes()) : BytesToCodePoints(v.bytes());
    case AvroType::kString:
      return v.bytes();
    case AvroType::kEnum:
      if (v.enum_index() >= 0 && static_cast<size_t>(v.enum_index()) < schema.symbols.size()) {
        return schema.symbols[v.enum_index()];
      }
      return nullptr;
    case AvroType::kRecord: {
      Json out = Json::object();
      for (size_t i = 0; i < schema.fields.size() && i < v.children().size(); ++i) {
        out[schema.fields[i].name] = ToJsonAt(v.field(i), *schema.fields[i].type, bytes);
      }
      return out;
    }
    case AvroType::kArray: {
      Json out = Json::array();
      for (const Value& item : v.children()) out.push_back(ToJsonAt(item, *schema.items, bytes));
      return out;
    }
    case AvroType::kMap: {
      Json out = Json::object();
      for (const auto& [key, value] : v.map()) out[key] = ToJsonAt(value, *schema.values, bytes);
      return out;
    }
  }
  return nullptr;
}

}  // namespace

Result<Value> ValueFromJson(const Json& json, const Node& schema, JsonBytes bytes) {
  return FromJsonAt(json, schema, bytes, 0);
}

Json ValueToJson(const Value& value, const Node& schema, JsonBytes bytes) {
  return ToJsonAt(value, schema, bytes);
}

std::string Base64Encode(std::string_view data) {
  std::string out;
  out.reserve((data.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < data.size(); i += 3) {
    uint32_t n = (static_cast<uint8_t>(data[i]) << 16) | (static_cast<uint8_t>(data[i + 1]) << 8) |
                 static_cast<uint8_t>(data[i + 2]);
    out.push_back(kBase64Alphabet[(n >> 18) & 63]);
    out.push_back(kBase64Alphabet[(n >> 12) & 63]);
    out.push_back(kBase64Alphabet[(n >> 6) & 63]);
    out.push_back(kBase64Alphabet[n & 63]);
  }
  if (i < data.size()) {
    uint32_t n = static_cast<uint8_t>(data[i]) << 16;
    if (i + 1 < data.size()) n |= static_cast<uint8_t>(data[i + 1]) << 8;
    out.push_back(kBase64Alphabet[(n >> 18) & 63]);
    out.push_back(kBase64Alphabet[(n >> 12) & 63]);
    out.push_back(i + 1 < data.size() ? kBase64Alphabet[(n >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

Result<std::string> Base64Decode(std::string_view text) {
  std::string out;
  uint32_t acc = 0;
  int bits = 0;
  size_t pad = 0;
  for (char c : text) {
    int v;
    if (c >= 'A' && c <= 'Z')
      v = c - 'A';
    else if (c >= 'a' && c <= 'z')
      v = c - 'a' + 26;
    else if (c >= '0' && c <= '9')
      v = c - '0' + 52;
    else if (c == '+')
      v = 62;
    else if (c == '/')
      v = 63;
    else if (c == '=') {
      ++pad;
      continue;
    } else
      return Status::InvalidArgument("avro json: invalid base64 character");
    if (pad > 0) return Status::InvalidArgument("avro json: base64 data after padding");
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xff));
    }
  }
  if (pad > 2) return Status::InvalidArgument("avro json: bad base64 padding");
  return out;
}

}  // namespace sqe::avro
