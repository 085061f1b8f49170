// SHOW CATALOGS / SCHEMAS / TABLES / COLUMNS / FUNCTIONS / SESSION / CREATE TABLE,
// DESCRIBE, and the information_schema tables.

#include <algorithm>

#include "columnar/binary_builder.h"
#include "columnar/fixed_width_builder.h"
#include "engine/engine_internal.h"
#include "engine/iceberg_metadata_tables.h"
#include "engine/system_tables_internal.h"
#include "exec/functions/registry.h"
#include "iceberg/columnar_schema.h"
#include "sql/lexer.h"

namespace sqe::engine {

namespace ast = sql::ast;

columnar::SchemaPtr VarcharSchema(const std::vector<std::string>& names) {
  std::vector<columnar::Field> fields;
  for (const std::string& n : names) fields.emplace_back(n, columnar::String(), true);
  return columnar::Schema::Make(std::move(fields));
}

namespace {

Result<columnar::Batch> VarcharBatch(const columnar::SchemaPtr& schema,
                                     const std::vector<std::vector<std::string>>& rows) {
  std::vector<columnar::Column> columns;
  for (int c = 0; c < schema->num_fields(); ++c) {
    columnar::BinaryBuilder builder(columnar::String());
    for (const auto& row : rows) SQE_RETURN_NOT_OK(builder.Append(row[c]));
    SQE_ASSIGN_OR_RETURN(columnar::Column column, builder.Finish());
    columns.push_back(std::move(column));
  }
  return columnar::Batch::Make(schema, std::move(columns), static_cast<int64_t>(rows.size()));
}

}  // namespace

Result<QueryResult> VarcharResult(const std::vector<std::string>& names,
                                  const std::vector<std::vector<std::string>>& rows,
                                  std::string statement_type) {
  QueryResult r;
  r.schema = VarcharSchema(names);
  SQE_ASSIGN_OR_RETURN(columnar::Batch b, VarcharBatch(r.schema, rows));
  if (b.num_rows() > 0) r.batches.push_back(std::move(b));
  r.statement_type = std::move(statement_type);
  return r;
}

bool LikeMatch(std::string_view value, std::string_view pattern, std::optional<char> escape) {
  // Iterative wildcard match with backtracking on the last '%'.
  size_t v = 0, p = 0, star_p = std::string_view::npos, star_v = 0;
  while (v < value.size()) {
    if (p < pattern.size()) {
      char c = pattern[p];
      if (escape.has_value() && c == *escape && p + 1 < pattern.size()) {
        if (pattern[p + 1] == value[v]) {
          p += 2;
          ++v;
          continue;
        }
      } else if (c == '%') {
        star_p = p++;
        star_v = v;
        continue;
      } else if (c == '_' || c == value[v]) {
        ++p;
        ++v;
        continue;
      }
    }
    if (star_p == std::string_view::npos) return false;
    p = star_p + 1;
    v = ++star_v;
  }
  while (p < pattern.size() && pattern[p] == '%') ++p;
  return p == pattern.size();
}

namespace {

bool Passes(const ast::LikeFilter& like, const std::string& value) {
  if (!like.pattern.has_value()) return true;
  std::optional<char> escape;
  if (like.escape.has_value() && !like.escape->empty()) escape = (*like.escape)[0];
  return LikeMatch(value, *like.pattern, escape);
}

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

/// Resolves `catalog.schema` / `schema` of SHOW ... FROM against the session.
Result<std::pair<std::string, std::string>> SchemaOf(const Session::Impl& s,
                                                     const ast::QualifiedName& name) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < name.parts.size(); ++i) {
    parts.push_back(name.quoted[i] ? name.parts[i] : Lower(name.parts[i]));
  }
  if (parts.empty()) {
    if (s.schema.empty()) {
      return Status::InvalidArgument("Schema must be specified when session schema is not set "
                                     "(SHOW TABLES FROM schema, or USE schema first)");
    }
    return std::make_pair(s.catalog, s.schema);
  }
  if (parts.size() == 1) return std::make_pair(s.catalog, parts[0]);
  if (parts.size() == 2) return std::make_pair(parts[0], parts[1]);
  return Status::InvalidArgument("Too many dots in schema name '" + name.ToString() + "'");
}

}  // namespace

