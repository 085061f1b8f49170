#pragma once
/// Names as the REST protocol spells them: a namespace in a path segment or in `parent=`
/// is its levels joined by the unit separator 0x1F (`%1F` on the wire); a TableIdentifier
/// in a body is {"namespace": [levels], "name": "t"}.

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "catalog/table_identifier.h"
#include "common/result.h"

namespace sqe::catalog {

/// Decodes %XX escapes; a '%' not followed by two hex digits stays as it is. Idempotent on
/// text that has no '%', so a segment the HTTP library already decoded passes unchanged.
std::string PercentDecode(std::string_view text);

/// The namespace in one (decoded) path segment or `parent` value: levels split on 0x1F.
/// InvalidArgument for an empty level.
Result<Namespace> NamespaceFromParameter(std::string_view text);

/// Levels joined by 0x1F (the inverse of NamespaceFromParameter).
std::string NamespaceToParameter(const Namespace& ns);

/// {"namespace": [...], "name": "..."}; InvalidArgument naming `what` when malformed.
Result<TableIdentifier> TableIdentifierFromJson(const nlohmann::json& json, const char* what);
nlohmann::json TableIdentifierToJson(const TableIdentifier& id);

/// A JSON array of strings as a namespace; InvalidArgument naming `what` otherwise.
Result<Namespace> NamespaceFromJson(const nlohmann::json& json, const char* what);

}  // namespace sqe::catalog
