#include "planner/physical_planner.h"

#include <algorithm>
#include <unordered_map>

#include "exec/cte_spool.h"
#include "exec/filter.h"
#include "exec/hash_aggregate.h"
#include "exec/hash_join.h"
#include "exec/limit.h"
#include "exec/parquet_scan.h"
#include "exec/projection.h"
#include "exec/range_source.h"
#include "exec/recursive_cte.h"
#include "exec/scan_filter.h"
#include "exec/set_operation.h"
#include "exec/sort.h"
#include "exec/table_scan.h"
#include "exec/top_n.h"
#include "exec/unnest.h"
#include "exec/values_source.h"
#include "exec/window.h"
#include "planner/sort_elision.h"

namespace sqe::planner {

namespace {

using exec::Expr;
using exec::ExprKind;
using exec::PhysicalOperatorPtr;

/// A physical subplan and which column id each of its output columns holds.
struct Part {
  PhysicalOperatorPtr op;
  std::vector<int32_t> layout;
};

class Planner {
 public:
  explicit Planner(const PhysicalPlanOptions& options) : options_(options) {}

  Result<Part> Plan(const LogicalNode& node) {
    SQE_ASSIGN_OR_RETURN(Part part, PlanNode(node));
    part.op->estimated_rows = node.estimated_rows;
    return part;
  }

 private:
  Result<Part> PlanNode(const LogicalNode& node) {
    switch (node.kind) {
      case LogicalKind::kScan:
        return PlanScan(node);
      case LogicalKind::kValues:
        return PlanValues(node);
      case LogicalKind::kFilter:
        return PlanFilter(node);
      case LogicalKind::kProject:
        return PlanProject(node);
      case LogicalKind::kAggregate:
        return PlanAggregate(node);
      case LogicalKind::kJoin:
        return PlanJoin(node);
      case LogicalKind::kSort:
        return PlanSort(node, /*top_n=*/false);
      case LogicalKind::kTopN:
        return PlanSort(node, /*top_n=*/true);
      case LogicalKind::kLimit:
        return PlanLimit(node);
      case LogicalKind::kUnionAll:
        return PlanUnion(node);
      case LogicalKind::kDistinct:
        return PlanDistinct(node);
      case LogicalKind::kSetOp:
        return PlanSetOp(node);
      case LogicalKind::kUnnest:
        return PlanUnnest(node);
      case LogicalKind::kWindow:
        return PlanWindow(node);
      case LogicalKind::kRecursiveCte:
        return PlanRecursiveCte(node);
      case LogicalKind::kWorkingTable:
        return PlanWorkingTable(node);
      case LogicalKind::kCteRef:
        return PlanCteRef(node);
    }
    return Status::Internal("unknown logical node");
  }

  static Result<ExprPtr> Bind(const ExprPtr& expr, const std::vector<int32_t>& layout) {
    std::unordered_map<int32_t, int32_t> index;
    for (size_t i = 0; i < layout.size(); ++i) index.emplace(layout[i], static_cast<int32_t>(i));
    Status missing;
    ExprPtr bound = exec::RewriteColumns(expr, [&](int32_t id) -> int32_t {
      auto it = index.find(id);
      if (it == index.end()) {
        missing = Status::Internal("column #" + std::to_string(id) + " is not an input of " +
                                   expr->ToString());
        return 0;
      }
      return it->second;
    });
    SQE_RETURN_NOT_OK(missing);
    return bound;
  }

  /// Bind() of each of `exprs`.
  static Result<std::vector<ExprPtr>> BindAll(const std::vector<ExprPtr>& exprs,
                                              const std::vector<int32_t>& layout) {
    std::vector<ExprPtr> bound;
    bound.reserve(exprs.size());
    for (const ExprPtr& e : exprs) {
      SQE_ASSIGN_OR_RETURN(ExprPtr b, Bind(e, layout));
      bound.push_back(std::move(b));
    }
    return bound;
  }

