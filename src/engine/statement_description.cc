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

/// The result schema of `query`, bound (not run) with untyped NULLs for its `?`s: they
/// coerce to whatever the query compares them with, so binding succeeds and the result
/// types are those of the columns. With `parameter_types`, each `?`'s coerced type where
/// the query gives it one (`id = ?` -> id's type).
Result<columnar::SchemaPtr> BoundSchema(Session::Impl& session, const ast::Query& query,
                                        std::string_view sql, size_t parameter_count,
                                        std::vector<columnar::TypePtr>* parameter_types = nullptr) {
  std::unique_ptr<exec::ExecContext> ctx = session.MakeContext("describe");
  SessionCatalog catalog(session, ctx.get());
  std::vector<exec::Value> unknown(parameter_count);
  SQE_ASSIGN_OR_RETURN(planner::BoundQuery bound, planner::BindQuery(query, catalog, sql, unknown));
  if (parameter_types != nullptr) *parameter_types = bound.parameter_types;
  std::vector<columnar::Field> fields;
  for (size_t i = 0; i < bound.names.size(); ++i) {
    columnar::TypePtr type = bound.plan->output[i].type;
    // A bare `?` (or NULL) in the select list has no type until a value is bound.
    if (type == nullptr) type = columnar::String();
    fields.emplace_back(bound.names[i], type, true);
  }
  return columnar::Schema::Make(std::move(fields));
}

/// INSERT ... VALUES: a `?` standing for a whole value takes its target column's type.
Status InsertParameterTypes(Session::Impl& session, const ast::InsertStatement& insert,
                            std::vector<columnar::TypePtr>* types) {
  if (insert.query == nullptr || insert.query->body == nullptr ||
      insert.query->body->kind != ast::QueryBodyKind::kValues) {
    return Status::OK();
  }
  std::string target = "SELECT * FROM " + insert.table.ToString();
  SQE_ASSIGN_OR_RETURN(ast::StatementPtr select, sql::ParseStatement(target));
  SQE_ASSIGN_OR_RETURN(
      columnar::SchemaPtr table,
      BoundSchema(session, *static_cast<const ast::QueryStatement&>(*select).query, target, 0));
  std::vector<int> columns;
  for (int i = 0; i < table->num_fields(); ++i) columns.push_back(i);
  if (!insert.columns.empty()) {
    columns.clear();
    for (const std::string& name : insert.columns) columns.push_back(table->FieldIndex(name));
  }
  for (const std::vector<ast::ExprPtr>& row : insert.query->body->rows) {
    for (size_t i = 0; i < row.size() && i < columns.size(); ++i) {
      const ast::Expr& e = *row[i];
      if (e.kind != ast::ExprKind::kParameter || columns[i] < 0) continue;
      if (e.parameter_index >= 0 && static_cast<size_t>(e.parameter_index) < types->size()) {
        (*types)[e.parameter_index] = table->field(columns[i]).type();
      }
    }
  }
  return Status::OK();
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
    SQE_ASSIGN_OR_RETURN(description.schema, BoundSchema(*impl_, query, sql, parameter_count,
                                                         &description.parameter_types));
    description.parameter_types.resize(parameter_count);
    return description;
  }
  if (statement->kind == ast::StatementKind::kInsert) {
    SQE_RETURN_NOT_OK(InsertParameterTypes(*impl_,
                                           static_cast<const ast::InsertStatement&>(*statement),
                                           &description.parameter_types));
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
