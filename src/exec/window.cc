#include "exec/window.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <unordered_set>

#include "columnar/fixed_width_builder.h"
#include "columnar/take.h"
#include "common/task_scheduler.h"
#include "exec/batch_concatenate.h"
#include "exec/sort.h"

namespace sqe::exec {

using columnar::Batch;
using columnar::Column;
using columnar::SelectionVector;

const char* WindowFunctionKindName(WindowFunctionKind kind) {
  switch (kind) {
    case WindowFunctionKind::kAggregate:
      return "aggregate";
    case WindowFunctionKind::kRowNumber:
      return "row_number";
    case WindowFunctionKind::kRank:
      return "rank";
    case WindowFunctionKind::kDenseRank:
      return "dense_rank";
    case WindowFunctionKind::kPercentRank:
      return "percent_rank";
    case WindowFunctionKind::kCumeDist:
      return "cume_dist";
    case WindowFunctionKind::kNtile:
      return "ntile";
    case WindowFunctionKind::kLag:
      return "lag";
    case WindowFunctionKind::kLead:
      return "lead";
    case WindowFunctionKind::kFirstValue:
      return "first_value";
    case WindowFunctionKind::kLastValue:
      return "last_value";
    case WindowFunctionKind::kNthValue:
      return "nth_value";
  }
  return "?";
}

namespace {

std::string BoundText(WindowBoundType type, const std::string& amount) {
  switch (type) {
    case WindowBoundType::kUnboundedPreceding:
      return "UNBOUNDED PRECEDING";
    case WindowBoundType::kUnboundedFollowing:
      return "UNBOUNDED FOLLOWING";
    case WindowBoundType::kCurrentRow:
      return "CURRENT ROW";
    case WindowBoundType::kPreceding:
      return amount + " PRECEDING";
    case WindowBoundType::kFollowing:
      return amount + " FOLLOWING";
  }
  return "?";
}

std::string BoundAmount(const WindowBound& bound, WindowFrameUnit unit) {
  return unit == WindowFrameUnit::kRange ? "#" + std::to_string(bound.range_value)
                                         : std::to_string(bound.offset);
}

}  // namespace

std::string WindowFrameText(WindowFrameUnit unit, WindowBoundType start,
                            const std::string& start_amount, WindowBoundType end,
                            const std::string& end_amount) {
  static const char* kUnits[] = {"ROWS", "RANGE", "GROUPS"};
  return std::string(kUnits[static_cast<int>(unit)]) + " BETWEEN " +
         BoundText(start, start_amount) + " AND " + BoundText(end, end_amount);
}

std::string WindowCallToString(const WindowCall& call) {
  std::string out = call.kind == WindowFunctionKind::kAggregate ? call.aggregate->name
                                                                : WindowFunctionKindName(call.kind);
  out += "(";
  for (size_t i = 0; i < call.args.size(); ++i) {
    if (i > 0) out += ", ";
    out += "#" + std::to_string(call.args[i]);
  }
  if (call.kind == WindowFunctionKind::kAggregate && call.args.empty()) out += "*";
  out += ")";
  if (call.ignore_nulls) out += " IGNORE NULLS";
  out += " OVER (";
  std::string spec;
  if (!call.partition_by.empty()) {
    spec += "PARTITION BY ";
    for (size_t i = 0; i < call.partition_by.size(); ++i) {
      if (i > 0) spec += ", ";
      spec += "#" + std::to_string(call.partition_by[i]);
    }
  }
  if (!call.order_by.empty()) {
    if (!spec.empty()) spec += " ";
    spec += "ORDER BY " + SortKeysToString(call.order_by);
  }
  if (!spec.empty()) spec += " ";
  const WindowFrame& f = call.frame;
  spec += WindowFrameText(f.unit, f.start.type, BoundAmount(f.start, f.unit), f.end.type,
                          BoundAmount(f.end, f.unit));
  return out + spec + ")";
}

namespace {

struct SinkState : OperatorState {
  std::vector<Batch> batches;
  Reservation reservation;
};

/// The rows of one (PARTITION BY, ORDER BY) spec in sorted order with their partition
/// and peer-group boundaries; every position below is a position in the sorted order.
struct SortedRows {
  int64_t n = 0;
  std::vector<uint32_t> order;            ///< sorted position -> input row
  std::vector<int64_t> partition_start;   ///< per position
  std::vector<int64_t> partition_end;     ///< per position (exclusive)
  std::vector<uint32_t> partition_index;  ///< per position: its partition's number
  int64_t partitions = 0;
  std::vector<int64_t> group;        ///< per position: its peer group's number
  std::vector<int64_t> group_start;  ///< per peer group: its first position; then n
  int64_t PeerStart(int64_t i) const { return group_start[group[i]]; }
  int64_t PeerEnd(int64_t i) const { return group_start[group[i] + 1]; }
};

constexpr int64_t kSortedBytesPerRow = 4 + 8 * 3 + 4 + 8 + 8;

Status Encode(const Batch& input, const std::vector<SortKey>& keys, EncodedRows* out) {
  std::vector<int> columns;
  std::vector<SortKey> local;
  for (const SortKey& k : keys) {
    local.push_back(
        SortKey{static_cast<int>(columns.size()), k.ascending, k.nulls_first, k.group_only});
    columns.push_back(k.column);
  }
  SQE_ASSIGN_OR_RETURN(Batch projected, input.Project(columns));
  return EncodeSortKeys(projected, local, out);
}

Result<SortedRows> SortRows(const Batch& input, const std::vector<int>& partition_by,
                            const std::vector<SortKey>& order_by, Reservation* memory) {
  SortedRows rows;
  rows.n = input.num_rows();
  const size_t n = static_cast<size_t>(rows.n);
  std::vector<SortKey> partition_keys;
  for (int column : partition_by) {
    partition_keys.push_back(SortKey{column, true, false, /*group_only=*/true});
  }
  EncodedRows partition_encoded, order_encoded;
  if (!partition_keys.empty()) SQE_RETURN_NOT_OK(Encode(input, partition_keys, &partition_encoded));
  if (!order_by.empty()) SQE_RETURN_NOT_OK(Encode(input, order_by, &order_encoded));
  SQE_RETURN_NOT_OK(memory->Resize(
      memory->bytes() + rows.n * kSortedBytesPerRow +
      static_cast<int64_t>(partition_encoded.bytes.size() + order_encoded.bytes.size()) +
      rows.n * 8));
  if (!partition_keys.empty() || !order_by.empty()) {
    // One normalized key of both (its order is the partitions', then the ORDER BY's) for
    // the sort, which compares 8-byte prefixes first (OrderEncodedRows).
    std::vector<SortKey> all = partition_keys;
    all.insert(all.end(), order_by.begin(), order_by.end());
    EncodedRows combined;
    SQE_RETURN_NOT_OK(Encode(input, all, &combined));
    Reservation sort_memory;
    SQE_ASSIGN_OR_RETURN(
        sort_memory, Reservation::Make(memory->tracker(),
                                       static_cast<int64_t>(combined.bytes.size()) + rows.n * 16));
    OrderEncodedRows(combined, -1, &rows.order);
  } else {
    rows.order.resize(n);
    std::iota(rows.order.begin(), rows.order.end(), 0);
  }
  rows.partition_start.resize(n);
  rows.partition_end.resize(n);
  rows.partition_index.resize(n);
  rows.group.resize(n);
  int64_t start = 0;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t row = rows.order[i];
    const uint32_t previous = i > 0 ? rows.order[i - 1] : 0;
    const bool new_partition =
        i == 0 ||
        (!partition_keys.empty() && partition_encoded.row(row) != partition_encoded.row(previous));
    const bool new_group = new_partition || (!order_by.empty() &&
                                             order_encoded.row(row) != order_encoded.row(previous));
    if (new_partition) {
      start = static_cast<int64_t>(i);
      ++rows.partitions;
    }
    if (new_group) rows.group_start.push_back(static_cast<int64_t>(i));
    rows.partition_start[i] = start;
    rows.partition_index[i] = static_cast<uint32_t>(rows.partitions - 1);
    rows.group[i] = static_cast<int64_t>(rows.group_start.size()) - 1;
  }
  rows.group_start.push_back(rows.n);
  int64_t end = rows.n;
  for (size_t i = n; i-- > 0;) {
    rows.partition_end[i] = end;
    if (rows.partition_start[i] == static_cast<int64_t>(i)) end = static_cast<int64_t>(i);
  }
  return rows;
}

/// The frame of every sorted position as [starts[i], ends[i]) (empty: starts == ends).
class FrameBounds {
 public:
  FrameBounds(const SortedRows& rows, const WindowFrame& frame) : rows_(rows), frame_(frame) {}

