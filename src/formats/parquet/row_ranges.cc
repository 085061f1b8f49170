#include "formats/parquet/row_ranges.h"

#include <algorithm>

namespace sqe::parquet {

RowRanges RowRanges::All(int64_t num_rows) {
  RowRanges r;
  if (num_rows > 0) r.ranges_.push_back({0, num_rows});
  return r;
}

RowRanges RowRanges::FromRanges(std::vector<RowRange> ranges) {
  std::erase_if(ranges, [](const RowRange& r) { return r.end <= r.begin; });
  std::sort(ranges.begin(), ranges.end(),
            [](const RowRange& a, const RowRange& b) { return a.begin < b.begin; });
  RowRanges out;
  for (const RowRange& r : ranges) {
    if (!out.ranges_.empty() && r.begin <= out.ranges_.back().end) {
      out.ranges_.back().end = std::max(out.ranges_.back().end, r.end);
    } else {
      out.ranges_.push_back(r);
    }
  }
  return out;
}

int64_t RowRanges::row_count() const {
  int64_t n = 0;
  for (const RowRange& r : ranges_) n += r.size();
  return n;
}

bool RowRanges::Overlaps(int64_t begin, int64_t end) const {
  // First range ending after `begin`.
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), begin,
                             [](int64_t b, const RowRange& r) { return b < r.end; });
  return it != ranges_.end() && it->begin < end && begin < end;
}

RowRanges RowRanges::Intersect(const RowRanges& other) const {
  std::vector<RowRange> out;
  size_t i = 0, j = 0;
  while (i < ranges_.size() && j < other.ranges_.size()) {
    const RowRange& a = ranges_[i];
    const RowRange& b = other.ranges_[j];
    int64_t lo = std::max(a.begin, b.begin);
    int64_t hi = std::min(a.end, b.end);
    if (lo < hi) out.push_back({lo, hi});
    if (a.end < b.end) {
      ++i;
    } else {
      ++j;
    }
  }
  return FromRanges(std::move(out));
}

RowRanges RowRanges::Union(const RowRanges& other) const {
  std::vector<RowRange> all = ranges_;
  all.insert(all.end(), other.ranges_.begin(), other.ranges_.end());
  return FromRanges(std::move(all));
}

}  // namespace sqe::parquet