  static columnar::SchemaPtr SchemaOf(const std::vector<ColumnInfo>& columns) {
    std::vector<columnar::Field> fields;
    fields.reserve(columns.size());
    for (const ColumnInfo& c : columns) fields.emplace_back(c.name, c.type, true);
    return columnar::Schema::Make(std::move(fields));
  }

  static std::vector<int32_t> Ids(const std::vector<ColumnInfo>& columns) {
    std::vector<int32_t> ids;
    ids.reserve(columns.size());
    for (const ColumnInfo& c : columns) ids.push_back(c.id);
    return ids;
  }

  /// Projects `part` so that each of `exprs` (over part's ids) is a column; returns the
  /// index of each. Column references reuse the input column; a projection is added
  /// only when some expression needs computing.
  Result<std::vector<int>> MaterializeExprs(Part& part, const std::vector<ExprPtr>& exprs) {
    std::vector<int> indices;
    bool all_columns = true;
    for (const ExprPtr& e : exprs) {
      if (e->kind != ExprKind::kColumn) all_columns = false;
    }
    if (all_columns) {
      for (const ExprPtr& e : exprs) {
        int found = -1;
        for (size_t i = 0; i < part.layout.size(); ++i) {
          if (part.layout[i] == e->column) found = static_cast<int>(i);
        }
        if (found < 0) return Status::Internal("column #" + std::to_string(e->column) + " missing");
        indices.push_back(found);
      }
      return indices;
    }
    // Keep every input column, then append the computed ones.
    std::vector<ExprPtr> projections;
    std::vector<columnar::Field> fields;
    const columnar::SchemaPtr& in = part.op->schema();
    for (int i = 0; i < in->num_fields(); ++i) {
      projections.push_back(Expr::Column(i, in->field(i).type(), in->field(i).name()));
      fields.push_back(in->field(i).WithNullable(true));
    }
    std::vector<int32_t> layout = part.layout;
    for (const ExprPtr& e : exprs) {
      SQE_ASSIGN_OR_RETURN(ExprPtr bound, Bind(e, part.layout));
      indices.push_back(static_cast<int>(projections.size()));
      fields.emplace_back("expr" + std::to_string(projections.size()), bound->type, true);
      projections.push_back(std::move(bound));
      layout.push_back(next_temp_id_--);
    }
    part.op = std::make_unique<exec::Projection>(std::move(part.op), std::move(projections),
                                                 columnar::Schema::Make(std::move(fields)));
    part.layout = std::move(layout);
    return indices;
  }

