#include "catalog/table_identifier.h"

namespace sqe::catalog {

std::string NamespaceToString(const Namespace& ns) {
  std::string out;
  for (size_t i = 0; i < ns.size(); ++i) {
    if (i > 0) out += '.';
    out += ns[i];
  }
  return out;
}

std::string TableIdentifierToString(const TableIdentifier& id) {
  std::string ns = NamespaceToString(id.ns);
  return ns.empty() ? id.name : ns + "." + id.name;
}

Status ValidateName(std::string_view name, const char* what) {
  if (name.empty()) return Status::InvalidArgument(std::string("empty ") + what);
  if (name.size() > 255) {
    return Status::InvalidArgument(std::string(what) + " '" + std::string(name.substr(0, 40)) +
                                   "...' is longer than 255 bytes");
  }
  for (unsigned char c : name) {
    if (c < 0x20 || c == 0x7f) {
      return Status::InvalidArgument(std::string(what) + " '" + std::string(name) +
                                     "' contains a control character");
    }
  }
  return Status::OK();
}

Status ValidateNamespace(const Namespace& ns) {
  if (ns.empty()) return Status::InvalidArgument("empty namespace");
  for (const std::string& level : ns) SQE_RETURN_NOT_OK(ValidateName(level, "namespace level"));
  return Status::OK();
}

Status ValidateTableIdentifier(const TableIdentifier& id) {
  SQE_RETURN_NOT_OK(ValidateNamespace(id.ns));
  return ValidateName(id.name, "table name");
}

}  // namespace sqe::catalog