  Status Compute(const Batch& input, const SortKey* range_order, std::vector<int64_t>* starts,
                 std::vector<int64_t>* ends) {
    const bool range_offsets = frame_.unit == WindowFrameUnit::kRange && frame_.range_key >= 0;
    if (range_offsets) {
      SortKey key{frame_.range_key, range_order->ascending, range_order->nulls_first};
      SQE_RETURN_NOT_OK(Encode(input, {key}, &range_keys_));
      range_key_column_ = &input.column(frame_.range_key);
      for (const WindowBound* b : {&frame_.start, &frame_.end}) {
        if (b->range_value < 0) continue;
        EncodedRows* target = b == &frame_.start ? &start_values_ : &end_values_;
        SQE_RETURN_NOT_OK(
            Encode(input, {SortKey{b->range_value, key.ascending, key.nulls_first}}, target));
      }
    }
    starts->resize(static_cast<size_t>(rows_.n));
    ends->resize(static_cast<size_t>(rows_.n));
    for (int64_t i = 0; i < rows_.n; ++i) {
      const int64_t s = Position(frame_.start, true, i);
      const int64_t e = Position(frame_.end, false, i);
      (*starts)[i] = s;
      (*ends)[i] = std::max(s, e);
    }
    return Status::OK();
  }

 private:
  int64_t Position(const WindowBound& bound, bool is_start, int64_t i) const {
    const int64_t p0 = rows_.partition_start[i];
    const int64_t p1 = rows_.partition_end[i];
    switch (bound.type) {
      case WindowBoundType::kUnboundedPreceding:
        return p0;
      case WindowBoundType::kUnboundedFollowing:
        return p1;
      case WindowBoundType::kCurrentRow:
        if (frame_.unit == WindowFrameUnit::kRows) return is_start ? i : i + 1;
        return is_start ? rows_.PeerStart(i) : rows_.PeerEnd(i);
      case WindowBoundType::kPreceding:
      case WindowBoundType::kFollowing:
        break;
    }
    const bool back = bound.type == WindowBoundType::kPreceding;
    const int64_t offset = bound.offset;
    if (frame_.unit == WindowFrameUnit::kRows) {
      // The frame row, clamped to the partition; an end is exclusive.
      int64_t target;
      if (back) {
        target = offset > i - p0 ? p0 - 1 : i - offset;
      } else {
        target = offset >= p1 - i ? p1 : i + offset;
      }
      if (!is_start) ++target;
      return std::clamp(target, p0, p1);
    }
    if (frame_.unit == WindowFrameUnit::kGroups) {
      const int64_t g = rows_.group[i];
      const int64_t first = rows_.group[p0];
      const int64_t last = rows_.group[p1 - 1];
      if (back ? offset > g - first : offset > last - g) return back ? p0 : p1;
      const int64_t target = back ? g - offset : g + offset;
      return is_start ? rows_.group_start[target] : rows_.group_start[target + 1];
    }
    // RANGE with an offset: the rows whose key reaches the bound value. A NULL key's
    // frame bound is its peer group (the other NULL keys).
    const uint32_t row = rows_.order[i];
    if (range_key_column_->IsNull(row)) return is_start ? rows_.PeerStart(i) : rows_.PeerEnd(i);
    const std::string_view value = (is_start ? start_values_ : end_values_).row(row);
    int64_t lo = p0, hi = p1;
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      const std::string_view key = range_keys_.row(rows_.order[mid]);
      if (is_start ? key < value : key <= value) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  const SortedRows& rows_;
  const WindowFrame& frame_;
  EncodedRows range_keys_;
  EncodedRows start_values_;
  EncodedRows end_values_;
  const Column* range_key_column_ = nullptr;
};

Result<Column> Int64Column(const std::vector<int64_t>& values, const std::vector<bool>* valid,
                           const std::shared_ptr<MemoryTracker>& tracker) {
  columnar::FixedWidthBuilder<int64_t> builder(columnar::Int64(), tracker);
  SQE_RETURN_NOT_OK(builder.Reserve(static_cast<int64_t>(values.size())));
  for (size_t i = 0; i < values.size(); ++i) {
    if (valid != nullptr && !(*valid)[i]) {
      SQE_RETURN_NOT_OK(builder.AppendNull());
    } else {
      SQE_RETURN_NOT_OK(builder.Append(values[i]));
    }
  }
  return builder.Finish();
}

Result<Column> DoubleColumn(const std::vector<double>& values,
                            const std::shared_ptr<MemoryTracker>& tracker) {
  columnar::FixedWidthBuilder<double> builder(columnar::Float64(), tracker);
  SQE_RETURN_NOT_OK(builder.AppendValues(values.data(), static_cast<int64_t>(values.size())));
  return builder.Finish();
}

/// Row i of the result is row index[i] of `values`; -1 is NULL and n + i (n = values'
/// length) is row i of `defaults`.
Result<Column> Gather(const Column& values, const Column* defaults,
                      const std::vector<int64_t>& index,
                      const std::shared_ptr<MemoryTracker>& tracker) {
  std::vector<Column> parts{values};
  if (defaults != nullptr) parts.push_back(*defaults);
  SQE_ASSIGN_OR_RETURN(Column null_row, Column::MakeAllNull(values.type(), 1, tracker));
  parts.push_back(null_row);
  SQE_ASSIGN_OR_RETURN(Column all, Concatenate(parts, tracker));
  const uint32_t null_position = static_cast<uint32_t>(all.length() - 1);
  std::vector<uint32_t> selection(index.size());
  for (size_t i = 0; i < index.size(); ++i) {
    selection[i] = index[i] < 0 ? null_position : static_cast<uint32_t>(index[i]);
  }
  return columnar::Take(all, SelectionVector(std::move(selection)), tracker);
}

/// Non-NULL rows of a column in sorted order: their positions, and per position how many
/// come before it (for IGNORE NULLS).
struct NonNullIndex {
  std::vector<int64_t> positions;
  std::vector<int64_t> before;  ///< n + 1 entries

