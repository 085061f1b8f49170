// Window functions of a SELECT (Binder::BindWindows): named windows resolved, calls and
// their PARTITION BY / ORDER BY bound over the (aggregated) FROM, frames checked with
// Trino's rules, and one Window node over the plan with a column per distinct call.

#include <map>
#include <optional>
#include <string>

#include "exec/expression_evaluator.h"
#include "planner/binder_internal.h"

namespace sqe::planner {

namespace {

using exec::WindowBoundType;
using exec::WindowFrameUnit;
using exec::WindowFunctionKind;

/// The window calls of `expr` (not inside subqueries, nor inside other window calls:
/// those are reported as nested when the outer call is bound).
void CollectWindowCalls(const ast::ExprPtr& expr, std::vector<const ast::Expr*>* out) {
  if (expr == nullptr) return;
  if (expr->kind == ast::ExprKind::kFunctionCall && expr->window != nullptr) {
    out->push_back(expr.get());
    return;
  }
  for (const ast::ExprPtr* child : {&expr->left, &expr->right, &expr->low, &expr->high,
                                    &expr->escape, &expr->else_result, &expr->filter}) {
    CollectWindowCalls(*child, out);
  }
  for (const ast::ExprPtr& a : expr->args) CollectWindowCalls(a, out);
  for (const ast::WhenClause& w : expr->when_clauses) {
    CollectWindowCalls(w.when, out);
    CollectWindowCalls(w.then, out);
  }
}

bool ContainsWindowCall(const ast::ExprPtr& expr) {
  std::vector<const ast::Expr*> calls;
  CollectWindowCalls(expr, &calls);
  return !calls.empty();
}

bool IsExactInteger(const columnar::TypePtr& type) {
  if (type == nullptr) return false;
  switch (type->id()) {
    case columnar::TypeId::kInt8:
    case columnar::TypeId::kInt16:
    case columnar::TypeId::kInt32:
    case columnar::TypeId::kInt64:
      return true;
    default:
      return false;
  }
}

bool IsNumericType(const columnar::TypePtr& type) {
  return type != nullptr && type->id() >= columnar::TypeId::kInt8 &&
         type->id() <= columnar::TypeId::kDecimal128;
}

/// The type of lag / lead given the value's type and the default (Trino's lag(T, bigint,
/// T)): the value's type when the default coerces to it; an integer literal default of a
/// decimal value takes the decimal type when it fits (lag(price, 1, 0)); other numeric
/// pairs widen to their common type (lag(int_col, 1, 2.5) is decimal). *def may be
/// replaced by the converted literal.
Result<columnar::TypePtr> LagLeadDefaultType(const std::string& name, const columnar::TypePtr& type,
                                             ExprPtr* def, const exec::EvalContext& ctx) {
  const columnar::TypePtr& given = (*def)->type;
  if (given == nullptr || exec::CanCoerceImplicitly(given, type)) return type;
  const bool numeric = IsNumericType(type) && IsNumericType(given);
  if (numeric && type->id() == columnar::TypeId::kDecimal128 && IsExactInteger(given) &&
      (*def)->kind == exec::ExprKind::kLiteral) {
    ExprPtr cast = exec::Expr::Cast(*def, type, false);
    Result<exec::Value> value = exec::EvaluateConstant(*cast, ctx);
    if (!value.ok()) {
      return Status::InvalidArgument("the default value of " + name + " does not fit " +
                                     type->ToString() + ": " + value.status().message());
    }
    *def = exec::Expr::Literal(*value);
    return type;
  }
  if (numeric) {
    std::optional<columnar::TypePtr> common = exec::CommonSuperType(type, given);
    if (common.has_value()) return *common;
  }
  return Status::InvalidArgument("the default value of " + name + " must be of type " +
                                 type->ToString() + ", got " + given->ToString());
}

bool IsRangeKeyType(const columnar::TypePtr& type) {
  switch (type->id()) {
    case columnar::TypeId::kInt8:
    case columnar::TypeId::kInt16:
    case columnar::TypeId::kInt32:
    case columnar::TypeId::kInt64:
    case columnar::TypeId::kFloat32:
    case columnar::TypeId::kFloat64:
    case columnar::TypeId::kDecimal128:
    case columnar::TypeId::kDate32:
    case columnar::TypeId::kTimestamp:
      return true;
    default:
      return false;
  }
}

bool IsNegative(const exec::Value& v) {
  if (v.is_null()) return false;
  switch (v.type()->id()) {
    case columnar::TypeId::kFloat32:
    case columnar::TypeId::kFloat64:
      return v.double_value() < 0;
    case columnar::TypeId::kDecimal128:
      return v.decimal_value().IsNegative();
    default:
      return v.int_value() < 0;
  }
}

struct FunctionShape {
  WindowFunctionKind kind;
  size_t min_args;
  size_t max_args;
  bool value_function;  ///< takes IGNORE NULLS
};

const std::map<std::string, FunctionShape>& WindowOnlyFunctions() {
  static const std::map<std::string, FunctionShape> kFunctions = {
      {"row_number", {WindowFunctionKind::kRowNumber, 0, 0, false}},
      {"rank", {WindowFunctionKind::kRank, 0, 0, false}},
      {"dense_rank", {WindowFunctionKind::kDenseRank, 0, 0, false}},
      {"percent_rank", {WindowFunctionKind::kPercentRank, 0, 0, false}},
      {"cume_dist", {WindowFunctionKind::kCumeDist, 0, 0, false}},
      {"ntile", {WindowFunctionKind::kNtile, 1, 1, false}},
      {"lag", {WindowFunctionKind::kLag, 1, 3, true}},
      {"lead", {WindowFunctionKind::kLead, 1, 3, true}},
      {"first_value", {WindowFunctionKind::kFirstValue, 1, 1, true}},
      {"last_value", {WindowFunctionKind::kLastValue, 1, 1, true}},
      {"nth_value", {WindowFunctionKind::kNthValue, 2, 2, true}},
  };
  return kFunctions;
}

bool SameBound(const WindowBoundSpec& a, const WindowBoundSpec& b) {
  if (a.type != b.type || a.offset != b.offset) return false;
  if ((a.range_value == nullptr) != (b.range_value == nullptr)) return false;
  return a.range_value == nullptr || ExprEquals(*a.range_value, *b.range_value);
}

bool SameExprs(const std::vector<ExprPtr>& a, const std::vector<ExprPtr>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!ExprEquals(*a[i], *b[i])) return false;
  }
  return true;
}

