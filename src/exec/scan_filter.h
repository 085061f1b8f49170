#pragma once
/// Scan filter pushdown: turns the conjuncts the optimizer pushed into a scan (bound
/// exec::Expr whose kColumn `column` is an output column index of the scan) into the
/// filter forms the storage layers prune with:
///  - an Iceberg expression (iceberg/expr/expression.h, unbound, columns by their name in
///    the table schema) for partition, manifest and metrics pruning in PlanScan;
///  - Parquet predicates (formats/parquet/predicate.h, columns by name or Iceberg field
///    id) for row-group statistics, Bloom filter and page-index pruning.
/// Supported: `column op literal` and `literal op column` for = <> != < <= > >=,
/// IS [NOT] NULL, IN lists (null items dropped), BETWEEN (as >= and <=), starts_with and
/// LIKE with a literal prefix (as starts_with for Iceberg, a [prefix, successor) range for
/// Parquet), NOT of exact conversions, and (Iceberg only) AND / OR of convertible parts.
/// A conversion is only ever a superset of the rows the conjunct accepts: the engine still
/// filters exactly with every conjunct. Literals must have the column's type (the binder
/// casts them); integers of another width are converted when they fit.
///
/// Pure functions over immutable inputs; thread-safe.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "columnar/data_type.h"
#include "exec/expression.h"
#include "formats/parquet/predicate.h"
#include "iceberg/expr/expression.h"

namespace sqe::exec {

/// What the converters know about output column i of a scan.
struct ScanColumn {
  std::string name;        ///< the column's name in the file / table schema
  int32_t field_id = -1;   ///< Iceberg field id (-1: none, e.g. a plain Parquet file)
  columnar::TypePtr type;  ///< the column's type as the scan outputs it
};

/// How Parquet predicates name their column.
enum class ParquetColumnRefKind : uint8_t { kName, kFieldId };

/// The conjuncts of `filter`: the operands of nested kAnd nodes, flattened (nullptr: none).
std::vector<ExprPtr> SplitConjuncts(const ExprPtr& filter);

/// One conjunct as an unbound Iceberg expression, or nullopt when it cannot be expressed.
std::optional<iceberg::expr::ExprPtr> ToIcebergFilter(const Expr& conjunct,
                                                      std::span<const ScanColumn> columns);

/// One conjunct as Parquet predicates (a conjunction; BETWEEN and prefix matches give
/// two), or empty when it cannot be expressed.
std::vector<parquet::Predicate> ToParquetPredicates(const Expr& conjunct,
                                                    std::span<const ScanColumn> columns,
                                                    ParquetColumnRefKind refs);

/// The predicates of a bound Iceberg expression's top-level conjunction that Parquet can
/// prune with (columns by field id, literals in the bound column's type). The task
/// reader prunes row groups of each data file with them.
std::vector<parquet::Predicate> IcebergToParquetPredicates(const iceberg::expr::ExprPtr& bound);

/// Every pushed conjunct converted to both targets.
struct PushedFilter {
  /// The AND of the converted conjuncts; nullptr when none converted.
  iceberg::expr::ExprPtr iceberg;
  std::vector<parquet::Predicate> parquet;
  /// Indices into the input conjuncts that each target took.
  std::vector<int> iceberg_conjuncts;
  std::vector<int> parquet_conjuncts;
};

PushedFilter ConvertPushedFilter(const std::vector<ExprPtr>& conjuncts,
                                 std::span<const ScanColumn> columns, ParquetColumnRefKind refs);

}  // namespace sqe::exec
