#pragma once
/// Row-group pruning on column-chunk statistics (parquet.thrift Statistics, ColumnOrder):
/// decides whether any row of a row group could satisfy a bound conjunction. Conservative:
/// missing, undecodable or untrusted statistics mean "may match". Which bounds are trusted:
///  - min_value/max_value in the column's type-defined order, unless the file's
///    ColumnOrder for the column is unknown to us;
///  - the deprecated min/max only when the column's order is signed (StatType), as the
///    spec says older writers computed them with signed comparison;
///  - INT96 never; floating-point bounds that are NaN are ignored, and a zero bound is
///    read as either sign (numeric comparison makes -0.0 == +0.0).
/// null_count answers IS NULL / IS NOT NULL and finds all-null chunks. Pure, thread-safe.

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "formats/parquet/metadata.h"
#include "formats/parquet/predicate.h"

namespace sqe::parquet {

/// What is known about the values of a column chunk or page.
struct ValueStats {
  std::optional<StatValue> min;  // lower bound of the non-null values
  std::optional<StatValue> max;  // upper bound of the non-null values
  std::optional<int64_t> null_count;
  std::optional<int64_t> nan_count;
  /// Every value is null (null_count equals the value count, or a null page).
  bool all_null = false;
  /// No value is NaN (nan_count == 0, or the column is not floating point).
  bool known_no_nan() const { return nan_count.has_value() && *nan_count == 0; }
};

/// Decodes a chunk's Statistics. `num_values` is ColumnMetaData.num_values (for the
/// all-null test); `order` the file's ColumnOrder for the column (kTypeDefined when the
/// file lists none).
ValueStats DecodeStatistics(const Statistics& stats, const StatType& type, ColumnOrder order,
                            int64_t num_values);

/// Whether a chunk or page with these stats may hold a row the predicate accepts.
bool StatsMayMatch(const BoundPredicate& predicate, const ValueStats& stats);

/// The file's ColumnOrder for leaf `column` (FileMetaData.column_orders, kTypeDefined when
/// the file predates the field).
ColumnOrder ColumnOrderOf(const FileMetaData& metadata, int column);

/// Whether row group `row_group` may hold rows satisfying every predicate (all bound to
/// this file's schema). False for an empty row group.
bool RowGroupMayMatch(const FileMetaData& metadata, int row_group,
                      std::span<const BoundPredicate> conjunction);

}  // namespace sqe::parquet
