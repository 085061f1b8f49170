// GROUP BY: its keys, and grouping sets (ROLLUP, CUBE, GROUPING SETS) planned as one hash
// aggregate over the input expanded once per set (see docs/dev/sql-engine.md, "Grouping
// sets"), and grouping(...) over the aggregate's set-id column.

#include "planner/bind_grouping.h"

#include <algorithm>
#include <map>
#include <string>

#include "exec/functions/registry.h"
#include "planner/binder_internal.h"

namespace sqe::planner {

// --- set arithmetic --------------------------------------------------------------------------

namespace {

Result<uint64_t> MaskOf(const std::vector<size_t>& keys) {
  uint64_t mask = 0;
  for (size_t k : keys) {
    if (k >= kMaxGroupingKeys) {
      return Status::InvalidArgument("GROUP BY with grouping sets allows at most " +
                                     std::to_string(kMaxGroupingKeys) + " keys");
    }
    mask |= uint64_t{1} << k;
  }
  return mask;
}

/// The sets one element denotes, as masks.
Result<std::vector<uint64_t>> ElementSets(const GroupingElementKeys& element) {
  std::vector<uint64_t> parts;
  for (const std::vector<size_t>& p : element.parts) {
    SQE_ASSIGN_OR_RETURN(uint64_t m, MaskOf(p));
    parts.push_back(m);
  }
  std::vector<uint64_t> sets;
  switch (element.kind) {
    case sql::ast::GroupingKind::kSimple: {
      uint64_t all = 0;
      for (uint64_t m : parts) all |= m;
      sets.push_back(all);
      break;
    }
    case sql::ast::GroupingKind::kRollup:
      for (size_t n = parts.size() + 1; n-- > 0;) {
        uint64_t prefix = 0;
        for (size_t i = 0; i < n; ++i) prefix |= parts[i];
        sets.push_back(prefix);
      }
      break;
    case sql::ast::GroupingKind::kCube: {
      if (parts.size() > 12) {
        return Status::InvalidArgument("CUBE allows at most 12 elements (" +
                                       std::to_string(parts.size()) + " given)");
      }
      // Subsets with the most parts first, like ROLLUP's order.
      size_t n = parts.size();
      for (uint64_t pick = (uint64_t{1} << n); pick-- > 0;) {
        uint64_t mask = 0;
        for (size_t i = 0; i < n; ++i) {
          if ((pick >> (n - 1 - i)) & 1) mask |= parts[i];
        }
        sets.push_back(mask);
      }
      break;
    }
    case sql::ast::GroupingKind::kGroupingSets:
      sets = parts;
      break;
  }
  return sets;
}

}  // namespace

bool IsPlainGroupBy(const std::vector<GroupingElementKeys>& elements) {
  return std::all_of(elements.begin(), elements.end(), [](const GroupingElementKeys& e) {
    return e.kind == sql::ast::GroupingKind::kSimple;
  });
}

Result<std::vector<uint64_t>> ExpandGroupingSets(const std::vector<GroupingElementKeys>& elements,
                                                 bool distinct) {
  std::vector<uint64_t> product = {0};
  for (const GroupingElementKeys& element : elements) {
    SQE_ASSIGN_OR_RETURN(std::vector<uint64_t> sets, ElementSets(element));
    if (product.size() * sets.size() > kMaxGroupingSets) {
      return Status::InvalidArgument("GROUP BY expands to more than " +
                                     std::to_string(kMaxGroupingSets) + " grouping sets");
    }
    std::vector<uint64_t> next;
    next.reserve(product.size() * sets.size());
    for (uint64_t a : product) {
      for (uint64_t b : sets) next.push_back(a | b);
    }
    product = std::move(next);
  }
  if (distinct) {
    std::vector<uint64_t> unique;
    for (uint64_t s : product) {
      if (std::find(unique.begin(), unique.end(), s) == unique.end()) unique.push_back(s);
    }
    product = std::move(unique);
  }
  return product;
}

int64_t GroupingValue(uint64_t set, const std::vector<size_t>& args) {
  int64_t value = 0;
  for (size_t k : args) {
    bool grouped = k < 64 && ((set >> k) & 1) != 0;
    value = (value << 1) | (grouped ? 0 : 1);
  }
  return value;
}

bool IsGroupingCall(const ast::Expr& expr) {
  return expr.kind == ast::ExprKind::kFunctionCall && expr.window == nullptr &&
         expr.name.parts.size() == 1 && Binder::Lower(expr.name.parts[0]) == "grouping";
}

namespace {

bool IsOrdinalLiteral(const ast::Expr& e) {
  return e.kind == ast::ExprKind::kLiteral && e.literal_kind == ast::LiteralKind::kInteger;
}

}  // namespace

// --- binding GROUP BY ------------------------------------------------------------------------

Result<size_t> Binder::BindGroupKey(const ast::Select& select, const ast::ExprPtr& e,
                                    ExprContext& pre, AggregationInfo* info,
                                    std::vector<std::string>* key_names) {
  const ast::Expr* target = e.get();
  if (IsOrdinalLiteral(*e)) {
    int64_t n = std::stoll(e->text);
    if (n < 1 || n > static_cast<int64_t>(select.items.size())) {
      return ErrorAt(e->pos, "GROUP BY position " + e->text + " is not in select list");
    }
    target = select.items[n - 1].expr.get();
  }
  if (ContainsAggregate(*target)) {
    return ErrorAt(e->pos, "GROUP BY clause cannot contain aggregations or window functions");
  }
  auto bound = BindExpr(*target, pre);
  if (!bound.ok()) {
    // Not a column of the FROM: maybe a select alias (DuckDB and Spark allow it).
    bool found = false;
    if (e->kind == ast::ExprKind::kIdentifier && e->name.parts.size() == 1) {
      std::string name = Lower(e->name.parts[0]);
      for (const ast::SelectItem& item : select.items) {
        if (item.alias.has_value() && Lower(*item.alias) == name &&
            !ContainsAggregate(*item.expr)) {
          SQE_ASSIGN_OR_RETURN(ExprPtr b, BindExpr(*item.expr, pre));
          bound = b;
          found = true;
          break;
        }
      }
    }
    if (!found) return bound.status();
  }
  *bound = TypedKey(std::move(*bound));
  for (size_t k = 0; k < info->keys.size(); ++k) {
    if (ExprEquals(*info->keys[k], **bound)) return k;
  }
  info->keys.push_back(*bound);
  key_names->push_back((*bound)->kind == exec::ExprKind::kColumn
                           ? (*bound)->name
                           : "_key" + std::to_string(info->keys.size()));
  return info->keys.size() - 1;
}

Status Binder::BindGroupBy(const ast::Select& select, ExprContext& pre, AggregationInfo* info,
                           std::vector<std::string>* key_names) {
  // Keys already present (decorrelation's) are grouped in every set.
  size_t fixed = info->keys.size();
  std::vector<GroupingElementKeys> elements;
  for (const ast::GroupingElement& element : select.group_by.elements) {
    GroupingElementKeys keys;
    keys.kind = element.kind;
    if (element.kind == ast::GroupingKind::kSimple) {
      keys.parts.emplace_back();
      for (const ast::ExprPtr& e : element.exprs) {
        SQE_ASSIGN_OR_RETURN(size_t k, BindGroupKey(select, e, pre, info, key_names));
        keys.parts.back().push_back(k);
      }
    } else {
      for (const std::vector<ast::ExprPtr>& set : element.sets) {
        keys.parts.emplace_back();
        for (const ast::ExprPtr& e : set) {
          SQE_ASSIGN_OR_RETURN(size_t k, BindGroupKey(select, e, pre, info, key_names));
          keys.parts.back().push_back(k);
        }
      }
    }
    elements.push_back(std::move(keys));
  }
  if (IsPlainGroupBy(elements)) return Status::OK();
  auto sets = ExpandGroupingSets(elements, select.group_by.distinct);
  if (!sets.ok()) return ErrorAt(select.pos, sets.status().message());
  uint64_t always = fixed == 0 ? 0 : (uint64_t{1} << fixed) - 1;
  for (uint64_t& s : *sets) s |= always;
  info->grouping_sets = std::move(*sets);
  return Status::OK();
}

// --- planning grouping sets ------------------------------------------------------------------

Result<LogicalPtr> Binder::PlanGroupingSets(LogicalPtr input, AggregationInfo* info,
                                            const std::vector<std::string>& key_names) {
  const size_t n = info->keys.size();
  const size_t sets = info->grouping_sets.size();
  // 1. The keys, every aggregate argument and a TRUE row marker, computed once per row.
  std::vector<ExprPtr> exprs;
  std::vector<std::string> names;
  for (size_t k = 0; k < n; ++k) {
    ExprPtr key = info->keys[k];
    if (key->type == nullptr) {
      SQE_ASSIGN_OR_RETURN(key, CastTo(key, columnar::Boolean(), sql::SourcePosition{}));
    }
    exprs.push_back(key);
    names.push_back(key_names[k]);
  }
  for (const AggregateSpec& spec : info->aggregates) {
    for (const ExprPtr& a : spec.args) {
      exprs.push_back(a);
      names.push_back("$arg" + std::to_string(exprs.size()));
    }
  }
  exprs.push_back(exec::Expr::Literal(exec::Value::Boolean(true)));
  names.push_back("$row");
  std::vector<ColumnInfo> pre_columns;
  LogicalPtr pre = Project(std::move(input), std::move(exprs), names, &pre_columns);

  // 2. The sets as a constant table: set id, then per key whether the set leaves it out.
  LogicalPtr set_table = MakeNode(LogicalKind::kValues);
  std::vector<columnar::Field> set_fields;
  set_table->output.push_back(NewColumn("$grouping_set", columnar::Int64()));
  for (size_t k = 0; k < n; ++k) {
    set_table->output.push_back(NewColumn("$absent" + std::to_string(k), columnar::Boolean()));
  }
  for (const ColumnInfo& c : set_table->output) set_fields.emplace_back(c.name, c.type, true);
  columnar::SchemaPtr set_schema = columnar::Schema::Make(set_fields);
  auto set_row = [&](size_t s) -> Result<std::vector<columnar::Column>> {
    std::vector<columnar::Column> columns;
    SQE_ASSIGN_OR_RETURN(columnar::Column id,
                         exec::Value::BigInt(static_cast<int64_t>(s)).ToColumn(1));
    columns.push_back(std::move(id));
    for (size_t k = 0; k < n; ++k) {
      bool absent = ((info->grouping_sets[s] >> k) & 1) == 0;
      SQE_ASSIGN_OR_RETURN(columnar::Column c, exec::Value::Boolean(absent).ToColumn(1));
      columns.push_back(std::move(c));
    }
    return columns;
  };
  for (size_t s = 0; s < sets; ++s) {
    SQE_ASSIGN_OR_RETURN(std::vector<columnar::Column> columns, set_row(s));
    SQE_ASSIGN_OR_RETURN(columnar::Batch batch,
                         columnar::Batch::Make(set_schema, std::move(columns), 1));
    set_table->rows.push_back(std::move(batch));
  }

  // 3. Every row once per set.
  LogicalPtr expanded = JoinNode(pre, set_table, JoinType::kCross, {});

  // 4. The empty set has a group even for empty input: one row per empty set whose
  // values are all NULL (and whose marker is NULL), which no aggregate counts.
  std::vector<columnar::Field> all_fields;
  for (const ColumnInfo& c : expanded->output) all_fields.emplace_back(c.name, c.type, true);
  columnar::SchemaPtr all_schema = columnar::Schema::Make(all_fields);
  LogicalPtr phantom = MakeNode(LogicalKind::kValues);
  phantom->output = expanded->output;
  for (size_t s = 0; s < sets; ++s) {
    if (info->grouping_sets[s] != 0) continue;
    std::vector<columnar::Column> columns;
    for (const ColumnInfo& c : pre_columns) {
      SQE_ASSIGN_OR_RETURN(columnar::Column col, exec::Value::Null(c.type).ToColumn(1));
      columns.push_back(std::move(col));
    }
    SQE_ASSIGN_OR_RETURN(std::vector<columnar::Column> set_columns, set_row(s));
    for (columnar::Column& c : set_columns) columns.push_back(std::move(c));
    SQE_ASSIGN_OR_RETURN(columnar::Batch batch,
                         columnar::Batch::Make(all_schema, std::move(columns), 1));
    phantom->rows.push_back(std::move(batch));
  }
  LogicalPtr source = expanded;
  if (!phantom->rows.empty()) {
    for (ColumnInfo& c : phantom->output) c = NewColumn(c.name, c.type);
    LogicalPtr all = MakeNode(LogicalKind::kUnionAll);
    for (const ColumnInfo& c : expanded->output) all->output.push_back(NewColumn(c.name, c.type));
    all->children = {expanded, phantom};
    source = all;
  }
  auto column = [&](size_t i) {
    const ColumnInfo& c = source->output[i];
    return exec::Expr::Column(c.id, c.type, c.name);
  };
  const size_t set_id_at = pre_columns.size();
  const size_t marker_at = pre_columns.size() - 1;

  // 5. One aggregate keyed by the keys (NULL where the set leaves them out) and the set id.
  LogicalPtr agg = MakeNode(LogicalKind::kAggregate);
  info->key_columns.clear();
  for (size_t k = 0; k < n; ++k) {
    const columnar::TypePtr& type = pre_columns[k].type;
    agg->group_keys.push_back(exec::Expr::Make(
        exec::ExprKind::kCase,
        {column(set_id_at + 1 + k), exec::Expr::Literal(exec::Value::Null(type)), column(k)},
        type));
    info->key_columns.push_back(NewColumn(key_names[k], type));
    agg->output.push_back(info->key_columns.back());
  }
  agg->group_keys.push_back(column(set_id_at));
  info->grouping_set_column = NewColumn("$grouping_set", columnar::Int64());
  agg->output.push_back(info->grouping_set_column);
  size_t next_arg = n;
  for (const AggregateSpec& spec : info->aggregates) {
    AggregateSpec rewritten = spec;
    rewritten.args.clear();
    for (size_t i = 0; i < spec.args.size(); ++i) rewritten.args.push_back(column(next_arg++));
    if (spec.args.empty()) {
      // count(*) would count the empty set's NULL row: count the marker instead.
      if (spec.function->name != "count") {
        return Status::NotImplemented("aggregate '" + spec.function->name +
                                      "' without arguments is not supported with grouping sets");
      }
      auto counted = registry_.ResolveAggregate("count", {columnar::Boolean()}, false);
      if (!counted.ok()) return counted.status();
      rewritten.function = *counted;
      rewritten.args.push_back(column(marker_at));
    }
    agg->aggregates.push_back(std::move(rewritten));
  }
  for (const ColumnInfo& c : info->aggregate_columns) agg->output.push_back(c);
  agg->children.push_back(source);
  return agg;
}

// --- what cannot read the FROM above grouping sets ------------------------------------------

namespace {

/// Column ids the nodes of `node` reference, not descending into the aggregate that
/// outputs `stop_column`.
void CollectReferencesAbove(const LogicalNode& node, int32_t stop_column,
                            std::vector<int32_t>* out) {
  if (node.kind == LogicalKind::kAggregate && node.IndexOf(stop_column) >= 0) return;
  auto add = [&](const ExprPtr& e) {
    if (e != nullptr) exec::CollectColumns(*e, out);
  };
  for (const ExprPtr& e : node.expressions) add(e);
  for (const ExprPtr& e : node.group_keys) add(e);
  for (const ExprPtr& e : node.conditions) add(e);
  for (const SortSpec& s : node.sort_keys) add(s.expr);
  for (const AggregateSpec& a : node.aggregates) {
    for (const ExprPtr& e : a.args) add(e);
    add(a.filter);
  }
  for (const LogicalPtr& child : node.children) CollectReferencesAbove(*child, stop_column, out);
}

}  // namespace

Status Binder::CheckGroupingSetsReferences(const LogicalNode& plan, const AggregationInfo& info,
                                           const sql::SourcePosition& pos) const {
  if (info.grouping_sets.empty() || info.from_scope == nullptr) return Status::OK();
  std::vector<int32_t> referenced;
  CollectReferencesAbove(plan, info.grouping_set_column.id, &referenced);
  for (const ScopeRelation& r : info.from_scope->relations) {
    for (const ScopeColumn& c : r.columns) {
      if (std::find(referenced.begin(), referenced.end(), c.column.id) != referenced.end()) {
        return ErrorAt(pos,
                       "correlated subqueries over the FROM columns of a query with ROLLUP, "
                       "CUBE or GROUPING SETS are not supported yet");
      }
    }
  }
  return Status::OK();
}

// --- grouping(...) ---------------------------------------------------------------------------

Status Binder::BindGroupingCalls(const std::vector<const ast::Expr*>& calls, ExprContext& pre,
                                 AggregationInfo* info) {
  for (const ast::Expr* call : calls) {
    if (!IsGroupingCall(*call)) continue;
    if (call->args.empty() || call->distinct || call->count_star || call->filter != nullptr ||
        !call->order_by.empty()) {
      return ErrorAt(call->pos, "grouping() takes one or more GROUP BY expressions");
    }
    if (call->args.size() > kMaxGroupingKeys) {
      return ErrorAt(call->pos,
                     "grouping() takes at most " + std::to_string(kMaxGroupingKeys) + " arguments");
    }
    std::vector<size_t> keys;
    for (const ast::ExprPtr& a : call->args) {
      if (ContainsAggregate(*a)) {
        return ErrorAt(a->pos, "grouping() arguments cannot contain aggregations");
      }
      SQE_ASSIGN_OR_RETURN(ExprPtr bound, BindExpr(*a, pre));
      int index = -1;
      for (size_t k = 0; k < info->keys.size(); ++k) {
        if (ExprEquals(*info->keys[k], *bound)) index = static_cast<int>(k);
      }
      if (index < 0) {
        return ErrorAt(
            a->pos, "grouping() argument '" + bound->ToString() + "' is not a GROUP BY expression");
      }
      keys.push_back(static_cast<size_t>(index));
    }
    if (info->grouping_sets.empty()) {  // a plain GROUP BY groups every key
      info->grouping_calls[call] = exec::Expr::Literal(exec::Value::BigInt(0));
      continue;
    }
    // The set ids of each distinct value, in order of first appearance.
    std::map<int64_t, std::vector<int64_t>> ids_by_value;
    std::vector<int64_t> order;
    for (size_t s = 0; s < info->grouping_sets.size(); ++s) {
      int64_t v = GroupingValue(info->grouping_sets[s], keys);
      if (ids_by_value[v].empty()) order.push_back(v);
      ids_by_value[v].push_back(static_cast<int64_t>(s));
    }
    const ColumnInfo& id = info->grouping_set_column;
    ExprPtr id_column = exec::Expr::Column(id.id, id.type, id.name);
    std::vector<ExprPtr> branches;
    for (size_t i = 0; i + 1 < order.size(); ++i) {
      std::vector<ExprPtr> in = {id_column};
      for (int64_t s : ids_by_value[order[i]]) {
        in.push_back(exec::Expr::Literal(exec::Value::BigInt(s)));
      }
      branches.push_back(exec::Expr::Make(exec::ExprKind::kIn, std::move(in), columnar::Boolean()));
      branches.push_back(exec::Expr::Literal(exec::Value::BigInt(order[i])));
    }
    branches.push_back(exec::Expr::Literal(exec::Value::BigInt(order.back())));
    info->grouping_calls[call] =
        branches.size() == 1
            ? branches[0]
            : exec::Expr::Make(exec::ExprKind::kCase, std::move(branches), columnar::Int64());
  }
  return Status::OK();
}

}  // namespace sqe::planner
