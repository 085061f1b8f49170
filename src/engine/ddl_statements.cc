// CREATE/DROP SCHEMA, CREATE/DROP TABLE, ALTER TABLE.

#include "engine/engine_internal.h"

namespace sqe::engine {

Result<QueryResult> Session::Impl::RunDdl(const sql::ast::Statement& statement, std::string_view) {
  return Status::NotImplemented(std::string(sql::ast::StatementKindName(statement.kind)) +
                                " is not supported yet");
}

}  // namespace sqe::engine