  Result<Part> PlanScan(const LogicalNode& node) {
    const ScanSource& source = *node.source;
    std::vector<columnar::Field> fields;
    std::vector<int32_t> layout;
    for (size_t i = 0; i < node.scan_columns.size(); ++i) {
      fields.push_back(source.column(node.scan_columns[i]).WithNullable(true));
      layout.push_back(node.output[i].id);
    }
    columnar::SchemaPtr schema = columnar::Schema::Make(std::move(fields));
    std::vector<ExprPtr> bound_filters;
    for (const ExprPtr& f : node.expressions) {
      SQE_ASSIGN_OR_RETURN(ExprPtr bound, Bind(f, layout));
      bound_filters.push_back(std::move(bound));
    }
    std::vector<exec::ScanColumn> scan_columns;
    for (int c : node.scan_columns) {
      exec::ScanColumn column;
      column.name = source.column(c).name();
      column.type = source.column(c).type();
      if (source.kind == ScanSource::Kind::kIceberg) column.field_id = source.field_ids[c];
      scan_columns.push_back(std::move(column));
    }
    PhysicalOperatorPtr scan;
    if (source.kind == ScanSource::Kind::kRange) {
      scan = std::make_unique<exec::RangeSource>(schema, source.range_start, source.range_step,
                                                 source.row_count);
    } else if (source.kind == ScanSource::Kind::kIceberg) {
      exec::PushedFilter pushed =
          exec::ConvertPushedFilter(bound_filters, scan_columns, exec::ParquetColumnRefKind::kFieldId);
      exec::IcebergScanSpec spec;
      spec.table = source.table;
      spec.fs = source.fs;
      for (int c : node.scan_columns) spec.field_ids.push_back(source.field_ids[c]);
      spec.filter = pushed.iceberg;
      spec.snapshot_id = source.snapshot_id;
      spec.ref = source.ref;
      spec.as_of_timestamp_ms = source.as_of_timestamp_ms;
      spec.target_split_size = options_.target_split_size;
      spec.filter_rows = false;  // the Filter planned above the scan applies the conjuncts
      scan = std::make_unique<exec::IcebergTableScan>(std::move(spec), schema);
    } else {
      exec::PushedFilter pushed =
          exec::ConvertPushedFilter(bound_filters, scan_columns, exec::ParquetColumnRefKind::kName);
      exec::ParquetScanSpec spec;
      spec.patterns = source.patterns;
      spec.source = source.parquet;
      spec.fs = source.fs;
      for (int c : node.scan_columns) spec.columns.push_back(source.schema->field(c).name());
      spec.predicate = std::move(pushed.parquet);
      scan = std::make_unique<exec::ParquetScan>(std::move(spec), schema);
    }
    Part part{std::move(scan), std::move(layout)};
    if (!bound_filters.empty()) {
      part.op = std::make_unique<exec::Filter>(std::move(part.op), Conjunction(bound_filters));
    }
    return part;
  }

  static ExprPtr Conjunction(std::vector<ExprPtr> conjuncts) {
    if (conjuncts.size() == 1) return conjuncts[0];
    return Expr::Make(ExprKind::kAnd, std::move(conjuncts), columnar::Boolean());
  }

  Result<Part> PlanValues(const LogicalNode& node) {
    return Part{std::make_unique<exec::ValuesSource>(SchemaOf(node.output), node.rows),
                Ids(node.output)};
  }

  Result<Part> PlanFilter(const LogicalNode& node) {
    SQE_ASSIGN_OR_RETURN(Part part, Plan(*node.children[0]));
    SQE_ASSIGN_OR_RETURN(std::vector<ExprPtr> bound, BindAll(node.expressions, part.layout));
    part.op = std::make_unique<exec::Filter>(std::move(part.op), Conjunction(std::move(bound)));
    return part;
  }

  Result<Part> PlanProject(const LogicalNode& node) {
    SQE_ASSIGN_OR_RETURN(Part part, Plan(*node.children[0]));
    SQE_ASSIGN_OR_RETURN(std::vector<ExprPtr> bound, BindAll(node.expressions, part.layout));
    part.op = std::make_unique<exec::Projection>(std::move(part.op), std::move(bound),
                                                 SchemaOf(node.output));
    part.layout = Ids(node.output);
    return part;
  }

