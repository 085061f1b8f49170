#include "formats/parquet/page_pruning.h"

#include "formats/parquet/statistics_pruning.h"

namespace sqe::parquet {

Result<std::vector<RowRange>> PageRowSpans(const OffsetIndex& offset_index, int64_t num_rows) {
  const auto& pages = offset_index.page_locations;
  std::vector<RowRange> spans;
  spans.reserve(pages.size());
  for (size_t i = 0; i < pages.size(); ++i) {
    const int64_t begin = pages[i].first_row_index;
    const int64_t end = i + 1 < pages.size() ? pages[i + 1].first_row_index : num_rows;
    if ((i == 0 && begin != 0) || begin > end || begin >= num_rows) {
      return Status::Corruption("parquet offset index: page " + std::to_string(i) +
                                " starts at row " + std::to_string(begin) + " (next " +
                                std::to_string(end) + ", row group of " + std::to_string(num_rows) +
                                " rows)");
    }
    spans.push_back({begin, end});
  }
  return spans;
}

Result<RowRanges> PagesMayMatch(const BoundPredicate& predicate, const ColumnIndex& ci,
                                const OffsetIndex& offset_index, int64_t num_rows,
                                ColumnOrder order) {
  SQE_ASSIGN_OR_RETURN(std::vector<RowRange> spans, PageRowSpans(offset_index, num_rows));
  const size_t n = spans.size();
  if (ci.null_pages.size() != n || ci.min_values.size() != n || ci.max_values.size() != n ||
      (ci.null_counts && ci.null_counts->size() != n) ||
      (ci.nan_counts && ci.nan_counts->size() != n)) {
    return Status::Corruption("parquet column index of column '" + predicate.column_name +
                              "' does not describe the " + std::to_string(n) +
                              " pages of its offset index");
  }
  const bool floating = predicate.stat_type.kind() == StatValue::Kind::kFloat;
  std::vector<RowRange> keep;
  for (size_t i = 0; i < n; ++i) {
    ValueStats s;
    if (ci.null_counts) s.null_count = (*ci.null_counts)[i];
    if (!floating) {
      s.nan_count = 0;
    } else if (ci.nan_counts) {
      s.nan_count = (*ci.nan_counts)[i];
    }
    s.all_null = ci.null_pages[i];
    if (!s.all_null && order != ColumnOrder::kUnknown) {
      for (auto [raw, bound] :
           {std::pair{&ci.min_values[i], &s.min}, {&ci.max_values[i], &s.max}}) {
        auto v = DecodeStatValue(*raw, predicate.stat_type);
        if (v && !v->is_nan()) *bound = std::move(v);
      }
    }
    if (StatsMayMatch(predicate, s)) keep.push_back(spans[i]);
  }
  return RowRanges::FromRanges(std::move(keep));
}

Result<RowRanges> PruneRowRanges(std::span<const BoundPredicate> conjunction,
                                 std::span<const ColumnPageIndex> page_indexes, int64_t num_rows,
                                 std::span<const ColumnOrder> column_orders) {
  RowRanges rows = RowRanges::All(num_rows);
  for (const BoundPredicate& p : conjunction) {
    if (rows.empty()) break;
    if (p.column < 0 || static_cast<size_t>(p.column) >= page_indexes.size()) continue;
    const ColumnPageIndex& index = page_indexes[p.column];
    if (index.column_index == nullptr || index.offset_index == nullptr) continue;
    ColumnOrder order = ColumnOrder::kTypeDefined;
    if (!column_orders.empty()) {
      order = static_cast<size_t>(p.column) < column_orders.size() ? column_orders[p.column]
                                                                   : ColumnOrder::kUnknown;
    }
    SQE_ASSIGN_OR_RETURN(RowRanges matching, PagesMayMatch(p, *index.column_index,
                                                           *index.offset_index, num_rows, order));
    rows = rows.Intersect(matching);
  }
  return rows;
}

}  // namespace sqe::parquet
