#pragma once
/// Task ordering: puts a scan's file scan tasks in an order whose rows, read one task after
/// the other, already come out sorted by an ORDER BY, when the table's metadata proves it,
/// so the engine can skip the sort (query.sort_mode, catalog.trust_sort_order):
///  - an ORDER BY key that is an identity partition column is constant within a file (its
///    partition value);
///  - a file whose sort order (its sort_order_id; with trust_sort_order also the table's
///    default order for files that declare none) starts with the ORDER BY's other keys, in
///    the same direction (and null order, unless the file has no nulls there), is sorted
///    by them, and its column bounds (lower/upper bounds, null counts) bound its keys.
/// Files are ordered by their first key values; the order holds when, for each pair of
/// neighbours, the earlier file's last key tuple cannot exceed the later one's first
/// (compared key by key on the bounds, ties on a key moving to the next key). Splits of one
/// file stay together in file order. Floating-point and nested keys are never trusted
/// (NaN placement, no bounds).
///
/// Pure functions over metadata: no I/O, thread-safe.

#include <cstdint>
#include <string>
#include <vector>

#include "iceberg/scan/scan_planner.h"
#include "iceberg/table_metadata.h"

namespace sqe::iceberg {

/// One ORDER BY key on a top-level column.
struct OrderKey {
  int32_t field_id = 0;
  bool ascending = true;
  bool nulls_first = false;
};

/// How far metadata is trusted (query.sort_mode + catalog.trust_sort_order).
struct TaskOrderingOptions {
  /// Identity partition values make keys constant per file (partition_only, adaptive).
  bool use_partitions = true;
  /// Files' declared sort orders with non-overlapping bounds (adaptive).
  bool use_sort_orders = true;
  /// Files without a sort_order_id are sorted by the table's default order; enables
  /// use_sort_orders too (catalog.trust_sort_order).
  bool trust_default_order = false;
};

/// Whether `tasks` can be read in an order sorted by `keys`; if so, reorders them so and
/// sets `*how` to what proved it ("partition values", "sort order", or both joined by
/// " + "). Leaves `tasks` alone and returns false otherwise (or when `keys` is empty).
bool OrderTasksBy(const TableMetadata& metadata, const Schema& schema,
                  const std::vector<OrderKey>& keys, const TaskOrderingOptions& options,
                  std::vector<FileScanTask>* tasks, std::string* how);

}  // namespace sqe::iceberg
