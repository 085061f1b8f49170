#include "formats/parquet/statistics_pruning.h"

namespace sqe::parquet {
namespace {

// A bound that is NaN carries no order information (parquet.thrift ColumnOrder notes).
std::optional<StatValue> Usable(std::optional<StatValue> v) {
  if (v && v->is_nan()) return std::nullopt;
  return v;
}

bool Contains(const ValueStats& s, const StatValue& v) {
  if (s.min && Compare(v, *s.min) < 0) return false;
  if (s.max && Compare(v, *s.max) > 0) return false;
  return true;
}

}  // namespace

ValueStats DecodeStatistics(const Statistics& stats, const StatType& type, ColumnOrder order,
                            int64_t num_values) {
  ValueStats out;
  out.null_count = stats.null_count;
  out.nan_count = stats.nan_count;
  if (type.kind() != StatValue::Kind::kFloat) out.nan_count = 0;
  if (out.null_count && num_values > 0 && *out.null_count >= num_values) out.all_null = true;
  if (order == ColumnOrder::kUnknown) return out;
  const std::string* min = nullptr;
  const std::string* max = nullptr;
  if (stats.min_value || stats.max_value) {
    min = stats.min_value ? &*stats.min_value : nullptr;
    max = stats.max_value ? &*stats.max_value : nullptr;
  } else if (type.legacy_min_max_valid) {
    min = stats.min ? &*stats.min : nullptr;
    max = stats.max ? &*stats.max : nullptr;
  }
  if (min) out.min = Usable(DecodeStatValue(*min, type));
  if (max) out.max = Usable(DecodeStatValue(*max, type));
  return out;
}

bool StatsMayMatch(const BoundPredicate& p, const ValueStats& s) {
  switch (p.op) {
    case PredicateOp::kIsNull:
      return p.nullable && !(s.null_count && *s.null_count == 0);
    case PredicateOp::kIsNotNull:
      return !s.all_null;
    default:
      break;
  }
  // A comparison is never true on a null.
  if (s.all_null) return false;
  if (p.op == PredicateOp::kIn || p.op == PredicateOp::kEq) {
    // No value of the column equals a literal that is not representable in it.
    for (const BoundValue& v : p.values) {
      if (!v.representable) continue;
      if (!p.comparable || v.value.is_nan() || Contains(s, v.value)) return true;
    }
    return false;
  }
  if (!p.comparable || p.values.empty()) return true;
  const BoundValue& v = p.values[0];
  if (v.value.is_nan()) return true;
  switch (p.op) {
    case PredicateOp::kNe:
      // Only a chunk whose every value equals the literal is out; NaN != x is true.
      if (!v.representable) return true;
      return !(s.min && s.max && Compare(*s.min, v.value) == 0 && Compare(*s.max, v.value) == 0 &&
               s.known_no_nan());
    case PredicateOp::kLt:
      return !(s.min && Compare(*s.min, v.value) >= 0);
    case PredicateOp::kLe:
      return !(s.min && Compare(*s.min, v.value) > 0);
    case PredicateOp::kGt:
      return !(s.max && Compare(*s.max, v.value) <= 0);
    case PredicateOp::kGe:
      return !(s.max && Compare(*s.max, v.value) < 0);
    default:
      return true;
  }
}

ColumnOrder ColumnOrderOf(const FileMetaData& metadata, int column) {
  if (metadata.column_orders.empty()) return ColumnOrder::kTypeDefined;
  if (column < 0 || static_cast<size_t>(column) >= metadata.column_orders.size()) {
    return ColumnOrder::kUnknown;
  }
  return metadata.column_orders[column];
}

bool RowGroupMayMatch(const FileMetaData& metadata, int row_group,
                      std::span<const BoundPredicate> conjunction) {
  if (row_group < 0 || static_cast<size_t>(row_group) >= metadata.row_groups.size()) return true;
  const RowGroup& rg = metadata.row_groups[row_group];
  if (rg.num_rows == 0) return false;
  for (const BoundPredicate& p : conjunction) {
    if (p.column < 0 || static_cast<size_t>(p.column) >= rg.columns.size()) continue;
    const ColumnChunk& chunk = rg.columns[p.column];
    if (!chunk.meta_data) continue;
    const ColumnMetaData& cm = *chunk.meta_data;
    ValueStats s;  // nothing known without statistics
    if (cm.statistics) {
      s = DecodeStatistics(*cm.statistics, p.stat_type, ColumnOrderOf(metadata, p.column),
                           cm.num_values);
    }
    if (!StatsMayMatch(p, s)) return false;
  }
  return true;
}

}  // namespace sqe::parquet