  explicit NonNullIndex(const Column& values) {
    const int64_t n = values.length();
    before.resize(static_cast<size_t>(n + 1));
    for (int64_t i = 0; i < n; ++i) {
      before[i] = static_cast<int64_t>(positions.size());
      if (!values.IsNull(i)) positions.push_back(i);
    }
    before[n] = static_cast<int64_t>(positions.size());
  }
  /// The k-th (0-based) non-NULL position at or after position `from`, or -1 when it is
  /// not before `limit`.
  int64_t Forward(int64_t from, int64_t k, int64_t limit) const {
    const int64_t t = before[from] + k;
    if (t < 0 || t >= static_cast<int64_t>(positions.size()) || positions[t] >= limit) return -1;
    return positions[t];
  }
  /// The k-th (0-based) non-NULL position before position `to`, or -1 when it is before
  /// `floor`.
  int64_t Backward(int64_t to, int64_t k, int64_t floor) const {
    const int64_t t = before[to] - 1 - k;
    if (t < 0 || positions[t] < floor) return -1;
    return positions[t];
  }
};

/// Aggregates that give the same result whatever order their rows are added in, so a
/// frame that ends at the partition end can be accumulated from the end backwards.
bool OrderInsensitive(const std::string& name) {
  static const std::unordered_set<std::string> kNames = {
      "count",   "count_if",       "sum",    "avg",         "min",        "max",      "bool_and",
      "bool_or", "every",          "stddev", "stddev_samp", "stddev_pop", "variance", "var_samp",
      "var_pop", "approx_distinct"};
  return kNames.count(name) > 0;
}

/// Evaluates window calls over one spec's sorted rows. Thread-safe: Evaluate only reads
/// the shared state, so calls run in parallel.
class Evaluator {
 public:
  Evaluator(ExecContext& ctx, const Batch& input, const SortedRows& rows,
            std::shared_ptr<MemoryTracker> tracker)
      : ctx_(ctx), input_(input), rows_(rows), tracker_(std::move(tracker)) {}

