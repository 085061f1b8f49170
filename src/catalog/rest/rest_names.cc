#include "catalog/rest/rest_names.h"

#include "common/hex.h"

namespace sqe::catalog {
namespace {

constexpr char kUnitSeparator = '\x1f';

}  // namespace

std::string PercentDecode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size()) {
      int hi = HexDigitValue(text[i + 1]);
      int lo = HexDigitValue(text[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out.push_back(static_cast<char>(hi * 16 + lo));
        i += 2;
        continue;
      }
    }
    out.push_back(text[i]);
  }
  return out;
}

Result<Namespace> NamespaceFromParameter(std::string_view text) {
  Namespace ns;
  size_t start = 0;
  while (true) {
    size_t end = text.find(kUnitSeparator, start);
    ns.emplace_back(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  SQE_RETURN_NOT_OK(ValidateNamespace(ns));
  return ns;
}

std::string NamespaceToParameter(const Namespace& ns) {
  std::string out;
  for (size_t i = 0; i < ns.size(); ++i) {
    if (i > 0) out.push_back(kUnitSeparator);
    out += ns[i];
  }
  return out;
}

Result<Namespace> NamespaceFromJson(const nlohmann::json& json, const char* what) {
  if (!json.is_array()) {
    return Status::InvalidArgument(std::string(what) + " must be an array of strings");
  }
  Namespace ns;
  for (const nlohmann::json& level : json) {
    if (!level.is_string()) {
      return Status::InvalidArgument(std::string(what) + " must be an array of strings");
    }
    ns.push_back(level.get<std::string>());
  }
  return ns;
}

Result<TableIdentifier> TableIdentifierFromJson(const nlohmann::json& json, const char* what) {
  if (!json.is_object() || !json.contains("name") || !json["name"].is_string()) {
    return Status::InvalidArgument(std::string(what) +
                                   " must be an object {\"namespace\": [...], \"name\": \"...\"}");
  }
  TableIdentifier id;
  id.name = json["name"].get<std::string>();
  if (json.contains("namespace")) {
    SQE_ASSIGN_OR_RETURN(
        id.ns, NamespaceFromJson(json["namespace"], (std::string(what) + ".namespace").c_str()));
  }
  SQE_RETURN_NOT_OK(ValidateTableIdentifier(id));
  return id;
}

nlohmann::json TableIdentifierToJson(const TableIdentifier& id) {
  return {{"namespace", id.ns}, {"name", id.name}};
}

}  // namespace sqe::catalog
