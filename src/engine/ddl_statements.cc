// CREATE/DROP SCHEMA, CREATE/DROP TABLE, ALTER TABLE: Trino's semantics on the Iceberg
// connector, each change committed through the catalog (metadata changes with
// CommitTableChange, which replays them on fresh metadata after a conflict).

#include <algorithm>
#include <set>

#include "catalog/catalog_table_operations.h"
#include "catalog/table_file_system.h"
#include "engine/ddl_internal.h"
#include "engine/iceberg_types.h"
#include "iceberg/schema_update.h"
#include "iceberg/write/metadata_commit.h"
#include "sql/lexer.h"

namespace sqe::engine {

namespace ast = sql::ast;

// --- shared with insert_statement.cc ------------------------------------------------------

Status PositionedError(std::string_view sql, const sql::SourcePosition& pos, const Status& st) {
  if (st.ok() || st.message().rfind("line ", 0) == 0) return st;
  return Status(st.code(), sql::SqlErrorAt(sql, pos, st.message()).message());
}

std::string LowerName(std::string name) {
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return name;
}

Result<planner::TableName> ResolveStoredTableName(const Session::Impl& session,
                                                  const ast::QualifiedName& name) {
  SQE_ASSIGN_OR_RETURN(planner::TableName resolved,
                       planner::ResolveTableName(name, session.catalog, session.schema));
  resolved.schema = LowerName(resolved.schema);
  resolved.table = LowerName(resolved.table);
  return resolved;
}

catalog::TableIdentifier ToIdentifier(const planner::TableName& name) {
  return catalog::TableIdentifier{{name.schema}, name.table};
}

Status CheckSchemaExists(catalog::Catalog& catalog, const planner::TableName& name) {
  SQE_ASSIGN_OR_RETURN(bool exists, catalog.NamespaceExists({name.schema}));
  if (!exists) {
    return Status::NotFound("Schema '" + name.catalog + "." + name.schema +
                            "' does not exist (create it with CREATE SCHEMA " + name.catalog + "." +
                            name.schema + ")");
  }
  return Status::OK();
}

Result<std::vector<TableProperty>> EvaluateProperties(Session::Impl& session,
                                                      const std::vector<ast::Property>& properties,
                                                      std::string_view sql) {
  std::vector<TableProperty> out;
  if (properties.empty()) return out;
  std::unique_ptr<exec::ExecContext> ctx = session.MakeContext("properties");
  SessionCatalog binder_catalog(session, ctx.get());
  for (const ast::Property& p : properties) {
    TableProperty property;
    property.name = p.quoted ? p.name : LowerName(p.name);
    if (p.value == nullptr) {
      return PositionedError(
          sql, p.pos, Status::InvalidArgument("Property '" + property.name + "' needs a value"));
    }
    auto value = planner::BindConstant(*p.value, binder_catalog, sql);
    if (!value.ok()) return PositionedError(sql, p.pos, value.status());
    property.value = *value;
    out.push_back(std::move(property));
  }
  return out;
}

Result<catalog::LoadedTable> CreateTableFromDefinition(Session::Impl& session,
                                                       catalog::Catalog& catalog,
                                                       const planner::TableName& name,
                                                       const NewTableDefinition& definition) {
  std::string namespace_location;
  auto ns_properties = catalog.LoadNamespaceProperties({name.schema});
  if (ns_properties.ok()) {
    auto it = ns_properties->find("location");
    if (it != ns_properties->end()) namespace_location = it->second;
  }
  SQE_ASSIGN_OR_RETURN(
      catalog::CreateTableRequest request,
      MakeCreateTableRequest(
          definition, name.catalog, name.table,
          static_cast<int>(session.engine->config.catalog.default_table_format_version),
          namespace_location));
  Result<catalog::LoadedTable> created = catalog.CreateTable(ToIdentifier(name), request);
  if (!created.ok() && created.status().code() == StatusCode::kAlreadyExists) {
    return Status::AlreadyExists("Table '" + name.ToString() + "' already exists");
  }
  return created;
}

QueryResult StatementResult(std::string statement_type) {
  QueryResult r;
  r.schema = columnar::Schema::Make({});
  r.statement_type = std::move(statement_type);
  return r;
}

namespace {

/// catalog.schema or schema of CREATE/DROP SCHEMA, lower-cased.
Result<std::pair<std::string, std::string>> ResolveSchemaName(const Session::Impl& session,
                                                              const ast::QualifiedName& name) {
  if (name.parts.size() == 1) return std::make_pair(session.catalog, LowerName(name.parts[0]));
  if (name.parts.size() == 2) {
    return std::make_pair(name.quoted[0] ? name.parts[0] : LowerName(name.parts[0]),
                          LowerName(name.parts[1]));
  }
  return Status::InvalidArgument("Too many dots in schema name '" + name.ToString() + "'");
}

Result<QueryResult> CreateSchema(Session::Impl& session, const ast::CreateSchemaStatement& s,
                                 std::string_view sql) {
  SQE_ASSIGN_OR_RETURN(auto name, ResolveSchemaName(session, s.name));
  SQE_ASSIGN_OR_RETURN(auto cat, session.engine->Catalog(name.first));
  SQE_ASSIGN_OR_RETURN(std::vector<TableProperty> properties,
                       EvaluateProperties(session, s.properties, sql));
  std::map<std::string, std::string> ns_properties;
  for (const TableProperty& p : properties) {
    if (p.name != "location") {
      return Status::InvalidArgument("Catalog '" + name.first + "' schema property '" + p.name +
                                     "' does not exist (schema properties: location)");
    }
    if (p.value.is_null() || p.value.type() == nullptr ||
        p.value.type()->id() != columnar::TypeId::kString) {
      return Status::InvalidArgument(
          "Schema property 'location' must be a string, e.g. "
          "location = 's3://bucket/path'");
    }
    ns_properties["location"] = p.value.string_value();
  }
  const std::string full = name.first + "." + name.second;
  SQE_ASSIGN_OR_RETURN(bool exists, cat->NamespaceExists({name.second}));
  if (exists) {
    if (s.if_not_exists) return StatementResult("CREATE SCHEMA");
    return Status::AlreadyExists("Schema '" + full + "' already exists");
  }
  Status created = cat->CreateNamespace({name.second}, ns_properties);
  if (created.code() == StatusCode::kAlreadyExists) {
    if (s.if_not_exists) return StatementResult("CREATE SCHEMA");
    return Status::AlreadyExists("Schema '" + full + "' already exists");
  }
  SQE_RETURN_NOT_OK(created);
  return StatementResult("CREATE SCHEMA");
}

Result<QueryResult> DropSchema(Session::Impl& session, const ast::DropSchemaStatement& s) {
  SQE_ASSIGN_OR_RETURN(auto name, ResolveSchemaName(session, s.name));
  SQE_ASSIGN_OR_RETURN(auto cat, session.engine->Catalog(name.first));
  const std::string full = name.first + "." + name.second;
  SQE_ASSIGN_OR_RETURN(bool exists, cat->NamespaceExists({name.second}));
  if (!exists) {
    if (s.if_exists) return StatementResult("DROP SCHEMA");
    return Status::NotFound("Schema '" + full + "' does not exist");
  }
  SQE_ASSIGN_OR_RETURN(std::vector<catalog::TableIdentifier> tables,
                       cat->ListTables({name.second}));
  if (!tables.empty() && !s.cascade) {
    std::string listed;
    for (const catalog::TableIdentifier& t : tables)
      listed += (listed.empty() ? "" : ", ") + t.name;
    return Status::InvalidArgument("Cannot drop non-empty schema '" + name.second + "' (tables: " +
                                   listed + "); drop them first or use DROP SCHEMA ... CASCADE");
  }
  for (const catalog::TableIdentifier& t : tables) {
    Status dropped = cat->DropTable(t, /*purge=*/true);
    if (!dropped.ok() && dropped.code() != StatusCode::kNotFound) return dropped;
  }
  Status dropped = cat->DropNamespace({name.second});
  if (dropped.code() == StatusCode::kConflict) {
    return Status::InvalidArgument("Cannot drop non-empty schema '" + name.second +
                                   "': " + dropped.message());
  }
  if (dropped.code() == StatusCode::kNotFound && s.if_exists) return StatementResult("DROP SCHEMA");
  SQE_RETURN_NOT_OK(dropped);
  return StatementResult("DROP SCHEMA");
}

/// The columns of CREATE TABLE t (LIKE other ...): the other table's, in its order.
Status AppendLikeColumns(Session::Impl& session, const ast::LikeClause& like,
                         std::vector<ColumnSpec>* columns) {
  if (like.including_properties.value_or(false)) {
    return Status::NotImplemented(
        "CREATE TABLE ... (LIKE t INCLUDING PROPERTIES) is not supported yet; list the "
        "properties in WITH (...)");
  }
  SQE_ASSIGN_OR_RETURN(planner::TableName other,
                       planner::ResolveTableName(like.table, session.catalog, session.schema));
  std::unique_ptr<exec::ExecContext> ctx = session.MakeContext("create table like");
  SessionCatalog binder_catalog(session, ctx.get());
  SQE_ASSIGN_OR_RETURN(auto source, binder_catalog.LoadTable(other, {}));
  for (const columnar::Field& f : source->schema->fields()) {
    columns->push_back(ColumnSpec{f.name(), f.type(), !f.nullable(), std::nullopt});
  }
  return Status::OK();
}

Result<QueryResult> CreateTable(Session::Impl& session, const ast::CreateTableStatement& s,
                                std::string_view sql) {
  auto at = [&](const Status& st) { return PositionedError(sql, s.pos, st); };
  if (s.or_replace) {
    return at(Status::NotImplemented(
        "CREATE OR REPLACE TABLE is not supported yet; DROP TABLE first, then CREATE TABLE"));
  }
  auto name = ResolveStoredTableName(session, s.name);
  if (!name.ok()) return at(name.status());
  SQE_ASSIGN_OR_RETURN(auto cat, session.engine->Catalog(name->catalog));
  if (Status st = CheckSchemaExists(*cat, *name); !st.ok()) return at(st);
  if (cat->LoadTable(ToIdentifier(*name)).ok()) {
    if (s.if_not_exists) return StatementResult("CREATE TABLE");
    return at(Status::AlreadyExists("Table '" + name->ToString() + "' already exists"));
  }
  NewTableDefinition definition;
  // The AST keeps LIKE clauses apart from the columns: their columns come first.
  for (const ast::LikeClause& like : s.likes) {
    if (Status st = AppendLikeColumns(session, like, &definition.columns); !st.ok()) {
      return at(st);
    }
  }
  for (const ast::ColumnDefinition& c : s.columns) {
    if (!c.properties.empty()) {
      return PositionedError(
          sql, c.pos,
          Status::NotImplemented("Column properties are not supported (column '" + c.name + "')"));
    }
    auto type = planner::ResolveType(c.type);
    if (!type.ok()) return PositionedError(sql, c.pos, type.status());
    definition.columns.push_back(ColumnSpec{LowerName(c.name), *type, c.not_null, c.comment});
  }
  if (definition.columns.empty()) {
    return at(
        Status::InvalidArgument("Table '" + name->ToString() + "' needs at least one column"));
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
      return StatementResult("CREATE TABLE");
    }
    return at(created.status());
  }
  return StatementResult("CREATE TABLE");
}

Result<QueryResult> DropTable(Session::Impl& session, const ast::DropObjectStatement& s,
                              std::string_view sql) {
  auto at = [&](const Status& st) { return PositionedError(sql, s.pos, st); };
  auto name = ResolveStoredTableName(session, s.name);
  if (!name.ok()) return at(name.status());
  SQE_ASSIGN_OR_RETURN(auto cat, session.engine->Catalog(name->catalog));
  // Trino's Iceberg connector deletes a dropped table's files.
  Status dropped = cat->DropTable(ToIdentifier(*name), /*purge=*/true);
  if (dropped.code() == StatusCode::kNotFound) {
    if (s.if_exists) return StatementResult("DROP TABLE");
    return at(Status::NotFound("Table '" + name->ToString() + "' does not exist"));
  }
  if (!dropped.ok()) return at(dropped);
  return StatementResult("DROP TABLE");
}

// --- ALTER TABLE -------------------------------------------------------------------------

/// A column of the current schema by (possibly dotted) name, case-insensitively.
const iceberg::NestedField* FindColumn(const iceberg::Schema& schema, const std::string& name) {
  const iceberg::NestedField* f = schema.FindFieldByName(name, true);
  return f != nullptr ? f : schema.FindFieldByName(name, false);
}

std::string ColumnPath(const ast::QualifiedName& name) {
  std::string out;
  for (size_t i = 0; i < name.parts.size(); ++i) {
    out += (i == 0 ? "" : ".") + (name.quoted[i] ? name.parts[i] : LowerName(name.parts[i]));
  }
  return out;
}

/// The loaded table and the operations to commit metadata changes through.
struct AlterTarget {
  planner::TableName name;
  std::shared_ptr<catalog::Catalog> catalog;
  catalog::LoadedTable table;
  std::unique_ptr<catalog::CatalogTableOperations> ops;
};

Result<iceberg::TypePtr> IcebergTypeOf(const ast::TypeName& type, int format_version,
                                       const std::string& column) {
  SQE_ASSIGN_OR_RETURN(columnar::TypePtr resolved, planner::ResolveType(type));
  // SchemaUpdate assigns the real ids of new nested fields; these only need to be unique.
  int32_t next = 0;
  return ToIcebergType(
      *resolved, format_version, [&next]() { return ++next; }, column);
}

Result<TableOptions> AlterProperties(Session::Impl& session, const ast::AlterTableStatement& s,
                                     const std::string& catalog, std::string_view sql) {
  if (s.action == ast::AlterTableAction::kSetTblProperties) {
    // Spark's TBLPROPERTIES: Iceberg properties verbatim.
    TableOptions out;
    SQE_ASSIGN_OR_RETURN(std::vector<TableProperty> properties,
                         EvaluateProperties(session, s.properties, sql));
    for (const TableProperty& p : properties) {
      if (p.value.is_null() || p.value.type() == nullptr) {
        return Status::InvalidArgument("Table property '" + p.name + "' cannot be NULL");
      }
      out.iceberg_properties[p.name] = p.value.type()->id() == columnar::TypeId::kString
                                           ? p.value.string_value()
                                           : p.value.ToSql();
    }
    return out;
  }
  // SET PROPERTIES names are folded like any identifier unless quoted.
  SQE_ASSIGN_OR_RETURN(std::vector<TableProperty> properties,
                       EvaluateProperties(session, s.properties, sql));
  return ParseTableProperties(properties, catalog);
}

/// partitioning = ARRAY[...] as partition spec evolution: fields no longer listed are
/// removed, new ones added (existing ones keep their ids).
Result<iceberg::PartitionSpecUpdate> PartitioningChange(const iceberg::TableMetadata& m,
                                                        const std::vector<std::string>& fields,
                                                        bool* any) {
  const iceberg::Schema& schema = *m.CurrentSchema();
  const iceberg::PartitionSpec& current = *m.DefaultSpec();
  struct Wanted {
    PartitionFieldSpec spec;
    int32_t source_id;
  };
  std::vector<Wanted> wanted;
  for (const std::string& text : fields) {
    SQE_ASSIGN_OR_RETURN(PartitionFieldSpec f, ParsePartitionField(text));
    const iceberg::NestedField* column = FindColumn(schema, f.column);
    if (column == nullptr) {
      return Status::InvalidArgument("Partitioning column '" + f.column + "' of '" + text +
                                     "' does not exist");
    }
    if (f.name == f.column) f.name = column->name;
    f.column = *schema.FindNameById(column->id);
    wanted.push_back({f, column->id});
  }
  iceberg::PartitionSpecUpdate update;
  *any = false;
  for (const iceberg::PartitionField& existing : current.fields()) {
    if (existing.transform.kind() == iceberg::TransformKind::kVoid) continue;
    bool keep = std::any_of(wanted.begin(), wanted.end(), [&](const Wanted& w) {
      return w.source_id == existing.source_id && w.spec.transform == existing.transform;
    });
    if (!keep) {
      update.RemoveField(existing.name);
      *any = true;
    }
  }
  for (const Wanted& w : wanted) {
    bool present = std::any_of(
        current.fields().begin(), current.fields().end(), [&](const iceberg::PartitionField& f) {
          return f.source_id == w.source_id && f.transform == w.spec.transform;
        });
    if (!present) {
      update.AddField(w.spec.column, w.spec.transform, w.spec.name);
      *any = true;
    }
  }
  return update;
}

Status SetProperties(AlterTarget& t, const TableOptions& options) {
  if (options.location.has_value()) {
    return Status::InvalidArgument(
        "The following properties cannot be updated: location (create a new table with "
        "CREATE TABLE ... WITH (location = ...) AS SELECT instead)");
  }
  if (options.format_version.has_value()) {
    const int version = *options.format_version;
    SQE_RETURN_NOT_OK(
        iceberg::CommitTableChange(
            *t.ops,
            [version](const iceberg::TableMetadata& base) -> Result<iceberg::TableChange> {
              iceberg::TableChange change;
              if (base.format_version == version) return change;
              if (base.format_version > version) {
                return Status::InvalidArgument(
                    "Cannot downgrade format_version from " + std::to_string(base.format_version) +
                    " to " + std::to_string(version) + "; Iceberg format versions only go up");
              }
              iceberg::TableUpdate upgrade;
              upgrade.action = iceberg::TableUpdate::Action::kUpgradeFormatVersion;
              upgrade.format_version = version;
              change.updates.push_back(std::move(upgrade));
              return change;
            })
            .status());
  }
  if (options.partitioning.has_value()) {
    const std::vector<std::string> fields = *options.partitioning;
    SQE_RETURN_NOT_OK(
        iceberg::CommitTableChange(
            *t.ops,
            [&fields](const iceberg::TableMetadata& base) -> Result<iceberg::TableChange> {
              bool any = false;
              SQE_ASSIGN_OR_RETURN(iceberg::PartitionSpecUpdate update,
                                   PartitioningChange(base, fields, &any));
              if (!any) return iceberg::TableChange{};
              return update.Apply(base);
            })
            .status());
  }
  if (options.sorted_by.has_value()) {
    SQE_ASSIGN_OR_RETURN(std::vector<iceberg::SortTerm> terms, MakeSortTerms(*options.sorted_by));
    SQE_RETURN_NOT_OK(
        iceberg::CommitTableChange(
            *t.ops,
            [&terms](const iceberg::TableMetadata& base) -> Result<iceberg::TableChange> {
              std::vector<iceberg::SortTerm> resolved = terms;
              for (iceberg::SortTerm& term : resolved) {
                const iceberg::NestedField* f = FindColumn(*base.CurrentSchema(), term.column);
                if (f == nullptr) {
                  return Status::InvalidArgument("sorted_by column '" + term.column +
                                                 "' does not exist");
                }
                term.column = *base.CurrentSchema()->FindNameById(f->id);
              }
              return iceberg::ReplaceSortOrder(base, resolved);
            })
            .status());
  }
  if (!options.iceberg_properties.empty()) {
    SQE_RETURN_NOT_OK(iceberg::CommitTableChange(
                          *t.ops, iceberg::PropertiesChange(options.iceberg_properties, {}))
                          .status());
  }
  return Status::OK();
}

Result<QueryResult> AlterTable(Session::Impl& session, const ast::AlterTableStatement& s,
                               std::string_view sql) {
  auto at = [&](const Status& st) { return PositionedError(sql, s.pos, st); };
  const char* statement_type = "ALTER TABLE";
  switch (s.action) {
    case ast::AlterTableAction::kRenameTable:
      statement_type = "RENAME TABLE";
      break;
    case ast::AlterTableAction::kAddColumn:
      statement_type = "ADD COLUMN";
      break;
    case ast::AlterTableAction::kDropColumn:
      statement_type = "DROP COLUMN";
      break;
    case ast::AlterTableAction::kRenameColumn:
      statement_type = "RENAME COLUMN";
      break;
    case ast::AlterTableAction::kSetColumnType:
      statement_type = "SET COLUMN TYPE";
      break;
    case ast::AlterTableAction::kDropNotNull:
      statement_type = "DROP NOT NULL CONSTRAINT";
      break;
    case ast::AlterTableAction::kSetProperties:
    case ast::AlterTableAction::kSetTblProperties:
      statement_type = "SET PROPERTIES";
      break;
    case ast::AlterTableAction::kExecute:
      return at(Status::NotImplemented("ALTER TABLE EXECUTE " + s.procedure +
                                       " is not supported yet (table procedures such as "
                                       "optimize and expire_snapshots come later)"));
  }
  AlterTarget t;
  auto name = ResolveStoredTableName(session, s.name);
  if (!name.ok()) return at(name.status());
  t.name = *name;
  SQE_ASSIGN_OR_RETURN(t.catalog, session.engine->Catalog(t.name.catalog));
  const catalog::TableIdentifier id = ToIdentifier(t.name);
  auto loaded = t.catalog->LoadTable(id);
  if (!loaded.ok()) {
    if (loaded.status().code() != StatusCode::kNotFound) return at(loaded.status());
    if (s.if_exists) return StatementResult(statement_type);
    return at(Status::NotFound("Table '" + t.name.ToString() + "' does not exist"));
  }
  t.table = *loaded;
  SQE_ASSIGN_OR_RETURN(std::unique_ptr<io::FileSystem> fs,
                       catalog::TableFileSystem(*session.engine->file_systems, t.table));
  t.ops = std::make_unique<catalog::CatalogTableOperations>(*t.catalog, id, std::move(fs));
  const iceberg::TableMetadata& m = *t.table.metadata;
  const iceberg::Schema& schema = *m.CurrentSchema();

  switch (s.action) {
    case ast::AlterTableAction::kRenameTable: {
      // An unqualified target stays in the source's catalog and schema.
      planner::TableName target = t.name;
      const ast::QualifiedName& n = s.new_name;
      if (n.parts.empty() || n.parts.size() > 3) {
        return at(Status::InvalidArgument("Invalid target table name '" + n.ToString() + "'"));
      }
      target.table = LowerName(n.parts.back());
      if (n.parts.size() >= 2) target.schema = LowerName(n.parts[n.parts.size() - 2]);
      if (n.parts.size() == 3) target.catalog = n.quoted[0] ? n.parts[0] : LowerName(n.parts[0]);
      if (target.catalog != t.name.catalog) {
        return at(Status::NotImplemented("Table rename across catalogs is not supported ('" +
                                         t.name.ToString() + "' to '" + target.ToString() + "')"));
      }
      if (Status st = CheckSchemaExists(*t.catalog, target); !st.ok()) return at(st);
      if (t.catalog->LoadTable(ToIdentifier(target)).ok()) {
        return at(Status::AlreadyExists("Target table '" + target.ToString() + "' already exists"));
      }
      Status renamed = t.catalog->RenameTable(id, ToIdentifier(target));
      if (renamed.code() == StatusCode::kAlreadyExists) {
        return at(Status::AlreadyExists("Target table '" + target.ToString() + "' already exists"));
      }
      if (!renamed.ok()) return at(renamed);
      return StatementResult(statement_type);
    }
    case ast::AlterTableAction::kAddColumn: {
      const ast::ColumnDefinition& c = s.column;
      const std::string column = LowerName(c.name);
      if (FindColumn(schema, column) != nullptr) {
        if (s.column_if_not_exists) return StatementResult(statement_type);
        return at(Status::AlreadyExists("Column '" + column + "' already exists in table '" +
                                        t.name.ToString() + "'"));
      }
      if (c.not_null) {
        return PositionedError(
            sql, c.pos,
            Status::NotImplemented("Cannot add NOT NULL column '" + column + "' to table '" +
                                   t.name.ToString() +
                                   "': existing rows have no value for it; add it nullable"));
      }
      auto type = IcebergTypeOf(c.type, m.format_version, column);
      if (!type.ok()) return PositionedError(sql, c.pos, type.status());
      iceberg::SchemaUpdate update;
      update.AddColumn("", column, *type, false, c.comment);
      auto committed = iceberg::CommitTableChange(
          *t.ops, [&update](const iceberg::TableMetadata& base) { return update.Apply(base); });
      if (!committed.ok()) return at(committed.status());
      return StatementResult(statement_type);
    }
    case ast::AlterTableAction::kDropColumn:
    case ast::AlterTableAction::kRenameColumn:
    case ast::AlterTableAction::kSetColumnType:
    case ast::AlterTableAction::kDropNotNull: {
      const std::string path = ColumnPath(s.column_name);
      const iceberg::NestedField* field = FindColumn(schema, path);
      if (field == nullptr) {
        if (s.column_if_exists) return StatementResult(statement_type);
        std::string columns;
        for (const iceberg::NestedField& f : schema.fields()) {
          columns += (columns.empty() ? "" : ", ") + f.name;
        }
        return at(Status::NotFound("Column '" + path + "' does not exist in table '" +
                                   t.name.ToString() + "' (columns: " + columns + ")"));
      }
      const std::string column = *schema.FindNameById(field->id);
      iceberg::SchemaUpdate update;
      if (s.action == ast::AlterTableAction::kDropColumn) {
        if (schema.fields().size() == 1 && schema.fields()[0].id == field->id) {
          return at(Status::InvalidArgument("Cannot drop the only column of table '" +
                                            t.name.ToString() + "'"));
        }
        for (const iceberg::PartitionField& p : m.DefaultSpec()->fields()) {
          if (p.source_id == field->id && p.transform.kind() != iceberg::TransformKind::kVoid) {
            return at(Status::InvalidArgument(
                "Cannot drop partition column '" + column + "' of table '" + t.name.ToString() +
                "'; remove it from the partitioning first (ALTER TABLE ... SET PROPERTIES "
                "partitioning = ARRAY[...])"));
          }
        }
        update.DeleteColumn(column);
      } else if (s.action == ast::AlterTableAction::kRenameColumn) {
        const std::string new_name = LowerName(s.new_column_name);
        std::string sibling = new_name;
        size_t dot = column.rfind('.');
        if (dot != std::string::npos) sibling = column.substr(0, dot + 1) + new_name;
        if (FindColumn(schema, sibling) != nullptr) {
          return at(Status::AlreadyExists("Column '" + sibling + "' already exists in table '" +
                                          t.name.ToString() + "'"));
        }
        update.RenameColumn(column, new_name);
      } else if (s.action == ast::AlterTableAction::kSetColumnType) {
        auto type = IcebergTypeOf(s.type, m.format_version, column);
        if (!type.ok()) return at(type.status());
        if (!(*type)->is_primitive() || !field->type->is_primitive()) {
          return at(Status::NotImplemented("Changing the type of nested column '" + column +
                                           "' is not supported"));
        }
        if (!(*type)->Equals(*field->type)) update.UpdateColumnType(column, *type);
      } else {
        update.MakeColumnOptional(column);
      }
      auto committed = iceberg::CommitTableChange(
          *t.ops, [&update](const iceberg::TableMetadata& base) { return update.Apply(base); });
      if (!committed.ok()) {
        const Status& st = committed.status();
        if (s.action == ast::AlterTableAction::kSetColumnType &&
            st.code() == StatusCode::kInvalidArgument) {
          return at(Status::InvalidArgument(
              "Cannot change type of column '" + column + "' from " + field->type->ToString() +
              " to " + s.type.ToString() +
              ": Iceberg only widens int to bigint, real to double and decimal precision (" +
              st.message() + ")"));
        }
        return at(st);
      }
      return StatementResult(statement_type);
    }
    case ast::AlterTableAction::kSetProperties:
    case ast::AlterTableAction::kSetTblProperties: {
      auto options = AlterProperties(session, s, t.name.catalog, sql);
      if (!options.ok()) return at(options.status());
      if (Status st = SetProperties(t, *options); !st.ok()) return at(st);
      return StatementResult(statement_type);
    }
    case ast::AlterTableAction::kExecute:
      break;
  }
  return at(Status::Internal("unhandled ALTER TABLE action"));
}

}  // namespace

Result<QueryResult> Session::Impl::RunDdl(const ast::Statement& statement, std::string_view sql) {
  switch (statement.kind) {
    case ast::StatementKind::kCreateSchema: {
      auto r = CreateSchema(*this, static_cast<const ast::CreateSchemaStatement&>(statement), sql);
      if (!r.ok()) return PositionedError(sql, statement.pos, r.status());
      return r;
    }
    case ast::StatementKind::kDropSchema: {
      auto r = DropSchema(*this, static_cast<const ast::DropSchemaStatement&>(statement));
      if (!r.ok()) return PositionedError(sql, statement.pos, r.status());
      return r;
    }
    case ast::StatementKind::kCreateTable:
      return CreateTable(*this, static_cast<const ast::CreateTableStatement&>(statement), sql);
    case ast::StatementKind::kDropTable:
      return DropTable(*this, static_cast<const ast::DropObjectStatement&>(statement), sql);
    case ast::StatementKind::kAlterTable:
      return AlterTable(*this, static_cast<const ast::AlterTableStatement&>(statement), sql);
    default:
      break;
  }
  return Status::NotImplemented(std::string(ast::StatementKindName(statement.kind)) +
                                " is not supported yet");
}

}  // namespace sqe::engine