  /// Window: every argument, key and RANGE bound value as an input column (a projection
  /// computes the non-column ones); the operator appends one column per function.
  Result<Part> PlanWindow(const LogicalNode& node) {
    SQE_ASSIGN_OR_RETURN(Part part, Plan(*node.children[0]));
    std::vector<ExprPtr> exprs;
    for (const WindowFunctionSpec& f : node.window_functions) {
      std::vector<ExprPtr> e = WindowFunctionExprs(f);
      exprs.insert(exprs.end(), e.begin(), e.end());
    }
    SQE_ASSIGN_OR_RETURN(std::vector<int> indices, MaterializeExprs(part, exprs));
    size_t next = 0;
    std::vector<exec::WindowCall> calls;
    std::vector<columnar::Field> fields;
    for (int i = 0; i < part.op->schema()->num_fields(); ++i) {
      fields.push_back(part.op->schema()->field(i).WithNullable(true));
    }
    const size_t passed = node.children[0]->output.size();
    for (size_t k = 0; k < node.window_functions.size(); ++k) {
      const WindowFunctionSpec& f = node.window_functions[k];
      exec::WindowCall call;
      call.kind = f.kind;
      call.aggregate = f.aggregate;
      call.ignore_nulls = f.ignore_nulls;
      for (size_t i = 0; i < f.args.size(); ++i) call.args.push_back(indices[next++]);
      for (size_t i = 0; i < f.partition_by.size(); ++i) call.partition_by.push_back(indices[next++]);
      for (const SortSpec& s : f.order_by) {
        call.order_by.push_back(exec::SortKey{indices[next++], s.ascending, s.nulls_first});
      }
      call.frame.unit = f.unit;
      call.frame.start = exec::WindowBound{f.start.type, f.start.offset, -1};
      call.frame.end = exec::WindowBound{f.end.type, f.end.offset, -1};
      if (f.start.range_value != nullptr) call.frame.start.range_value = indices[next++];
      if (f.end.range_value != nullptr) call.frame.end.range_value = indices[next++];
      if (f.range_key != nullptr) call.frame.range_key = indices[next++];
      const ColumnInfo& column = node.output[passed + k];
      call.type = column.type;
      fields.emplace_back(column.name, column.type, true);
      part.layout.push_back(column.id);
      calls.push_back(std::move(call));
    }
    part.op = std::make_unique<exec::Window>(std::move(part.op), std::move(calls),
                                             columnar::Schema::Make(std::move(fields)));
    return part;
  }

  Result<Part> PlanUnnest(const LogicalNode& node) {
    SQE_ASSIGN_OR_RETURN(Part part, Plan(*node.children[0]));
    SQE_ASSIGN_OR_RETURN(std::vector<ExprPtr> arrays, BindAll(node.expressions, part.layout));
    std::vector<columnar::Field> fields = part.op->schema()->fields();
    for (const ColumnInfo& c : node.UnnestColumns()) {
      fields.emplace_back(c.name, c.type, true);
      part.layout.push_back(c.id);
    }
    part.op = std::make_unique<exec::Unnest>(std::move(part.op), std::move(arrays),
                                             node.with_ordinality, node.unnest_outer,
                                             columnar::Schema::Make(std::move(fields)));
    return part;
  }

  Result<Part> PlanAggregate(const LogicalNode& node) {
    SQE_ASSIGN_OR_RETURN(Part part, Plan(*node.children[0]));
    std::vector<ExprPtr> needed = node.group_keys;
    for (const AggregateSpec& agg : node.aggregates) {
      if (agg.filter != nullptr) {
        return Status::NotImplemented("FILTER (WHERE ...) on aggregates is not supported yet");
      }
      for (const ExprPtr& a : agg.args) needed.push_back(a);
    }
    SQE_ASSIGN_OR_RETURN(std::vector<int> indices, MaterializeExprs(part, needed));
    std::vector<int> keys(indices.begin(), indices.begin() + node.group_keys.size());
    std::vector<exec::AggregateCall> calls;
    size_t next = node.group_keys.size();
    for (const AggregateSpec& agg : node.aggregates) {
      exec::AggregateCall call;
      call.function = agg.function;
      for (size_t i = 0; i < agg.args.size(); ++i) call.args.push_back(indices[next++]);
      calls.push_back(std::move(call));
    }
    part.op = std::make_unique<exec::HashAggregate>(std::move(part.op), std::move(keys),
                                                    std::move(calls), SchemaOf(node.output));
    part.layout = Ids(node.output);
    return part;
  }

  static bool References(const Expr& e, const std::vector<int32_t>& layout) {
    std::vector<int32_t> cols;
    exec::CollectColumns(e, &cols);
    for (int32_t c : cols) {
      if (std::find(layout.begin(), layout.end(), c) == layout.end()) return false;
    }
    return true;
  }

