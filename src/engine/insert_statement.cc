// INSERT and CREATE TABLE AS SELECT.

#include "engine/engine_internal.h"

namespace sqe::engine {

Result<QueryResult> Session::Impl::RunInsert(const sql::ast::Statement& statement, std::string_view,
                                             const std::vector<exec::Value>&) {
  return Status::NotImplemented(std::string(sql::ast::StatementKindName(statement.kind)) +
                                " is not supported yet");
}

}  // namespace sqe::engine
