#include "server/flight_sql/metadata_results.h"

#include <algorithm>

#include "columnar/binary_builder.h"
#include "rpc/flight_data.h"

namespace sqe::server::flight_sql {

namespace {

using columnar::Field;

std::string Quote(const std::string& name) {
  std::string out = "\"";
  for (char c : name) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

/// The first column of a SHOW statement's rows.
Result<std::vector<std::string>> ShowColumn(engine::Session& session, const std::string& sql) {
  SQE_ASSIGN_OR_RETURN(engine::QueryResult result, session.Execute(sql));
  std::vector<std::string> out;
  for (const columnar::Batch& b : result.batches) {
    const columnar::Column& c = b.column(0);
    for (int64_t r = 0; r < b.num_rows(); ++r) {
      if (!c.IsNull(r)) out.emplace_back(c.StringAt(r));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

Result<columnar::Column> StringColumn(const std::vector<std::optional<std::string>>& values,
                                      const columnar::TypePtr& type = columnar::String()) {
  columnar::BinaryBuilder builder(type);
  for (const auto& v : values) SQE_RETURN_NOT_OK(v ? builder.Append(*v) : builder.AppendNull());
  return builder.Finish();
}

/// Catalog names the command's optional catalog selects (all when unset).
Result<std::vector<std::string>> SelectedCatalogs(engine::Session& session,
                                                  const std::optional<std::string>& catalog) {
  SQE_ASSIGN_OR_RETURN(std::vector<std::string> all, ShowColumn(session, "SHOW CATALOGS"));
  if (!catalog.has_value()) return all;
  std::vector<std::string> out;
  for (const std::string& c : all) {
    if (c == *catalog) out.push_back(c);
  }
  return out;
}

Result<std::vector<std::pair<std::string, std::string>>> SelectedSchemas(
    engine::Session& session, const std::optional<std::string>& catalog,
    const std::optional<std::string>& pattern) {
  SQE_ASSIGN_OR_RETURN(std::vector<std::string> catalogs, SelectedCatalogs(session, catalog));
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& c : catalogs) {
    // A catalog SQL cannot list schemas of (the built-in `system`) has none to show.
    Result<std::vector<std::string>> listed = ShowColumn(session, "SHOW SCHEMAS FROM " + Quote(c));
    if (!listed.ok()) continue;
    const std::vector<std::string>& schemas = *listed;
    for (const std::string& s : schemas) {
      if (!pattern.has_value() || MatchesPattern(s, *pattern)) out.emplace_back(c, s);
    }
  }
  return out;
}

std::string TableType(const std::string& schema) {
  return schema == "information_schema" ? "SYSTEM TABLE" : "TABLE";
}

}  // namespace

columnar::SchemaPtr CatalogsSchema() {
  return columnar::Schema::Make({Field("catalog_name", columnar::String(), false)});
}

columnar::SchemaPtr DbSchemasSchema() {
  return columnar::Schema::Make({Field("catalog_name", columnar::String(), true),
                                 Field("db_schema_name", columnar::String(), false)});
}

columnar::SchemaPtr TablesSchema(bool include_schema) {
  std::vector<Field> fields = {Field("catalog_name", columnar::String(), true),
                               Field("db_schema_name", columnar::String(), true),
                               Field("table_name", columnar::String(), false),
                               Field("table_type", columnar::String(), false)};
  if (include_schema) fields.emplace_back("table_schema", columnar::Binary(), false);
  return columnar::Schema::Make(std::move(fields));
}

columnar::SchemaPtr TableTypesSchema() {
  return columnar::Schema::Make({Field("table_type", columnar::String(), false)});
}

bool MatchesPattern(std::string_view value, std::string_view pattern) {
  // Iterative wildcard match with backtracking to the last '%'.
  size_t v = 0, p = 0, star = std::string_view::npos, mark = 0;
  while (v < value.size()) {
    if (p < pattern.size() && pattern[p] == '\\' && p + 1 < pattern.size() &&
        pattern[p + 1] == value[v]) {
      p += 2, ++v;
    } else if (p < pattern.size() && pattern[p] != '%' && pattern[p] != '\\' &&
               (pattern[p] == '_' || pattern[p] == value[v])) {
      ++p, ++v;
    } else if (p < pattern.size() && pattern[p] == '%') {
      star = p++, mark = v;
    } else if (star != std::string_view::npos) {
      p = star + 1, v = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '%') ++p;
  return p == pattern.size();
}

Result<columnar::Batch> ListCatalogs(engine::Session& session) {
  SQE_ASSIGN_OR_RETURN(std::vector<std::string> catalogs, ShowColumn(session, "SHOW CATALOGS"));
  std::vector<std::optional<std::string>> values(catalogs.begin(), catalogs.end());
  SQE_ASSIGN_OR_RETURN(columnar::Column column, StringColumn(values));
  return columnar::Batch::Make(CatalogsSchema(), {column}, static_cast<int64_t>(values.size()));
}

Result<columnar::Batch> ListDbSchemas(engine::Session& session,
                                      const sqlproto::CommandGetDbSchemas& command) {
  std::optional<std::string> catalog, pattern;
  if (command.has_catalog()) catalog = command.catalog();
  if (command.has_db_schema_filter_pattern()) pattern = command.db_schema_filter_pattern();
  SQE_ASSIGN_OR_RETURN(auto schemas, SelectedSchemas(session, catalog, pattern));
  std::vector<std::optional<std::string>> catalogs, names;
  for (const auto& [c, s] : schemas) catalogs.emplace_back(c), names.emplace_back(s);
  SQE_ASSIGN_OR_RETURN(columnar::Column c0, StringColumn(catalogs));
  SQE_ASSIGN_OR_RETURN(columnar::Column c1, StringColumn(names));
  return columnar::Batch::Make(DbSchemasSchema(), {c0, c1}, static_cast<int64_t>(names.size()));
}

Result<columnar::Batch> ListTables(engine::Session& session,
                                   const sqlproto::CommandGetTables& command) {
  std::optional<std::string> catalog, schema_pattern;
  if (command.has_catalog()) catalog = command.catalog();
  if (command.has_db_schema_filter_pattern()) schema_pattern = command.db_schema_filter_pattern();
  SQE_ASSIGN_OR_RETURN(auto schemas, SelectedSchemas(session, catalog, schema_pattern));
  std::vector<std::optional<std::string>> catalogs, db_schemas, tables, types, table_schemas;
  for (const auto& [c, s] : schemas) {
    std::string type = TableType(s);
    if (command.table_types_size() > 0 &&
        std::find(command.table_types().begin(), command.table_types().end(), type) ==
            command.table_types().end()) {
      continue;
    }
    SQE_ASSIGN_OR_RETURN(std::vector<std::string> names,
                         ShowColumn(session, "SHOW TABLES FROM " + Quote(c) + "." + Quote(s)));
    for (const std::string& t : names) {
      if (command.has_table_name_filter_pattern() &&
          !MatchesPattern(t, command.table_name_filter_pattern())) {
        continue;
      }
      if (command.include_schema()) {
        SQE_ASSIGN_OR_RETURN(
            engine::StatementDescription d,
            session.Describe("SELECT * FROM " + Quote(c) + "." + Quote(s) + "." + Quote(t)));
        SQE_ASSIGN_OR_RETURN(std::string bytes,
                             rpc::SerializeSchema(*WithColumnMetadata(*d.schema, c, s, t)));
        table_schemas.emplace_back(std::move(bytes));
      }
      catalogs.emplace_back(c), db_schemas.emplace_back(s), tables.emplace_back(t);
      types.emplace_back(type);
    }
  }
  std::vector<columnar::Column> columns;
  for (const auto* values : {&catalogs, &db_schemas, &tables, &types}) {
    SQE_ASSIGN_OR_RETURN(columnar::Column column, StringColumn(*values));
    columns.push_back(std::move(column));
  }
  if (command.include_schema()) {
    SQE_ASSIGN_OR_RETURN(columnar::Column column, StringColumn(table_schemas, columnar::Binary()));
    columns.push_back(std::move(column));
  }
  return columnar::Batch::Make(TablesSchema(command.include_schema()), std::move(columns),
                               static_cast<int64_t>(tables.size()));
}

Result<columnar::Batch> ListTableTypes() {
  SQE_ASSIGN_OR_RETURN(columnar::Column column, StringColumn({"SYSTEM TABLE", "TABLE"}));
  return columnar::Batch::Make(TableTypesSchema(), {column}, 2);
}

columnar::SchemaPtr WithColumnMetadata(const columnar::Schema& schema, const std::string& catalog,
                                       const std::string& db_schema, const std::string& table) {
  std::vector<Field> fields;
  for (const Field& f : schema.fields()) {
    columnar::KeyValueMetadata m = f.metadata();
    m.Set("ARROW:FLIGHT:SQL:CATALOG_NAME", catalog);
    m.Set("ARROW:FLIGHT:SQL:DB_SCHEMA_NAME", db_schema);
    m.Set("ARROW:FLIGHT:SQL:TABLE_NAME", table);
    m.Set("ARROW:FLIGHT:SQL:TYPE_NAME", f.type()->ToString());
    if (f.type()->id() == columnar::TypeId::kDecimal128) {
      m.Set("ARROW:FLIGHT:SQL:PRECISION", std::to_string(f.type()->precision()));
      m.Set("ARROW:FLIGHT:SQL:SCALE", std::to_string(f.type()->scale()));
    }
    m.Set("ARROW:FLIGHT:SQL:IS_AUTO_INCREMENT", "0");
    m.Set("ARROW:FLIGHT:SQL:IS_CASE_SENSITIVE",
          f.type()->id() == columnar::TypeId::kString ? "1" : "0");
    m.Set("ARROW:FLIGHT:SQL:IS_READ_ONLY", "0");
    m.Set("ARROW:FLIGHT:SQL:IS_SEARCHABLE", "1");
    fields.push_back(f.WithMetadata(std::move(m)));
  }
  return columnar::Schema::Make(std::move(fields), schema.metadata());
}

}  // namespace sqe::server::flight_sql
