#include "planner/sort_elision.h"

#include "exec/filter.h"
#include "exec/projection.h"
#include "exec/table_scan.h"

namespace sqe::planner {

std::optional<std::vector<iceberg::OrderKey>> SortKeysOnScan(const LogicalNode& input,
                                                             const std::vector<SortSpec>& keys) {
  std::vector<int32_t> ids;
  for (const SortSpec& k : keys) {
    if (k.expr == nullptr || k.expr->kind != exec::ExprKind::kColumn) return std::nullopt;
    ids.push_back(k.expr->column);
  }
  const LogicalNode* node = &input;
  while (true) {
    switch (node->kind) {
      case LogicalKind::kFilter:
        break;
      case LogicalKind::kProject:
        for (int32_t& id : ids) {
          const int index = node->IndexOf(id);
          if (index < 0) return std::nullopt;
          const ExprPtr& e = node->expressions[static_cast<size_t>(index)];
          if (e->kind != exec::ExprKind::kColumn) return std::nullopt;
          id = e->column;
        }
        break;
      case LogicalKind::kScan: {
        if (node->source == nullptr || node->source->kind != ScanSource::Kind::kIceberg) {
          return std::nullopt;
        }
        std::vector<iceberg::OrderKey> out;
        for (size_t i = 0; i < ids.size(); ++i) {
          const int index = node->IndexOf(ids[i]);
          if (index < 0) return std::nullopt;
          const size_t column = static_cast<size_t>(node->scan_columns[static_cast<size_t>(index)]);
          if (column >= node->source->field_ids.size()) return std::nullopt;
          out.push_back(iceberg::OrderKey{node->source->field_ids[column], keys[i].ascending,
                                          keys[i].nulls_first});
        }
        return out;
      }
      default:
        return std::nullopt;
    }
    if (node->children.size() != 1) return std::nullopt;
    node = node->children[0].get();
  }
}

std::optional<iceberg::TaskOrderingOptions> TaskOrderingFor(const std::string& sort_mode,
                                                            bool trust_sort_order) {
  if (sort_mode != "partition_only" && sort_mode != "adaptive") return std::nullopt;
  iceberg::TaskOrderingOptions options;
  options.use_partitions = true;
  options.use_sort_orders = sort_mode == "adaptive" || trust_sort_order;
  options.trust_default_order = trust_sort_order;
  return options;
}

bool OrderScanBy(exec::PhysicalOperator& input, const std::vector<iceberg::OrderKey>& keys,
                 const iceberg::TaskOrderingOptions& options) {
  exec::PhysicalOperator* op = &input;
  while (op->children().size() == 1 && (dynamic_cast<exec::Filter*>(op) != nullptr ||
                                        dynamic_cast<exec::Projection*>(op) != nullptr)) {
    op = &op->child(0);
  }
  auto* scan = dynamic_cast<exec::IcebergTableScan*>(op);
  if (scan == nullptr || scan->spec().fs == nullptr) return false;
  scan->SetTaskOrdering([keys, options](const iceberg::TableMetadata& metadata,
                                        const iceberg::Schema& schema,
                                        std::vector<iceberg::FileScanTask>* tasks) {
    std::string how;
    if (!iceberg::OrderTasksBy(metadata, schema, keys, options, tasks, &how)) return std::string();
    return how;
  });
  // Planning needs no more of the context than the scan's own file system; a failure
  // here fails the query when it runs, as it would have anyway.
  exec::ExecContext ctx;
  if (!scan->Prepare(ctx).ok()) return false;
  return !scan->ordered_by().empty();
}

}  // namespace sqe::planner
