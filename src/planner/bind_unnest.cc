// UNNEST in FROM: `FROM UNNEST(a, b) WITH ORDINALITY AS t(x, y, n)`, and after other FROM
// items (`FROM t, UNNEST(t.arr) u(x)`, `t CROSS JOIN UNNEST(...)`, `t LEFT JOIN UNNEST(...)
// ON true`), where the arrays may use the columns of the relations to its left: an Unnest
// node over the left side's plan expands each of its rows.

#include "planner/binder_internal.h"

namespace sqe::planner {

namespace {

bool IsTrueLiteral(const exec::Expr& e) {
  return e.kind == exec::ExprKind::kLiteral && !e.value.is_null() && e.value.type() != nullptr &&
         e.value.type()->id() == columnar::TypeId::kBoolean && e.value.bool_value();
}

}  // namespace

Result<LogicalPtr> Binder::BindUnnest(const ast::Relation& relation, LogicalPtr input,
                                      const Scope* input_scope, const Scope* outer, bool outer_join,
                                      Scope* scope) {
  if (!relation.sample_method.empty()) {
    return ErrorAt(relation.pos, "TABLESAMPLE is not supported on UNNEST");
  }
  if (relation.args.empty()) return ErrorAt(relation.pos, "UNNEST needs at least one argument");
  if (input == nullptr) {
    // A standalone UNNEST expands one row without columns.
    input = MakeNode(LogicalKind::kValues);
    SQE_ASSIGN_OR_RETURN(columnar::Batch one,
                         columnar::Batch::Make(columnar::Schema::Make({}), {}, 1));
    input->rows.push_back(std::move(one));
    input->estimated_rows = 1;
  }
  Scope arguments;
  arguments.parent = outer;
  if (input_scope != nullptr) arguments.relations = input_scope->relations;
  ExprContext ctx;
  ctx.scope = &arguments;
  ctx.plan = nullptr;  // no subqueries in UNNEST arguments
  ctx.clause = "UNNEST";

  LogicalPtr node = MakeNode(LogicalKind::kUnnest);
  node->output = input->output;
  node->with_ordinality = relation.with_ordinality;
  node->unnest_outer = outer_join;
  std::vector<ColumnInfo> columns;
  for (const ast::ExprPtr& arg : relation.args) {
    SQE_ASSIGN_OR_RETURN(ExprPtr array, BindExpr(*arg, ctx));
    const columnar::TypePtr& type = array->type;
    if (type == nullptr ||
        (type->id() != columnar::TypeId::kList && type->id() != columnar::TypeId::kMap)) {
      return ErrorAt(arg->pos, "Cannot unnest type: " +
                                   (type == nullptr ? std::string("unknown") : type->ToString()));
    }
    if (type->id() == columnar::TypeId::kList &&
        type->value_field().type()->id() == columnar::TypeId::kStruct) {
      // An array of rows gives one column per field (as Trino does), named after the field.
      const columnar::TypePtr& row = type->value_field().type();
      for (const columnar::Field& f : row->fields()) {
        columns.push_back(NewColumn(
            f.name().empty() ? "_col" + std::to_string(columns.size()) : f.name(), f.type()));
      }
    } else if (type->id() == columnar::TypeId::kList) {
      columns.push_back(
          NewColumn("_col" + std::to_string(columns.size()), type->value_field().type()));
    } else {
      columns.push_back(
          NewColumn("_col" + std::to_string(columns.size()), type->key_field().type()));
      columns.push_back(
          NewColumn("_col" + std::to_string(columns.size()), type->item_field().type()));
    }
    node->expressions.push_back(std::move(array));
  }
  if (relation.with_ordinality) columns.push_back(NewColumn("ordinality", columnar::Int64()));
  if (!relation.column_aliases.empty()) {
    if (relation.column_aliases.size() != columns.size()) {
      return ErrorAt(relation.pos, "Column alias list has " +
                                       std::to_string(relation.column_aliases.size()) +
                                       " entries but relation has " +
                                       std::to_string(columns.size()) + " columns");
    }
    for (size_t i = 0; i < columns.size(); ++i) columns[i].name = relation.column_aliases[i];
  }
  node->output.insert(node->output.end(), columns.begin(), columns.end());
  node->children.push_back(std::move(input));
  ScopeRelation bound;
  if (relation.alias.has_value()) bound.alias = NameOf(*relation.alias, relation.alias_quoted);
  for (const ColumnInfo& c : columns) bound.columns.push_back({Lower(c.name), c, false});
  scope->relations.push_back(std::move(bound));
  return node;
}

Result<LogicalPtr> Binder::BindUnnestJoin(const ast::Relation& join, const Scope* outer,
                                          const CteScope* ctes, Scope* scope) {
  const ast::Relation& unnest = *join.right;
  if (join.natural || !join.using_columns.empty()) {
    return ErrorAt(join.pos, "JOIN UNNEST takes ON, not USING or NATURAL");
  }
  bool outer_join = false;
  switch (join.join_kind) {
    case ast::JoinKind::kCross:
    case ast::JoinKind::kInner:
      break;
    case ast::JoinKind::kLeft:
      outer_join = true;
      break;
    case ast::JoinKind::kRight:
    case ast::JoinKind::kFull:
      return ErrorAt(join.pos, "UNNEST on the right of a RIGHT or FULL join is not supported");
  }
  Scope left_scope;
  left_scope.parent = outer;
  SQE_ASSIGN_OR_RETURN(LogicalPtr left, BindRelation(*join.left, outer, ctes, &left_scope));
  Scope unnest_scope;
  SQE_ASSIGN_OR_RETURN(LogicalPtr plan,
                       BindUnnest(unnest, left, &left_scope, outer, outer_join, &unnest_scope));
  Scope joined;
  joined.parent = outer;
  joined.relations = left_scope.relations;
  for (ScopeRelation& r : unnest_scope.relations) joined.relations.push_back(std::move(r));
  if (join.on != nullptr) {
    ExprContext ctx;
    ctx.scope = &joined;
    ctx.plan = nullptr;
    ctx.clause = "JOIN ON";
    SQE_ASSIGN_OR_RETURN(ExprPtr on, BindPredicate(*join.on, ctx));
    if (!IsTrueLiteral(*on)) {
      if (outer_join) {
        return ErrorAt(join.on->pos,
                       "LEFT JOIN involving UNNEST is only supported with condition ON TRUE");
      }
      std::vector<ExprPtr> conjuncts;
      SplitAnd(on, &conjuncts);
      plan = FilterNode(plan, std::move(conjuncts));
    }
  }
  for (ScopeRelation& r : joined.relations) scope->relations.push_back(std::move(r));
  return plan;
}

}  // namespace sqe::planner
