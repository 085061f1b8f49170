// ROW values in expressions, as Trino has them: the constructor ROW(a, b) / (a, b) (a row
// of anonymous fields, row(integer, varchar)), field access by name (r.x, t.col.x,
// f(x).x) and by position (r[1], a constant integer from 1 to the field count). Rows of
// constants fold to literals; the rest are calls of exec/functions/row.cc.

#include <optional>
#include <string>
#include <vector>

#include "exec/functions/row_functions.h"
#include "planner/binder_internal.h"

namespace sqe::planner {

using columnar::TypeId;
using exec::Expr;
using exec::ExprKind;

namespace {

bool IsRow(const ExprPtr& e) { return e->type != nullptr && e->type->id() == TypeId::kStruct; }

/// The SQL text of a dotted name's first `count` parts.
std::string NamePrefix(const ast::QualifiedName& name, size_t count) {
  ast::QualifiedName prefix;
  for (size_t i = 0; i < count; ++i) prefix.Append(name.parts[i], name.quoted[i]);
  return prefix.ToString();
}

}  // namespace

Result<ExprPtr> Binder::BindRowConstructor(const ast::Expr& expr, ExprContext& ctx) {
  std::vector<ExprPtr> fields;
  std::vector<columnar::TypePtr> types;
  bool constant = true;
  for (const ast::ExprPtr& a : expr.args) {
    // An untyped NULL field stays untyped here: AnonymousRowType marks it unknown.
    SQE_ASSIGN_OR_RETURN(ExprPtr field, BindExpr(*a, ctx));
    if (exec::IsUnknownElementArray(field->type)) constant = false;  // keep ARRAY[] typed
    if (field->kind != ExprKind::kLiteral) constant = false;
    types.push_back(field->type);
    fields.push_back(std::move(field));
  }
  if (!constant) return CallFunction("row_constructor", std::move(fields), expr.pos);
  columnar::TypePtr type = exec::AnonymousRowType(types);
  exec::Value::Elements values;
  for (size_t i = 0; i < fields.size(); ++i) {
    const exec::Value& v = fields[i]->value;
    values.push_back(
        v.type() != nullptr ? v : exec::Value::Null(type->field(static_cast<int>(i)).type()));
  }
  return Expr::Literal(exec::Value(
      std::move(type), std::make_shared<const exec::Value::Elements>(std::move(values))));
}

Result<ExprPtr> Binder::RowFieldAt(ExprPtr row, int field, const sql::SourcePosition& at) {
  if (row->kind == ExprKind::kLiteral) {
    const columnar::TypePtr& type = row->type->field(field).type();
    if (row->value.is_null()) return Expr::Literal(exec::Value::Null(type));
    const exec::Value& v = row->value.elements()[static_cast<size_t>(field)];
    if (v.type() != nullptr && v.type()->Equals(*type)) return Expr::Literal(v);
    if (v.is_null()) return Expr::Literal(exec::Value::Null(type));
  }
  auto fn = exec::RowFieldFunction(row->type, field);
  if (!fn.ok()) return ErrorAt(at, fn.status().message());
  return Fold(Expr::Call(*fn, {std::move(row)}, (*fn)->return_type));
}

Result<ExprPtr> Binder::RowFieldByName(ExprPtr row, const std::string& name,
                                       const std::string& what, const sql::SourcePosition& at) {
  const std::string wanted = Lower(name);
  int found = -1;
  for (int i = 0; i < row->type->num_fields(); ++i) {
    const std::string& field = row->type->field(i).name();
    if (field.empty() || Lower(field) != wanted) continue;
    if (found >= 0) return ErrorAt(at, "Ambiguous row field reference: " + name);
    found = i;
  }
  if (found < 0) return ErrorAt(at, "Column '" + what + "' cannot be resolved");
  return RowFieldAt(std::move(row), found, at);
}

Result<ExprPtr> Binder::BindDereference(const ast::Expr& expr, ExprContext& ctx) {
  SQE_ASSIGN_OR_RETURN(ExprPtr base, BindExpr(*expr.left, ctx));
  if (!IsRow(base)) {
    return ErrorAt(expr.left->pos, "Expression " + expr.left->ToString() + " is not of type ROW");
  }
  return RowFieldByName(std::move(base), expr.text, expr.left->ToString() + "." + expr.text,
                        expr.pos);
}

Result<ExprPtr> Binder::BindFieldPath(const ast::Expr& expr, ExprContext& ctx, Status not_found) {
  const ast::QualifiedName& name = expr.name;
  for (size_t k = name.parts.size() - 1; k >= 1; --k) {
    ExprPtr base;
    if (k == 1) base = LambdaParam(name.parts[0]);
    if (base == nullptr) {
      ast::Expr prefix;
      prefix.kind = ast::ExprKind::kIdentifier;
      prefix.pos = expr.pos;
      for (size_t i = 0; i < k; ++i) prefix.name.Append(name.parts[i], name.quoted[i]);
      const Scope* scope = ctx.aggregation != nullptr ? ctx.aggregation->from_scope : ctx.scope;
      if (!ResolveColumn(prefix.name, expr.pos, scope).ok()) continue;
      // Bound as an expression of its own: after GROUP BY it must be (part of) a key.
      SQE_ASSIGN_OR_RETURN(base, BindExpr(prefix, ctx));
    }
    for (size_t i = k; i < name.parts.size(); ++i) {
      if (!IsRow(base)) {
        return ErrorAt(expr.pos, "Expression " + NamePrefix(name, i) + " is not of type ROW");
      }
      SQE_ASSIGN_OR_RETURN(base, RowFieldByName(std::move(base), NameOf(name.parts[i], true),
                                                name.ToString(), expr.pos));
    }
    return base;
  }
  return not_found;
}

bool Binder::IsRowFieldPath(const ast::Expr& expr, const Scope* scope) {
  return expr.kind == ast::ExprKind::kIdentifier && expr.name.parts.size() >= 2 &&
         !ResolveColumn(expr.name, expr.pos, scope).ok();
}

bool Binder::PackRowInSubquery(const ast::Expr& left, size_t columns, LogicalPtr* sub_plan) {
  if (left.kind != ast::ExprKind::kRow || left.args.size() != columns ||
      (*sub_plan)->output.size() < columns) {
    return false;
  }
  std::vector<ExprPtr> fields;
  for (size_t i = 0; i < columns; ++i) {
    const ColumnInfo& c = (*sub_plan)->output[i];
    // A column of untyped NULLs is an unknown field, as in ROW(1, NULL).
    fields.push_back(unknown_columns_.count(c.id) != 0 ? Expr::Literal(exec::Value())
                                                       : Expr::Column(c.id, c.type, c.name));
  }
  auto row = CallFunction("row_constructor", std::move(fields), left.pos);
  if (!row.ok()) return false;
  LogicalPtr project = Project(*sub_plan, {*row}, {"$row"}, nullptr);
  // The columns after the compared ones (a correlated subquery's correlation values) pass
  // through under their own ids: the join's correlation conditions refer to them.
  for (size_t i = columns; i < (*sub_plan)->output.size(); ++i) {
    const ColumnInfo& c = (*sub_plan)->output[i];
    project->output.push_back(c);
    project->expressions.push_back(Expr::Column(c.id, c.type, c.name));
  }
  *sub_plan = project;
  return true;
}

Status Binder::ExpandRowStar(const ast::Expr& star, ExprContext& ctx, std::vector<ExprPtr>* exprs,
                             std::vector<std::string>* names, bool* expanded) {
  *expanded = false;
  if (star.name.empty()) return Status::OK();
  ast::Expr name;
  name.kind = ast::ExprKind::kIdentifier;
  name.pos = star.pos;
  name.name = star.name;
  auto row = BindExpr(name, ctx);
  if (!row.ok() || !IsRow(*row)) return Status::OK();
  for (int i = 0; i < (*row)->type->num_fields(); ++i) {
    SQE_ASSIGN_OR_RETURN(ExprPtr field, RowFieldAt(*row, i, star.pos));
    const std::string& field_name = (*row)->type->field(i).name();
    names->push_back(field_name.empty() ? "_col" + std::to_string(names->size()) : field_name);
    exprs->push_back(std::move(field));
  }
  *expanded = true;
  return Status::OK();
}

Result<ExprPtr> Binder::BindRowSubscript(ExprPtr row, const ast::Expr& index) {
  // Trino takes only an integer literal (a leading minus included) as a row's index.
  const ast::Expr* literal = &index;
  bool negative = false;
  if (index.kind == ast::ExprKind::kUnary && index.op == "-" && index.left != nullptr) {
    literal = index.left.get();
    negative = true;
  }
  if (literal->kind != ast::ExprKind::kLiteral ||
      literal->literal_kind != ast::LiteralKind::kInteger) {
    return ErrorAt(index.pos, "Subscript expression on ROW requires a constant index");
  }
  ast::Expr signed_literal = *literal;
  if (negative) signed_literal.text = "-" + signed_literal.text;
  SQE_ASSIGN_OR_RETURN(ExprPtr bound, BindLiteral(signed_literal));
  if (bound->type == nullptr || bound->type->id() != TypeId::kInt32) {
    return ErrorAt(index.pos, "Subscript expression on ROW requires integer index, found " +
                                  (bound->type == nullptr ? "unknown" : bound->type->ToString()));
  }
  const int64_t i = bound->value.int_value();
  if (i <= 0) {
    return ErrorAt(index.pos,
                   "Invalid subscript index: " + std::to_string(i) + ". ROW indices start at 1");
  }
  const int fields = row->type->num_fields();
  if (i > fields) {
    return ErrorAt(index.pos, "Subscript index out of bounds: " + std::to_string(i) +
                                  ", max value is " + std::to_string(fields));
  }
  return RowFieldAt(std::move(row), static_cast<int>(i - 1), index.pos);
}

}  // namespace sqe::planner