/// Two calls that compute the same column (a call repeated in ORDER BY, say).
bool SameWindowFunction(const WindowFunctionSpec& a, const WindowFunctionSpec& b) {
  if (a.kind != b.kind || a.name != b.name || a.aggregate != b.aggregate ||
      a.ignore_nulls != b.ignore_nulls || a.unit != b.unit || !SameBound(a.start, b.start) ||
      !SameBound(a.end, b.end) || !SameExprs(a.args, b.args) ||
      !SameExprs(a.partition_by, b.partition_by) || a.order_by.size() != b.order_by.size()) {
    return false;
  }
  for (size_t i = 0; i < a.order_by.size(); ++i) {
    const SortSpec &x = a.order_by[i], &y = b.order_by[i];
    if (x.ascending != y.ascending || x.nulls_first != y.nulls_first ||
        !ExprEquals(*x.expr, *y.expr)) {
      return false;
    }
  }
  return true;
}

}  // namespace

Result<ast::WindowSpec> Binder::ResolveWindowSpec(const ast::WindowSpec& spec,
                                                  const std::vector<ast::NamedWindow>& named,
                                                  const sql::SourcePosition& at, int depth) {
  if (spec.existing_name.empty()) return spec;
  if (depth > static_cast<int>(named.size())) {
    return ErrorAt(at, "WINDOW '" + spec.existing_name + "' refers to itself");
  }
  const std::string name = Lower(spec.existing_name);
  const ast::NamedWindow* base = nullptr;
  for (const ast::NamedWindow& w : named) {
    if (Lower(w.name) == name) base = &w;
  }
  if (base == nullptr) return ErrorAt(at, "Cannot resolve WINDOW name " + spec.existing_name);
  SQE_ASSIGN_OR_RETURN(ast::WindowSpec resolved,
                       ResolveWindowSpec(base->spec, named, at, depth + 1));
  const bool extends = !spec.order_by.empty() || spec.frame.has_value();
  if (!spec.partition_by.empty()) {
    return ErrorAt(at,
                   "WINDOW specification with named WINDOW reference cannot specify "
                   "PARTITION BY");
  }
  if (!spec.order_by.empty() && !resolved.order_by.empty()) {
    return ErrorAt(at, "Cannot specify ORDER BY if referenced named WINDOW specifies ORDER BY");
  }
  if (extends && resolved.frame.has_value()) {
    return ErrorAt(at, "Cannot reference named WINDOW containing frame specification");
  }
  resolved.existing_name.clear();
  if (!spec.order_by.empty()) resolved.order_by = spec.order_by;
  if (spec.frame.has_value()) resolved.frame = spec.frame;
  return resolved;
}