  /// The result of `call` per sorted position.
  Result<Column> Evaluate(const WindowCall& call) const {
    const int64_t n = rows_.n;
    std::vector<Column> args;
    for (int a : call.args) {
      SQE_ASSIGN_OR_RETURN(Column sorted, SortedColumn(a));
      args.push_back(std::move(sorted));
    }
    switch (call.kind) {
      case WindowFunctionKind::kRowNumber:
      case WindowFunctionKind::kRank:
      case WindowFunctionKind::kDenseRank: {
        std::vector<int64_t> values(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) {
          const int64_t p0 = rows_.partition_start[i];
          if (call.kind == WindowFunctionKind::kRowNumber) {
            values[i] = i - p0 + 1;
          } else if (call.kind == WindowFunctionKind::kRank) {
            values[i] = rows_.PeerStart(i) - p0 + 1;
          } else {
            values[i] = rows_.group[i] - rows_.group[p0] + 1;
          }
        }
        return Int64Column(values, nullptr, tracker_);
      }
      case WindowFunctionKind::kPercentRank:
      case WindowFunctionKind::kCumeDist: {
        std::vector<double> values(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) {
          const int64_t p0 = rows_.partition_start[i];
          const double size = static_cast<double>(rows_.partition_end[i] - p0);
          if (call.kind == WindowFunctionKind::kPercentRank) {
            values[i] = size <= 1 ? 0.0 : static_cast<double>(rows_.PeerStart(i) - p0) / (size - 1);
          } else {
            values[i] = static_cast<double>(rows_.PeerEnd(i) - p0) / size;
          }
        }
        return DoubleColumn(values, tracker_);
      }
      case WindowFunctionKind::kNtile:
        return Ntile(args[0]);
      case WindowFunctionKind::kLag:
      case WindowFunctionKind::kLead:
        return LagLead(call, args);
      case WindowFunctionKind::kFirstValue:
      case WindowFunctionKind::kLastValue:
      case WindowFunctionKind::kNthValue:
        return FrameValue(call, args);
      case WindowFunctionKind::kAggregate:
        return Aggregate(call, args);
    }
    return Status::Internal("unknown window function");
  }

 private:
  Result<Column> SortedColumn(int column) const {
    return columnar::Take(input_.column(column), SelectionVector(rows_.order), tracker_);
  }

  Result<Column> Ntile(const Column& buckets) const {
    const int64_t n = rows_.n;
    std::vector<int64_t> values(static_cast<size_t>(n));
    std::vector<bool> valid(static_cast<size_t>(n), true);
    for (int64_t i = 0; i < n; ++i) {
      if (buckets.IsNull(i)) {
        valid[i] = false;
        continue;
      }
      const int64_t k = buckets.Value<int64_t>(i);
      if (k <= 0) return Status::InvalidArgument("Buckets must be greater than 0");
      const int64_t p0 = rows_.partition_start[i];
      const int64_t size = rows_.partition_end[i] - p0;
      const int64_t r = i - p0;
      // The first size % k buckets hold one row more than the others.
      const int64_t small = size / k;
      const int64_t big_rows = (size % k) * (small + 1);
      values[i] = r < big_rows ? r / (small + 1) + 1 : (r - big_rows) / small + size % k + 1;
    }
    return Int64Column(values, &valid, tracker_);
  }

