// Raw source values -> typed fields. File values keep their TOML types (a TOML string is
// not an integer); env and --set values are text coerced to the field's type.

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "common/byte_size.h"
#include "config/config_merge_internal.h"

namespace sqe::config {
namespace {

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

bool IsText(const RawValue& raw) {
  return raw.kind == RawValue::Kind::kText || raw.kind == RawValue::Kind::kString;
}

Status TypeError(FieldType type, const RawValue& raw) {
  std::string got = type == FieldType::kSecret
                        ? (raw.kind == RawValue::Kind::kArray   ? "an array"
                           : raw.kind == RawValue::Kind::kTable ? "a table"
                                                                : "a non-string value")
                        : DescribeRaw(raw);
  return Status::InvalidArgument(
      "expected " + ExpectedTypeText(type, raw.kind == RawValue::Kind::kText) + ", got " + got);
}

Result<int64_t> ToInteger(FieldType type, const RawValue& raw) {
  if (raw.kind == RawValue::Kind::kInteger) return raw.integer;
  if (raw.kind == RawValue::Kind::kText) {
    std::string_view text = Trim(raw.text);
    if (!text.empty() && text.front() == '+') text.remove_prefix(1);
    int64_t value = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (!text.empty() && ec == std::errc() && ptr == text.data() + text.size()) return value;
  }
  return TypeError(type, raw);
}

Result<bool> ToBool(const RawValue& raw) {
  if (raw.kind == RawValue::Kind::kBool) return raw.boolean;
  if (raw.kind == RawValue::Kind::kText) {
    std::string text = Lower(Trim(raw.text));
    if (text == "true" || text == "1" || text == "yes") return true;
    if (text == "false" || text == "0" || text == "no") return false;
  }
  return TypeError(FieldType::kBool, raw);
}

Result<double> ToDouble(const RawValue& raw) {
  if (raw.kind == RawValue::Kind::kFloat) return raw.floating;
  if (raw.kind == RawValue::Kind::kInteger) return static_cast<double>(raw.integer);
  if (raw.kind == RawValue::Kind::kText) {
    std::string text(Trim(raw.text));
    char* end = nullptr;
    errno = 0;
    double value = std::strtod(text.c_str(), &end);
    if (!text.empty() && end == text.c_str() + text.size() && errno == 0 && std::isfinite(value)) {
      return value;
    }
  }
  return TypeError(FieldType::kDouble, raw);
}

Result<uint64_t> ToSize(const RawValue& raw) {
  if (raw.kind == RawValue::Kind::kInteger) {
    if (raw.integer < 0) {
      return Status::InvalidArgument("expected a byte size, got the negative integer " +
                                     std::to_string(raw.integer));
    }
    return static_cast<uint64_t>(raw.integer);
  }
  if (IsText(raw)) {
    auto parsed = ParseByteSize(raw.text);
    if (!parsed.ok()) return parsed.status();
    return *parsed;
  }
  return TypeError(FieldType::kSize, raw);
}

Result<std::vector<std::string>> ToList(const RawValue& raw) {
  if (raw.kind == RawValue::Kind::kText) {
    std::string_view text = Trim(raw.text);
    if (!text.empty() && text.front() == '[') {
      auto array = ParseInlineArray(text);
      if (!array.ok()) {
        return Status::InvalidArgument("expected " +
                                       ExpectedTypeText(FieldType::kStringList, true) + ", got \"" +
                                       raw.text + "\": " + array.status().message());
      }
      return ToList(*array);
    }
    std::vector<std::string> items;
    size_t start = 0;
    while (start <= text.size()) {
      size_t comma = text.find(',', start);
      std::string_view item = Trim(text.substr(
          start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
      if (!item.empty()) items.emplace_back(item);
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    return items;
  }
  if (raw.kind == RawValue::Kind::kArray) {
    std::vector<std::string> items;
    for (const RawValue& item : raw.items) {
      if (item.kind != RawValue::Kind::kString) {
        return Status::InvalidArgument("expected " +
                                       ExpectedTypeText(FieldType::kStringList, false) +
                                       ", got an array containing " + DescribeRaw(item));
      }
      items.push_back(item.text);
    }
    return items;
  }
  return TypeError(FieldType::kStringList, raw);
}

}  // namespace

std::string DescribeRaw(const RawValue& value) {
  switch (value.kind) {
    case RawValue::Kind::kText:
      return "\"" + value.text + "\"";
    case RawValue::Kind::kString:
      return "the string \"" + value.text + "\"";
    case RawValue::Kind::kInteger:
      return "the integer " + std::to_string(value.integer);
    case RawValue::Kind::kFloat: {
      char buf[64];
      auto [ptr, ec] = std::to_chars(buf, buf + sizeof(buf), value.floating);
      return "the number " + std::string(buf, ec == std::errc() ? ptr : buf);
    }
    case RawValue::Kind::kBool:
      return std::string("the boolean ") + (value.boolean ? "true" : "false");
    case RawValue::Kind::kArray:
      return "an array";
    case RawValue::Kind::kTable:
      return "a table";
    case RawValue::Kind::kOther:
      return "a TOML " + value.text;
  }
  return "a value";
}

std::string ExpectedTypeText(FieldType type, bool from_text) {
  switch (type) {
    case FieldType::kString:
      return "a string";
    case FieldType::kSecret:
      return "a string (secret)";
    case FieldType::kInt:
      return "an integer";
    case FieldType::kPort:
      return "a port number (integer)";
    case FieldType::kDouble:
      return "a number";
    case FieldType::kBool:
      return from_text ? "a boolean (true/false, 1/0, yes/no)" : "a boolean (true or false)";
    case FieldType::kSize:
      return "a byte size such as \"256MB\" (B/KB/MB/GB/TB, 1024-based) or a number of bytes";
    case FieldType::kStringList:
      return from_text ? "a list of strings (comma-separated, or a TOML array such as "
                         "[\"a\", \"b\"])"
                       : "an array of strings";
  }
  return "a value";
}

Status AssignRaw(FieldType type, const ValueRef& target, const RawValue& raw) {
  switch (type) {
    case FieldType::kString:
      if (!IsText(raw)) return TypeError(type, raw);
      *std::get<std::string*>(target) = raw.text;
      return Status::OK();
    case FieldType::kSecret:
      if (!IsText(raw)) return TypeError(type, raw);
      *std::get<SecretString*>(target) = SecretString(raw.text);
      return Status::OK();
    case FieldType::kInt:
    case FieldType::kPort: {
      SQE_ASSIGN_OR_RETURN(int64_t value, ToInteger(type, raw));
      if (auto* narrow = std::get_if<int*>(&target)) {
        if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max()) {
          return Status::InvalidArgument("expected " + ExpectedTypeText(type, false) + ", got " +
                                         std::to_string(value) + ", which is out of range");
        }
        **narrow = static_cast<int>(value);
      } else {
        *std::get<int64_t*>(target) = value;
      }
      return Status::OK();
    }
    case FieldType::kDouble: {
      SQE_ASSIGN_OR_RETURN(*std::get<double*>(target), ToDouble(raw));
      return Status::OK();
    }
    case FieldType::kBool: {
      SQE_ASSIGN_OR_RETURN(*std::get<bool*>(target), ToBool(raw));
      return Status::OK();
    }
    case FieldType::kSize: {
      SQE_ASSIGN_OR_RETURN(*std::get<uint64_t*>(target), ToSize(raw));
      return Status::OK();
    }
    case FieldType::kStringList: {
      SQE_ASSIGN_OR_RETURN(*std::get<std::vector<std::string>*>(target), ToList(raw));
      return Status::OK();
    }
  }
  return Status::Internal("unhandled field type");
}

}  // namespace sqe::config