Result<Binder::BoundWindowCall> Binder::BindWindowCall(const ast::Expr& call,
                                                       const std::vector<ast::NamedWindow>& named,
                                                       ExprContext& ctx) {
  BoundWindowCall bound;
  WindowFunctionSpec& spec = bound.spec;
  spec.name = Lower(call.name.parts.back());
  SQE_ASSIGN_OR_RETURN(ast::WindowSpec window, ResolveWindowSpec(*call.window, named, call.pos, 0));
  if (call.distinct) {
    return ErrorAt(call.pos,
                   "DISTINCT in window function parameters not yet supported: " + spec.name);
  }
  if (!call.order_by.empty()) {
    return ErrorAt(call.pos, "ORDER BY inside a window function's arguments is not supported");
  }
  for (const ast::ExprPtr& a : call.args) {
    if (ContainsWindowCall(a)) {
      return ErrorAt(a->pos,
                     "Cannot nest window functions inside window function '" + spec.name + "'");
    }
  }
  for (const ast::ExprPtr& p : window.partition_by) {
    if (ContainsWindowCall(p))
      return ErrorAt(p->pos, "Cannot nest window functions in PARTITION BY");
  }
  for (const ast::SortItem& o : window.order_by) {
    if (ContainsWindowCall(o.expr)) {
      return ErrorAt(o.expr->pos, "Cannot nest window functions in a window's ORDER BY");
    }
  }
  ExprContext inner = ctx;
  inner.windows = nullptr;

  // The function and its arguments.
  std::vector<ExprPtr> args;
  for (const ast::ExprPtr& a : call.args) {
    SQE_ASSIGN_OR_RETURN(ExprPtr b, BindExpr(*a, inner));
    args.push_back(std::move(b));
  }
  auto shape = WindowOnlyFunctions().find(spec.name);
  if (shape != WindowOnlyFunctions().end()) {
    const FunctionShape& s = shape->second;
    spec.kind = s.kind;
    if (args.size() < s.min_args || args.size() > s.max_args || call.count_star) {
      return ErrorAt(call.pos, "function '" + spec.name + "' takes " +
                                   (s.min_args == s.max_args ? std::to_string(s.min_args)
                                                             : std::to_string(s.min_args) + " to " +
                                                                   std::to_string(s.max_args)) +
                                   " argument(s), got " + std::to_string(args.size()));
    }
    if (call.filter != nullptr) {
      return ErrorAt(call.pos,
                     "FILTER is only valid for aggregation window functions, not " + spec.name);
    }
    if (call.null_treatment != ast::NullTreatment::kDefault && !s.value_function) {
      return ErrorAt(call.pos, "IGNORE NULLS / RESPECT NULLS is not valid for " + spec.name);
    }
    spec.ignore_nulls = call.null_treatment == ast::NullTreatment::kIgnoreNulls;
    // Counts (ntile's buckets, lag's offset, nth_value's n) are bigint.
    size_t first_count = s.kind == WindowFunctionKind::kNtile ? 0 : 1;
    for (size_t i = first_count; i < args.size(); ++i) {
      if (s.kind != WindowFunctionKind::kNtile && i > 1) break;  // lag / lead default
      if (args[i]->type != nullptr && !IsExactInteger(args[i]->type)) {
        return ErrorAt(call.args[i]->pos, "the " + spec.name +
                                              " count argument must be an integer, got " +
                                              args[i]->type->ToString());
      }
      SQE_ASSIGN_OR_RETURN(args[i], CastTo(args[i], columnar::Int64(), call.args[i]->pos));
    }
    switch (s.kind) {
      case WindowFunctionKind::kRowNumber:
      case WindowFunctionKind::kRank:
      case WindowFunctionKind::kDenseRank:
      case WindowFunctionKind::kNtile:
        bound.type = columnar::Int64();
        break;
      case WindowFunctionKind::kPercentRank:
      case WindowFunctionKind::kCumeDist:
        bound.type = columnar::Float64();
        break;
      default: {
        columnar::TypePtr type = args[0]->type;
        if (type == nullptr && args.size() > 2) type = args[2]->type;
        if (type == nullptr) type = columnar::Boolean();
        if (args.size() > 2) {
          Result<columnar::TypePtr> with_default =
              LagLeadDefaultType(spec.name, type, &args[2], catalog_.eval_context());
          if (!with_default.ok()) {
            return ErrorAt(call.args[2]->pos, with_default.status().message());
          }
          type = *with_default;
          SQE_ASSIGN_OR_RETURN(args[2], CastTo(args[2], type, call.args[2]->pos));
        }
        SQE_ASSIGN_OR_RETURN(args[0], CastTo(args[0], type, call.args[0]->pos));
        bound.type = type;
      }
    }
  } else if (registry_.IsAggregate(spec.name)) {
    spec.kind = WindowFunctionKind::kAggregate;
    if (call.null_treatment != ast::NullTreatment::kDefault) {
      return ErrorAt(call.pos, "IGNORE NULLS / RESPECT NULLS is not valid for " + spec.name);
    }
    std::vector<columnar::TypePtr> types;
    for (const ExprPtr& a : args) types.push_back(a->type);
    auto fn = registry_.ResolveAggregate(spec.name, types, false);
    if (!fn.ok()) return ErrorAt(call.pos, fn.status().message());
    for (size_t i = 0; i < args.size() && i < (*fn)->arg_types.size(); ++i) {
      SQE_ASSIGN_OR_RETURN(args[i], CastTo(args[i], (*fn)->arg_types[i], call.args[i]->pos));
    }
    if (call.filter != nullptr) {
      // As for GROUP BY aggregates: the arguments are NULL where the filter rejects the
      // row (count(*) counts a TRUE that is NULL there).
      SQE_ASSIGN_OR_RETURN(ExprPtr condition, BindPredicate(*call.filter, inner));
      if (args.empty()) {
        args.push_back(exec::Expr::Literal(exec::Value::Boolean(true)));
        fn = registry_.ResolveAggregate("count", {columnar::Boolean()}, false);
        if (!fn.ok()) return ErrorAt(call.pos, fn.status().message());
      }
      for (ExprPtr& a : args) {
        a = exec::Expr::Make(exec::ExprKind::kCase,
                             {condition, a, exec::Expr::Literal(exec::Value::Null(a->type))},
                             a->type);
      }
    }
    spec.aggregate = *fn;
    bound.type = (*fn)->return_type;
  } else {
    return ErrorAt(call.pos, "Not a window function: " + spec.name);
  }
  spec.args = std::move(args);

  // PARTITION BY and ORDER BY.
  for (const ast::ExprPtr& p : window.partition_by) {
    SQE_ASSIGN_OR_RETURN(ExprPtr b, BindExpr(*p, inner));
    spec.partition_by.push_back(TypedKey(std::move(b)));
  }
  for (const ast::SortItem& o : window.order_by) {
    SortSpec s;
    SQE_ASSIGN_OR_RETURN(s.expr, BindExpr(*o.expr, inner));
    s.expr = TypedKey(std::move(s.expr));
    s.ascending = o.ascending;
    s.nulls_first = o.nulls == ast::NullOrdering::kFirst;
    spec.order_by.push_back(std::move(s));
  }

  // The frame (the default: RANGE UNBOUNDED PRECEDING .. CURRENT ROW, which without
  // ORDER BY is the whole partition, every row being a peer).
  if (!window.frame.has_value()) return bound;
  const ast::WindowFrame& frame = *window.frame;
  static const WindowFrameUnit kUnits[] = {WindowFrameUnit::kRows, WindowFrameUnit::kRange,
                                           WindowFrameUnit::kGroups};
  static const char* kUnitNames[] = {"ROWS", "RANGE", "GROUPS"};
  spec.unit = kUnits[static_cast<int>(frame.type)];
  const std::string unit_name = kUnitNames[static_cast<int>(frame.type)];
  ast::FrameBound end_bound;
  end_bound.kind = ast::FrameBoundKind::kCurrentRow;
  const ast::FrameBound& start = frame.start;
  const ast::FrameBound& end = frame.end.has_value() ? *frame.end : end_bound;
  using K = ast::FrameBoundKind;
  if (start.kind == K::kUnboundedFollowing) {
    return ErrorAt(call.pos, "Window frame start cannot be UNBOUNDED FOLLOWING");
  }
  if (end.kind == K::kUnboundedPreceding) {
    return ErrorAt(call.pos, "Window frame end cannot be UNBOUNDED PRECEDING");
  }
  if (start.kind == K::kCurrentRow && end.kind == K::kPreceding) {
    return ErrorAt(call.pos, "Window frame starting from CURRENT ROW cannot end with PRECEDING");
  }
  if (start.kind == K::kFollowing && end.kind == K::kPreceding) {
    return ErrorAt(call.pos, "Window frame starting from FOLLOWING cannot end with PRECEDING");
  }
  if (start.kind == K::kFollowing && end.kind == K::kCurrentRow) {
    return ErrorAt(call.pos, "Window frame starting from FOLLOWING cannot end with CURRENT ROW");
  }
  const bool has_offset = start.kind == K::kPreceding || start.kind == K::kFollowing ||
                          end.kind == K::kPreceding || end.kind == K::kFollowing;
  if (has_offset && spec.unit == WindowFrameUnit::kGroups && spec.order_by.empty()) {
    return ErrorAt(call.pos,
                   "Window frame of type GROUPS PRECEDING or FOLLOWING requires ORDER BY");
  }
  if (has_offset && spec.unit == WindowFrameUnit::kRange) {
    if (spec.order_by.size() != 1) {
      return ErrorAt(call.pos,
                     "Window frame of type RANGE PRECEDING or FOLLOWING requires single sort "
                     "item in ORDER BY (actual: " +
                         std::to_string(spec.order_by.size()) + ")");
    }
    const columnar::TypePtr& key_type = spec.order_by[0].expr->type;
    if (key_type == nullptr || !IsRangeKeyType(key_type)) {
      return ErrorAt(call.pos,
                     "Window frame of type RANGE PRECEDING or FOLLOWING requires that sort item "
                     "type be numeric, datetime or interval (actual: " +
                         (key_type == nullptr ? std::string("unknown") : key_type->ToString()) +
                         ")");
    }
  }
  auto bind_bound = [&](const ast::FrameBound& b, WindowBoundSpec* out) -> Status {
    static const WindowBoundType kTypes[] = {
        WindowBoundType::kUnboundedPreceding, WindowBoundType::kPreceding,
        WindowBoundType::kCurrentRow, WindowBoundType::kFollowing,
        WindowBoundType::kUnboundedFollowing};
    out->type = kTypes[static_cast<int>(b.kind)];
    if (b.kind != K::kPreceding && b.kind != K::kFollowing) return Status::OK();
    const sql::SourcePosition& at = b.offset->pos;
    if (b.offset->kind == ast::ExprKind::kIntervalLiteral) {
      if (spec.unit != WindowFrameUnit::kRange) {
        return ErrorAt(at, "Window frame " + unit_name + " offset must be an integer");
      }
      if (b.offset->negated) {
        return ErrorAt(at, "Window frame offset value must not be negative or null");
      }
    } else {
      SQE_ASSIGN_OR_RETURN(exec::Value offset, BindConstantValue(*b.offset));
      if (offset.is_null() || IsNegative(offset)) {
        return ErrorAt(at, "Window frame offset value must not be negative or null");
      }
      if (spec.unit != WindowFrameUnit::kRange) {
        if (!IsExactInteger(offset.type())) {
          return ErrorAt(at, "Window frame " + unit_name + " offset must be an integer (actual: " +
                                 offset.type()->ToString() + ")");
        }
        out->offset = offset.int_value();
        return Status::OK();
      }
    }
    // RANGE: the key value the bound reaches, key -/+ offset in the ORDER BY's direction.
    const bool toward_start = b.kind == K::kPreceding;
    auto arithmetic = std::make_shared<ast::Expr>();
    arithmetic->kind = ast::ExprKind::kBinary;
    arithmetic->pos = at;
    arithmetic->op_pos = at;
    arithmetic->op = toward_start == spec.order_by[0].ascending ? "-" : "+";
    arithmetic->left = window.order_by[0].expr;
    arithmetic->right = b.offset;
    SQE_ASSIGN_OR_RETURN(out->range_value, BindExpr(*arithmetic, inner));
    return Status::OK();
  };
  SQE_RETURN_NOT_OK(bind_bound(start, &spec.start));
  SQE_RETURN_NOT_OK(bind_bound(end, &spec.end));
  for (WindowBoundSpec* b : {&spec.start, &spec.end}) {
    if (b->range_value == nullptr) continue;
    const columnar::TypePtr& value_type = b->range_value->type;
    if (spec.range_key == nullptr) {
      SQE_ASSIGN_OR_RETURN(spec.range_key, CastTo(spec.order_by[0].expr, value_type, call.pos));
    } else if (!spec.range_key->type->Equals(*value_type)) {
      SQE_ASSIGN_OR_RETURN(b->range_value, CastTo(b->range_value, spec.range_key->type, call.pos));
    }
  }
  return bound;
}

