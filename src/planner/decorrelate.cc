// General decorrelation: a correlated subquery plan rewritten over the domain of its
// outer values (see decorrelate.h).

#include "planner/decorrelate.h"

#include <algorithm>
#include <functional>
#include <unordered_map>
#include <unordered_set>

namespace sqe::planner {

using exec::Expr;
using exec::ExprKind;

namespace {

void CollectNodeColumns(const LogicalNode& node, std::vector<int32_t>* out) {
  for (const ExprPtr& e : node.expressions) exec::CollectColumns(*e, out);
  for (const ExprPtr& e : node.group_keys) exec::CollectColumns(*e, out);
  for (const ExprPtr& e : node.conditions) exec::CollectColumns(*e, out);
  for (const SortSpec& s : node.sort_keys) exec::CollectColumns(*s.expr, out);
  for (const AggregateSpec& a : node.aggregates) {
    for (const ExprPtr& e : a.args) exec::CollectColumns(*e, out);
    if (a.filter != nullptr) exec::CollectColumns(*a.filter, out);
  }
}

/// The columns `node`'s subtree references that are not the output of the node or of its
/// direct inputs. Scoped per node, not per subtree: a subquery decorrelated before holds a
/// copy of the outer plan (its domain), so an outer column's id can be produced deep inside
/// and still be an outer reference above.
void CollectFree(const LogicalNode& node, std::vector<int32_t>* free) {
  std::unordered_set<int32_t> bound;
  for (const ColumnInfo& c : node.output) bound.insert(c.id);
  for (const LogicalPtr& child : node.children) {
    for (const ColumnInfo& c : child->output) bound.insert(c.id);
  }
  std::vector<int32_t> referenced;
  CollectNodeColumns(node, &referenced);
  for (int32_t id : referenced) {
    if (bound.count(id) == 0 && std::find(free->begin(), free->end(), id) == free->end()) {
      free->push_back(id);
    }
  }
  for (const LogicalPtr& child : node.children) CollectFree(*child, free);
}

ExprPtr ColumnRef(const ColumnInfo& c) { return Expr::Column(c.id, c.type, c.name); }

/// The part of `plan` a domain over `columns` is read from: below joins, the side that
/// produces every column (the preserved side of outer, semi, anti and mark joins). A
/// superset of the values is enough (a value without outer rows matches none), and a
/// subquery in an ON condition is bound over the cross product of the joined relations,
/// whose DISTINCT would read the whole product.
LogicalPtr DomainSource(const LogicalPtr& plan, const std::vector<ColumnInfo>& columns) {
  LogicalPtr node = plan;
  while (node->kind == LogicalKind::kJoin && node->join_type != JoinType::kFull) {
    const JoinType type = node->join_type;
    const bool inner = type == JoinType::kInner || type == JoinType::kCross;
    const bool right_kept =
        type == JoinType::kRight || type == JoinType::kRightSemi || type == JoinType::kRightAnti;
    LogicalPtr next;
    for (size_t i = 0; i < node->children.size() && next == nullptr; ++i) {
      const bool preserved = inner || (i == 0) != right_kept;
      bool all = preserved;
      for (const ColumnInfo& c : columns) all = all && node->children[i]->IndexOf(c.id) >= 0;
      if (all) next = node->children[i];
    }
    if (next == nullptr) break;
    node = next;
  }
  return node;
}

}  // namespace

bool CountsToZero(const LogicalNode& plan, int32_t id) {
  const LogicalNode* node = &plan;
  while (node != nullptr) {
    int index = node->IndexOf(id);
    if (node->kind == LogicalKind::kProject) {
      if (index < 0) return false;
      const ExprPtr& e = node->expressions[index];
      if (e->kind != ExprKind::kColumn) return false;
      id = e->column;
      node = node->children[0].get();
      continue;
    }
    if (node->kind == LogicalKind::kFilter) {
      node = node->children[0].get();
      continue;
    }
    if (node->kind == LogicalKind::kAggregate) {
      if (index < static_cast<int>(node->group_keys.size())) return false;
      const std::string& name = node->aggregates[index - node->group_keys.size()].function->name;
      return name == "count" || name == "count_if" || name == "approx_distinct";
    }
    return false;
  }
  return false;
}

ExprPtr SingleRowCheck(ExprPtr count) {
  static const exec::ScalarFunction* check = [] {
    auto* fn = new exec::ScalarFunction();
    fn->name = "$single_row_check";
    fn->arg_types = {columnar::Int64()};
    fn->return_type = columnar::Boolean();
    fn->deterministic = false;  // never folded or dropped
    fn->kernel = [](const std::vector<columnar::Column>& args, int64_t rows,
                    const exec::ScalarFunction&,
                    const exec::EvalContext&) -> Result<columnar::Column> {
      const columnar::Column& n = args[0];
      for (int64_t i = 0; i < rows; ++i) {
        if (n.IsValid(i) && n.Value<int64_t>(i) > 1) {
          return Status::InvalidArgument("Scalar sub-query has returned multiple rows");
        }
      }
      return exec::Value::Boolean(true).ToColumn(rows);
    };
    return fn;
  }();
  return Expr::Call(check, {std::move(count)}, columnar::Boolean());
}

namespace {

LogicalPtr RewritePlan(const LogicalPtr& node, const std::function<int32_t(int32_t)>& map) {
  auto rewrite = [&](const ExprPtr& e) { return e == nullptr ? e : exec::RewriteColumns(e, map); };
  LogicalPtr copy = std::make_shared<LogicalNode>(*node);
  for (ExprPtr& e : copy->expressions) e = rewrite(e);
  for (ExprPtr& e : copy->group_keys) e = rewrite(e);
  for (ExprPtr& e : copy->conditions) e = rewrite(e);
  for (SortSpec& s : copy->sort_keys) s.expr = rewrite(s.expr);
  for (AggregateSpec& a : copy->aggregates) {
    for (ExprPtr& e : a.args) e = rewrite(e);
    a.filter = rewrite(a.filter);
  }
  for (LogicalPtr& child : copy->children) child = RewritePlan(child, map);
  return copy;
}

}  // namespace

LogicalPtr MapGroupKeys(const LogicalPtr& sub, const LogicalNode& outer,
                        std::vector<ExprPtr>* exprs) {
  const LogicalNode* node = &outer;
  while ((node->kind == LogicalKind::kFilter || node->kind == LogicalKind::kJoin) &&
         !node->children.empty()) {
    node = node->children[0].get();
  }
  if (node->kind != LogicalKind::kAggregate) return sub;
  std::unordered_map<int32_t, int32_t> keys;
  for (size_t i = 0; i < node->group_keys.size(); ++i) {
    const ExprPtr& k = node->group_keys[i];
    if (k->kind == ExprKind::kColumn && outer.IndexOf(k->column) < 0) {
      keys.emplace(k->column, node->output[i].id);
    }
  }
  std::vector<int32_t> free = Decorrelator::FreeColumns(*sub);
  if (exprs != nullptr) {
    for (const ExprPtr& e : *exprs) exec::CollectColumns(*e, &free);
  }
  bool any = false;
  for (int32_t id : free) any = any || keys.count(id) > 0;
  if (keys.empty() || !any) return sub;
  auto map = [&](int32_t id) {
    auto it = keys.find(id);
    return it == keys.end() ? id : it->second;
  };
  if (exprs != nullptr) {
    for (ExprPtr& e : *exprs) e = exec::RewriteColumns(e, map);
  }
  return RewritePlan(sub, map);
}

bool IsSingleRow(const LogicalNode& plan) {
  const LogicalNode* node = &plan;
  while (node->kind == LogicalKind::kProject || node->kind == LogicalKind::kFilter) {
    node = node->children[0].get();
  }
  if (node->kind == LogicalKind::kAggregate) return node->group_keys.empty();
  if (node->kind == LogicalKind::kValues) {
    int64_t rows = 0;
    for (const columnar::Batch& b : node->rows) rows += b.num_rows();
    return rows <= 1;
  }
  return false;
}

Result<DecorrelatedPlan> EnforceSingleRow(Binder& binder, const DecorrelatedPlan& decorrelated,
                                          ColumnInfo* value) {
  const exec::FunctionRegistry& registry = binder.registry_;
  SQE_ASSIGN_OR_RETURN(const exec::AggregateFunction* count,
                       registry.ResolveAggregate("count", {}, false));
  SQE_ASSIGN_OR_RETURN(const exec::AggregateFunction* pick,
                       registry.ResolveAggregate("arbitrary", {value->type}, false));
  LogicalPtr agg = binder.MakeNode(LogicalKind::kAggregate);
  agg->children.push_back(decorrelated.plan);
  DecorrelatedPlan out;
  for (size_t i = 0; i < decorrelated.domain.size(); ++i) {
    const ColumnInfo& d = decorrelated.domain[i];
    agg->group_keys.push_back(ColumnRef(d));
    out.domain.push_back(binder.NewColumn(d.name, d.type));
    agg->output.push_back(out.domain.back());
    // The condition's outer side stays; its domain side is the new key.
    const ExprPtr& outer_side = decorrelated.conditions[i]->args[0];
    out.conditions.push_back(Expr::Make(ExprKind::kIsNotDistinctFrom,
                                        {outer_side, ColumnRef(out.domain.back())},
                                        columnar::Boolean()));
  }
  AggregateSpec n;
  n.function = count;
  agg->aggregates.push_back(n);
  ColumnInfo rows = binder.NewColumn("$rows", count->return_type);
  agg->output.push_back(rows);
  AggregateSpec v;
  v.function = pick;
  v.args.push_back(ColumnRef(*value));
  agg->aggregates.push_back(v);
  ColumnInfo checked = binder.NewColumn(value->name, pick->return_type);
  agg->output.push_back(checked);
  out.plan = binder.FilterNode(agg, {SingleRowCheck(ColumnRef(rows))});
  *value = checked;
  return out;
}

Result<LogicalPtr> JoinLateral(Binder& binder, LogicalPtr left, LogicalPtr right, JoinType type,
                               std::vector<ExprPtr> conditions) {
  if (Decorrelator::IsCorrelatedTo(*right, *left)) {
    if (type != JoinType::kInner && type != JoinType::kCross && type != JoinType::kLeft) {
      return Status::NotImplemented(std::string("LATERAL in a ") + JoinTypeName(type) +
                                    " JOIN is not supported (only INNER, CROSS and LEFT)");
    }
    Decorrelator decorrelator(binder, left);
    SQE_ASSIGN_OR_RETURN(DecorrelatedPlan d, decorrelator.Decorrelate(right));
    right = d.plan;
    conditions.insert(conditions.end(), d.conditions.begin(), d.conditions.end());
    if (type == JoinType::kCross) type = JoinType::kInner;
  }
  LogicalPtr join = binder.JoinNode(std::move(left), std::move(right), type, {});
  join->conditions = std::move(conditions);
  return join;
}

bool ReferencesBeyond(const std::vector<ExprPtr>& exprs, const LogicalNode& a,
                      const LogicalNode& b) {
  std::vector<int32_t> columns;
  for (const ExprPtr& e : exprs) exec::CollectColumns(*e, &columns);
  for (int32_t id : columns) {
    if (a.IndexOf(id) < 0 && b.IndexOf(id) < 0) return true;
  }
  return false;
}

bool ReadsOutside(const exec::Expr& expr, const LogicalNode& plan) {
  std::vector<int32_t> columns;
  exec::CollectColumns(expr, &columns);
  for (int32_t id : columns) {
    if (plan.IndexOf(id) < 0) return true;
  }
  return false;
}

Result<InSubqueryCounts> JoinInSubqueryCounts(Binder& binder, LogicalPtr plan,
                                              const LogicalPtr& sub, const ColumnInfo& y,
                                              const std::vector<ExprPtr>& conditions) {
  const exec::FunctionRegistry& registry = binder.registry_;
  SQE_ASSIGN_OR_RETURN(const exec::AggregateFunction* count_rows,
                       registry.ResolveAggregate("count", {}, false));
  SQE_ASSIGN_OR_RETURN(const exec::AggregateFunction* count_values,
                       registry.ResolveAggregate("count", {y.type}, false));
  LogicalPtr agg = binder.MakeNode(LogicalKind::kAggregate);
  agg->children.push_back(conditions.empty() ? sub : binder.FilterNode(sub, conditions));
  AggregateSpec rows_spec;
  rows_spec.function = count_rows;
  agg->aggregates.push_back(rows_spec);
  AggregateSpec values_spec;
  values_spec.function = count_values;
  values_spec.args.push_back(ColumnRef(y));
  agg->aggregates.push_back(values_spec);
  const ColumnInfo rows = binder.NewColumn("$rows", count_rows->return_type);
  const ColumnInfo non_null = binder.NewColumn("$non_null", count_values->return_type);
  agg->output = {rows, non_null};
  InSubqueryCounts out;
  if (Decorrelator::IsCorrelatedTo(*agg, *plan)) {
    // One row per domain value (count-like aggregates read 0 for values without rows).
    Decorrelator decorrelator(binder, plan);
    SQE_ASSIGN_OR_RETURN(DecorrelatedPlan d, decorrelator.Decorrelate(agg));
    out.plan = binder.JoinNode(std::move(plan), d.plan, JoinType::kLeft, d.conditions);
  } else {
    // One row for every outer row (an aggregate without GROUP BY).
    out.plan = binder.JoinNode(std::move(plan), agg, JoinType::kCross, {});
  }
  out.rows = ColumnRef(rows);
  out.non_null = ColumnRef(non_null);
  return out;
}

Decorrelator::Decorrelator(Binder& binder, LogicalPtr outer)
    : binder_(binder), outer_(std::move(outer)) {}

std::vector<int32_t> Decorrelator::FreeColumns(const LogicalNode& plan) {
  std::vector<int32_t> free;
  CollectFree(plan, &free);
  return free;
}

bool Decorrelator::IsCorrelatedTo(const LogicalNode& plan, const LogicalNode& outer) {
  for (int32_t id : FreeColumns(plan)) {
    if (outer.IndexOf(id) >= 0) return true;
  }
  return false;
}

Result<DecorrelatedPlan> Decorrelator::Decorrelate(const LogicalPtr& subquery) {
  std::vector<int32_t> free = FreeColumns(*subquery);
  correlated_.clear();
  for (const ColumnInfo& c : outer_->output) {
    if (std::find(free.begin(), free.end(), c.id) != free.end()) correlated_.push_back(c);
  }
  DecorrelatedPlan out;
  if (correlated_.empty()) {
    out.plan = subquery;
    return out;
  }
  // The domain: DISTINCT of the correlated outer columns.
  std::vector<ExprPtr> exprs;
  std::vector<std::string> names;
  for (const ColumnInfo& c : correlated_) {
    exprs.push_back(ColumnRef(c));
    names.push_back(c.name);
  }
  LogicalPtr values =
      binder_.Project(DomainSource(outer_, correlated_), std::move(exprs), names, nullptr);
  domain_ = binder_.MakeNode(LogicalKind::kDistinct);
  for (const ColumnInfo& c : values->output)
    domain_->output.push_back(binder_.NewColumn(c.name, c.type));
  domain_->children.push_back(values);

  SQE_ASSIGN_OR_RETURN(Pushed pushed, Push(subquery));
  out.plan = pushed.plan;
  out.domain = pushed.domain;
  out.conditions = DomainEquals(correlated_, pushed.domain);
  return out;
}

Decorrelator::Pushed Decorrelator::DomainInstance() {
  std::vector<ExprPtr> exprs;
  std::vector<std::string> names;
  for (const ColumnInfo& c : domain_->output) {
    exprs.push_back(ColumnRef(c));
    names.push_back(c.name);
  }
  Pushed p;
  p.plan = binder_.Project(domain_, std::move(exprs), names, &p.domain);
  return p;
}

bool Decorrelator::Uses(const LogicalNode& node) const {
  // Free references only: a subtree may hold its own copy of the outer plan (the domain of
  // a subquery decorrelated before, e.g. for an IN's counts) whose columns it produces.
  for (int32_t id : FreeColumns(node)) {
    for (const ColumnInfo& c : correlated_) {
      if (c.id == id) return true;
    }
  }
  return false;
}

ExprPtr Decorrelator::Remap(const ExprPtr& expr, const std::vector<ColumnInfo>& domain) const {
  if (expr == nullptr) return expr;
  return exec::RewriteColumns(expr, [&](int32_t id) {
    for (size_t i = 0; i < correlated_.size(); ++i) {
      if (correlated_[i].id == id) return domain[i].id;
    }
    return id;
  });
}

std::vector<ExprPtr> Decorrelator::Remap(const std::vector<ExprPtr>& exprs,
                                         const std::vector<ColumnInfo>& domain) const {
  std::vector<ExprPtr> out;
  out.reserve(exprs.size());
  for (const ExprPtr& e : exprs) out.push_back(Remap(e, domain));
  return out;
}

std::vector<ExprPtr> Decorrelator::DomainEquals(const std::vector<ColumnInfo>& a,
                                                const std::vector<ColumnInfo>& b) {
  std::vector<ExprPtr> out;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    out.push_back(Expr::Make(ExprKind::kIsNotDistinctFrom, {ColumnRef(a[i]), ColumnRef(b[i])},
                             columnar::Boolean()));
  }
  return out;
}