  Result<Column> LagLead(const WindowCall& call, const std::vector<Column>& args) const {
    const int64_t n = rows_.n;
    const bool lag = call.kind == WindowFunctionKind::kLag;
    const Column* offsets = args.size() > 1 ? &args[1] : nullptr;
    const Column* defaults = args.size() > 2 ? &args[2] : nullptr;
    std::unique_ptr<NonNullIndex> non_null;
    if (call.ignore_nulls) non_null = std::make_unique<NonNullIndex>(args[0]);
    std::vector<int64_t> index(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      int64_t offset = 1;
      if (offsets != nullptr) {
        if (offsets->IsNull(i)) {
          index[i] = -1;
          continue;
        }
        offset = offsets->Value<int64_t>(i);
        if (offset < 0) return Status::InvalidArgument("Offset must be at least 0");
      }
      const int64_t p0 = rows_.partition_start[i];
      const int64_t p1 = rows_.partition_end[i];
      int64_t target;
      if (offset == 0) {
        target = i;
      } else if (non_null != nullptr) {
        target =
            lag ? non_null->Backward(i, offset - 1, p0) : non_null->Forward(i + 1, offset - 1, p1);
      } else if (lag) {
        target = offset > i - p0 ? -1 : i - offset;
      } else {
        target = offset >= p1 - i ? -1 : i + offset;
      }
      if (target < 0 && defaults != nullptr) target = n + i;
      index[i] = target;
    }
    return Gather(args[0], defaults, index, tracker_);
  }

  Result<Column> FrameValue(const WindowCall& call, const std::vector<Column>& args) const {
    const int64_t n = rows_.n;
    std::vector<int64_t> starts, ends;
    SQE_RETURN_NOT_OK(Frames(call, &starts, &ends));
    std::unique_ptr<NonNullIndex> non_null;
    if (call.ignore_nulls) non_null = std::make_unique<NonNullIndex>(args[0]);
    std::vector<int64_t> index(static_cast<size_t>(n), -1);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t s = starts[i], e = ends[i];
      int64_t k = 0;  // 0-based position in the frame
      if (call.kind == WindowFunctionKind::kNthValue) {
        if (args[1].IsNull(i)) continue;
        k = args[1].Value<int64_t>(i);
        if (k <= 0) return Status::InvalidArgument("Offset must be at least 1");
        --k;
      }
      if (s >= e) continue;
      if (call.kind == WindowFunctionKind::kLastValue) {
        index[i] = non_null != nullptr ? non_null->Backward(e, 0, s) : e - 1;
      } else if (non_null != nullptr) {
        index[i] = non_null->Forward(s, k, e);
      } else {
        index[i] = k < e - s ? s + k : -1;
      }
    }
    return Gather(args[0], nullptr, index, tracker_);
  }

  Status Frames(const WindowCall& call, std::vector<int64_t>* starts,
                std::vector<int64_t>* ends) const {
    FrameBounds bounds(rows_, call.frame);
    return bounds.Compute(input_, call.order_by.empty() ? nullptr : &call.order_by[0], starts,
                          ends);
  }

  Result<Column> Aggregate(const WindowCall& call, const std::vector<Column>& args) const {
    const int64_t n = rows_.n;
    if (n == 0) return Column::MakeAllNull(call.type, 0, tracker_);
    std::vector<int64_t> starts, ends;
    SQE_RETURN_NOT_OK(Frames(call, &starts, &ends));
    bool whole = true;
    for (int64_t i = 0; i < n && whole; ++i) {
      whole = starts[i] == rows_.partition_start[i] && ends[i] == rows_.partition_end[i];
    }
    if (whole) return WholePartition(call, args);
    // Whole partitions in contiguous ranges of about equal rows, one per thread; each
    // range's results are numbered from 0 and shifted once all are done.
    const int threads = ctx_.scheduler != nullptr ? std::max(1, ctx_.threads) : 1;
    std::vector<int64_t> bounds{0};
    const int64_t target = (n + threads - 1) / threads;
    for (int64_t p0 = 0; p0 < n; p0 = rows_.partition_end[p0]) {
      const int64_t p1 = rows_.partition_end[p0];
      if (p1 - bounds.back() >= target || p1 == n) bounds.push_back(p1);
    }
    std::vector<uint32_t> index(static_cast<size_t>(n));
    std::vector<Results> ranges(bounds.size() - 1, Results(&index));
    SQE_RETURN_NOT_OK(ParallelFor(
        threads > 1 ? ctx_.scheduler : nullptr, static_cast<int64_t>(ranges.size()), threads,
        [&](int64_t r) -> Status {
          return AggregateRange(call, args, starts, ends, bounds[r], bounds[r + 1], &ranges[r]);
        }));
    std::vector<Column> parts;
    int64_t base = 0;
    for (size_t r = 0; r < ranges.size(); ++r) {
      for (int64_t i = bounds[r]; i < bounds[r + 1]; ++i) index[i] += static_cast<uint32_t>(base);
      base += ranges[r].rows;
      for (Column& part : ranges[r].parts) parts.push_back(std::move(part));
    }
    ranges.clear();
    SQE_ASSIGN_OR_RETURN(Column values, Concatenate(parts, tracker_));
    parts.clear();
    return columnar::Take(values, SelectionVector(std::move(index)), tracker_);
  }

