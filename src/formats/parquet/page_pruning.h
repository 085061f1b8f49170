#pragma once
/// Page pruning on the page index (PageIndex.md): from each predicate's column's
/// ColumnIndex (per-page null_pages, min/max, null_counts) and OffsetIndex (first row of
/// every page), the rows of a row group that may satisfy the conjunction, as RowRanges
/// that the column chunk reader then restricts every projected column to. The page
/// bounds follow the same trust rules as chunk statistics (statistics_pruning.h); a
/// column without a page index leaves its predicate unpruned. Pure, thread-safe.

#include <cstdint>
#include <span>

#include "common/result.h"
#include "formats/parquet/metadata.h"
#include "formats/parquet/predicate.h"
#include "formats/parquet/row_ranges.h"

namespace sqe::parquet {

/// The page index of one column chunk; either pointer may be null (not written).
struct ColumnPageIndex {
  const ColumnIndex* column_index = nullptr;
  const OffsetIndex* offset_index = nullptr;
};

/// The page boundaries of a chunk as row ranges [first_row_index[i], first_row_index[i+1])
/// with the last page ending at `num_rows`. Corruption when the first page does not start at
/// row 0, rows decrease, or a page starts past the end.
Result<std::vector<RowRange>> PageRowSpans(const OffsetIndex& offset_index, int64_t num_rows);

/// The rows of the pages that may satisfy one predicate. Corruption when the column index
/// and the offset index disagree on the page count.
Result<RowRanges> PagesMayMatch(const BoundPredicate& predicate, const ColumnIndex& column_index,
                                const OffsetIndex& offset_index, int64_t num_rows,
                                ColumnOrder order);

/// The rows that may satisfy every predicate: the intersection over predicates of
/// PagesMayMatch, with `page_indexes[p.column]` for predicate p (missing or short entries
/// mean "no index", i.e. all rows).
Result<RowRanges> PruneRowRanges(std::span<const BoundPredicate> conjunction,
                                 std::span<const ColumnPageIndex> page_indexes, int64_t num_rows,
                                 std::span<const ColumnOrder> column_orders);

}  // namespace sqe::parquet
