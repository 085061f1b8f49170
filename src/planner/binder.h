#pragma once
/// The binder: AST (sql/ast.h) to a bound logical plan (logical_plan.h). It resolves
/// names through a BinderCatalog (the session's catalogs, current catalog and schema),
/// gives every expression a type with Trino's implicit coercions and function overload
/// resolution (exec/functions/registry.h), folds constants, expands `*`, plans GROUP BY /
/// HAVING / ORDER BY / LIMIT / DISTINCT / set operations / WITH, and turns subqueries
/// into joins: IN and EXISTS become semi / anti / mark joins, correlated scalar
/// aggregates a grouped left join, uncorrelated scalar subqueries are run once and
/// replaced by their value. Errors point into the SQL ("line 1:8: Column 'x' cannot be
/// resolved").
///
/// Not thread-safe: one binder per statement.

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "columnar/batch.h"
#include "common/result.h"
#include "exec/functions/registry.h"
#include "exec/value.h"
#include "planner/logical_plan.h"
#include "sql/ast.h"

namespace sqe::planner {

/// FOR VERSION AS OF / FOR TIMESTAMP AS OF.
struct TimeTravel {
  std::optional<int64_t> snapshot_id;
  std::optional<std::string> ref;
  std::optional<int64_t> timestamp_ms;
};

/// A table name with every part resolved (lower-cased unless quoted).
struct TableName {
  std::string catalog;
  std::string schema;
  std::string table;
  std::string ToString() const { return catalog + "." + schema + "." + table; }
};

/// What the binder needs from the session and its catalogs (implemented by engine/).
class BinderCatalog {
 public:
  virtual ~BinderCatalog() = default;
  virtual const std::string& current_catalog() const = 0;
  virtual const std::string& current_schema() const = 0;
  /// An Iceberg table as a scan source; NotFound with a helpful message otherwise.
  virtual Result<std::shared_ptr<const ScanSource>> LoadTable(const TableName& name,
                                                              const TimeTravel& travel) = 0;
  /// read_parquet's files (paths or globs) as a scan source.
  virtual Result<std::shared_ptr<const ScanSource>> ReadParquet(
      const std::vector<std::string>& paths) = 0;
  /// iceberg_scan's table: a metadata JSON file or a table directory, read without a
  /// catalog. In a directory, `metadata_version` ("3") picks metadata file version 3,
  /// empty the current one (catalog/metadata_location.h); `travel` picks the snapshot.
  /// NotFound naming `path` when there is no table there. NotImplemented unless overridden.
  virtual Result<std::shared_ptr<const ScanSource>> IcebergScan(const std::string& path,
                                                                const std::string& metadata_version,
                                                                const TimeTravel& travel) {
    (void)metadata_version;
    (void)travel;
    return Status::NotImplemented("iceberg_scan('" + path + "') is not available here");
  }
  /// Rows of a virtual table (information_schema.*, system.*), nullopt when `name` is
  /// not one.
  virtual Result<std::optional<std::pair<columnar::SchemaPtr, std::vector<columnar::Batch>>>>
  SystemTable(const TableName& name) = 0;
  /// Runs a plan to completion (uncorrelated scalar subqueries, EXISTS).
  virtual Result<std::vector<columnar::Batch>> Execute(const LogicalPtr& plan) = 0;
  virtual const exec::EvalContext& eval_context() const = 0;
  /// current_user.
  virtual const std::string& user() const = 0;
};

struct BoundQuery {
  LogicalPtr plan;
  /// The result column names (plan->output has the same order).
  std::vector<std::string> names;
  /// Bound without parameter values (untyped NULLs): per `?`, the type the query coerces it
  /// to where it meets a typed operand (`id = ?` -> id's type), else nullptr.
  std::vector<columnar::TypePtr> parameter_types;
};

/// Binds a query. `sql` is the statement text the AST positions refer to; `parameters`
/// fill `?` placeholders (EXECUTE ... USING).
Result<BoundQuery> BindQuery(const sql::ast::Query& query, BinderCatalog& catalog,
                             std::string_view sql, const std::vector<exec::Value>& parameters = {});

/// Binds a constant expression (no columns), e.g. a SET SESSION value, a table property
/// or an EXECUTE parameter, and folds it to a Value.
Result<exec::Value> BindConstant(const sql::ast::Expr& expr, BinderCatalog& catalog,
                                 std::string_view sql);

/// The SQL type a TypeName denotes (Trino names: bigint, varchar(n), decimal(p,s),
/// timestamp(p) [with time zone], array(T), map(K,V), row(...)). InvalidArgument for an
/// unknown or malformed type.
Result<columnar::TypePtr> ResolveType(const sql::ast::TypeName& type);

/// Resolves a possibly partial table name against the current catalog and schema
/// (unquoted parts lower-cased).
Result<TableName> ResolveTableName(const sql::ast::QualifiedName& name,
                                   const std::string& current_catalog,
                                   const std::string& current_schema);

}  // namespace sqe::planner