  /// Aggregate results as finalized: row i's value is row (*index)[i] of the parts'
  /// concatenation (rows of one range write only their own entries).
  struct Results {
    explicit Results(std::vector<uint32_t>* row_index) : index(row_index) {}
    std::vector<Column> parts;
    int64_t rows = 0;
    std::vector<uint32_t>* index;
    void Add(Column part) {
      rows += part.length();
      parts.push_back(std::move(part));
    }
  };

  /// The partitions in positions [begin, end): a large one whose frames all start at its
  /// start (running) or all end at its end (suffix) gets one accumulator fed
  /// incrementally; the rows of the others get one accumulator group each.
  Status AggregateRange(const WindowCall& call, const std::vector<Column>& args,
                        const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
                        int64_t begin, int64_t end, Results* results) const {
    constexpr int64_t kIncrementalRows = 32;
    std::vector<uint32_t> per_row;
    const bool reversible = OrderInsensitive(call.aggregate->name);
    for (int64_t p0 = begin; p0 < end; p0 = rows_.partition_end[p0]) {
      const int64_t p1 = rows_.partition_end[p0];
      bool running = p1 - p0 >= kIncrementalRows;
      bool suffix = running && reversible;
      for (int64_t i = p0; i < p1 && (running || suffix); ++i) {
        running = running && starts[i] == p0 && (i == p0 || ends[i] >= ends[i - 1]);
        suffix = suffix && ends[i] == p1 && (i == p0 || starts[i] >= starts[i - 1]);
      }
      if (running || suffix) {
        SQE_RETURN_NOT_OK(ctx_.CheckInterrupt());
        SQE_RETURN_NOT_OK(Incremental(call, args, p0, p1, running ? ends : starts,
                                      /*backward=*/!running, results));
      } else {
        for (int64_t i = p0; i < p1; ++i) per_row.push_back(static_cast<uint32_t>(i));
      }
    }
    return PerRow(call, args, per_row, starts, ends, results);
  }

  Result<Column> WholePartition(const WindowCall& call, const std::vector<Column>& args) const {
    SQE_ASSIGN_OR_RETURN(auto accumulator, call.aggregate->make_accumulator(tracker_));
    SQE_RETURN_NOT_OK(accumulator->Resize(rows_.partitions));
    SQE_RETURN_NOT_OK(accumulator->Update(args, rows_.partition_index.data(), rows_.n));
    SQE_ASSIGN_OR_RETURN(Column per_partition, accumulator->Finalize());
    return columnar::Take(per_partition, SelectionVector(rows_.partition_index), tracker_);
  }

  /// Partition [p0, p1) whose frames all start at p0 with growing ends (forward), or all
  /// end at p1 with growing starts (backward): one accumulator takes the rows entering
  /// the frame; where the frame changes its state is merged into the next group of a
  /// snapshot accumulator, finalized once per block of groups (O(partition), no column
  /// per row).
  Status Incremental(const WindowCall& call, const std::vector<Column>& args, int64_t p0,
                     int64_t p1, const std::vector<int64_t>& moving, bool backward,
                     Results* results) const {
    constexpr int64_t kSnapshotBlock = 1024;
    const std::vector<uint32_t> zeros(static_cast<size_t>(p1 - p0), 0);  // the one group
    std::vector<Column> slice(args.size());
    SQE_ASSIGN_OR_RETURN(auto accumulator, call.aggregate->make_accumulator(tracker_));
    SQE_RETURN_NOT_OK(accumulator->Resize(1));
    std::unique_ptr<GroupAccumulator> snapshots;
    int64_t block_size = 0, used = 0;
    auto flush = [&]() -> Status {
      if (snapshots == nullptr) return Status::OK();
      SQE_ASSIGN_OR_RETURN(Column values, snapshots->Finalize());
      results->Add(std::move(values));
      snapshots.reset();
      return Status::OK();
    };
    int64_t covered = backward ? p1 : p0;  // rows added so far: [p0, covered) or [covered, p1)
    for (int64_t step = 0; step < p1 - p0; ++step) {
      const int64_t i = backward ? p1 - 1 - step : p0 + step;
      const int64_t edge = moving[i];
      const int64_t from = backward ? edge : covered;
      const int64_t to = backward ? covered : edge;
      if (to > from) {
        for (size_t a = 0; a < args.size(); ++a) slice[a] = args[a].Slice(from, to - from);
        SQE_RETURN_NOT_OK(accumulator->Update(slice, zeros.data(), to - from));
        covered = edge;
      }
      const int64_t previous = backward ? i + 1 : i - 1;
      if (step == 0 || moving[previous] != edge) {
        if (snapshots == nullptr || used == block_size) {
          SQE_RETURN_NOT_OK(flush());
          SQE_ASSIGN_OR_RETURN(snapshots, call.aggregate->make_accumulator(tracker_));
          block_size = std::min(kSnapshotBlock, p1 - p0 - step);
          SQE_RETURN_NOT_OK(snapshots->Resize(block_size));
          used = 0;
        }
        const uint32_t target = static_cast<uint32_t>(used++);
        SQE_RETURN_NOT_OK(snapshots->Merge(*accumulator, &target));
      }
      // The block lands after the parts already added.
      (*results->index)[i] = static_cast<uint32_t>(results->rows + used - 1);
    }
    return flush();
  }

