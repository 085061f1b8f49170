// Session::Describe (what a statement returns, without running it) and
// Session::ExecuteWithParameters.

#include "engine/engine_internal.h"
#include "sql/lexer.h"
#include "sql/parser.h"

namespace sqe::engine {

namespace ast = sql::ast;

namespace {

/// The `?` placeholders of `sql`, counted on its tokens (so none inside strings count).
Result<size_t> CountParameters(std::string_view sql) {
  SQE_ASSIGN_OR_RETURN(std::vector<sql::Token> tokens, sql::Tokenize(sql));
  size_t count = 0;
  for (const sql::Token& t : tokens) count += t.kind == sql::TokenKind::kParameter ? 1 : 0;
  return count;
}

bool ReturnsRowsFromMetadata(ast::StatementKind kind) {
  switch (kind) {
    case ast::StatementKind::kShowCatalogs:
    case ast::StatementKind::kShowSchemas:
    case ast::StatementKind::kShowTables:
    case ast::StatementKind::kShowColumns:
    case ast::StatementKind::kShowCreateTable:
    case ast::StatementKind::kShowFunctions:
    case ast::StatementKind::kShowSession:
      return true;
    default:
      return false;
  }
}

}  // namespace

Result<QueryResult> Session::ExecuteWithParameters(std::string_view sql,
                                                   const std::vector<exec::Value>& parameters) {
  SQE_ASSIGN_OR_RETURN(ast::StatementPtr statement, sql::ParseStatement(sql));
  std::lock_guard<std::mutex> lock(impl_->run_mutex);
  return impl_->Run(*statement, sql, parameters);
}

Result<StatementDescription> Session::Describe(std::string_view sql) {
  SQE_ASSIGN_OR_RETURN(ast::StatementPtr statement, sql::ParseStatement(sql));
  SQE_ASSIGN_OR_RETURN(size_t parameter_count, CountParameters(sql));
  StatementDescription description;
  description.parameter_types.assign(parameter_count, nullptr);
  std::lock_guard<std::mutex> lock(impl_->run_mutex);
  if (statement->kind == ast::StatementKind::kQuery) {
    const ast::Query& query = *static_cast<const ast::QueryStatement&>(*statement).query;
    std::unique_ptr<exec::ExecContext> ctx = impl_->MakeContext("describe");
    SessionCatalog catalog(*impl_, ctx.get());
    // Untyped NULLs stand in for the values: they coerce to whatever the query compares
    // them with, so binding succeeds and the result types are those of the columns.
    std::vector<exec::Value> unknown(parameter_count);
    SQE_ASSIGN_OR_RETURN(planner::BoundQuery bound,
                         planner::BindQuery(query, catalog, sql, unknown));
    std::vector<columnar::Field> fields;
    for (size_t i = 0; i < bound.names.size(); ++i) {
      columnar::TypePtr type = bound.plan->output[i].type;
      // A bare `?` (or NULL) in the select list has no type until a value is bound.
      if (type == nullptr) type = columnar::String();
      fields.emplace_back(bound.names[i], type, true);
    }
    description.schema = columnar::Schema::Make(std::move(fields));
    return description;
  }
  if (statement->kind == ast::StatementKind::kExplain) {
    description.schema = VarcharSchema({"Query Plan"});
    return description;
  }
  if (ReturnsRowsFromMetadata(statement->kind)) {
    SQE_ASSIGN_OR_RETURN(QueryResult shown, impl_->Run(*statement, sql, {}));
    description.schema = shown.schema;
    return description;
  }
  description.schema = columnar::Schema::Make({});
  description.is_update = true;
  return description;
}

}  // namespace sqe::engine