  Result<Part> PlanJoin(const LogicalNode& node) {
    SQE_ASSIGN_OR_RETURN(Part left, Plan(*node.children[0]));
    SQE_ASSIGN_OR_RETURN(Part right, Plan(*node.children[1]));
    // Equi-conditions left_expr = right_expr become hash keys; the rest is a residual.
    // IS NOT DISTINCT FROM (decorrelated subqueries joining back on their correlated
    // values) becomes a null-safe key.
    std::vector<ExprPtr> left_keys, right_keys, residual;
    std::vector<bool> null_safe;
    for (const ExprPtr& c : node.conditions) {
      const bool is_key_kind = (c->kind == ExprKind::kCall && c->name == "=") ||
                               c->kind == ExprKind::kIsNotDistinctFrom;
      if (is_key_kind && c->args.size() == 2) {
        const bool safe = c->kind == ExprKind::kIsNotDistinctFrom;
        const ExprPtr& a = c->args[0];
        const ExprPtr& b = c->args[1];
        std::vector<int32_t> ca, cb;
        exec::CollectColumns(*a, &ca);
        exec::CollectColumns(*b, &cb);
        if (!ca.empty() && !cb.empty()) {
          if (References(*a, left.layout) && References(*b, right.layout)) {
            left_keys.push_back(a);
            right_keys.push_back(b);
            null_safe.push_back(safe);
            continue;
          }
          if (References(*b, left.layout) && References(*a, right.layout)) {
            left_keys.push_back(b);
            right_keys.push_back(a);
            null_safe.push_back(safe);
            continue;
          }
        }
      }
      residual.push_back(c);
    }
    SQE_ASSIGN_OR_RETURN(std::vector<int> lk, MaterializeExprs(left, left_keys));
    SQE_ASSIGN_OR_RETURN(std::vector<int> rk, MaterializeExprs(right, right_keys));
    std::vector<int32_t> combined = left.layout;
    combined.insert(combined.end(), right.layout.begin(), right.layout.end());
    ExprPtr residual_expr;
    if (!residual.empty()) {
      std::vector<ExprPtr> bound;
      for (const ExprPtr& r : residual) {
        SQE_ASSIGN_OR_RETURN(ExprPtr b, Bind(r, combined));
        bound.push_back(std::move(b));
      }
      residual_expr = Conjunction(std::move(bound));
    }
    exec::JoinType type = exec::JoinType::kInner;
    switch (node.join_type) {
      case JoinType::kInner:
      case JoinType::kCross:
        type = exec::JoinType::kInner;
        break;
      case JoinType::kLeft:
        type = exec::JoinType::kLeft;
        break;
      case JoinType::kRight:
        type = exec::JoinType::kRight;
        break;
      case JoinType::kFull:
        type = exec::JoinType::kFull;
        break;
      case JoinType::kSemi:
        type = exec::JoinType::kSemi;
        break;
      case JoinType::kAnti:
        type = exec::JoinType::kAnti;
        break;
      case JoinType::kMark:
        type = exec::JoinType::kMark;
        break;
      case JoinType::kRightSemi:
        type = exec::JoinType::kRightSemi;
        break;
      case JoinType::kRightAnti:
        type = exec::JoinType::kRightAnti;
        break;
    }
    std::vector<columnar::Field> fields;
    std::vector<int32_t> layout;
    auto add_side = [&](const Part& side) {
      const columnar::SchemaPtr& s = side.op->schema();
      for (int i = 0; i < s->num_fields(); ++i) fields.push_back(s->field(i).WithNullable(true));
      layout.insert(layout.end(), side.layout.begin(), side.layout.end());
    };
    const bool build_columns_only =
        type == exec::JoinType::kRightSemi || type == exec::JoinType::kRightAnti;
    if (!build_columns_only) add_side(left);
    if (build_columns_only) {
      add_side(right);
    } else if (type == exec::JoinType::kMark) {
      fields.emplace_back("mark", columnar::Boolean(), true);
      layout.push_back(node.output.back().id);
    } else if (type != exec::JoinType::kSemi && type != exec::JoinType::kAnti) {
      add_side(right);
    }
    auto op = std::make_unique<exec::HashJoin>(
        std::move(left.op), std::move(right.op), type, std::move(lk), std::move(rk),
        std::move(residual_expr), node.null_aware, columnar::Schema::Make(std::move(fields)));
    if (std::find(null_safe.begin(), null_safe.end(), true) != null_safe.end()) {
      op->SetNullSafeKeys(std::move(null_safe));
    }
    return Part{std::move(op), std::move(layout)};
  }