LogicalPtr Decorrelator::Normalize(const Pushed& pushed, const std::vector<ColumnInfo>& columns) {
  LogicalPtr project = binder_.MakeNode(LogicalKind::kProject);
  for (const std::vector<ColumnInfo>* list : {&columns, &pushed.domain}) {
    for (const ColumnInfo& c : *list) {
      project->output.push_back(c);
      project->expressions.push_back(ColumnRef(c));
    }
  }
  project->children.push_back(pushed.plan);
  return project;
}

Result<Decorrelator::Pushed> Decorrelator::Push(const LogicalPtr& node) {
  if (!Uses(*node)) {
    // Uncorrelated below here: every row pairs with every domain value.
    Pushed d = DomainInstance();
    return Pushed{binder_.JoinNode(node, d.plan, JoinType::kCross, {}), d.domain};
  }
  switch (node->kind) {
    case LogicalKind::kFilter: {
      SQE_ASSIGN_OR_RETURN(Pushed c, Push(node->children[0]));
      return Pushed{binder_.FilterNode(c.plan, Remap(node->expressions, c.domain)), c.domain};
    }
    case LogicalKind::kProject: {
      SQE_ASSIGN_OR_RETURN(Pushed c, Push(node->children[0]));
      LogicalPtr project = binder_.MakeNode(LogicalKind::kProject);
      project->output = node->output;
      project->expressions = Remap(node->expressions, c.domain);
      for (const ColumnInfo& d : c.domain) {
        project->output.push_back(d);
        project->expressions.push_back(ColumnRef(d));
      }
      project->children.push_back(c.plan);
      return Pushed{project, c.domain};
    }
    case LogicalKind::kAggregate:
      return PushAggregate(node);
    case LogicalKind::kJoin:
      return PushJoin(node);
    case LogicalKind::kSort:
      // A subquery's rows have no order once joined.
      return Push(node->children[0]);
    case LogicalKind::kLimit:
    case LogicalKind::kTopN:
      return Status::NotImplemented(
          "LIMIT, OFFSET or FETCH FIRST in a correlated subquery (over rows that depend on "
          "the outer query) is not supported yet");
    case LogicalKind::kDistinct: {
      SQE_ASSIGN_OR_RETURN(Pushed c, Push(node->children[0]));
      LogicalPtr distinct = binder_.MakeNode(LogicalKind::kDistinct);
      distinct->children.push_back(Normalize(c, node->children[0]->output));
      distinct->output = node->output;
      Pushed out;
      for (const ColumnInfo& d : c.domain) {
        out.domain.push_back(binder_.NewColumn(d.name, d.type));
        distinct->output.push_back(out.domain.back());
      }
      out.plan = distinct;
      return out;
    }
    case LogicalKind::kUnionAll:
    case LogicalKind::kSetOp: {
      LogicalPtr copy = std::make_shared<LogicalNode>(*node);
      copy->children.clear();
      for (const LogicalPtr& child : node->children) {
        SQE_ASSIGN_OR_RETURN(Pushed c, Push(child));
        copy->children.push_back(Normalize(c, child->output));
      }
      Pushed out;
      for (const ColumnInfo& d : domain_->output) {
        out.domain.push_back(binder_.NewColumn(d.name, d.type));
        copy->output.push_back(out.domain.back());
      }
      out.plan = copy;
      return out;
    }
    case LogicalKind::kUnnest: {
      // The child's columns (now with the domain's), then the unnested ones.
      SQE_ASSIGN_OR_RETURN(Pushed c, Push(node->children[0]));
      LogicalPtr copy = std::make_shared<LogicalNode>(*node);
      copy->children = {c.plan};
      copy->expressions = Remap(node->expressions, c.domain);
      copy->output = c.plan->output;
      for (const ColumnInfo& u : node->UnnestColumns()) copy->output.push_back(u);
      return Pushed{copy, c.domain};
    }
    default:
      break;
  }
  return Status::NotImplemented("this correlated subquery cannot be decorrelated yet: " +
                                ExplainLogicalPlan(*node));
}

