#pragma once
/// How a result column's type reads on the Trino protocol: the type name ("varchar",
/// "decimal(12,2)", "timestamp(6) with time zone", "array(row(a bigint))") and the
/// typeSignature object clients build their value decoders from ({"rawType": ...,
/// "arguments": [...]}, arguments of kind LONG, TYPE or NAMED_TYPE). Pure functions.

#include <string>

#include <nlohmann/json.hpp>

#include "columnar/data_type.h"
#include "columnar/schema.h"

namespace sqe::server::trino {

/// The Trino spelling of `type`. varchar is unbounded ("varchar"); binary and fixed(n)
/// are "varbinary"; time and timestamp carry their precision (6 or 9).
std::string TrinoTypeName(const columnar::DataType& type);

/// The typeSignature object of `type`.
nlohmann::json TrinoTypeSignature(const columnar::DataType& type);

/// The "columns" array of a response: {name, type, typeSignature} per field.
nlohmann::json TrinoColumns(const columnar::Schema& schema);

}  // namespace sqe::server::trino