  Result<Part> PlanSort(const LogicalNode& node, bool top_n) {
    SQE_ASSIGN_OR_RETURN(Part part, Plan(*node.children[0]));
    // An Iceberg scan whose files prove the order reads them in order instead.
    if (auto ordering = TaskOrderingFor(options_.sort_mode, options_.trust_sort_order)) {
      if (auto keys = SortKeysOnScan(*node.children[0], node.sort_keys)) {
        if (OrderScanBy(*part.op, *keys, *ordering)) {
          if (top_n) {
            part.op = std::make_unique<exec::Limit>(std::move(part.op), node.limit, node.offset);
          }
          return part;
        }
      }
    }
    std::vector<ExprPtr> exprs;
    for (const SortSpec& s : node.sort_keys) exprs.push_back(s.expr);
    SQE_ASSIGN_OR_RETURN(std::vector<int> indices, MaterializeExprs(part, exprs));
    std::vector<exec::SortKey> keys;
    for (size_t i = 0; i < indices.size(); ++i) {
      exec::SortKey key;
      key.column = indices[i];
      key.ascending = node.sort_keys[i].ascending;
      key.nulls_first = node.sort_keys[i].nulls_first;
      keys.push_back(key);
    }
    if (top_n) {
      part.op = std::make_unique<exec::TopN>(std::move(part.op), std::move(keys), node.limit,
                                             node.offset);
    } else {
      part.op = std::make_unique<exec::Sort>(std::move(part.op), std::move(keys));
    }
    return part;
  }

  Result<Part> PlanLimit(const LogicalNode& node) {
    SQE_ASSIGN_OR_RETURN(Part part, Plan(*node.children[0]));
    part.op = std::make_unique<exec::Limit>(std::move(part.op), node.limit, node.offset);
    return part;
  }

  /// Reorders `part`'s columns to `ids` (a projection unless already in that order).
  Status ProjectTo(Part& part, const std::vector<ColumnInfo>& columns) {
    std::vector<int32_t> ids = Ids(columns);
    if (ids == part.layout) return Status::OK();
    std::vector<ExprPtr> refs;
    for (const ColumnInfo& c : columns) {
      SQE_ASSIGN_OR_RETURN(ExprPtr b, Bind(Expr::Column(c.id, c.type, c.name), part.layout));
      refs.push_back(std::move(b));
    }
    part.op = std::make_unique<exec::Projection>(std::move(part.op), std::move(refs),
                                                 SchemaOf(columns));
    part.layout = std::move(ids);
    return Status::OK();
  }

  Result<Part> PlanUnion(const LogicalNode& node) {
    std::vector<PhysicalOperatorPtr> children;
    for (const LogicalPtr& child : node.children) {
      SQE_ASSIGN_OR_RETURN(Part part, Plan(*child));
      SQE_RETURN_NOT_OK(ProjectTo(part, child->output));
      children.push_back(std::move(part.op));
    }
    return Part{std::make_unique<exec::UnionAll>(std::move(children), SchemaOf(node.output)),
                Ids(node.output)};
  }

