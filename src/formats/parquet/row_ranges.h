#pragma once
/// RowRanges: the rows of one row group a read must produce, as sorted, disjoint,
/// non-adjacent half-open ranges of row-group-relative row numbers. Page pruning (the
/// column/offset index) computes them; the column chunk reader then decodes only the
/// pages that overlap them and drops the other rows of those pages, so every projected
/// column yields exactly the same rows. A reader may return rows that do not match the
/// predicate (pruning is conservative); the engine filters them afterwards.

#include <cstdint>
#include <vector>

namespace sqe::parquet {

struct RowRange {
  int64_t begin = 0;  // first row
  int64_t end = 0;    // one past the last row
  int64_t size() const { return end - begin; }
  bool operator==(const RowRange&) const = default;
};

class RowRanges {
 public:
  RowRanges() = default;
  /// All rows [0, num_rows).
  static RowRanges All(int64_t num_rows);
  /// Normalizes: sorts, merges overlapping and adjacent ranges, drops empty ones.
  static RowRanges FromRanges(std::vector<RowRange> ranges);

  const std::vector<RowRange>& ranges() const { return ranges_; }
  bool empty() const { return ranges_.empty(); }
  int64_t row_count() const;
  bool Overlaps(int64_t begin, int64_t end) const;
  RowRanges Intersect(const RowRanges& other) const;
  RowRanges Union(const RowRanges& other) const;
  bool operator==(const RowRanges&) const = default;

 private:
  std::vector<RowRange> ranges_;
};

}  // namespace sqe::parquet