Status Binder::BindWindows(const ast::Select& select, const std::vector<ast::SortItem>* order_by,
                           ExprContext& ctx, LogicalPtr* plan, WindowBinding* out) {
  std::vector<const ast::Expr*> calls;
  for (const ast::SelectItem& item : select.items) CollectWindowCalls(item.expr, &calls);
  if (order_by != nullptr) {
    for (const ast::SortItem& item : *order_by) CollectWindowCalls(item.expr, &calls);
  }
  for (size_t i = 0; i < select.windows.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (Lower(select.windows[i].name) == Lower(select.windows[j].name)) {
        return ErrorAt(select.pos,
                       "WINDOW '" + select.windows[i].name + "' specified more than once");
      }
    }
    // Check every named window even when no call uses it.
    SQE_RETURN_NOT_OK(
        ResolveWindowSpec(select.windows[i].spec, select.windows, select.pos, 0).status());
  }
  if (calls.empty()) return Status::OK();
  std::vector<WindowFunctionSpec> functions;
  std::vector<ColumnInfo> columns;
  for (const ast::Expr* call : calls) {
    SQE_ASSIGN_OR_RETURN(BoundWindowCall bound, BindWindowCall(*call, select.windows, ctx));
    int found = -1;
    for (size_t i = 0; i < functions.size(); ++i) {
      if (SameWindowFunction(functions[i], bound.spec)) found = static_cast<int>(i);
    }
    if (found < 0) {
      found = static_cast<int>(functions.size());
      functions.push_back(std::move(bound.spec));
      columns.push_back(NewColumn(functions.back().name, bound.type));
    }
    out->call_column[call] = columns[static_cast<size_t>(found)];
  }
  // Subqueries in the arguments may have wrapped *plan in joins: the node goes on top now.
  LogicalPtr node = MakeNode(LogicalKind::kWindow);
  node->children.push_back(*plan);
  node->output = (*plan)->output;
  node->output.insert(node->output.end(), columns.begin(), columns.end());
  node->window_functions = std::move(functions);
  *plan = node;
  return Status::OK();
}

Result<ExprPtr> Binder::WindowColumn(const ast::Expr& call, const ExprContext& ctx) {
  if (ctx.windows != nullptr) {
    auto it = ctx.windows->call_column.find(&call);
    if (it != ctx.windows->call_column.end()) {
      return exec::Expr::Column(it->second.id, it->second.type, it->second.name);
    }
  }
  return ErrorAt(call.pos, std::string(ctx.clause) + " clause cannot contain window functions");
}

}  // namespace sqe::planner
