// The system catalog: system.jdbc.*, system.metadata.*, system.runtime.* (see
// system_tables_internal.h), and the runtime listers of runtime_queries.h.

#include <algorithm>
#include <set>
#include <variant>

#include "columnar/binary_builder.h"
#include "columnar/boolean_builder.h"
#include "columnar/fixed_width_builder.h"
#include "columnar/jdbc_type_codes.h"
#include "engine/runtime_queries.h"
#include "engine/system_tables_internal.h"
#include "iceberg/columnar_schema.h"

namespace sqe::engine {

namespace {

using columnar::DataType;
using columnar::TypeId;

namespace jdbc_type = columnar::jdbc;

/// DatabaseMetaData constants.
constexpr int64_t kColumnNullableUnknown = 2;
constexpr int64_t kTypeNullable = 1;
constexpr int64_t kTypeSearchable = 3;
constexpr int64_t kTypePredNone = 0;
/// Trino's unbounded varchar length and its longest time zone id
/// ("America/Argentina/ComodRivadavia").
constexpr int64_t kUnboundedLength = 2147483647;
constexpr int64_t kLongestZoneId = 32;

/// One cell: NULL, varchar, bigint or boolean (the types system tables use).
using Cell = std::variant<std::monostate, std::string, int64_t, bool>;
using Row = std::vector<Cell>;

enum class Kind { kVarchar, kBigint, kBoolean, kTimestamp };

struct ColumnSpec {
  const char* name;
  Kind kind;
};

/// A system table's columns (lower-case, as Trino names them) and rows.
struct TableRows {
  std::vector<ColumnSpec> columns;
  std::vector<Row> rows;
};

columnar::TypePtr TypeOf(Kind kind) {
  switch (kind) {
    case Kind::kBigint:
      return columnar::Int64();
    case Kind::kBoolean:
      return columnar::Boolean();
    case Kind::kTimestamp:
      return columnar::TimestampTz(columnar::TimeUnit::kMicro);
    case Kind::kVarchar:
      break;
  }
  return columnar::String();
}

Result<columnar::Column> BuildColumn(const TableRows& table, size_t c) {
  const Kind kind = table.columns[c].kind;
  auto finish = [](columnar::ColumnBuilder& b) { return b.Finish(); };
  if (kind == Kind::kVarchar) {
    columnar::BinaryBuilder b(columnar::String());
    for (const Row& row : table.rows) {
      if (const auto* s = std::get_if<std::string>(&row[c])) {
        SQE_RETURN_NOT_OK(b.Append(*s));
      } else {
        SQE_RETURN_NOT_OK(b.AppendNull());
      }
    }
    return finish(b);
  }
  if (kind == Kind::kBoolean) {
    columnar::BooleanBuilder b;
    for (const Row& row : table.rows) {
      if (const auto* v = std::get_if<bool>(&row[c])) {
        SQE_RETURN_NOT_OK(b.Append(*v));
      } else {
        SQE_RETURN_NOT_OK(b.AppendNull());
      }
    }
    return finish(b);
  }
  columnar::Int64Builder b(TypeOf(kind));
  for (const Row& row : table.rows) {
    if (const auto* v = std::get_if<int64_t>(&row[c])) {
      SQE_RETURN_NOT_OK(b.Append(*v));
    } else {
      SQE_RETURN_NOT_OK(b.AppendNull());
    }
  }
  return finish(b);
}

Result<std::pair<columnar::SchemaPtr, std::vector<columnar::Batch>>> Materialize(
    const TableRows& table) {
  std::vector<columnar::Field> fields;
  for (const ColumnSpec& c : table.columns) fields.emplace_back(c.name, TypeOf(c.kind), true);
  columnar::SchemaPtr schema = columnar::Schema::Make(std::move(fields));
  std::vector<columnar::Column> columns;
  for (size_t c = 0; c < table.columns.size(); ++c) {
    SQE_ASSIGN_OR_RETURN(columnar::Column column, BuildColumn(table, c));
    columns.push_back(std::move(column));
  }
  SQE_ASSIGN_OR_RETURN(
      columnar::Batch batch,
      columnar::Batch::Make(schema, std::move(columns), static_cast<int64_t>(table.rows.size())));
  std::vector<columnar::Batch> batches;
  if (batch.num_rows() > 0) batches.push_back(std::move(batch));
  return std::make_pair(schema, std::move(batches));
}

Cell Null() { return std::monostate(); }
Cell Text(std::string s) { return s; }
Cell Long(int64_t v) { return v; }
Cell OptionalLong(std::optional<int64_t> v) { return v ? Cell(*v) : Null(); }

// --- type facts for jdbc.columns / jdbc.types (the JDBC driver's view of each type) ---

int64_t JdbcDataType(const DataType& t) {
  switch (t.id()) {
    case TypeId::kBoolean:
      return jdbc_type::kBoolean;
    case TypeId::kInt8:
      return jdbc_type::kTinyint;
    case TypeId::kInt16:
      return jdbc_type::kSmallint;
    case TypeId::kInt32:
      return jdbc_type::kInteger;
    case TypeId::kInt64:
      return jdbc_type::kBigint;
    case TypeId::kFloat32:
      return jdbc_type::kReal;
    case TypeId::kFloat64:
      return jdbc_type::kDouble;
    case TypeId::kDecimal128:
      return jdbc_type::kDecimal;
    case TypeId::kString:
      return jdbc_type::kVarchar;
    case TypeId::kBinary:
    case TypeId::kFixedSizeBinary:
      return jdbc_type::kVarbinary;
    case TypeId::kDate32:
      return jdbc_type::kDate;
    case TypeId::kTime64:
      return jdbc_type::kTime;
    case TypeId::kTimestamp:
      return t.has_timezone() ? jdbc_type::kTimestampWithTimeZone : jdbc_type::kTimestamp;
    case TypeId::kList:
      return jdbc_type::kArray;
    default:
      return jdbc_type::kJavaObject;  // uuid, map, row
  }
}

int64_t FractionDigits(const DataType& t) { return t.unit() == columnar::TimeUnit::kNano ? 9 : 6; }

/// COLUMN_SIZE: digits for numbers, characters for text and temporal values.
std::optional<int64_t> ColumnSize(const DataType& t) {
  switch (t.id()) {
    case TypeId::kInt8:
      return 3;
    case TypeId::kInt16:
      return 5;
    case TypeId::kInt32:
      return 10;
    case TypeId::kInt64:
      return 19;
    case TypeId::kFloat32:
      return 24;
    case TypeId::kFloat64:
      return 53;
    case TypeId::kDecimal128:
      return t.precision();
    case TypeId::kString:
      return kUnboundedLength;
    case TypeId::kBinary:
    case TypeId::kFixedSizeBinary:
      return kUnboundedLength;
    case TypeId::kDate32:
      return 14;  // +5881580-07-11
    case TypeId::kTime64:
      return 8 + 1 + FractionDigits(t);  // HH:MM:SS.fff
    case TypeId::kTimestamp: {
      int64_t p = FractionDigits(t);
      // sign, year, "-MM-DD HH:MM:SS", ".", digits [, " ", zone]
      return t.has_timezone() ? 1 + 6 + 15 + 1 + p + 1 + kLongestZoneId : 1 + 5 + 15 + 1 + p;
    }
    default:
      return std::nullopt;
  }
}

std::optional<int64_t> DecimalDigits(const DataType& t) {
  switch (t.id()) {
    case TypeId::kDecimal128:
      return t.scale();
    case TypeId::kTime64:
    case TypeId::kTimestamp:
      return FractionDigits(t);
    default:
      return std::nullopt;
  }
}

std::optional<int64_t> NumPrecRadix(const DataType& t) {
  switch (t.id()) {
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64:
    case TypeId::kDecimal128:
      return 10;
    case TypeId::kFloat32:
    case TypeId::kFloat64:
      return 2;
    default:
      return std::nullopt;
  }
}

std::optional<int64_t> CharOctetLength(const DataType& t) {
  switch (t.id()) {
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kFixedSizeBinary:
      return kUnboundedLength;
    default:
      return std::nullopt;
  }
}

/// Trino's display name (varbinary for our fixed(n)).
std::string TypeName(const DataType& t) {
  if (t.id() == TypeId::kFixedSizeBinary) return "varbinary";
  return t.ToString();
}

// --- listings over the engine's catalogs ---

/// One table of some catalog, with its columns when they were asked for and readable.
struct ListedTable {
  std::string catalog;
  std::string schema;
  std::string name;
  std::string type;  // TABLE or VIEW
  std::optional<std::string> comment;
  std::vector<columnar::Field> columns;
};

std::vector<std::string> CatalogNames(const Engine::Impl& engine) {
  std::vector<std::string> names;
  for (const auto& [name, c] : engine.catalogs) names.push_back(name);
  names.push_back(kSystemCatalog);
  std::sort(names.begin(), names.end());
  return names;
}

const std::vector<std::string>& InformationSchemaTables() {
  static const std::vector<std::string> tables = {"columns", "schemata", "tables", "views"};
  return tables;
}

/// The schemas of `catalog`: its namespaces and information_schema.
Result<std::vector<std::string>> SchemaNames(const Engine::Impl& engine,
                                             const std::string& catalog) {
  std::vector<std::string> schemas;
  if (catalog == kSystemCatalog) {
    for (const auto& [schema, tables] : SystemCatalogLayout()) schemas.push_back(schema);
    return schemas;
  }
  SQE_ASSIGN_OR_RETURN(auto cat, engine.Catalog(catalog));
  SQE_ASSIGN_OR_RETURN(std::vector<catalog::Namespace> namespaces, cat->ListNamespaces({}));
  for (const catalog::Namespace& ns : namespaces) {
    schemas.push_back(catalog::NamespaceToString(ns));
  }
  schemas.push_back("information_schema");
  std::sort(schemas.begin(), schemas.end());
  return schemas;
}

/// Every table of every catalog; `with_columns` also loads each Iceberg table's schema
/// (tables that vanish meanwhile or cannot be read are left out of the column listing).
Result<std::pair<columnar::SchemaPtr, std::vector<columnar::Batch>>> SystemTableOf(
    Session::Impl& session, const planner::TableName& name, bool with_rows);

Result<std::vector<ListedTable>> ListTables(Session::Impl& session, bool with_columns) {
  Engine::Impl& engine = *session.engine;
  std::vector<ListedTable> out;
  for (const std::string& catalog : CatalogNames(engine)) {
    if (catalog == kSystemCatalog) {
      for (const auto& [schema, tables] : SystemCatalogLayout()) {
        for (const std::string& t : tables) {
          ListedTable listed{catalog, schema, t, "TABLE", std::nullopt, {}};
          if (with_columns) {
            auto rows = SystemTableOf(session, {catalog, schema, t}, /*with_rows=*/false);
            if (rows.ok()) listed.columns = rows->first->fields();
          }
          out.push_back(std::move(listed));
        }
      }
      continue;
    }
    SQE_ASSIGN_OR_RETURN(auto cat, engine.Catalog(catalog));
    SQE_ASSIGN_OR_RETURN(std::vector<catalog::Namespace> namespaces, cat->ListNamespaces({}));
    for (const catalog::Namespace& ns : namespaces) {
      SQE_ASSIGN_OR_RETURN(auto tables, cat->ListTables(ns));
      for (const catalog::TableIdentifier& t : tables) {
        ListedTable listed{catalog, catalog::NamespaceToString(ns), t.name, "TABLE", std::nullopt,
                           {}};
        auto loaded = cat->LoadTable(t);
        if (loaded.ok()) {
          auto comment = loaded->metadata->properties.find("comment");
          if (comment != loaded->metadata->properties.end()) listed.comment = comment->second;
          const iceberg::Schema* s = loaded->metadata->CurrentSchema();
          if (with_columns && s != nullptr) {
            auto columns = iceberg::ToColumnarSchema(*s);
            if (columns.ok()) listed.columns = (*columns)->fields();
          }
        } else if (loaded.status().code() == StatusCode::kNotFound) {
          continue;  // dropped while listing
        }
        out.push_back(std::move(listed));
      }
    }
    for (const std::string& t : InformationSchemaTables()) {
      ListedTable listed{catalog, "information_schema", t, "TABLE", std::nullopt, {}};
      if (with_columns) {
        SessionCatalog binder_catalog(session, nullptr);
        auto rows = binder_catalog.SystemTable({catalog, "information_schema", t});
        if (rows.ok() && rows->has_value()) listed.columns = (*rows)->first->fields();
      }
      out.push_back(std::move(listed));
    }
  }
  return out;
}

// --- the tables ---

TableRows JdbcCatalogs(const Engine::Impl& engine, bool with_rows) {
  TableRows t{{{"table_cat", Kind::kVarchar}}, {}};
  if (!with_rows) return t;
  for (const std::string& c : CatalogNames(engine)) t.rows.push_back({Text(c)});
  return t;
}

Result<TableRows> JdbcSchemas(const Engine::Impl& engine, bool with_rows) {
  TableRows t{{{"table_schem", Kind::kVarchar}, {"table_catalog", Kind::kVarchar}}, {}};
  if (!with_rows) return t;
  for (const std::string& c : CatalogNames(engine)) {
    auto schemas = SchemaNames(engine, c);
    if (!schemas.ok()) continue;  // an unreachable catalog hides its schemas only
    for (const std::string& s : *schemas) t.rows.push_back({Text(s), Text(c)});
  }
  return t;
}

Result<TableRows> JdbcTables(Session::Impl& session, bool with_rows) {
  TableRows t{{{"table_cat", Kind::kVarchar},
               {"table_schem", Kind::kVarchar},
               {"table_name", Kind::kVarchar},
               {"table_type", Kind::kVarchar},
               {"remarks", Kind::kVarchar},
               {"type_cat", Kind::kVarchar},
               {"type_schem", Kind::kVarchar},
               {"type_name", Kind::kVarchar},
               {"self_referencing_col_name", Kind::kVarchar},
               {"ref_generation", Kind::kVarchar}},
              {}};
  if (!with_rows) return t;
  SQE_ASSIGN_OR_RETURN(std::vector<ListedTable> tables, ListTables(session, false));
  for (const ListedTable& l : tables) {
    t.rows.push_back({Text(l.catalog), Text(l.schema), Text(l.name), Text(l.type),
                      l.comment ? Text(*l.comment) : Null(), Null(), Null(), Null(), Null(),
                      Null()});
  }
  return t;
}

TableRows JdbcTableTypes() {
  return TableRows{{{"table_type", Kind::kVarchar}}, {{Text("TABLE")}, {Text("VIEW")}}};
}

Result<TableRows> JdbcColumns(Session::Impl& session, bool with_rows) {
  TableRows t{{{"table_cat", Kind::kVarchar},        {"table_schem", Kind::kVarchar},
               {"table_name", Kind::kVarchar},       {"column_name", Kind::kVarchar},
               {"data_type", Kind::kBigint},         {"type_name", Kind::kVarchar},
               {"column_size", Kind::kBigint},       {"buffer_length", Kind::kBigint},
               {"decimal_digits", Kind::kBigint},    {"num_prec_radix", Kind::kBigint},
               {"nullable", Kind::kBigint},          {"remarks", Kind::kVarchar},
               {"column_def", Kind::kVarchar},       {"sql_data_type", Kind::kBigint},
               {"sql_datetime_sub", Kind::kBigint},  {"char_octet_length", Kind::kBigint},
               {"ordinal_position", Kind::kBigint},  {"is_nullable", Kind::kVarchar},
               {"scope_catalog", Kind::kVarchar},    {"scope_schema", Kind::kVarchar},
               {"scope_table", Kind::kVarchar},      {"source_data_type", Kind::kBigint},
               {"is_autoincrement", Kind::kVarchar}, {"is_generatedcolumn", Kind::kVarchar}},
              {}};
  if (!with_rows) return t;
  SQE_ASSIGN_OR_RETURN(std::vector<ListedTable> tables, ListTables(session, true));
  for (const ListedTable& l : tables) {
    int64_t position = 0;
    for (const columnar::Field& f : l.columns) {
      const DataType& type = *f.type();
      // Trino reports nullability as unknown and IS_NULLABLE as empty (its connectors
      // do not promise either); clients accept both.
      t.rows.push_back({Text(l.catalog),
                        Text(l.schema),
                        Text(l.name),
                        Text(f.name()),
                        Long(JdbcDataType(type)),
                        Text(TypeName(type)),
                        OptionalLong(ColumnSize(type)),
                        Long(0),
                        OptionalLong(DecimalDigits(type)),
                        OptionalLong(NumPrecRadix(type)),
                        Long(kColumnNullableUnknown),
                        Null(),
                        Null(),
                        Null(),
                        Null(),
                        OptionalLong(CharOctetLength(type)),
                        Long(++position),
                        Text(""),
                        Null(),
                        Null(),
                        Null(),
                        Null(),
                        Null(),
                        Null()});
    }
  }
  return t;
}

TableRows JdbcTypes() {
  TableRows t{{{"type_name", Kind::kVarchar},
               {"data_type", Kind::kBigint},
               {"precision", Kind::kBigint},
               {"literal_prefix", Kind::kVarchar},
               {"literal_suffix", Kind::kVarchar},
               {"create_params", Kind::kVarchar},
               {"nullable", Kind::kBigint},
               {"case_sensitive", Kind::kBoolean},
               {"searchable", Kind::kBigint},
               {"unsigned_attribute", Kind::kBoolean},
               {"fixed_prec_scale", Kind::kBoolean},
               {"auto_increment", Kind::kBoolean},
               {"local_type_name", Kind::kVarchar},
               {"minimum_scale", Kind::kBigint},
               {"maximum_scale", Kind::kBigint},
               {"sql_data_type", Kind::kBigint},
               {"sql_datetime_sub", Kind::kBigint},
               {"num_prec_radix", Kind::kBigint}},
              {}};
  auto row = [](std::string name, int64_t data_type, std::optional<int64_t> precision,
                bool searchable, std::optional<int64_t> radix) {
    return Row{Text(std::move(name)),
               Long(data_type),
               OptionalLong(precision),
               Null(),
               Null(),
               Null(),
               Long(kTypeNullable),
               Cell(false),
               Long(searchable ? kTypeSearchable : kTypePredNone),
               Null(),
               Cell(false),
               Null(),
               Null(),
               Long(0),
               Long(0),
               Null(),
               Null(),
               OptionalLong(radix)};
  };
  // The types without parameters, described like columns of that type.
  for (const columnar::TypePtr& type :
       {columnar::Boolean(), columnar::Int8(), columnar::Int16(), columnar::Int32(),
        columnar::Int64(), columnar::Float32(), columnar::Float64(), columnar::Binary(),
        columnar::Date32(), columnar::Uuid()}) {
    t.rows.push_back(
        row(TypeName(*type), JdbcDataType(*type), ColumnSize(*type), true, NumPrecRadix(*type)));
  }
  // Parametric types: only array has a JDBC type of its own, as in Trino.
  for (const char* name : {"array", "decimal", "map", "row", "time", "timestamp",
                           "timestamp with time zone", "varchar"}) {
    int64_t data_type =
        std::string_view(name) == "array" ? jdbc_type::kArray : jdbc_type::kJavaObject;
    t.rows.push_back(row(name, data_type, std::nullopt, false, std::nullopt));
  }
  return t;
}

/// The JDBC tables SQE has nothing to put in: their columns, no rows.
std::optional<TableRows> EmptyJdbcTable(const std::string& table) {
  const Kind V = Kind::kVarchar, B = Kind::kBigint;
  if (table == "procedures") {
    return TableRows{{{"procedure_cat", V},
                      {"procedure_schem", V},
                      {"procedure_name", V},
                      {"remarks", V},
                      {"procedure_type", B},
                      {"specific_name", V}},
                     {}};
  }
  if (table == "procedure_columns") {
    return TableRows{{{"procedure_cat", V},
                      {"procedure_schem", V},
                      {"procedure_name", V},
                      {"column_name", V},
                      {"column_type", B},
                      {"data_type", B},
                      {"type_name", V},
                      {"precision", B},
                      {"length", B},
                      {"scale", B},
                      {"radix", B},
                      {"nullable", B},
                      {"remarks", V},
                      {"column_def", V},
                      {"sql_data_type", B},
                      {"sql_datetime_sub", B},
                      {"char_octet_length", B},
                      {"ordinal_position", B},
                      {"is_nullable", V},
                      {"specific_name", V}},
                     {}};
  }
  if (table == "pseudo_columns") {
    return TableRows{{{"table_cat", V},
                      {"table_schem", V},
                      {"table_name", V},
                      {"column_name", V},
                      {"data_type", B},
                      {"column_size", B},
                      {"decimal_digits", B},
                      {"num_prec_radix", B},
                      {"column_usage", V},
                      {"remarks", V},
                      {"char_octet_length", B},
                      {"is_nullable", V}},
                     {}};
  }
  if (table == "super_tables") {
    return TableRows{
        {{"table_cat", V}, {"table_schem", V}, {"table_name", V}, {"supertable_name", V}}, {}};
  }
  if (table == "super_types") {
    return TableRows{{{"type_cat", V},
                      {"type_schem", V},
                      {"type_name", V},
                      {"supertype_cat", V},
                      {"supertype_schem", V},
                      {"supertype_name", V}},
                     {}};
  }
  if (table == "udts") {
    return TableRows{{{"type_cat", V},
                      {"type_schem", V},
                      {"type_name", V},
                      {"class_name", V},
                      {"data_type", B},
                      {"remarks", V},
                      {"base_type", B}},
                     {}};
  }
  if (table == "attributes") {
    return TableRows{{{"type_cat", V},         {"type_schem", V},       {"type_name", V},
                      {"attr_name", V},        {"data_type", B},        {"attr_type_name", V},
                      {"attr_size", B},        {"decimal_digits", B},   {"num_prec_radix", B},
                      {"nullable", B},         {"remarks", V},          {"attr_def", V},
                      {"sql_data_type", B},    {"sql_datetime_sub", B}, {"char_octet_length", B},
                      {"ordinal_position", B}, {"is_nullable", V},      {"scope_catalog", V},
                      {"scope_schema", V},     {"scope_table", V},      {"source_data_type", B}},
                     {}};
  }
  return std::nullopt;
}

TableRows MetadataCatalogs(const Engine::Impl& engine, bool with_rows) {
  TableRows t{{{"catalog_name", Kind::kVarchar},
               {"connector_id", Kind::kVarchar},
               {"connector_name", Kind::kVarchar},
               {"state", Kind::kVarchar}},
              {}};
  if (!with_rows) return t;
  for (const std::string& c : CatalogNames(engine)) {
    t.rows.push_back(
        {Text(c), Text(c), Text(c == kSystemCatalog ? "system" : "iceberg"), Text("OPERATIONAL")});
  }
  return t;
}

Result<TableRows> MetadataTableComments(Session::Impl& session, bool with_rows) {
  TableRows t{{{"catalog_name", Kind::kVarchar},
               {"schema_name", Kind::kVarchar},
               {"table_name", Kind::kVarchar},
               {"comment", Kind::kVarchar}},
              {}};
  if (!with_rows) return t;
  SQE_ASSIGN_OR_RETURN(std::vector<ListedTable> tables, ListTables(session, false));
  for (const ListedTable& l : tables) {
    t.rows.push_back(
        {Text(l.catalog), Text(l.schema), Text(l.name), l.comment ? Text(*l.comment) : Null()});
  }
  return t;
}

TableRows RuntimeNodes(Engine::Impl& engine, bool with_rows) {
  TableRows t{{{"node_id", Kind::kVarchar},
               {"http_uri", Kind::kVarchar},
               {"node_version", Kind::kVarchar},
               {"coordinator", Kind::kBoolean},
               {"state", Kind::kVarchar}},
              {}};
  if (!with_rows) return t;
  RuntimeSnapshot snapshot = ListRuntime(engine);
  if (snapshot.nodes.empty()) snapshot.nodes.push_back(RuntimeNode{"local", "", "", true});
  for (const RuntimeNode& n : snapshot.nodes) {
    t.rows.push_back({Text(n.node_id), Text(n.http_uri), Text(n.node_version), Cell(n.coordinator),
                      Text(n.state)});
  }
  return t;
}

TableRows RuntimeQueries(Engine::Impl& engine, bool with_rows) {
  TableRows t{{{"query_id", Kind::kVarchar},
               {"state", Kind::kVarchar},
               {"user", Kind::kVarchar},
               {"source", Kind::kVarchar},
               {"query", Kind::kVarchar},
               {"created", Kind::kTimestamp},
               {"end", Kind::kTimestamp},
               {"error_type", Kind::kVarchar},
               {"error_code", Kind::kVarchar}},
              {}};
  if (!with_rows) return t;
  auto time_or_null = [](int64_t ms) { return ms < 0 ? Null() : Long(ms * 1000); };
  auto text_or_null = [](const std::string& s) { return s.empty() ? Null() : Text(s); };
  for (const RuntimeQuery& q : ListRuntime(engine).queries) {
    t.rows.push_back({Text(q.query_id), Text(q.state), Text(q.user), text_or_null(q.source),
                      Text(q.query), time_or_null(q.created_ms), time_or_null(q.end_ms),
                      text_or_null(q.error_type), text_or_null(q.error_code)});
  }
  return t;
}

std::string TableList(const std::vector<std::string>& tables) {
  std::string out;
  for (const std::string& t : tables) out += (out.empty() ? "" : ", ") + t;
  return out;
}

}  // namespace

const std::vector<std::pair<std::string, std::vector<std::string>>>& SystemCatalogLayout() {
  static const std::vector<std::pair<std::string, std::vector<std::string>>> layout = {
      {"jdbc",
       {"attributes", "catalogs", "columns", "procedure_columns", "procedures", "pseudo_columns",
        "schemas", "super_tables", "super_types", "table_types", "tables", "types", "udts"}},
      {"metadata", {"catalogs", "table_comments"}},
      {"runtime", {"nodes", "queries"}},
  };
  return layout;
}

namespace {

Result<std::pair<columnar::SchemaPtr, std::vector<columnar::Batch>>> SystemTableOf(
    Session::Impl& session, const planner::TableName& name, bool with_rows) {
  Engine::Impl& engine = *session.engine;
  const auto& layout = SystemCatalogLayout();
  auto schema = std::find_if(layout.begin(), layout.end(),
                             [&](const auto& s) { return s.first == name.schema; });
  if (schema == layout.end()) {
    return Status::NotFound("Schema '" + name.schema +
                            "' does not exist in catalog 'system' (schemas: jdbc, metadata, "
                            "runtime)");
  }
  std::optional<TableRows> rows;
  if (name.schema == "jdbc") {
    if (name.table == "catalogs") {
      rows = JdbcCatalogs(engine, with_rows);
    } else if (name.table == "schemas") {
      SQE_ASSIGN_OR_RETURN(rows, JdbcSchemas(engine, with_rows));
    } else if (name.table == "tables") {
      SQE_ASSIGN_OR_RETURN(rows, JdbcTables(session, with_rows));
    } else if (name.table == "table_types") {
      rows = JdbcTableTypes();
    } else if (name.table == "columns") {
      SQE_ASSIGN_OR_RETURN(rows, JdbcColumns(session, with_rows));
    } else if (name.table == "types") {
      rows = JdbcTypes();
    } else {
      rows = EmptyJdbcTable(name.table);
    }
  } else if (name.schema == "metadata") {
    if (name.table == "catalogs") {
      rows = MetadataCatalogs(engine, with_rows);
    } else if (name.table == "table_comments") {
      SQE_ASSIGN_OR_RETURN(rows, MetadataTableComments(session, with_rows));
    }
  } else if (name.schema == "runtime") {
    if (name.table == "nodes") {
      rows = RuntimeNodes(engine, with_rows);
    } else if (name.table == "queries") {
      rows = RuntimeQueries(engine, with_rows);
    }
  }
  if (!rows.has_value()) {
    return Status::NotFound("Table '" + name.ToString() + "' does not exist (system." +
                            name.schema + " has " + TableList(schema->second) + ")");
  }
  return Materialize(*rows);
}

}  // namespace

Result<std::pair<columnar::SchemaPtr, std::vector<columnar::Batch>>> SystemCatalogTable(
    Session::Impl& session, const planner::TableName& name) {
  return SystemTableOf(session, name, /*with_rows=*/true);
}

// --- runtime listers ---

int AddRuntimeLister(Engine& engine, RuntimeLister lister) {
  Engine::Impl& impl = engine.impl();
  std::lock_guard<std::mutex> lock(impl.runtime_listers_mutex);
  int id = ++impl.next_runtime_lister;
  impl.runtime_listers.emplace(id, std::move(lister));
  return id;
}

void RemoveRuntimeLister(Engine& engine, int id) {
  Engine::Impl& impl = engine.impl();
  std::lock_guard<std::mutex> lock(impl.runtime_listers_mutex);
  impl.runtime_listers.erase(id);
}

RuntimeSnapshot ListRuntime(Engine::Impl& impl) {
  // Called without the lock: a lister may drop the last reference to its listener, whose
  // teardown removes the lister.
  std::vector<RuntimeLister> listers;
  {
    std::lock_guard<std::mutex> lock(impl.runtime_listers_mutex);
    for (const auto& [id, lister] : impl.runtime_listers) listers.push_back(lister);
  }
  RuntimeSnapshot all;
  std::set<std::string> nodes;
  for (const RuntimeLister& lister : listers) {
    RuntimeSnapshot one = lister();
    for (RuntimeQuery& q : one.queries) all.queries.push_back(std::move(q));
    for (RuntimeNode& n : one.nodes) {
      if (nodes.insert(n.node_id).second) all.nodes.push_back(std::move(n));
    }
  }
  return all;
}

RuntimeSnapshot ListRuntime(Engine& engine) { return ListRuntime(engine.impl()); }

}  // namespace sqe::engine