  /// Any frame: one accumulator group per row of `positions`, fed that row's frame
  /// (O(sum of frame sizes)), in chunks of rows.
  Status PerRow(const WindowCall& call, const std::vector<Column>& args,
                const std::vector<uint32_t>& positions, const std::vector<int64_t>& starts,
                const std::vector<int64_t>& ends, Results* results) const {
    constexpr size_t kChunkRows = 1024;
    constexpr size_t kFlushPairs = 1 << 16;
    std::vector<uint32_t> selection;
    std::vector<uint32_t> groups;
    std::vector<Column> taken(args.size());
    for (size_t c0 = 0; c0 < positions.size(); c0 += kChunkRows) {
      SQE_RETURN_NOT_OK(ctx_.CheckInterrupt());
      const size_t c1 = std::min(positions.size(), c0 + kChunkRows);
      SQE_ASSIGN_OR_RETURN(auto accumulator, call.aggregate->make_accumulator(tracker_));
      SQE_RETURN_NOT_OK(accumulator->Resize(static_cast<int64_t>(c1 - c0)));
      auto flush = [&]() -> Status {
        if (selection.empty()) return Status::OK();
        SelectionVector rows_taken(selection);
        for (size_t a = 0; a < args.size(); ++a) {
          SQE_ASSIGN_OR_RETURN(taken[a], columnar::Take(args[a], rows_taken, tracker_));
        }
        SQE_RETURN_NOT_OK(
            accumulator->Update(taken, groups.data(), static_cast<int64_t>(groups.size())));
        selection.clear();
        groups.clear();
        return Status::OK();
      };
      for (size_t k = c0; k < c1; ++k) {
        const uint32_t i = positions[k];
        for (int64_t j = starts[i]; j < ends[i]; ++j) {
          selection.push_back(static_cast<uint32_t>(j));
          groups.push_back(static_cast<uint32_t>(k - c0));
          if (selection.size() >= kFlushPairs) SQE_RETURN_NOT_OK(flush());
        }
        (*results->index)[i] = static_cast<uint32_t>(results->rows + static_cast<int64_t>(k - c0));
      }
      SQE_RETURN_NOT_OK(flush());
      SQE_ASSIGN_OR_RETURN(Column values, accumulator->Finalize());
      results->Add(std::move(values));
    }
    return Status::OK();
  }

  ExecContext& ctx_;
  const Batch& input_;
  const SortedRows& rows_;
  std::shared_ptr<MemoryTracker> tracker_;
};

bool SameSpec(const WindowCall& a, const WindowCall& b) {
  if (a.partition_by != b.partition_by || a.order_by.size() != b.order_by.size()) return false;
  for (size_t i = 0; i < a.order_by.size(); ++i) {
    const SortKey &x = a.order_by[i], &y = b.order_by[i];
    if (x.column != y.column || x.ascending != y.ascending || x.nulls_first != y.nulls_first) {
      return false;
    }
  }
  return true;
}

}  // namespace

Window::Window(PhysicalOperatorPtr child, std::vector<WindowCall> calls, columnar::SchemaPtr output)
    : PhysicalOperator("Window", std::move(output), Children(std::move(child), nullptr)),
      calls_(std::move(calls)) {}

Window::~Window() = default;

std::string Window::Details() const {
  std::string out = "functions=[";
  for (size_t i = 0; i < calls_.size(); ++i) {
    if (i > 0) out += ", ";
    out += WindowCallToString(calls_[i]);
  }
  return out + "]";
}

Result<std::unique_ptr<OperatorState>> Window::MakeSinkState(ExecContext& ctx) {
  auto state = std::make_unique<SinkState>();
  SQE_ASSIGN_OR_RETURN(state->reservation, Reservation::Make(MakeTracker(ctx), 0));
  return std::unique_ptr<OperatorState>(std::move(state));
}