  /// INTERSECT / EXCEPT [ALL]: both sides tagged with per-side counts, grouped by every
  /// column (NULLs group together, as set operations compare them), then each distinct
  /// row emitted as often as the operation keeps it.
  Result<Part> PlanSetOp(const LogicalNode& node) {
    std::vector<PhysicalOperatorPtr> sides;
    std::vector<columnar::Field> fields;
    for (const ColumnInfo& c : node.output) fields.emplace_back(c.name, c.type, true);
    fields.emplace_back("$left", columnar::Int64(), true);
    fields.emplace_back("$right", columnar::Int64(), true);
    columnar::SchemaPtr tagged = columnar::Schema::Make(fields);
    for (size_t side = 0; side < 2; ++side) {
      const LogicalPtr& child = node.children[side];
      SQE_ASSIGN_OR_RETURN(Part part, Plan(*child));
      SQE_RETURN_NOT_OK(ProjectTo(part, child->output));
      std::vector<ExprPtr> exprs;
      const columnar::SchemaPtr& in = part.op->schema();
      for (int i = 0; i < in->num_fields(); ++i) {
        exprs.push_back(Expr::Column(i, in->field(i).type(), in->field(i).name()));
      }
      exprs.push_back(Expr::Literal(exec::Value::BigInt(side == 0 ? 1 : 0)));
      exprs.push_back(Expr::Literal(exec::Value::BigInt(side == 0 ? 0 : 1)));
      sides.push_back(
          std::make_unique<exec::Projection>(std::move(part.op), std::move(exprs), tagged));
    }
    auto all = std::make_unique<exec::UnionAll>(std::move(sides), tagged);
    SQE_ASSIGN_OR_RETURN(const exec::AggregateFunction* sum,
                         exec::FunctionRegistry::Global().ResolveAggregate(
                             "sum", {columnar::Int64()}, false));
    std::vector<int> keys;
    for (size_t i = 0; i < node.output.size(); ++i) keys.push_back(static_cast<int>(i));
    int values = static_cast<int>(node.output.size());
    std::vector<exec::AggregateCall> calls = {{sum, {values}}, {sum, {values + 1}}};
    auto grouped = std::make_unique<exec::HashAggregate>(std::move(all), std::move(keys),
                                                         std::move(calls), tagged);
    auto kind = node.set_op == SetOpKind::kIntersect ? exec::SetOperationOutput::Kind::kIntersect
                                                     : exec::SetOperationOutput::Kind::kExcept;
    return Part{std::make_unique<exec::SetOperationOutput>(std::move(grouped), kind, node.set_all,
                                                           SchemaOf(node.output)),
                Ids(node.output)};
  }

  Result<Part> PlanDistinct(const LogicalNode& node) {
    SQE_ASSIGN_OR_RETURN(Part part, Plan(*node.children[0]));
    SQE_RETURN_NOT_OK(ProjectTo(part, node.children[0]->output));
    std::vector<int> keys;
    for (size_t i = 0; i < part.layout.size(); ++i) keys.push_back(static_cast<int>(i));
    part.op = std::make_unique<exec::HashAggregate>(std::move(part.op), std::move(keys),
                                                    std::vector<exec::AggregateCall>{},
                                                    SchemaOf(node.output));
    part.layout = Ids(node.output);
    return part;
  }

  /// WITH RECURSIVE: the anchor once; the step's plan once for EXPLAIN and the first
  /// iteration, and anew (by a planner with the same working tables) for each later one.
  Result<Part> PlanRecursiveCte(const LogicalNode& node) {
    SQE_ASSIGN_OR_RETURN(Part anchor, Plan(*node.children[0]));
    SQE_RETURN_NOT_OK(ProjectTo(anchor, node.children[0]->output));
    auto working = std::make_shared<exec::WorkingTable>();
    working_tables_[node.cte_id] = working;
    LogicalPtr step = node.children[1];
    exec::RecursiveCte::StepFactory make_step =
        [options = options_, tables = working_tables_, step]() -> Result<PhysicalOperatorPtr> {
      Planner planner(options);
      planner.working_tables_ = tables;
      SQE_ASSIGN_OR_RETURN(Part part, planner.Plan(*step));
      SQE_RETURN_NOT_OK(planner.ProjectTo(part, step->output));
      return std::move(part.op);
    };
    SQE_ASSIGN_OR_RETURN(PhysicalOperatorPtr first, make_step());
    return Part{std::make_unique<exec::RecursiveCte>(node.cte_name, std::move(anchor.op),
                                                     std::move(first), std::move(make_step),
                                                     std::move(working), node.set_all,
                                                     SchemaOf(node.output)),
                Ids(node.output)};
  }

