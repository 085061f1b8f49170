#pragma once
/// What the DDL (ddl_statements.cc) and write (insert_statement.cc) statements share:
/// Trino's name folding for objects they create or change, positioned errors that keep
/// their status code, property evaluation, and creating a table from a definition.

#include <string>
#include <string_view>
#include <vector>

#include "catalog/catalog.h"
#include "engine/engine_internal.h"
#include "engine/table_properties.h"
#include "planner/binder.h"
#include "sql/ast.h"

namespace sqe::engine {

/// `st` with "line L:C: " and the caret excerpt of `sql` at `pos`, keeping its code;
/// unchanged when its message already has a position.
Status PositionedError(std::string_view sql, const sql::SourcePosition& pos, const Status& st);

/// Lower-case ASCII (Trino folds identifiers of the objects the connector stores).
std::string LowerName(std::string name);

/// A table name of a DDL / write statement against the session, every part lower-cased.
Result<planner::TableName> ResolveStoredTableName(const Session::Impl& session,
                                                  const sql::ast::QualifiedName& name);

/// The catalog's identifier of a resolved name.
catalog::TableIdentifier ToIdentifier(const planner::TableName& name);

/// "Schema 'iceberg.s' does not exist" unless the schema of `name` exists.
Status CheckSchemaExists(catalog::Catalog& catalog, const planner::TableName& name);

/// Evaluates each `name = value` (constants only; unquoted names lower-cased).
Result<std::vector<TableProperty>> EvaluateProperties(
    Session::Impl& session, const std::vector<sql::ast::Property>& properties,
    std::string_view sql);

/// Creates table `name` from `definition` in `catalog`: the schema's location property
/// places it when no location is given; AlreadyExists reads "Table 'c.s.t' already exists".
Result<catalog::LoadedTable> CreateTableFromDefinition(Session::Impl& session,
                                                       catalog::Catalog& catalog,
                                                       const planner::TableName& name,
                                                       const NewTableDefinition& definition);

/// Registers a statement's context for Session::Cancel and counts it as running while it
/// lives (insert_statement.cc).
class RunningStatement {
 public:
  RunningStatement(Session::Impl& session, exec::ExecContext* ctx);
  ~RunningStatement();

 private:
  Session::Impl& session_;
};

/// The bound query's rows written into `table` (whose columns `columns` names, in the
/// query's order; empty = all) through the TableInsert sink, in one commit: the number of
/// rows (insert_statement.cc; INSERT, CTAS and Session::Ingest).
Result<int64_t> WriteRows(Session::Impl& session, exec::ExecContext* ctx,
                          const std::shared_ptr<catalog::Catalog>& cat,
                          const planner::TableName& name, const catalog::LoadedTable& table,
                          const planner::BoundQuery& bound, const std::vector<bool>& unknown,
                          const std::vector<std::string>& columns);

/// An empty result of a statement without rows.
QueryResult StatementResult(std::string statement_type);

}  // namespace sqe::engine