Result<Decorrelator::Pushed> Decorrelator::PushAggregate(const LogicalPtr& node) {
  SQE_ASSIGN_OR_RETURN(Pushed c, Push(node->children[0]));
  const size_t keys = node->group_keys.size();
  LogicalPtr agg = binder_.MakeNode(LogicalKind::kAggregate);
  agg->children.push_back(c.plan);
  agg->group_keys = Remap(node->group_keys, c.domain);
  for (AggregateSpec spec : node->aggregates) {
    spec.args = Remap(spec.args, c.domain);
    spec.filter = Remap(spec.filter, c.domain);
    agg->aggregates.push_back(std::move(spec));
  }
  std::vector<ColumnInfo> domain_keys;
  for (const ColumnInfo& d : c.domain) {
    agg->group_keys.push_back(ColumnRef(d));
    domain_keys.push_back(binder_.NewColumn(d.name, d.type));
  }
  if (keys > 0) {
    // Grouped: the domain columns are more group keys (output after the query's keys).
    agg->output.assign(node->output.begin(), node->output.begin() + static_cast<long>(keys));
    agg->output.insert(agg->output.end(), domain_keys.begin(), domain_keys.end());
    agg->output.insert(agg->output.end(), node->output.begin() + static_cast<long>(keys),
                       node->output.end());
    return Pushed{agg, domain_keys};
  }
  // Without GROUP BY: one row per domain value, even for values without input rows.
  agg->output = domain_keys;
  std::vector<ColumnInfo> values;
  for (const ColumnInfo& a : node->output) {
    values.push_back(binder_.NewColumn(a.name, a.type));
    agg->output.push_back(values.back());
  }
  Pushed d = DomainInstance();
  LogicalPtr join =
      binder_.JoinNode(d.plan, agg, JoinType::kLeft, DomainEquals(d.domain, domain_keys));
  LogicalPtr project = binder_.MakeNode(LogicalKind::kProject);
  for (size_t i = 0; i < node->output.size(); ++i) {
    const ColumnInfo& a = node->output[i];
    ExprPtr value = ColumnRef(values[i]);
    if (CountsToZero(*node, a.id)) {
      value = Expr::Make(ExprKind::kCoalesce,
                         {value, Expr::Literal(exec::Value(a.type, int64_t{0}))}, a.type);
    }
    project->output.push_back(a);
    project->expressions.push_back(value);
  }
  for (const ColumnInfo& dc : d.domain) {
    project->output.push_back(dc);
    project->expressions.push_back(ColumnRef(dc));
  }
  project->children.push_back(join);
  return Pushed{project, d.domain};
}

