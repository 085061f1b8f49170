// Queries: WITH, set operations, VALUES, SELECT (aggregation, HAVING, DISTINCT),
// ORDER BY, OFFSET and LIMIT.

#include <algorithm>

#include "exec/functions/aggregate_ordered.h"
#include "exec/functions/registry.h"
#include "planner/binder_internal.h"

namespace sqe::planner {

namespace {

bool IsOrdinal(const ast::Expr& e) {
  return e.kind == ast::ExprKind::kLiteral && e.literal_kind == ast::LiteralKind::kInteger;
}

/// The default output name of a select item without alias: the column's name for a
/// plain column reference, else _col<i>.
std::string ItemName(const ast::Expr& e, size_t index) {
  if (e.kind == ast::ExprKind::kIdentifier && !e.name.parts.empty()) {
    return e.name.quoted.back() ? e.name.parts.back() : Binder::Lower(e.name.parts.back());
  }
  if (e.kind == ast::ExprKind::kDereference) return Binder::Lower(e.text);
  return "_col" + std::to_string(index);
}

/// Whether output column `i` of `plan` is a bare NULL select item (`SELECT NULL`), which
/// binds as a boolean NULL literal but has no type of its own yet. Looks through the
/// ORDER BY, LIMIT and filter nodes over the select list's projection.
bool IsUntypedNullColumn(const LogicalNode& plan, size_t i) {
  if (i >= plan.output.size()) return false;
  int32_t id = plan.output[i].id;
  const LogicalNode* node = &plan;
  while (node != nullptr) {
    switch (node->kind) {
      case LogicalKind::kSort:
      case LogicalKind::kTopN:
      case LogicalKind::kLimit:
      case LogicalKind::kFilter:
        node = node->children.empty() ? nullptr : node->children[0].get();
        continue;
      case LogicalKind::kProject: {
        int pos = node->IndexOf(id);
        if (pos < 0 || static_cast<size_t>(pos) >= node->expressions.size()) return false;
        const ExprPtr& e = node->expressions[pos];
        if (e == nullptr) return false;
        if (e->kind == exec::ExprKind::kColumn && !node->children.empty()) {
          id = e->column;  // a pass-through of the child's column
          node = node->children[0].get();
          continue;
        }
        return e->kind == exec::ExprKind::kLiteral && e->value.is_null() && e->type != nullptr &&
               e->type->id() == columnar::TypeId::kBoolean;
      }
      default:
        return false;
    }
  }
  return false;
}

}  // namespace

Result<Binder::QueryPlan> Binder::BindQueryNode(const ast::Query& query, const Scope* outer,
                                                const CteScope* ctes) {
  CteScope with_scope;
  if (query.with.has_value()) {
    with_scope.recursive = query.with->recursive;
    with_scope.parent = ctes;
    for (const ast::WithQuery& w : query.with->queries) {
      std::string name = NameOf(w.name, w.quoted);
      if (!with_scope.entries.emplace(name, &w).second) {
        return ErrorAt(w.pos, "WITH query name '" + name + "' specified more than once");
      }
    }
    ctes = &with_scope;
  }
  struct RestoreCtes {
    const CteScope*& slot;
    const CteScope* saved;
    ~RestoreCtes() { slot = saved; }
  } restore{current_ctes_, current_ctes_};
  current_ctes_ = ctes;
  SQE_ASSIGN_OR_RETURN(
      QueryPlan q,
      BindQueryBody(*query.body, outer, ctes, query.order_by.empty() ? nullptr : &query.order_by));
  int64_t limit = -1;
  int64_t offset = 0;
  if (query.limit != nullptr) {
    SQE_ASSIGN_OR_RETURN(exec::Value v, BindConstantValue(*query.limit));
    if (v.is_null() || !v.type()->is_integer() || v.int_value() < 0) {
      return ErrorAt(query.limit->pos, "LIMIT must be a non-negative integer");
    }
    limit = v.int_value();
  }
  if (query.offset != nullptr) {
    SQE_ASSIGN_OR_RETURN(exec::Value v, BindConstantValue(*query.offset));
    if (v.is_null() || !v.type()->is_integer() || v.int_value() < 0) {
      return ErrorAt(query.offset->pos, "OFFSET must be a non-negative integer");
    }
    offset = v.int_value();
  }
  if (query.with_ties) return ErrorAt(query.pos, "FETCH FIRST ... WITH TIES is not supported yet");
  LogicalPtr plan = q.plan;
  if (!q.order.empty()) {
    LogicalPtr sort = MakeNode(limit >= 0 ? LogicalKind::kTopN : LogicalKind::kSort);
    sort->output = plan->output;
    sort->sort_keys = q.order;
    sort->limit = limit;
    sort->offset = offset;
    sort->children.push_back(plan);
    plan = sort;
  }
  if (q.order.empty() ? (limit >= 0 || offset > 0) : (limit < 0 && offset > 0)) {
    LogicalPtr node = MakeNode(LogicalKind::kLimit);
    node->output = plan->output;
    node->limit = limit;
    node->offset = offset;
    node->children.push_back(plan);
    plan = node;
  }
  // Drop hidden ORDER BY columns.
  if (plan->output.size() > q.names.size()) {
    LogicalPtr project = MakeNode(LogicalKind::kProject);
    for (size_t i = 0; i < q.names.size(); ++i) {
      const ColumnInfo& c = plan->output[i];
      project->output.push_back(c);
      project->expressions.push_back(exec::Expr::Column(c.id, c.type, c.name));
    }
    project->children.push_back(plan);
    plan = project;
  }
  return QueryPlan{plan, q.names, {}};
}

Result<Binder::QueryPlan> Binder::BindQueryBody(const ast::QueryBody& body, const Scope* outer,
                                                const CteScope* ctes,
                                                const std::vector<ast::SortItem>* order_by) {
  if (body.kind == ast::QueryBodyKind::kSelect) {
    return BindSelect(*body.select, outer, ctes, order_by);
  }
  QueryPlan q;
  switch (body.kind) {
    case ast::QueryBodyKind::kQuery: {
      SQE_ASSIGN_OR_RETURN(q, BindQueryNode(*body.query, outer, ctes));
      break;
    }
    case ast::QueryBodyKind::kTable: {
      ast::Select select;
      select.pos = body.pos;
      auto star = std::make_shared<ast::Expr>();
      star->kind = ast::ExprKind::kStar;
      star->pos = body.pos;
      select.items.push_back(ast::SelectItem{body.pos, star, std::nullopt, false});
      auto rel = std::make_shared<ast::Relation>();
      rel->kind = ast::RelationKind::kTable;
      rel->pos = body.pos;
      rel->name = body.table;
      select.from.push_back(rel);
      return BindSelect(select, outer, ctes, order_by);
    }
    case ast::QueryBodyKind::kValues: {
      if (body.rows.empty()) return ErrorAt(body.pos, "VALUES needs at least one row");
      size_t width = body.rows[0].size();
      Scope empty;
      empty.parent = outer;
      std::vector<std::vector<ExprPtr>> rows;
      std::vector<columnar::TypePtr> types(width);
      for (const auto& row : body.rows) {
        if (row.size() != width) {
          return ErrorAt(row.empty() ? body.pos : row[0]->pos,
                         "VALUES rows have different numbers of columns");
        }
        std::vector<ExprPtr> bound;
        for (size_t i = 0; i < width; ++i) {
          ExprContext ctx;
          ctx.scope = &empty;
          ctx.clause = "VALUES";
          SQE_ASSIGN_OR_RETURN(ExprPtr e, BindExpr(*row[i], ctx));
          if (types[i] == nullptr) {
            types[i] = e->type;
          } else if (e->type != nullptr) {
            auto common = exec::CommonSuperType(types[i], e->type);
            if (!common.has_value()) {
              return ErrorAt(row[i]->pos, "VALUES column " + std::to_string(i + 1) +
                                              " mixes types " + types[i]->ToString() + " and " +
                                              e->type->ToString());
            }
            types[i] = *common;
          }
          bound.push_back(std::move(e));
        }
        rows.push_back(std::move(bound));
      }
      // Each row: cast to the column types, evaluate to one-row columns.
      LogicalPtr node = MakeNode(LogicalKind::kValues);
      std::vector<columnar::Field> fields;
      for (size_t i = 0; i < width; ++i) {
        const bool untyped = types[i] == nullptr;
        if (untyped) types[i] = columnar::Boolean();  // all NULL: unknown
        std::string name = "_col" + std::to_string(i);
        node->output.push_back(NewColumn(name, types[i]));
        if (untyped) unknown_columns_.insert(node->output.back().id);
        q.names.push_back(name);
        fields.emplace_back(name, types[i], true);
      }
      columnar::SchemaPtr schema = columnar::Schema::Make(fields);
      // Rows that are not constant (outer references) are not supported here.
      std::vector<std::vector<exec::Value>> values;
      for (size_t r = 0; r < rows.size(); ++r) {
        std::vector<exec::Value> row_values;
        for (size_t i = 0; i < width; ++i) {
          SQE_ASSIGN_OR_RETURN(ExprPtr cast, CastTo(rows[r][i], types[i], body.rows[r][i]->pos));
          if (cast->kind != exec::ExprKind::kLiteral) {
            return ErrorAt(body.rows[r][i]->pos, "VALUES entries must be constant expressions");
          }
          row_values.push_back(cast->value);
        }
        values.push_back(std::move(row_values));
      }
      // One batch per row (VALUES lists are small).
      for (const std::vector<exec::Value>& row : values) {
        std::vector<columnar::Column> columns;
        for (size_t i = 0; i < width; ++i) {
          SQE_ASSIGN_OR_RETURN(columnar::Column c, row[i].ToColumn(1));
          columns.push_back(std::move(c));
        }
        SQE_ASSIGN_OR_RETURN(columnar::Batch batch,
                             columnar::Batch::Make(schema, std::move(columns), 1));
        node->rows.push_back(std::move(batch));
      }
      q.plan = node;
      break;
    }
    case ast::QueryBodyKind::kSetOperation: {
      SQE_ASSIGN_OR_RETURN(QueryPlan left, BindQueryBody(*body.left, outer, ctes, nullptr));
      SQE_ASSIGN_OR_RETURN(QueryPlan right, BindQueryBody(*body.right, outer, ctes, nullptr));
      if (left.names.size() != right.names.size()) {
        return ErrorAt(
            body.pos,
            std::string(body.set_op == ast::SetOpKind::kUnion       ? "UNION"
                        : body.set_op == ast::SetOpKind::kIntersect ? "INTERSECT"
                                                                    : "EXCEPT") +
                " query has different number of fields: " + std::to_string(left.names.size()) +
                ", " + std::to_string(right.names.size()));
      }
      // Coerce both sides to common column types. A bare NULL select item has no type of
      // its own (it binds as boolean): it takes the other side's type, as in Trino.
      // So is a column of untyped NULLs from a nested set operation or subquery.
      auto untyped = [&](const LogicalNode& plan, size_t i) {
        return IsUntypedNullColumn(plan, i) || unknown_columns_.count(plan.output[i].id) != 0;
      };
      std::vector<columnar::TypePtr> types;
      std::vector<bool> untyped_both;
      for (size_t i = 0; i < left.names.size(); ++i) {
        const auto& lt = left.plan->output[i].type;
        const auto& rt = right.plan->output[i].type;
        untyped_both.push_back(untyped(*left.plan, i) && untyped(*right.plan, i));
        std::optional<columnar::TypePtr> common;
        if (untyped(*left.plan, i)) {
          common = rt;
        } else if (untyped(*right.plan, i)) {
          common = lt;
        } else {
          common = exec::CommonSuperType(lt, rt);
        }
        if (!common.has_value()) {
          return ErrorAt(body.pos, "column " + std::to_string(i + 1) +
                                       " of the set operation has incompatible types " +
                                       lt->ToString() + " and " + rt->ToString());
        }
        types.push_back(*common);
      }
      auto coerce = [&](QueryPlan& side) -> Result<LogicalPtr> {
        bool same = true;
        for (size_t i = 0; i < types.size(); ++i) {
          if (!side.plan->output[i].type->Equals(*types[i])) same = false;
        }
        if (same && side.plan->output.size() == types.size()) return side.plan;
        std::vector<ExprPtr> exprs;
        for (size_t i = 0; i < types.size(); ++i) {
          const ColumnInfo& c = side.plan->output[i];
          if (untyped(*side.plan, i)) {
            exprs.push_back(exec::Expr::Literal(exec::Value::Null(types[i])));
            continue;
          }
          SQE_ASSIGN_OR_RETURN(
              ExprPtr e, CastTo(exec::Expr::Column(c.id, c.type, c.name), types[i], body.pos));
          exprs.push_back(e);
        }
        return Project(side.plan, std::move(exprs), side.names, nullptr);
      };
      SQE_ASSIGN_OR_RETURN(LogicalPtr l, coerce(left));
      SQE_ASSIGN_OR_RETURN(LogicalPtr r, coerce(right));
      LogicalPtr node;
      if (body.set_op == ast::SetOpKind::kUnion) {
        node = MakeNode(LogicalKind::kUnionAll);
      } else {
        node = MakeNode(LogicalKind::kSetOp);
        node->set_op =
            body.set_op == ast::SetOpKind::kIntersect ? SetOpKind::kIntersect : SetOpKind::kExcept;
        node->set_all = !body.set_distinct;
      }
      for (size_t i = 0; i < types.size(); ++i) {
        node->output.push_back(NewColumn(left.names[i], types[i]));
      }
      node->children = {l, r};
      if (body.set_op == ast::SetOpKind::kUnion && body.set_distinct) {
        LogicalPtr distinct = MakeNode(LogicalKind::kDistinct);
        distinct->children.push_back(node);
        for (const ColumnInfo& c : node->output)
          distinct->output.push_back(NewColumn(c.name, c.type));
        node = distinct;
      }
      for (size_t i = 0; i < untyped_both.size(); ++i) {
        if (untyped_both[i]) unknown_columns_.insert(node->output[i].id);  // NULL on both sides
      }
      q.plan = node;
      q.names = left.names;
      break;
    }
    case ast::QueryBodyKind::kSelect:
      break;
  }
  if (order_by != nullptr) {
    // ORDER BY over the body's output: ordinals or output names.
    for (const ast::SortItem& item : *order_by) {
      int index = -1;
      if (IsOrdinal(*item.expr)) {
        int64_t n = std::stoll(item.expr->text);
        if (n < 1 || n > static_cast<int64_t>(q.names.size())) {
          return ErrorAt(item.expr->pos,
                         "ORDER BY position " + item.expr->text + " is not in select list");
        }
        index = static_cast<int>(n - 1);
      } else if (item.expr->kind == ast::ExprKind::kIdentifier &&
                 item.expr->name.parts.size() == 1) {
        std::string name = NameOf(item.expr->name.parts[0], item.expr->name.quoted[0]);
        for (size_t i = 0; i < q.names.size(); ++i) {
          if (Lower(q.names[i]) == name) index = static_cast<int>(i);
        }
      }
      if (index < 0) {
        return ErrorAt(item.expr->pos,
                       "ORDER BY over a set operation or VALUES must name an output column");
      }
      const ColumnInfo& c = q.plan->output[index];
      SortSpec spec;
      spec.expr = exec::Expr::Column(c.id, c.type, c.name);
      spec.ascending = item.ascending;
      spec.nulls_first = item.nulls == ast::NullOrdering::kFirst;
      q.order.push_back(spec);
    }
  }
  return q;
}

namespace {

/// `c` as inner = outer (an inner-only side and an outer-only side): the sides, or false.
bool SplitCorrelationEquality(const ExprPtr& c, const LogicalNode& inner_plan, ExprPtr* inner,
                              ExprPtr* outer) {
  if (c->kind != exec::ExprKind::kCall || c->name != "=" || c->args.size() != 2) return false;
  auto is_inner = [&](const ExprPtr& e, bool want_inner) {
    std::vector<int32_t> cols;
    exec::CollectColumns(*e, &cols);
    for (int32_t id : cols) {
      if ((inner_plan.IndexOf(id) >= 0) != want_inner) return false;
    }
    return !want_inner || !cols.empty();
  };
  for (int side = 0; side < 2; ++side) {
    if (is_inner(c->args[side], true) && is_inner(c->args[1 - side], false)) {
      *inner = c->args[side];
      *outer = c->args[1 - side];
      return true;
    }
  }
  return false;
}

/// Whether the correlated WHERE conjuncts of `select` can be the caller's join conditions
/// (see BindSelect); for a scalar aggregate this also fills the correlation keys.
bool DecorrelateInWhere(Decorrelation& decorrelation, const LogicalNode& plan,
                        const ast::Select& select, bool aggregated) {
  if (select.distinct) return false;
  if (decorrelation.pass_through_correlated_columns) return !aggregated;
  if (!decorrelation.group_by_correlation) return false;
  if (!aggregated || !select.group_by.empty() || select.having != nullptr) return false;
  std::vector<ExprPtr> inner(decorrelation.correlated.size());
  std::vector<ExprPtr> outer(decorrelation.correlated.size());
  for (size_t i = 0; i < decorrelation.correlated.size(); ++i) {
    if (!SplitCorrelationEquality(decorrelation.correlated[i], plan, &inner[i], &outer[i])) {
      return false;
    }
  }
  for (size_t i = 0; i < inner.size(); ++i) {
    decorrelation.outer_keys.push_back(outer[i]);
    decorrelation.inner_key_columns.push_back(
        ColumnInfo{-1, inner[i]->ToString(), inner[i]->type, true});
  }
  return true;
}

}  // namespace

Result<Binder::QueryPlan> Binder::BindSelect(const ast::Select& select, const Scope* outer,
                                             const CteScope* ctes,
                                             const std::vector<ast::SortItem>* order_by,
                                             Decorrelation* decorrelation) {
  auto scope = std::make_shared<Scope>();
  scope->parent = outer;
  LogicalPtr plan;
  if (select.from.empty()) {
    plan = MakeNode(LogicalKind::kValues);
    SQE_ASSIGN_OR_RETURN(columnar::Batch one,
                         columnar::Batch::Make(columnar::Schema::Make({}), {}, 1));
    plan->rows.push_back(one);
  } else {
    SQE_ASSIGN_OR_RETURN(plan, BindFrom(select.from, outer, ctes, scope.get()));
  }
  // Aggregate calls (found first: whether the query aggregates decides how a correlated
  // WHERE is decorrelated).
  std::vector<const ast::Expr*> calls;
  for (const ast::SelectItem& item : select.items) CollectAggregates(item.expr, &calls);
  for (const ast::NamedWindow& w : select.windows) {  // PARTITION BY / ORDER BY of named windows
    for (const ast::ExprPtr& p : w.spec.partition_by) CollectAggregates(p, &calls);
    for (const ast::SortItem& o : w.spec.order_by) CollectAggregates(o.expr, &calls);
  }
  CollectAggregates(select.having, &calls);
  if (order_by != nullptr) {
    for (const ast::SortItem& item : *order_by) CollectAggregates(item.expr, &calls);
  }
  bool aggregated = !calls.empty() || !select.group_by.empty() || select.having != nullptr;

  // WHERE
  if (select.where != nullptr) {
    if (ContainsAggregate(*select.where)) {
      return ErrorAt(select.where->pos, "WHERE clause cannot contain aggregations");
    }
    SQE_ASSIGN_OR_RETURN(std::vector<ExprPtr> conjuncts,
                         BindWhere(*select.where, scope.get(), &plan, decorrelation,
                                   /*filter_plain_first=*/true));
    if (decorrelation != nullptr && !decorrelation->correlated.empty()) {
      // The correlated conjuncts become join conditions directly (EXISTS / IN without
      // aggregation; scalar aggregates without GROUP BY / HAVING grouped by inner = outer
      // equalities). Otherwise they stay in the WHERE and the caller decorrelates the whole
      // subquery over the domain of its outer values (decorrelate.h).
      if (!DecorrelateInWhere(*decorrelation, *plan, select, aggregated)) {
        conjuncts.insert(conjuncts.end(), decorrelation->correlated.begin(),
                         decorrelation->correlated.end());
        decorrelation->correlated.clear();
      }
    }
    plan = FilterNode(plan, std::move(conjuncts));
  }

  // Aggregation.
  bool correlated_keys = decorrelation != nullptr && decorrelation->group_by_correlation &&
                         !decorrelation->correlated.empty();
  AggregationInfo info;
  info.from_scope = scope.get();
  if (aggregated) {
    ExprContext pre;
    pre.scope = scope.get();
    pre.clause = "GROUP BY";
    std::vector<std::string> key_names;
    if (correlated_keys) {
      for (const ExprPtr& c : decorrelation->correlated) {
        const ExprPtr& inner = c->args[0];
        bool left_inner = true;
        std::vector<int32_t> cols;
        exec::CollectColumns(*c->args[1], &cols);
        for (const ColumnInfo& o : plan->output) {
          if (std::find(cols.begin(), cols.end(), o.id) != cols.end()) left_inner = false;
        }
        info.keys.push_back(left_inner ? inner : c->args[1]);
        key_names.push_back("$corr" + std::to_string(info.keys.size()));
      }
    }
    SQE_RETURN_NOT_OK(BindGroupBy(select, pre, &info, &key_names));
    // Aggregate calls.
    // Subqueries in the arguments (and in FILTER / ORDER BY of a call) are bound over the
    // rows after FROM / WHERE, as in a WHERE: their joins wrap `plan` below the aggregate,
    // whose inputs then read their value columns.
    ExprContext agg_args;
    agg_args.scope = scope.get();
    agg_args.plan = &plan;
    agg_args.clause = "aggregate function arguments";
    for (const ast::Expr* call : calls) {
      if (IsGroupingCall(*call)) continue;  // bound after the aggregate node (BindGroupingCalls)
      std::vector<ExprPtr> args;
      std::vector<columnar::TypePtr> types;
      for (const ast::ExprPtr& a : call->args) {
        if (ContainsAggregate(*a)) {
          return ErrorAt(a->pos, "Cannot nest aggregations inside aggregation '" +
                                     call->name.ToString() + "'");
        }
        SQE_ASSIGN_OR_RETURN(ExprPtr b, BindExpr(*a, agg_args));
        types.push_back(b->type);
        args.push_back(std::move(b));
      }
      std::string fname = Lower(call->name.parts.back());
      auto fn = registry_.ResolveAggregate(fname, types, call->distinct);
      if (!fn.ok()) return ErrorAt(call->pos, fn.status().message());
      // Cast arguments to what the overload expects.
      for (size_t i = 0; i < args.size() && i < (*fn)->arg_types.size(); ++i) {
        SQE_ASSIGN_OR_RETURN(args[i], CastTo(args[i], (*fn)->arg_types[i], call->args[i]->pos));
      }
      // ORDER BY inside the call, or FILTER on an aggregate that keeps NULL inputs: the
      // buffering wrapper (exec/functions/aggregate_ordered.h) takes the sort keys and the
      // condition as extra arguments.
      const bool drop_rows = call->filter != nullptr && exec::AggregateKeepsNullInputs(fname);
      if (!call->order_by.empty() || drop_rows) {
        std::vector<exec::AggregateSortKey> keys;
        for (const ast::SortItem& item : call->order_by) {
          if (ContainsAggregate(*item.expr)) {
            return ErrorAt(item.expr->pos, "Cannot nest aggregations inside aggregation '" +
                                               call->name.ToString() + "'");
          }
          SQE_ASSIGN_OR_RETURN(ExprPtr key, BindExpr(*item.expr, agg_args));
          key = TypedKey(std::move(key));
          keys.push_back({key->type, item.ascending, item.nulls == ast::NullOrdering::kFirst});
          args.push_back(std::move(key));
        }
        if (drop_rows) {
          SQE_ASSIGN_OR_RETURN(ExprPtr condition, BindPredicate(*call->filter, agg_args));
          args.push_back(std::move(condition));
        }
        auto ordered = exec::MakeOrderedAggregate(*fn, keys, drop_rows);
        if (!ordered.ok()) return ErrorAt(call->pos, ordered.status().message());
        fn = ordered;
      }
      ExprPtr filter;
      if (call->filter != nullptr && !drop_rows) {
        // FILTER (WHERE c): the arguments are NULL on rows c rejects, which every aggregate
        // ignores; count(*) counts a TRUE that is NULL there.
        SQE_ASSIGN_OR_RETURN(ExprPtr condition, BindPredicate(*call->filter, agg_args));
        if (args.empty()) {
          args.push_back(exec::Expr::Literal(exec::Value::Boolean(true)));
          auto counted = registry_.ResolveAggregate("count", {columnar::Boolean()}, call->distinct);
          if (!counted.ok()) return ErrorAt(call->pos, counted.status().message());
          fn = counted;
        }
        for (ExprPtr& a : args) {
          a = exec::Expr::Make(exec::ExprKind::kCase,
                               {condition, a, exec::Expr::Literal(exec::Value::Null(a->type))},
                               a->type);
        }
      }
      // Reuse an identical call.
      int32_t column = -1;
      for (size_t i = 0; i < info.aggregates.size(); ++i) {
        const AggregateSpec& s = info.aggregates[i];
        if (s.function != *fn || s.args.size() != args.size()) continue;
        bool same = (s.filter == nullptr) == (filter == nullptr) &&
                    (filter == nullptr || ExprEquals(*s.filter, *filter));
        for (size_t j = 0; same && j < args.size(); ++j) same = ExprEquals(*s.args[j], *args[j]);
        if (same) column = info.aggregate_columns[i].id;
      }
      if (column < 0) {
        AggregateSpec spec;
        spec.function = *fn;
        spec.args = std::move(args);
        spec.filter = filter;
        info.aggregates.push_back(std::move(spec));
        info.aggregate_columns.push_back(NewColumn(fname, (*fn)->return_type));
        column = info.aggregate_columns.back().id;
      }
      info.call_column[call] = column;
    }
    if (!info.grouping_sets.empty()) {
      SQE_ASSIGN_OR_RETURN(plan, PlanGroupingSets(plan, &info, key_names));
    } else {
      LogicalPtr agg = MakeNode(LogicalKind::kAggregate);
      for (size_t i = 0; i < info.keys.size(); ++i) {
        info.key_columns.push_back(NewColumn(key_names[i], info.keys[i]->type));
        agg->output.push_back(info.key_columns.back());
      }
      for (const ColumnInfo& c : info.aggregate_columns) agg->output.push_back(c);
      agg->group_keys = info.keys;
      agg->aggregates = info.aggregates;
      agg->children.push_back(plan);
      plan = agg;
    }
    SQE_RETURN_NOT_OK(BindGroupingCalls(calls, pre, &info));
    if (correlated_keys) {
      for (size_t i = 0; i < decorrelation->inner_key_columns.size(); ++i) {
        decorrelation->inner_key_columns[i] = info.key_columns[i];
      }
    }
  }

  ExprContext post;
  post.scope = scope.get();
  post.plan = &plan;
  post.aggregation = aggregated ? &info : nullptr;
  post.clause = "SELECT";

  if (select.having != nullptr) {
    post.clause = "HAVING";
    SQE_ASSIGN_OR_RETURN(ExprPtr having, BindPredicate(*select.having, post));
    std::vector<ExprPtr> conjuncts;
    SplitAnd(having, &conjuncts);
    plan = FilterNode(plan, std::move(conjuncts));
    post.clause = "SELECT";
  }

  // Window functions (after HAVING, before the select list).
  WindowBinding windows;
  SQE_RETURN_NOT_OK(BindWindows(select, order_by, post, &plan, &windows));
  post.windows = &windows;

  // Select items (stars expanded).
  std::vector<ExprPtr> exprs;
  std::vector<std::string> names;
  for (size_t i = 0; i < select.items.size(); ++i) {
    const ast::SelectItem& item = select.items[i];
    if (item.expr->kind == ast::ExprKind::kStar) {
      std::string qualifier;
      if (!item.expr->name.empty()) qualifier = Lower(item.expr->name.parts.back());
      bool matched = false;
      for (const ScopeRelation& r : scope->relations) {
        if (!qualifier.empty() && r.alias != qualifier) continue;
        matched = true;
        for (const ScopeColumn& c : r.columns) {
          if (qualifier.empty() && c.qualified_only) continue;
          if (c.hidden) continue;
          ExprPtr bound = exec::Expr::Column(c.column.id, c.column.type, c.column.name);
          if (aggregated) {
            ExprPtr key;
            for (size_t k = 0; k < info.keys.size(); ++k) {
              if (ExprEquals(*info.keys[k], *bound)) {
                key = exec::Expr::Column(info.key_columns[k].id, info.key_columns[k].type,
                                         info.key_columns[k].name);
              }
            }
            if (key == nullptr) {
              return ErrorAt(item.expr->pos, "'" + c.column.name +
                                                 "' must be an aggregate expression or appear in "
                                                 "GROUP BY clause");
            }
            bound = key;
          }
          exprs.push_back(bound);
          names.push_back(c.column.name);
        }
      }
      if (!matched) {
        bool expanded = false;  // r.* of a row r: its fields (bind_row.cc)
        SQE_RETURN_NOT_OK(ExpandRowStar(*item.expr, post, &exprs, &names, &expanded));
        if (expanded) continue;
        return ErrorAt(item.expr->pos,
                       "Table '" + qualifier + "' not found in FROM for " + qualifier + ".*");
      }
      if (scope->relations.empty()) {
        return ErrorAt(item.expr->pos, "SELECT * not allowed in queries without FROM clause");
      }
      continue;
    }
    SQE_ASSIGN_OR_RETURN(ExprPtr bound, BindExpr(*item.expr, post));
    exprs.push_back(bound);
    names.push_back(item.alias.has_value() ? (item.alias_quoted ? *item.alias : Lower(*item.alias))
                                           : ItemName(*item.expr, names.size()));
  }
  size_t visible = exprs.size();

  // ORDER BY keys: ordinals and output aliases refer to select items; anything else is
  // bound over the FROM (or aggregation) scope and carried as a hidden column.
  std::vector<std::pair<size_t, const ast::SortItem*>> order_refs;
  if (order_by != nullptr) {
    post.clause = "ORDER BY";
    for (const ast::SortItem& item : *order_by) {
      int index = -1;
      if (IsOrdinal(*item.expr)) {
        int64_t n = std::stoll(item.expr->text);
        if (n < 1 || n > static_cast<int64_t>(visible)) {
          return ErrorAt(item.expr->pos,
                         "ORDER BY position " + item.expr->text + " is not in select list");
        }
        index = static_cast<int>(n - 1);
      } else if (item.expr->kind == ast::ExprKind::kIdentifier &&
                 item.expr->name.parts.size() == 1) {
        std::string name = NameOf(item.expr->name.parts[0], item.expr->name.quoted[0]);
        int matches = 0;
        for (size_t i = 0; i < select.items.size() && i < visible; ++i) {
          const ast::SelectItem& s = select.items[i];
          if (s.alias.has_value() && Lower(*s.alias) == name) {
            index = static_cast<int>(i);
            ++matches;
          }
        }
        if (matches > 1) {
          return ErrorAt(item.expr->pos, "ORDER BY '" + name + "' is ambiguous");
        }
      }
      if (index < 0) {
        SQE_ASSIGN_OR_RETURN(ExprPtr bound, BindExpr(*item.expr, post));
        for (size_t i = 0; i < exprs.size(); ++i) {
          if (ExprEquals(*exprs[i], *bound)) index = static_cast<int>(i);
        }
        if (index < 0) {
          if (select.distinct) {
            return ErrorAt(item.expr->pos,
                           "For SELECT DISTINCT, ORDER BY expressions must appear in select list");
          }
          index = static_cast<int>(exprs.size());
          exprs.push_back(bound);
          names.push_back("$order" + std::to_string(index));
        }
      }
      order_refs.emplace_back(static_cast<size_t>(index), &item);
    }
  }

  // Decorrelated EXISTS / IN: pass the inner columns of the correlated conjuncts through.
  std::vector<ColumnInfo> passthrough;
  if (decorrelation != nullptr && decorrelation->pass_through_correlated_columns &&
      !decorrelation->correlated.empty()) {
    std::vector<int32_t> cols;
    for (const ExprPtr& c : decorrelation->correlated) exec::CollectColumns(*c, &cols);
    for (const ColumnInfo& c : plan->output) {
      if (std::find(cols.begin(), cols.end(), c.id) == cols.end()) continue;
      bool already = false;
      for (const ColumnInfo& p : passthrough) already = already || p.id == c.id;
      if (!already) passthrough.push_back(c);
    }
  }

  std::vector<ColumnInfo> out_columns;
  size_t key_count = correlated_keys ? info.key_columns.size() : 0;
  LogicalPtr project = MakeNode(LogicalKind::kProject);
  for (size_t i = 0; i < key_count; ++i) {
    project->output.push_back(info.key_columns[i]);
    project->expressions.push_back(exec::Expr::Column(
        info.key_columns[i].id, info.key_columns[i].type, info.key_columns[i].name));
  }
  for (size_t i = 0; i < exprs.size(); ++i) {
    columnar::TypePtr type = exprs[i]->type ? exprs[i]->type : columnar::Boolean();
    const bool untyped = exprs[i]->type == nullptr;
    if (untyped) {
      // A bare NULL or `?` in the select list: a boolean NULL by default, which is not the
      // type of a parameter (Describe leaves that unknown), so no CastTo.
      exprs[i] = exec::Expr::Literal(exec::Value::Null(type));
    }
    project->output.push_back(NewColumn(names[i], type));
    if (untyped) unknown_columns_.insert(project->output.back().id);
    project->expressions.push_back(exprs[i]);
  }
  for (const ColumnInfo& c : passthrough) {
    project->output.push_back(c);
    project->expressions.push_back(exec::Expr::Column(c.id, c.type, c.name));
  }
  project->children.push_back(plan);
  plan = project;

  QueryPlan q;
  q.names.assign(names.begin(), names.begin() + visible);
  if (key_count > 0) {
    std::vector<std::string> with_keys;
    for (size_t i = 0; i < key_count; ++i) with_keys.push_back(info.key_columns[i].name);
    with_keys.insert(with_keys.end(), q.names.begin(), q.names.end());
    q.names = std::move(with_keys);
  }
  if (select.distinct) {
    LogicalPtr distinct = MakeNode(LogicalKind::kDistinct);
    distinct->children.push_back(plan);
    // Distinct over the visible columns only (hidden ORDER BY keys are select items).
    if (plan->output.size() != q.names.size()) {
      LogicalPtr strip = MakeNode(LogicalKind::kProject);
      for (size_t i = 0; i < q.names.size(); ++i) {
        strip->output.push_back(plan->output[i]);
        strip->expressions.push_back(
            exec::Expr::Column(plan->output[i].id, plan->output[i].type, plan->output[i].name));
      }
      strip->children.push_back(plan);
      distinct->children[0] = strip;
    }
    for (const ColumnInfo& c : distinct->children[0]->output)
      distinct->output.push_back(NewColumn(c.name, c.type));
    // Re-map ORDER BY references to the distinct output (same positions).
    plan = distinct;
  }
  for (const auto& [index, item] : order_refs) {
    const ColumnInfo& c = plan->output[index + key_count];
    SortSpec spec;
    spec.expr = exec::Expr::Column(c.id, c.type, c.name);
    spec.ascending = item->ascending;
    spec.nulls_first = item->nulls == ast::NullOrdering::kFirst;
    q.order.push_back(spec);
  }
  if (aggregated) SQE_RETURN_NOT_OK(CheckGroupingSetsReferences(*plan, info, select.pos));
  q.plan = plan;
  return q;
}

}  // namespace sqe::planner