Status Window::Sink(ExecContext&, const Batch& input, OperatorState& state) {
  auto& s = static_cast<SinkState&>(state);
  SQE_RETURN_NOT_OK(s.reservation.Resize(s.reservation.bytes() + BatchBytes(input)));
  s.batches.push_back(input);
  return Status::OK();
}

Status Window::Combine(ExecContext& ctx, OperatorState& state) {
  auto& s = static_cast<SinkState&>(state);
  std::shared_ptr<MemoryTracker> tracker = MakeTracker(ctx);
  std::lock_guard<std::mutex> lock(mutex_);
  if (collected_reservation_.tracker() == nullptr) {
    SQE_ASSIGN_OR_RETURN(collected_reservation_, Reservation::Make(tracker, 0));
  }
  const int64_t bytes = s.reservation.bytes();
  s.reservation.Reset();
  SQE_RETURN_NOT_OK(collected_reservation_.Resize(collected_reservation_.bytes() + bytes));
  for (Batch& b : s.batches) collected_.push_back(std::move(b));
  s.batches.clear();
  return Status::OK();
}

Status Window::Finalize(ExecContext& ctx) {
  std::shared_ptr<MemoryTracker> tracker = MakeTracker(ctx);
  SQE_ASSIGN_OR_RETURN(Batch input, Concatenate(children_[0]->schema(), collected_, tracker));
  collected_.clear();
  collected_reservation_.Reset();  // the concatenated input is charged by Concatenate
  // The calls grouped by (PARTITION BY, ORDER BY): each group sorts once. Groups, and the
  // calls within one, are evaluated in parallel on the query's threads.
  std::vector<std::vector<size_t>> specs;
  for (size_t i = 0; i < calls_.size(); ++i) {
    bool found = false;
    for (std::vector<size_t>& spec : specs) {
      if (SameSpec(calls_[spec[0]], calls_[i])) {
        spec.push_back(i);
        found = true;
        break;
      }
    }
    if (!found) specs.push_back({i});
  }
  TaskScheduler* scheduler = ctx.threads > 1 ? ctx.scheduler : nullptr;
  std::vector<Column> results(calls_.size());
  SQE_RETURN_NOT_OK(ParallelFor(
      scheduler, static_cast<int64_t>(specs.size()), ctx.threads, [&](int64_t s) -> Status {
        SQE_RETURN_NOT_OK(ctx.CheckInterrupt());
        const std::vector<size_t>& spec = specs[static_cast<size_t>(s)];
        SQE_ASSIGN_OR_RETURN(Reservation memory, Reservation::Make(tracker, 0));
        SQE_ASSIGN_OR_RETURN(SortedRows rows, SortRows(input, calls_[spec[0]].partition_by,
                                                       calls_[spec[0]].order_by, &memory));
        std::vector<uint32_t> inverse(rows.order.size());
        for (size_t k = 0; k < rows.order.size(); ++k) {
          inverse[rows.order[k]] = static_cast<uint32_t>(k);
        }
        const SelectionVector to_input(std::move(inverse));
        const Evaluator evaluator(ctx, input, rows, tracker);
        return ParallelFor(
            scheduler, static_cast<int64_t>(spec.size()), ctx.threads, [&](int64_t k) -> Status {
              const size_t i = spec[static_cast<size_t>(k)];
              SQE_ASSIGN_OR_RETURN(Column sorted, evaluator.Evaluate(calls_[i]));
              SQE_ASSIGN_OR_RETURN(results[i], columnar::Take(sorted, to_input, tracker));
              return Status::OK();
            });
      }));
  std::vector<Column> columns;
  for (int c = 0; c < input.num_columns(); ++c) columns.push_back(input.column(c));
  for (Column& r : results) columns.push_back(std::move(r));
  SQE_ASSIGN_OR_RETURN(output_, Batch::Make(schema_, std::move(columns), input.num_rows()));
  next_ = 0;
  stats_.extra = "specs=" + std::to_string(specs.size());
  return Status::OK();
}

Result<std::unique_ptr<OperatorState>> Window::MakeSourceState(ExecContext&) {
  return std::make_unique<OperatorState>();
}

Result<std::optional<Batch>> Window::GetData(ExecContext& ctx, OperatorState&) {
  const int64_t begin = next_.fetch_add(ctx.batch_size);
  if (begin >= output_.num_rows()) return std::optional<Batch>();
  const int64_t rows = std::min(ctx.batch_size, output_.num_rows() - begin);
  std::vector<Column> columns;
  for (int c = 0; c < output_.num_columns(); ++c) {
    columns.push_back(output_.column(c).Slice(begin, rows));
  }
  SQE_ASSIGN_OR_RETURN(Batch out, Batch::Make(schema_, std::move(columns), rows));
  return std::optional<Batch>(std::move(out));
}

}  // namespace sqe::exec