Result<Decorrelator::Pushed> Decorrelator::PushJoin(const LogicalPtr& node) {
  const LogicalPtr& left = node->children[0];
  const LogicalPtr& right = node->children[1];
  const bool left_uses = Uses(*left);
  const bool right_uses = Uses(*right);
  JoinType type = node->join_type;
  if (type == JoinType::kFull) {
    return Status::NotImplemented(
        "a FULL JOIN with references to the outer query inside a "
        "correlated subquery is not supported yet");
  }
  // Which sides get the domain: the side(s) with correlated references; for outer, semi,
  // anti and mark joins also the preserved side (each of its rows pairs with each value).
  bool push_left, push_right;
  switch (type) {
    case JoinType::kInner:
    case JoinType::kCross:
      push_left = left_uses || !right_uses;
      push_right = right_uses;
      break;
    case JoinType::kRight:
      push_left = left_uses;
      push_right = true;
      break;
    default:  // kLeft, kSemi, kAnti, kMark
      push_left = true;
      push_right = right_uses;
      break;
  }
  if (push_right && node->null_aware) {
    return Status::NotImplemented(
        "NOT IN over a subquery correlated to an enclosing query is "
        "not supported yet");
  }
  Pushed l{left, {}}, r{right, {}};
  if (push_left) {
    SQE_ASSIGN_OR_RETURN(l, Push(left));
  }
  if (push_right) {
    SQE_ASSIGN_OR_RETURN(r, Push(right));
  }
  const std::vector<ColumnInfo>& domain = push_left ? l.domain : r.domain;
  std::vector<ExprPtr> conditions = Remap(node->conditions, domain);
  if (push_left && push_right) {
    std::vector<ExprPtr> eq = DomainEquals(l.domain, r.domain);
    conditions.insert(conditions.end(), eq.begin(), eq.end());
  }
  if (type == JoinType::kCross && !conditions.empty()) type = JoinType::kInner;
  LogicalPtr join = binder_.JoinNode(l.plan, r.plan, type, std::move(conditions));
  join->null_aware = node->null_aware;
  if (type == JoinType::kMark) join->output.push_back(node->output.back());
  return Pushed{join, domain};
}

}  // namespace sqe::planner
