#include "iceberg/scan/task_ordering.h"

#include <algorithm>
#include <numeric>
#include <optional>

#include "iceberg/expr/expression.h"
#include "iceberg/manifest/single_value.h"

namespace sqe::iceberg {

namespace {

/// One end of a file's key range: a value, or NULL (placed per the key's null order).
struct Bound {
  bool null = false;
  Literal value;
};

/// A task's key ranges in output order: first[k] comes no later than any of its rows' key
/// k, last[k] no earlier.
struct TaskKeys {
  std::vector<Bound> first;
  std::vector<Bound> last;
  bool by_partition = false;
  bool by_sort_order = false;
};

/// Types whose bounds order the values exactly as the engine's sort does.
bool OrderableType(const Type& type) {
  switch (type.id()) {
    case TypeId::kBoolean:
    case TypeId::kInt:
    case TypeId::kLong:
    case TypeId::kDecimal:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kFixed:
    case TypeId::kUuid:
      return true;
    default:
      return false;  // floats (NaN), nested and exotic types
  }
}

/// Negative, 0 or positive as `a` sorts before, with or after `b` under `key`; nullopt
/// when the values cannot be compared.
std::optional<int> CompareBound(const Bound& a, const Bound& b, const OrderKey& key) {
  if (a.null && b.null) return 0;
  if (a.null) return key.nulls_first ? -1 : 1;
  if (b.null) return key.nulls_first ? 1 : -1;
  Result<int> c = expr::CompareLiterals(a.value, b.value);
  if (!c.ok()) return std::nullopt;
  return key.ascending ? *c : -*c;
}

/// The position of the identity partition field on `field_id` in `task`'s spec, or -1.
int IdentityPartitionIndex(const TableMetadata& metadata, const FileScanTask& task,
                           int32_t field_id) {
  const PartitionSpec* spec = metadata.SpecById(task.spec_id);
  if (spec == nullptr) return -1;
  const std::vector<PartitionField>& fields = spec->fields();
  for (size_t i = 0; i < fields.size(); ++i) {
    const PartitionField& f = fields[i];
    if (f.transform.kind() == TransformKind::kIdentity && f.source_id == field_id &&
        f.source_ids.size() <= 1 && i < task.file.partition.size()) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

/// The sort order `task`'s file was written in, or nullptr when not trusted.
const SortOrder* FileSortOrder(const TableMetadata& metadata, const FileScanTask& task,
                               const TaskOrderingOptions& options) {
  const std::optional<int32_t>& id = task.file.sort_order_id;
  const bool declared = id.has_value() && *id != SortOrder::kUnsortedOrderId;
  if (declared && (options.use_sort_orders || options.trust_default_order)) {
    return metadata.SortOrderById(*id);
  }
  if (!declared && options.trust_default_order) return metadata.DefaultSortOrder();
  return nullptr;
}

/// `task`'s key ranges, or false when its rows are not known to be sorted by `keys`.
bool DescribeTask(const TableMetadata& metadata, const Schema& schema,
                  const std::vector<OrderKey>& keys, const TaskOrderingOptions& options,
                  const FileScanTask& task, TaskKeys* out) {
  const SortOrder* order = FileSortOrder(metadata, task, options);
  size_t next_sort_field = 0;
  for (const OrderKey& key : keys) {
    const NestedField* field = schema.FindFieldById(key.field_id);
    if (field == nullptr || field->type == nullptr || !OrderableType(*field->type)) return false;
    const int partition = IdentityPartitionIndex(metadata, task, key.field_id);
    if (options.use_partitions && partition >= 0) {
      const std::optional<Literal>& value = task.file.partition[static_cast<size_t>(partition)];
      Bound b{!value.has_value(), value.value_or(Literal::Null())};
      out->first.push_back(b);
      out->last.push_back(b);
      out->by_partition = true;
      continue;
    }
    // The file's sort order must continue with this key (fields on identity partition
    // columns are constant in the file and skipped).
    if (order == nullptr) return false;
    const std::vector<SortField>& fields = order->fields();
    while (next_sort_field < fields.size() &&
           IdentityPartitionIndex(metadata, task, fields[next_sort_field].source_id) >= 0 &&
           fields[next_sort_field].source_id != key.field_id) {
      ++next_sort_field;
    }
    if (next_sort_field >= fields.size()) return false;
    const SortField& sf = fields[next_sort_field++];
    if (sf.transform.kind() != TransformKind::kIdentity || sf.source_id != key.field_id) {
      return false;
    }
    if ((sf.direction == SortDirection::kAsc) != key.ascending) return false;
    auto nc = task.file.null_value_counts.find(key.field_id);
    const int64_t nulls = nc == task.file.null_value_counts.end() ? -1 : nc->second;
    if ((sf.null_order == NullOrder::kNullsFirst) != key.nulls_first && nulls != 0) return false;
    if (nulls > 0 && nulls >= task.file.record_count) {
      out->first.push_back(Bound{true, Literal::Null()});
      out->last.push_back(Bound{true, Literal::Null()});
      out->by_sort_order = true;
      continue;
    }
    auto lo = task.file.lower_bounds.find(key.field_id);
    auto hi = task.file.upper_bounds.find(key.field_id);
    if (lo == task.file.lower_bounds.end() || hi == task.file.upper_bounds.end()) return false;
    Result<Literal> low = DecodeSingleValue(lo->second, *field->type);
    Result<Literal> high = DecodeSingleValue(hi->second, *field->type);
    if (!low.ok() || !high.ok()) return false;
    Bound first{false, key.ascending ? *low : *high};
    Bound last{false, key.ascending ? *high : *low};
    if (nulls != 0) {  // some (or unknown) NULLs sit at one end
      (key.nulls_first ? first : last) = Bound{true, Literal::Null()};
    }
    out->first.push_back(std::move(first));
    out->last.push_back(std::move(last));
    out->by_sort_order = true;
  }
  return true;
}

}  // namespace

bool OrderTasksBy(const TableMetadata& metadata, const Schema& schema,
                  const std::vector<OrderKey>& keys, const TaskOrderingOptions& options,
                  std::vector<FileScanTask>* tasks, std::string* how) {
  if (keys.empty()) return false;
  std::vector<TaskKeys> described(tasks->size());
  bool by_partition = false;
  bool by_sort_order = false;
  for (size_t i = 0; i < tasks->size(); ++i) {
    if (!DescribeTask(metadata, schema, keys, options, (*tasks)[i], &described[i])) return false;
    by_partition = by_partition || described[i].by_partition;
    by_sort_order = by_sort_order || described[i].by_sort_order;
  }
  std::vector<size_t> order(tasks->size());
  std::iota(order.begin(), order.end(), size_t{0});
  bool comparable = true;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    for (size_t k = 0; k < keys.size(); ++k) {
      std::optional<int> c = CompareBound(described[a].first[k], described[b].first[k], keys[k]);
      if (!c.has_value()) {
        comparable = false;
        return false;
      }
      if (*c != 0) return *c < 0;
    }
    const FileScanTask& ta = (*tasks)[a];
    const FileScanTask& tb = (*tasks)[b];
    if (ta.file.file_path != tb.file.file_path) return ta.file.file_path < tb.file.file_path;
    return ta.start < tb.start;
  });
  if (!comparable) return false;
  // Every row of a file must sort no later than every row of the next file.
  for (size_t i = 1; i < order.size(); ++i) {
    const size_t a = order[i - 1];
    const size_t b = order[i];
    if ((*tasks)[a].file.file_path == (*tasks)[b].file.file_path) continue;
    for (size_t k = 0; k < keys.size(); ++k) {
      std::optional<int> c = CompareBound(described[a].last[k], described[b].first[k], keys[k]);
      if (!c.has_value() || *c > 0) return false;
      if (*c < 0) break;
    }
  }
  std::vector<FileScanTask> sorted;
  sorted.reserve(tasks->size());
  for (size_t i : order) sorted.push_back(std::move((*tasks)[i]));
  *tasks = std::move(sorted);
  if (how != nullptr) {
    *how = by_partition && by_sort_order ? "partition values + sort order"
           : by_sort_order               ? "sort order"
           : by_partition                ? "partition values"
                                         : "no files";
  }
  return true;
}

}  // namespace sqe::iceberg