  Result<Part> PlanWorkingTable(const LogicalNode& node) {
    auto it = working_tables_.find(node.cte_id);
    if (it == working_tables_.end()) {
      return Status::InvalidArgument("recursive reference to '" + node.cte_name +
                                     "' outside of its recursive step");
    }
    return Part{std::make_unique<exec::WorkingTableScan>(it->second, node.cte_name,
                                                         SchemaOf(node.output)),
                Ids(node.output)};
  }

  /// A WITH query's reference: its plan, or with `materialized` a scan of the result all
  /// references of its cte_id share (the first one planned owns and shows the plan).
  Result<Part> PlanCteRef(const LogicalNode& node) {
    if (!node.materialized) return Plan(*node.children[0]);
    auto [it, first] = shared_ctes_.emplace(node.cte_id, nullptr);
    PhysicalOperatorPtr plan;
    if (first) {
      it->second = std::make_shared<exec::SharedCteResult>();
      SQE_ASSIGN_OR_RETURN(Part part, Plan(*node.children[0]));
      SQE_RETURN_NOT_OK(ProjectTo(part, node.children[0]->output));
      plan = std::move(part.op);
    }
    return Part{std::make_unique<exec::CteScan>(node.cte_name, it->second, std::move(plan),
                                                SchemaOf(node.output)),
                Ids(node.output)};
  }

  const PhysicalPlanOptions& options_;
  /// The shared result of each materialized WITH query planned so far (by cte_id).
  std::unordered_map<int32_t, std::shared_ptr<exec::SharedCteResult>> shared_ctes_;
  /// The working table of each WITH RECURSIVE being planned (by LogicalNode::cte_id).
  std::unordered_map<int32_t, std::shared_ptr<exec::WorkingTable>> working_tables_;
  int32_t next_temp_id_ = -2;  // ids of computed helper columns (never referenced by parents)
};

}  // namespace

Result<PhysicalPlan> CreatePhysicalPlan(const LogicalPtr& plan, const PhysicalPlanOptions& options) {
  Planner planner(options);
  SQE_ASSIGN_OR_RETURN(Part part, planner.Plan(*plan));
  // The result columns in the plan's output order.
  std::vector<int32_t> ids;
  for (const ColumnInfo& c : plan->output) ids.push_back(c.id);
  if (ids != part.layout) {
    std::vector<ExprPtr> refs;
    std::vector<columnar::Field> fields;
    for (const ColumnInfo& c : plan->output) {
      int index = -1;
      for (size_t i = 0; i < part.layout.size(); ++i) {
        if (part.layout[i] == c.id) index = static_cast<int>(i);
      }
      if (index < 0) return Status::Internal("result column " + c.name + " missing from plan");
      refs.push_back(Expr::Column(index, c.type, c.name));
      fields.emplace_back(c.name, c.type, true);
    }
    part.op = std::make_unique<exec::Projection>(std::move(part.op), std::move(refs),
                                                 columnar::Schema::Make(std::move(fields)));
  }
  if (options.wrap_output) {
    SQE_ASSIGN_OR_RETURN(part.op, options.wrap_output(std::move(part.op)));
  }
  PhysicalPlan result;
  result.root = std::make_unique<exec::ResultCollector>(std::move(part.op), options.max_result_rows);
  return result;
}

}  // namespace sqe::planner
