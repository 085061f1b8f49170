#include "config/toml_text_internal.h"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "common/byte_size.h"
#include "config/url_credentials_internal.h"

namespace sqe::config {

std::string QuoteTomlString(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", static_cast<unsigned char>(c));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string FormatTomlDouble(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buf[64];
  auto [ptr, ec] = std::to_chars(buf, buf + sizeof(buf), value);
  std::string out(buf, ec == std::errc() ? ptr : buf);
  if (out.find_first_of(".eE") == std::string::npos) out += ".0";
  return out;
}

std::string RenderTomlValue(const SchemaNode& node, FieldType type, const ValueRef& ref) {
  switch (type) {
    case FieldType::kString: {
      const std::string& s = *std::get<std::string*>(ref);
      return QuoteTomlString(node.url_with_credentials ? MaskUrlPasswords(s) : s);
    }
    case FieldType::kSecret:
      return QuoteTomlString(std::get<SecretString*>(ref)->empty() ? "" : "***");
    case FieldType::kInt:
    case FieldType::kPort:
      if (auto* i = std::get_if<int*>(&ref)) return std::to_string(**i);
      return std::to_string(*std::get<int64_t*>(ref));
    case FieldType::kDouble:
      return FormatTomlDouble(*std::get<double*>(ref));
    case FieldType::kBool:
      return *std::get<bool*>(ref) ? "true" : "false";
    case FieldType::kSize:
      return QuoteTomlString(FormatByteSize(*std::get<uint64_t*>(ref)));
    case FieldType::kStringList: {
      std::string out = "[";
      const auto& items = *std::get<std::vector<std::string>*>(ref);
      for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + QuoteTomlString(items[i]);
      return out + "]";
    }
  }
  return "\"\"";
}

}  // namespace sqe::config
