#pragma once
/// The results of the Flight SQL metadata commands (GetCatalogs, GetDbSchemas, GetTables,
/// GetTableTypes), with the exact result schemas the Flight SQL definition gives, read
/// through the caller's engine Session (so they see what the caller's SQL sees). Filter
/// patterns are SQL LIKE patterns (% and _, backslash escapes). Thread-safe as the Session.

#include <optional>
#include <string>
#include <vector>

#include "columnar/batch.h"
#include "common/result.h"
#include "engine/engine.h"
#include "rpc/flight_sql.pb.h"

namespace sqe::server::flight_sql {

namespace sqlproto = ::arrow::flight::protocol::sql;

columnar::SchemaPtr CatalogsSchema();
columnar::SchemaPtr DbSchemasSchema();
columnar::SchemaPtr TablesSchema(bool include_schema);
columnar::SchemaPtr TableTypesSchema();

Result<columnar::Batch> ListCatalogs(engine::Session& session);
Result<columnar::Batch> ListDbSchemas(engine::Session& session,
                                      const sqlproto::CommandGetDbSchemas& command);
Result<columnar::Batch> ListTables(engine::Session& session,
                                   const sqlproto::CommandGetTables& command);
Result<columnar::Batch> ListTableTypes();

/// Whether `value` matches the LIKE `pattern` (% any run, _ one character, \ escapes).
bool MatchesPattern(std::string_view value, std::string_view pattern);

/// `schema` with the ARROW:FLIGHT:SQL:* field metadata of a table's columns.
columnar::SchemaPtr WithColumnMetadata(const columnar::Schema& schema, const std::string& catalog,
                                       const std::string& db_schema, const std::string& table);

}  // namespace sqe::server::flight_sql
