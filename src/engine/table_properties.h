#pragma once
/// Table properties of the Iceberg connector as CREATE TABLE ... WITH (...), CTAS and
/// ALTER TABLE ... SET PROPERTIES give them: format_version, partitioning (Trino's
/// 'day(ts)', 'bucket(id, 16)', 'truncate(s, 4)', 'year(d)', 'month(d)', 'hour(ts)',
/// 'void(c)', 'region'), sorted_by ('a', 'b DESC NULLS FIRST'), location, format,
/// extra_properties, data_location, object_store_layout_enabled, max_commit_retry,
/// parquet_bloom_filter_columns; any other name is stored verbatim as an Iceberg table
/// property with its value as a string ("write.parquet.compression-codec" = 'zstd'),
/// unless it looks like a typo of a known name (then an error with the hint).
/// Also the new table's CreateTableRequest built from columns and properties.
/// Pure functions, thread-safe.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "common/result.h"
#include "engine/iceberg_types.h"
#include "exec/value.h"
#include "iceberg/partition_spec.h"
#include "iceberg/schema.h"
#include "iceberg/schema_update.h"
#include "iceberg/sort_order.h"
#include "iceberg/transforms.h"
#include "sql/ast.h"

namespace sqe::engine {

/// One evaluated `name = value` of a property list.
struct TableProperty {
  std::string name;
  exec::Value value;
};

/// What a property list asks for, each part only when it was given.
struct TableOptions {
  std::optional<int> format_version;
  std::optional<std::vector<std::string>> partitioning;
  std::optional<std::vector<std::string>> sorted_by;
  std::optional<std::string> location;
  /// Stored as Iceberg table properties (raw names and the mapped connector ones).
  std::map<std::string, std::string> iceberg_properties;
};

/// Interprets a property list. `catalog` names the catalog in messages. InvalidArgument
/// naming the property for a value of the wrong type, a bad format version, a format
/// other than PARQUET, or a likely typo ("did you mean 'partitioning'?").
Result<TableOptions> ParseTableProperties(const std::vector<TableProperty>& properties,
                                          const std::string& catalog);

/// One partition field as Trino writes it: the source column, the transform and the
/// partition field's name (Iceberg's builder names: ts_day, id_bucket, s_trunc, region).
struct PartitionFieldSpec {
  std::string column;
  iceberg::Transform transform = iceberg::Transform::Identity();
  std::string name;
};

/// Parses 'day(ts)', 'bucket(id, 16)', 'truncate(s, 4)', '"Quoted Col"', 'region', ...
/// Unquoted column names are lower-cased. InvalidArgument naming the text and the forms.
Result<PartitionFieldSpec> ParsePartitionField(const std::string& text);

/// Spark's PARTITIONED BY items (region, days(ts), bucket(16, id), truncate(4, s)) in
/// Trino's string form ('region', 'day(ts)', 'bucket(id, 16)', 'truncate(s, 4)').
Result<std::string> PartitionExpressionText(const sql::ast::Expr& expr);

/// The partition spec (id 0, field ids from 1000) of `fields` over `schema`. Columns
/// match case-insensitively; InvalidArgument for a missing column, a transform that
/// does not apply to its type, or a duplicate partition field name.
Result<iceberg::PartitionSpec> MakePartitionSpec(const std::vector<std::string>& fields,
                                                 const iceberg::Schema& schema);

/// The sort order (id 1; unsorted for no items) of sorted_by items over `schema`.
Result<iceberg::SortOrder> MakeSortOrder(const std::vector<std::string>& items,
                                         const iceberg::Schema& schema);

/// The sorted_by items of sort_by in the form MakeSortOrder and SchemaUpdate read.
Result<std::vector<iceberg::SortTerm>> MakeSortTerms(const std::vector<std::string>& items);

/// Everything CREATE TABLE / CTAS asks for.
struct NewTableDefinition {
  std::vector<ColumnSpec> columns;
  std::vector<TableProperty> properties;
  /// Spark PARTITIONED BY items, already in Trino's string form.
  std::vector<std::string> partitioned_by;
  std::optional<std::string> comment;
};

/// The catalog request for a new table. `default_format_version` is the catalog's
/// ([catalog] default_table_format_version); `namespace_location` the schema's location
/// property ("" = none): a table without `location` goes to <namespace_location>/<table>.
Result<catalog::CreateTableRequest> MakeCreateTableRequest(const NewTableDefinition& definition,
                                                           const std::string& catalog,
                                                           const std::string& table,
                                                           int default_format_version,
                                                           const std::string& namespace_location);

}  // namespace sqe::engine
