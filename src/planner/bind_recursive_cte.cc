// WITH RECURSIVE: a WITH query that references itself, bound as `anchor UNION [ALL] step`
// where the step reads a working table (kRecursiveCte over kWorkingTable; executed by
// exec/recursive_cte.h). The step is evaluated over the rows the previous iteration added
// only, so the reference must sit where that gives the same rows as evaluating over all of
// them: not under an aggregation, DISTINCT, a window, ORDER BY / LIMIT, INTERSECT / EXCEPT,
// the inner side of an outer join or a subquery, and only once.

#include "exec/functions/registry.h"
#include "planner/binder_internal.h"

namespace sqe::planner {

namespace {

/// Where below `node` the working table `cte_id` sits in a place evaluating over new rows
/// only would change the result ("an aggregation", ...), or nullptr when it is fine.
/// `context` is the enclosing forbidden place, if any (the outermost one is reported).
const char* MisplacedReference(const LogicalNode& node, int32_t cte_id, const char* context) {
  if (node.kind == LogicalKind::kWorkingTable) return node.cte_id == cte_id ? context : nullptr;
  std::vector<const char*> contexts(node.children.size(), context);
  auto forbid = [&](size_t child, const char* where) {
    if (child < contexts.size() && contexts[child] == nullptr) contexts[child] = where;
  };
  auto forbid_all = [&](const char* where) {
    for (size_t i = 0; i < contexts.size(); ++i) forbid(i, where);
  };
  switch (node.kind) {
    case LogicalKind::kProject:
    case LogicalKind::kFilter:
    case LogicalKind::kUnnest:
    case LogicalKind::kUnionAll:
    case LogicalKind::kScan:
    case LogicalKind::kValues:
    case LogicalKind::kWorkingTable:
      break;
    case LogicalKind::kJoin:
      switch (node.join_type) {
        case JoinType::kInner:
        case JoinType::kCross:
          break;
        case JoinType::kLeft:
          forbid(1, "the inner side of an outer join");
          break;
        case JoinType::kRight:
          forbid(0, "the inner side of an outer join");
          break;
        case JoinType::kFull:
          forbid_all("a FULL JOIN");
          break;
        case JoinType::kSemi:
        case JoinType::kAnti:
        case JoinType::kMark:
          forbid(1, "a subquery");
          break;
        case JoinType::kRightSemi:
        case JoinType::kRightAnti:
          forbid(0, "a subquery");
          break;
      }
      break;
    case LogicalKind::kAggregate:
      forbid_all("an aggregation");
      break;
    case LogicalKind::kDistinct:
      forbid_all("DISTINCT or UNION");
      break;
    case LogicalKind::kWindow:
      forbid_all("a window function");
      break;
    case LogicalKind::kSort:
    case LogicalKind::kTopN:
      forbid_all("ORDER BY");
      break;
    case LogicalKind::kLimit:
      forbid_all("LIMIT or OFFSET");
      break;
    case LogicalKind::kSetOp:
      forbid_all("INTERSECT or EXCEPT");
      break;
    case LogicalKind::kRecursiveCte:
      forbid_all("a nested recursive query");
      break;
    case LogicalKind::kCteRef:
      break;
  }
  for (size_t i = 0; i < node.children.size(); ++i) {
    if (const char* where = MisplacedReference(*node.children[i], cte_id, contexts[i])) {
      return where;
    }
  }
  return nullptr;
}

std::string Quoted(const std::string& name) { return "'" + name + "'"; }

}  // namespace

Result<LogicalPtr> Binder::BindWorkingTableReference(WorkingTableBinding& binding,
                                                     const sql::SourcePosition& pos) {
  if (!binding.error.empty()) return ErrorAt(pos, binding.error);
  if (probes_.size() > binding.probe_depth) {
    return ErrorAt(pos, "recursive reference to " + Quoted(binding.name) +
                            " is not allowed inside a subquery expression");
  }
  if (binding.references++ > 0) {
    return ErrorAt(pos, "recursive reference to " + Quoted(binding.name) +
                            " appears more than once in the recursive step (only linear "
                            "recursion is supported)");
  }
  binding.first_reference = pos;
  LogicalPtr node = MakeNode(LogicalKind::kWorkingTable);
  node->cte_id = binding.cte_id;
  node->cte_name = binding.name;
  for (const ColumnInfo& c : binding.columns) node->output.push_back(NewColumn(c.name, c.type));
  return node;
}

Result<Binder::QueryPlan> Binder::BindRecursiveWithQuery(const ast::WithQuery& with,
                                                         const std::string& name,
                                                         const CteScope* visible) {
  const ast::Query& query = *with.query;
  const ast::QueryBody& body = *query.body;
  WorkingTableBinding binding;
  binding.name = name;
  binding.cte_id = ids_.Next();
  CteScope self;
  self.parent = visible;
  self.recursive = true;
  self.working.emplace(name, &binding);
  // Subqueries in expressions resolve WITH names through current_ctes_: the same scope.
  struct RestoreCtes {
    const CteScope*& slot;
    const CteScope* saved;
    ~RestoreCtes() { slot = saved; }
  } restore{current_ctes_, current_ctes_};
  current_ctes_ = &self;
  const bool union_form = body.kind == ast::QueryBodyKind::kSetOperation &&
                          body.set_op == ast::SetOpKind::kUnion && !query.with.has_value() &&
                          query.order_by.empty() && query.limit == nullptr &&
                          query.offset == nullptr;
  if (!union_form) {
    binding.error = "recursive reference to " + Quoted(name) +
                    " is not allowed here: a recursive WITH query must have the form "
                    "`anchor UNION [ALL] recursive step` (without ORDER BY, LIMIT or WITH)";
    return BindQueryNode(query, nullptr, &self);
  }
  // The anchor: everything before the last UNION.
  binding.error = "recursive reference to " + Quoted(name) +
                  " is not allowed in the anchor of the recursive WITH query (the part "
                  "before the last UNION)";
  SQE_ASSIGN_OR_RETURN(QueryPlan anchor, BindQueryBody(*body.left, nullptr, &self, nullptr));
  const size_t width = anchor.names.size();
  std::vector<std::string> names;
  for (size_t i = 0; i < width; ++i) {
    names.push_back(i < with.column_aliases.size() ? with.column_aliases[i] : anchor.names[i]);
  }
  // The step, over the working table with the anchor's column types.
  binding.error.clear();
  binding.probe_depth = probes_.size();
  for (size_t i = 0; i < width; ++i) {
    binding.columns.push_back(ColumnInfo{-1, names[i], anchor.plan->output[i].type, true});
  }
  SQE_ASSIGN_OR_RETURN(QueryPlan step, BindQueryBody(*body.right, nullptr, &self, nullptr));
  if (binding.references == 0) {
    // Never references itself: an ordinary WITH query.
    return BindQueryNode(query, nullptr, visible);
  }
  if (with.column_aliases.empty()) {
    return ErrorAt(with.pos, "missing column aliases in recursive WITH query " + Quoted(name) +
                                 ": write " + name + "(column, ...) AS (...)");
  }
  if (with.column_aliases.size() != width) {
    return ErrorAt(with.pos, "WITH query " + Quoted(name) + " has " +
                                 std::to_string(with.column_aliases.size()) +
                                 " column aliases but its anchor has " + std::to_string(width) +
                                 " columns");
  }
  if (step.names.size() != width) {
    return ErrorAt(body.pos, "UNION query has different number of fields: " +
                                 std::to_string(width) + ", " + std::to_string(step.names.size()));
  }
  if (const char* where = MisplacedReference(*step.plan, binding.cte_id, nullptr)) {
    return ErrorAt(binding.first_reference, "recursive reference to " + Quoted(name) +
                                                " is not allowed inside " + where +
                                                " of the recursive step");
  }
  // Both sides as the anchor's types (the step coerced to them), named by the aliases.
  std::vector<ExprPtr> anchor_exprs, step_exprs;
  for (size_t i = 0; i < width; ++i) {
    const ColumnInfo& a = anchor.plan->output[i];
    const ColumnInfo& s = step.plan->output[i];
    anchor_exprs.push_back(exec::Expr::Column(a.id, a.type, a.name));
    ExprPtr value = exec::Expr::Column(s.id, s.type, s.name);
    if (!s.type->Equals(*a.type)) {
      auto common = exec::CommonSuperType(a.type, s.type);
      if (!common.has_value() || !(*common)->Equals(*a.type)) {
        return ErrorAt(body.pos, "recursion step relation output type (" + s.type->ToString() +
                                     ") is not coercible to recursion base relation output type (" +
                                     a.type->ToString() + ") at column " + std::to_string(i + 1) +
                                     " of recursive WITH query " + Quoted(name));
      }
      SQE_ASSIGN_OR_RETURN(value, CastTo(value, a.type, body.pos));
    }
    step_exprs.push_back(std::move(value));
  }
  LogicalPtr node = MakeNode(LogicalKind::kRecursiveCte);
  node->cte_id = binding.cte_id;
  node->cte_name = name;
  node->set_all = !body.set_distinct;
  for (size_t i = 0; i < width; ++i) {
    node->output.push_back(NewColumn(names[i], anchor.plan->output[i].type));
  }
  node->children.push_back(Project(anchor.plan, std::move(anchor_exprs), names, nullptr));
  node->children.push_back(Project(step.plan, std::move(step_exprs), names, nullptr));
  return QueryPlan{node, names, {}};
}

}  // namespace sqe::planner