Result<QueryResult> Session::Impl::Show(const ast::Statement& statement, std::string_view sql) {
  const auto& show = static_cast<const ast::ShowStatement&>(statement);
  auto at = [&](const Status& st) { return sql::SqlErrorAt(sql, statement.pos, st.message()); };
  switch (statement.kind) {
    case ast::StatementKind::kShowCatalogs: {
      std::vector<std::vector<std::string>> rows;
      for (const auto& [name, c] : engine->catalogs) {
        if (Passes(show.like, name)) rows.push_back({name});
      }
      rows.push_back({"system"});
      std::sort(rows.begin(), rows.end());
      return VarcharResult({"Catalog"}, rows, "SHOW CATALOGS");
    }
    case ast::StatementKind::kShowSchemas: {
      std::string cat_name = show.target.empty()
                                 ? catalog
                                 : (show.target.quoted[0] ? show.target.parts[0]
                                                          : Lower(show.target.parts[0]));
      std::vector<std::vector<std::string>> rows;
      if (cat_name == kSystemCatalog) {
        for (const auto& [name, tables] : SystemCatalogLayout()) {
          if (Passes(show.like, name)) rows.push_back({name});
        }
        return VarcharResult({"Schema"}, rows, "SHOW SCHEMAS");
      }
      auto cat = engine->Catalog(cat_name);
      if (!cat.ok()) return at(cat.status());
      SQE_ASSIGN_OR_RETURN(std::vector<catalog::Namespace> namespaces, (*cat)->ListNamespaces({}));
      for (const catalog::Namespace& ns : namespaces) {
        std::string name = catalog::NamespaceToString(ns);
        if (Passes(show.like, name)) rows.push_back({name});
      }
      if (Passes(show.like, "information_schema")) rows.push_back({"information_schema"});
      std::sort(rows.begin(), rows.end());
      return VarcharResult({"Schema"}, rows, "SHOW SCHEMAS");
    }
    case ast::StatementKind::kShowTables: {
      auto target = SchemaOf(*this, show.target);
      if (!target.ok()) return at(target.status());
      std::vector<std::vector<std::string>> rows;
      if (target->first == kSystemCatalog) {
        for (const auto& [name, tables] : SystemCatalogLayout()) {
          if (name != target->second) continue;
          for (const std::string& t : tables) {
            if (Passes(show.like, t)) rows.push_back({t});
          }
          return VarcharResult({"Table"}, rows, "SHOW TABLES");
        }
        return at(Status::NotFound("Schema '" + target->second + "' does not exist"));
      }
      auto cat = engine->Catalog(target->first);
      if (!cat.ok()) return at(cat.status());
      if (target->second == "information_schema") {
        for (const char* t : {"columns", "schemata", "tables", "views"}) {
          if (Passes(show.like, t)) rows.push_back({t});
        }
        return VarcharResult({"Table"}, rows, "SHOW TABLES");
      }
      SQE_ASSIGN_OR_RETURN(bool exists, (*cat)->NamespaceExists({target->second}));
      if (!exists) {
        return at(Status::NotFound("Schema '" + target->second + "' does not exist"));
      }
      SQE_ASSIGN_OR_RETURN(auto tables, (*cat)->ListTables({target->second}));
      for (const catalog::TableIdentifier& t : tables) {
        if (Passes(show.like, t.name)) rows.push_back({t.name});
      }
      std::sort(rows.begin(), rows.end());
      return VarcharResult({"Table"}, rows, "SHOW TABLES");
    }
    case ast::StatementKind::kShowColumns:
    case ast::StatementKind::kShowCreateTable: {
      auto name = planner::ResolveTableName(show.target, catalog, schema);
      if (!name.ok()) return at(name.status());
      std::unique_ptr<exec::ExecContext> ctx = MakeContext("show");
      SessionCatalog binder_catalog(*this, ctx.get());
      columnar::SchemaPtr columns;
      if (name->catalog == kSystemCatalog) {
        auto system = SystemCatalogTable(*this, *name);
        if (!system.ok()) return at(system.status());
        columns = system->first;
      } else {
        auto source = binder_catalog.LoadTable(*name, {});
        if (!source.ok()) return at(source.status());
        columns = (*source)->schema;
      }
      if (statement.kind == ast::StatementKind::kShowCreateTable) {
        std::string text = "CREATE TABLE " + name->ToString() + " (\n";
        for (int i = 0; i < columns->num_fields(); ++i) {
          const columnar::Field& f = columns->field(i);
          text += "   " + f.name() + " " + f.type()->ToString() + (f.nullable() ? "" : " NOT NULL");
          text += i + 1 < columns->num_fields() ? ",\n" : "\n";
        }
        text += ")";
        return VarcharResult({"Create Table"}, {{text}}, "SHOW CREATE TABLE");
      }
      std::vector<std::vector<std::string>> rows;
      for (const columnar::Field& f : columns->fields()) {
        if (!Passes(show.like, f.name())) continue;
        rows.push_back({f.name(), f.type()->ToString(), "", ""});
      }
      return VarcharResult({"Column", "Type", "Extra", "Comment"}, rows, "SHOW COLUMNS");
    }
    case ast::StatementKind::kShowFunctions: {
      std::vector<std::vector<std::string>> rows;
      for (const exec::FunctionInfo& f : exec::FunctionRegistry::Global().List()) {
        if (!Passes(show.like, f.name)) continue;
        rows.push_back({f.name, f.return_type, f.argument_types, f.kind, "true", f.description});
      }
      std::sort(rows.begin(), rows.end());
      return VarcharResult({"Function", "Return Type", "Argument Types", "Function Type",
                            "Deterministic", "Description"},
                           rows, "SHOW FUNCTIONS");
    }
    case ast::StatementKind::kShowSession: {
      struct Property {
        const char* name;
        std::string default_value;
        const char* type;
        const char* description;
      };
      std::vector<Property> known = {
          {"query_max_run_time", std::to_string(engine->config.query.timeout_secs), "bigint",
           "Query time limit in seconds (query.timeout_secs)"},
          {"max_recursion_depth", "10", "integer",
           "Most recursion steps of a WITH RECURSIVE query that may produce rows"},
          {"threads", std::to_string(engine->threads), "integer", "Threads per query"},
          {"time_zone", "UTC", "varchar", "Session time zone"},
      };
      std::vector<std::vector<std::string>> rows;
      for (const Property& p : known) {
        if (!Passes(show.like, p.name)) continue;
        auto it = properties.find(p.name);
        rows.push_back({p.name, it == properties.end() ? p.default_value : it->second,
                        p.default_value, p.type, p.description});
      }
      return VarcharResult({"Name", "Value", "Default", "Type", "Description"}, rows,
                           "SHOW SESSION");
    }
    default:
      break;
  }
  return Status::NotImplemented(std::string(ast::StatementKindName(statement.kind)) +
                                " is not supported yet");
}

