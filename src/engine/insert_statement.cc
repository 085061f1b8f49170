// INSERT and CREATE TABLE AS SELECT: the query is bound, wrapped in a projection that
// casts its columns to the table's types (NULL for omitted columns), optimized, planned
// with the TableInsert sink on top, and run; the sink commits one snapshot.

#include <algorithm>
#include <cctype>
#include <set>

#include "catalog/table_file_system.h"
#include "columnar/fixed_width_builder.h"
#include "engine/ddl_internal.h"
#include "exec/pipeline.h"
#include "exec/table_insert.h"
#include "iceberg/columnar_schema.h"
#include "planner/optimizer.h"
#include "planner/physical_planner.h"

namespace sqe::engine {

namespace ast = sql::ast;

RunningStatement::RunningStatement(Session::Impl& session, exec::ExecContext* ctx)
    : session_(session) {
  std::lock_guard<std::mutex> lock(session_.context_mutex);
  session_.running = ctx;
  session_.engine->running_queries.fetch_add(1);
}

RunningStatement::~RunningStatement() {
  std::lock_guard<std::mutex> lock(session_.context_mutex);
  session_.running = nullptr;
  session_.engine->running_queries.fetch_sub(1);
}

namespace {

bool IsNullLiteral(const ast::ExprPtr& e) {
  return e != nullptr && e->kind == ast::ExprKind::kLiteral &&
         e->literal_kind == ast::LiteralKind::kNull;
}

/// Which result columns of `query` are untyped NULLs (the binder types them boolean):
/// a bare NULL select item, or a VALUES column of NULLs only. Such a column takes any
/// table type on INSERT and has no type for CTAS.
std::vector<bool> UnknownColumns(const ast::Query& query, size_t width) {
  std::vector<bool> unknown(width, false);
  const ast::QueryBody* body = query.body.get();
  while (body != nullptr && body->kind == ast::QueryBodyKind::kQuery && body->query != nullptr &&
         body->query->body != nullptr) {
    body = body->query->body.get();
  }
  if (body == nullptr) return unknown;
  if (body->kind == ast::QueryBodyKind::kValues && !body->rows.empty()) {
    for (size_t i = 0; i < width; ++i) {
      bool all_null = true;
      for (const auto& row : body->rows) {
        if (i >= row.size() || !IsNullLiteral(row[i])) all_null = false;
      }
      unknown[i] = all_null;
    }
  } else if (body->kind == ast::QueryBodyKind::kSelect && body->select != nullptr) {
    const auto& items = body->select->items;
    for (const ast::SelectItem& item : items) {
      if (item.expr != nullptr && item.expr->kind == ast::ExprKind::kStar) return unknown;
    }
    for (size_t i = 0; i < width && i < items.size(); ++i)
      unknown[i] = IsNullLiteral(items[i].expr);
  }
  return unknown;
}

/// The binder's name of an unaliased expression column ("_col0").
bool IsGeneratedName(const std::string& name) {
  if (name.empty()) return true;
  if (name.rfind("_col", 0) != 0 || name.size() == 4) return false;
  return std::all_of(name.begin() + 4, name.end(),
                     [](unsigned char c) { return std::isdigit(c) != 0; });
}

int32_t MaxColumnId(const planner::LogicalNode& node) {
  int32_t max_id = -1;
  for (const planner::ColumnInfo& c : node.output) max_id = std::max(max_id, c.id);
  for (const planner::LogicalPtr& child : node.children) {
    max_id = std::max(max_id, MaxColumnId(*child));
  }
  return max_id;
}

std::string TypeList(const std::vector<columnar::TypePtr>& types) {
  std::string out = "[";
  for (size_t i = 0; i < types.size(); ++i) {
    out += (i == 0 ? "" : ", ") + (types[i] ? types[i]->ToString() : std::string("unknown"));
  }
  return out + "]";
}

columnar::SchemaPtr RowsSchema() {
  return columnar::Schema::Make({columnar::Field("rows", columnar::Int64(), false)});
}

Result<QueryResult> RowsResult(int64_t rows, std::string statement_type) {
  QueryResult r;
  r.schema = RowsSchema();
  columnar::FixedWidthBuilder<int64_t> builder(columnar::Int64());
  SQE_RETURN_NOT_OK(builder.Append(rows));
  SQE_ASSIGN_OR_RETURN(columnar::Column c, builder.Finish());
  SQE_ASSIGN_OR_RETURN(columnar::Batch b, columnar::Batch::Make(r.schema, {c}, 1));
  r.batches.push_back(std::move(b));
  r.statement_type = std::move(statement_type);
  r.update_count = rows;
  return r;
}

}  // namespace

Result<int64_t> WriteRows(Session::Impl& session, exec::ExecContext* ctx,
                          const std::shared_ptr<catalog::Catalog>& cat,
                          const planner::TableName& name, const catalog::LoadedTable& table,
                          const planner::BoundQuery& bound, const std::vector<bool>& unknown,
                          const std::vector<std::string>& columns) {
  const iceberg::Schema& schema = *table.metadata->CurrentSchema();
  SQE_ASSIGN_OR_RETURN(columnar::SchemaPtr table_columns, iceberg::ToColumnarSchema(schema));
  const int n = table_columns->num_fields();
  // Which query column feeds each table column (-1: none, NULL).
  std::vector<int> source(n, -1);
  std::vector<int> targets;
  if (columns.empty()) {
    for (int i = 0; i < n; ++i) targets.push_back(i);
  } else {
    std::set<int> seen;
    for (const std::string& c : columns) {
      int found = -1;
      for (int i = 0; i < n; ++i) {
        if (table_columns->field(i).name() == c) found = i;
      }
      if (found < 0) {
        for (int i = 0; i < n; ++i) {
          if (LowerName(table_columns->field(i).name()) == LowerName(c)) found = i;
        }
      }
      if (found < 0) {
        std::string names;
        for (const columnar::Field& f : table_columns->fields()) {
          names += (names.empty() ? "" : ", ") + f.name();
        }
        return Status::InvalidArgument("Insert column name does not exist: " + c +
                                       " (columns of '" + name.ToString() + "': " + names + ")");
      }
      if (!seen.insert(found).second) {
        return Status::InvalidArgument("Insert column name is specified more than once: " + c);
      }
      targets.push_back(found);
    }
  }
  const std::vector<planner::ColumnInfo>& query_columns = bound.plan->output;
  std::vector<columnar::TypePtr> table_types, query_types;
  for (int t : targets) table_types.push_back(table_columns->field(t).type());
  for (size_t i = 0; i < query_columns.size(); ++i) {
    query_types.push_back(i < unknown.size() && unknown[i] ? nullptr : query_columns[i].type);
  }
  bool matches = table_types.size() == query_types.size();
  for (size_t i = 0; matches && i < targets.size(); ++i) {
    if (query_types[i] == nullptr) continue;
    if (!query_types[i]->Equals(*table_types[i]) &&
        !exec::CanCoerceImplicitly(query_types[i], table_types[i])) {
      matches = false;
    }
  }
  if (!matches) {
    return Status::InvalidArgument("Insert query has mismatched column types: Table: " +
                                   TypeList(table_types) + ", Query: " + TypeList(query_types) +
                                   " (cast the query's columns, or list the target columns)");
  }
  for (size_t i = 0; i < targets.size(); ++i) source[targets[i]] = static_cast<int>(i);
  // The projection onto the table's columns, in table order.
  auto project = std::make_shared<planner::LogicalNode>();
  project->kind = planner::LogicalKind::kProject;
  project->children.push_back(bound.plan);
  int32_t next_id = MaxColumnId(*bound.plan) + 1;
  for (int j = 0; j < n; ++j) {
    const columnar::Field& field = table_columns->field(j);
    exec::ExprPtr expr;
    if (source[j] < 0 || query_types[source[j]] == nullptr) {
      if (!field.nullable()) {
        return Status::InvalidArgument(
            "NULL value not allowed for NOT NULL column: " + field.name() + " (table '" +
            name.ToString() + "'); give it a value");
      }
      expr = exec::Expr::Literal(exec::Value::Null(field.type()));
    } else {
      const planner::ColumnInfo& in = query_columns[source[j]];
      expr = exec::Expr::Column(in.id, in.type, in.name);
      if (!in.type->Equals(*field.type())) expr = exec::Expr::Cast(expr, field.type());
    }
    project->output.push_back(planner::ColumnInfo{next_id++, field.name(), field.type(), true});
    project->expressions.push_back(std::move(expr));
  }
  SQE_ASSIGN_OR_RETURN(planner::LogicalPtr optimized, planner::Optimize(project));

  exec::TableInsertTarget target;
  target.catalog = cat;
  target.table = table;
  SQE_ASSIGN_OR_RETURN(std::unique_ptr<io::FileSystem> fs,
                       catalog::TableFileSystem(*session.engine->file_systems, table));
  target.fs = std::shared_ptr<io::FileSystem>(std::move(fs));
  auto file_systems = session.engine->file_systems;
  target.make_commit_fs = [file_systems, table]() {
    return catalog::TableFileSystem(*file_systems, table);
  };
  target.display_name = name.ToString();
  exec::TableInsertOptions options;
  const config::Config& config = session.engine->config;
  options.default_codec = config.catalog.parquet_compression;
  options.max_open_writers = static_cast<int>(config.query.fanout_max_open_writers);
  auto file_size = session.properties.find("target_file_size_bytes");
  if (file_size != session.properties.end()) {
    options.target_file_size_bytes = std::atoll(file_size->second.c_str());
  }

  planner::PhysicalPlanOptions plan_options;
  plan_options.target_split_size = static_cast<int64_t>(config.query.target_task_size);
  plan_options.sort_mode = config.query.sort_mode;
  plan_options.trust_sort_order = config.catalog.trust_sort_order;
  plan_options.wrap_output =
      [&](exec::PhysicalOperatorPtr child) -> Result<exec::PhysicalOperatorPtr> {
    SQE_ASSIGN_OR_RETURN(std::unique_ptr<exec::TableInsert> insert,
                         exec::TableInsert::Make(std::move(child), target, options));
    return exec::PhysicalOperatorPtr(std::move(insert));
  };
  SQE_ASSIGN_OR_RETURN(planner::PhysicalPlan physical,
                       planner::CreatePhysicalPlan(optimized, plan_options));
  SQE_RETURN_NOT_OK(exec::ExecutePlan(*ctx, *physical.root));
  int64_t rows = 0;
  for (const columnar::Batch& b : physical.root->TakeBatches()) {
    if (b.num_rows() > 0) {
      SQE_ASSIGN_OR_RETURN(exec::Value v, exec::Value::FromColumn(b.column(0), 0));
      rows += v.int_value();
    }
  }
  return rows;
}

namespace {

Result<QueryResult> Insert(Session::Impl& session, const ast::InsertStatement& s,
                           std::string_view sql, const std::vector<exec::Value>& parameters) {
  auto at = [&](const Status& st) { return PositionedError(sql, s.pos, st); };
  auto name = ResolveStoredTableName(session, s.table);
  if (!name.ok()) return at(name.status());
  SQE_ASSIGN_OR_RETURN(auto cat, session.engine->Catalog(name->catalog));
  auto loaded = cat->LoadTable(ToIdentifier(*name));
  if (!loaded.ok()) {
    if (loaded.status().code() != StatusCode::kNotFound) return at(loaded.status());
    if (Status st = CheckSchemaExists(*cat, *name); !st.ok()) return at(st);
    return at(Status::NotFound("Table '" + name->ToString() + "' does not exist"));
  }
  std::unique_ptr<exec::ExecContext> ctx = session.MakeContext("insert");
  RunningStatement running(session, ctx.get());
  SessionCatalog binder_catalog(session, ctx.get());
  SQE_ASSIGN_OR_RETURN(planner::BoundQuery bound,
                       planner::BindQuery(*s.query, binder_catalog, sql, parameters));
  std::vector<bool> unknown = UnknownColumns(*s.query, bound.plan->output.size());
  auto rows = WriteRows(session, ctx.get(), cat, *name, *loaded, bound, unknown, s.columns);
  if (!rows.ok()) return at(rows.status());
  return RowsResult(*rows, "INSERT");
}

Result<QueryResult> CreateTableAsSelect(Session::Impl& session,
                                        const ast::CreateTableAsSelectStatement& s,
                                        std::string_view sql,
                                        const std::vector<exec::Value>& parameters) {
  auto at = [&](const Status& st) { return PositionedError(sql, s.pos, st); };
  if (s.or_replace) {
    return at(Status::NotImplemented(
        "CREATE OR REPLACE TABLE is not supported yet; DROP TABLE first, then CREATE TABLE AS"));
  }
  auto name = ResolveStoredTableName(session, s.name);
  if (!name.ok()) return at(name.status());
  SQE_ASSIGN_OR_RETURN(auto cat, session.engine->Catalog(name->catalog));
  if (Status st = CheckSchemaExists(*cat, *name); !st.ok()) return at(st);
  const catalog::TableIdentifier id = ToIdentifier(*name);
  if (cat->LoadTable(id).ok()) {
    if (s.if_not_exists) return RowsResult(0, "CREATE TABLE");
    return at(Status::AlreadyExists("Table '" + name->ToString() + "' already exists"));
  }
  std::unique_ptr<exec::ExecContext> ctx = session.MakeContext("create table as");
  RunningStatement running(session, ctx.get());
  SessionCatalog binder_catalog(session, ctx.get());
  SQE_ASSIGN_OR_RETURN(planner::BoundQuery bound,
                       planner::BindQuery(*s.query, binder_catalog, sql, parameters));
  const std::vector<planner::ColumnInfo>& output = bound.plan->output;
  if (!s.column_aliases.empty() && s.column_aliases.size() != output.size()) {
    return at(Status::InvalidArgument(
        "Column alias list has " + std::to_string(s.column_aliases.size()) +
        " entries but the query has " + std::to_string(output.size()) + " columns"));
  }
  std::vector<bool> unknown = UnknownColumns(*s.query, output.size());
  NewTableDefinition definition;
  for (size_t i = 0; i < output.size(); ++i) {
    std::string column = LowerName(s.column_aliases.empty() ? bound.names[i] : s.column_aliases[i]);
    if (s.column_aliases.empty() && IsGeneratedName(column)) {
      return at(Status::InvalidArgument("Column name not specified at position " +
                                        std::to_string(i + 1) +
                                        "; give the expression an alias (expr AS name)"));
    }
    if (unknown[i] || output[i].type == nullptr) {
      return at(Status::InvalidArgument("Column type is unknown: " + column +
                                        " (cast it, e.g. CAST(NULL AS varchar) AS " + column +
                                        ")"));
    }
    definition.columns.push_back(ColumnSpec{column, output[i].type, false, std::nullopt});
  }
  SQE_ASSIGN_OR_RETURN(definition.properties, EvaluateProperties(session, s.properties, sql));
  for (const ast::ExprPtr& e : s.partitioned_by) {
    auto text = PartitionExpressionText(*e);
    if (!text.ok()) return PositionedError(sql, e->pos, text.status());
    definition.partitioned_by.push_back(*text);
  }
  definition.comment = s.comment;
  auto created = CreateTableFromDefinition(session, *cat, *name, definition);
  if (!created.ok()) {
    if (created.status().code() == StatusCode::kAlreadyExists && s.if_not_exists) {
      return RowsResult(0, "CREATE TABLE");
    }
    return at(created.status());
  }
  if (!s.with_data) return RowsResult(0, "CREATE TABLE");
  auto rows = WriteRows(session, ctx.get(), cat, *name, *created, bound, {}, {});
  if (!rows.ok()) {
    // The statement is one unit: a failed insert leaves no table behind.
    (void)cat->DropTable(id, /*purge=*/true);
    return at(rows.status());
  }
  return RowsResult(*rows, "CREATE TABLE");
}

}  // namespace

Result<QueryResult> Session::Impl::RunInsert(const ast::Statement& statement, std::string_view sql,
                                             const std::vector<exec::Value>& parameters) {
  switch (statement.kind) {
    case ast::StatementKind::kInsert:
      return Insert(*this, static_cast<const ast::InsertStatement&>(statement), sql, parameters);
    case ast::StatementKind::kCreateTableAsSelect:
      return CreateTableAsSelect(
          *this, static_cast<const ast::CreateTableAsSelectStatement&>(statement), sql, parameters);
    default:
      break;
  }
  return Status::NotImplemented(std::string(ast::StatementKindName(statement.kind)) +
                                " is not supported yet");
}

}  // namespace sqe::engine
