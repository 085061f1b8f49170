#pragma once
/// Names in a catalog: a Namespace is a list of levels ("sales", or "db"."sales" for
/// nested namespaces), a TableIdentifier a namespace and a table name. Validation
/// rejects names no backend can store (empty levels, control characters).

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace sqe::catalog {

using Namespace = std::vector<std::string>;

struct TableIdentifier {
  Namespace ns;
  std::string name;
  bool operator==(const TableIdentifier&) const = default;
  bool operator<(const TableIdentifier& o) const { return ns != o.ns ? ns < o.ns : name < o.name; }
};

/// Levels joined with '.' ("db.sales"); the empty namespace is "".
std::string NamespaceToString(const Namespace& ns);
/// "db.sales.orders".
std::string TableIdentifierToString(const TableIdentifier& id);

/// InvalidArgument unless every level is non-empty and free of control characters;
/// `what` names the thing in the message ("namespace", "table name").
Status ValidateName(std::string_view name, const char* what);
Status ValidateNamespace(const Namespace& ns);
Status ValidateTableIdentifier(const TableIdentifier& id);

}  // namespace sqe::catalog