Result<std::optional<std::pair<columnar::SchemaPtr, std::vector<columnar::Batch>>>>
SessionCatalog::SystemTable(const planner::TableName& name) {
  using Out = std::optional<std::pair<columnar::SchemaPtr, std::vector<columnar::Batch>>>;
  if (auto split = SplitMetadataTableName(name.table);
      split.has_value() && name.catalog != kSystemCatalog && name.schema != "information_schema") {
    // "t$snapshots": an Iceberg metadata table of table t (iceberg_metadata_tables.h).
    planner::TableName base = name;
    base.table = split->first;
    SQE_ASSIGN_OR_RETURN(auto source, LoadTable(base, {}));
    SQE_ASSIGN_OR_RETURN(auto rows, IcebergMetadataTable(source->table, *source->fs, split->second,
                                                         base.ToString()));
    return Out(std::move(rows));
  }
  if (name.catalog == kSystemCatalog) {
    SQE_ASSIGN_OR_RETURN(auto rows, SystemCatalogTable(session_, name));
    return Out(std::move(rows));
  }
  if (name.schema != "information_schema") return Out();
  Engine::Impl& engine = *session_.engine;
  SQE_ASSIGN_OR_RETURN(auto cat, engine.Catalog(name.catalog));
  SQE_ASSIGN_OR_RETURN(std::vector<catalog::Namespace> namespaces, cat->ListNamespaces({}));
  std::vector<std::vector<std::string>> rows;
  columnar::SchemaPtr schema;
  if (name.table == "schemata") {
    schema = VarcharSchema({"catalog_name", "schema_name"});
    for (const catalog::Namespace& ns : namespaces) {
      rows.push_back({name.catalog, catalog::NamespaceToString(ns)});
    }
    rows.push_back({name.catalog, "information_schema"});
  } else if (name.table == "tables") {
    schema = VarcharSchema({"table_catalog", "table_schema", "table_name", "table_type"});
    for (const catalog::Namespace& ns : namespaces) {
      SQE_ASSIGN_OR_RETURN(auto tables, cat->ListTables(ns));
      for (const catalog::TableIdentifier& t : tables) {
        rows.push_back({name.catalog, catalog::NamespaceToString(ns), t.name, "BASE TABLE"});
      }
    }
    for (const char* t : {"columns", "schemata", "tables", "views"}) {
      rows.push_back({name.catalog, "information_schema", t, "BASE TABLE"});
    }
  } else if (name.table == "views") {
    schema = VarcharSchema({"table_catalog", "table_schema", "table_name", "view_definition"});
  } else if (name.table == "columns") {
    std::vector<columnar::Field> fields = {
        columnar::Field("table_catalog", columnar::String()),
        columnar::Field("table_schema", columnar::String()),
        columnar::Field("table_name", columnar::String()),
        columnar::Field("column_name", columnar::String()),
        columnar::Field("ordinal_position", columnar::Int64()),
        columnar::Field("column_default", columnar::String()),
        columnar::Field("is_nullable", columnar::String()),
        columnar::Field("data_type", columnar::String()),
        columnar::Field("comment", columnar::String())};
    schema = columnar::Schema::Make(fields);
    columnar::BinaryBuilder c0(columnar::String()), c1(columnar::String()),
        c2(columnar::String()), c3(columnar::String()), c5(columnar::String()),
        c6(columnar::String()), c7(columnar::String()), c8(columnar::String());
    columnar::Int64Builder c4(columnar::Int64());
    int64_t count = 0;
    for (const catalog::Namespace& ns : namespaces) {
      SQE_ASSIGN_OR_RETURN(auto tables, cat->ListTables(ns));
      for (const catalog::TableIdentifier& t : tables) {
        auto loaded = cat->LoadTable(t);
        if (!loaded.ok()) continue;  // dropped meanwhile
        const iceberg::Schema* s = loaded->metadata->CurrentSchema();
        if (s == nullptr) continue;
        auto columns = iceberg::ToColumnarSchema(*s);
        if (!columns.ok()) continue;
        int64_t position = 0;
        for (const columnar::Field& f : (*columns)->fields()) {
          SQE_RETURN_NOT_OK(c0.Append(name.catalog));
          SQE_RETURN_NOT_OK(c1.Append(catalog::NamespaceToString(ns)));
          SQE_RETURN_NOT_OK(c2.Append(t.name));
          SQE_RETURN_NOT_OK(c3.Append(f.name()));
          SQE_RETURN_NOT_OK(c4.Append(++position));
          SQE_RETURN_NOT_OK(c5.AppendNull());
          SQE_RETURN_NOT_OK(c6.Append(f.nullable() ? "YES" : "NO"));
          SQE_RETURN_NOT_OK(c7.Append(f.type()->ToString()));
          SQE_RETURN_NOT_OK(c8.AppendNull());
          ++count;
        }
      }
    }
    std::vector<columnar::Column> columns;
    for (columnar::ColumnBuilder* b : std::initializer_list<columnar::ColumnBuilder*>{
             &c0, &c1, &c2, &c3, &c4, &c5, &c6, &c7, &c8}) {
      SQE_ASSIGN_OR_RETURN(columnar::Column c, b->Finish());
      columns.push_back(std::move(c));
    }
    SQE_ASSIGN_OR_RETURN(columnar::Batch batch, columnar::Batch::Make(schema, std::move(columns), count));
    return Out(std::make_pair(schema, std::vector<columnar::Batch>{batch}));
  } else {
    return Status::NotFound("Table '" + name.ToString() +
                            "' does not exist (information_schema has columns, schemata, tables, "
                            "views)");
  }
  SQE_ASSIGN_OR_RETURN(columnar::Batch batch, VarcharBatch(schema, rows));
  return Out(std::make_pair(schema, std::vector<columnar::Batch>{batch}));
}

}  // namespace sqe::engine
