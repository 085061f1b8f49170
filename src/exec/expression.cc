#include "exec/expression.h"

#include <cctype>

#include "exec/functions/registry.h"

namespace sqe::exec {

ExprPtr Expr::Column(int32_t column, columnar::TypePtr type, std::string name) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kColumn;
  e->column = column;
  e->type = std::move(type);
  e->name = std::move(name);
  return e;
}

ExprPtr Expr::Literal(Value value) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kLiteral;
  e->type = value.type();
  e->value = std::move(value);
  return e;
}

ExprPtr Expr::Call(const ScalarFunction* function, std::vector<ExprPtr> args,
                   columnar::TypePtr type) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kCall;
  e->function = function;
  e->name = function != nullptr ? function->name : "";
  e->args = std::move(args);
  e->type = std::move(type);
  return e;
}

ExprPtr Expr::Cast(ExprPtr arg, columnar::TypePtr type, bool try_cast) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kCast;
  e->type = std::move(type);
  e->try_cast = try_cast;
  e->args.push_back(std::move(arg));
  return e;
}

ExprPtr Expr::Make(ExprKind kind, std::vector<ExprPtr> args, columnar::TypePtr type) {
  auto e = std::make_shared<Expr>();
  e->kind = kind;
  e->args = std::move(args);
  e->type = std::move(type);
  return e;
}

bool Expr::IsConstant() const {
  if (kind == ExprKind::kColumn || kind == ExprKind::kLambdaParam) return false;
  if (kind == ExprKind::kCall && function != nullptr && !function->deterministic) return false;
  for (const ExprPtr& a : args) {
    if (!a->IsConstant()) return false;
  }
  return true;
}

namespace {

bool IsOperatorName(const std::string& name) {
  return !name.empty() && !std::isalpha(static_cast<unsigned char>(name[0])) && name[0] != '_';
}

std::string Join(const std::vector<ExprPtr>& args, size_t from, const char* sep) {
  std::string out;
  for (size_t i = from; i < args.size(); ++i) {
    if (i > from) out += sep;
    out += args[i]->ToString();
  }
  return out;
}

}  // namespace

std::string Expr::ToString() const {
  switch (kind) {
    case ExprKind::kColumn:
      return name.empty() ? "#" + std::to_string(column) : name;
    case ExprKind::kLiteral:
      return value.ToSql();
    case ExprKind::kCall:
      if (IsOperatorName(name) && args.size() == 2) {
        return "(" + args[0]->ToString() + " " + name + " " + args[1]->ToString() + ")";
      }
      if (name == "negate" && args.size() == 1) return "(-" + args[0]->ToString() + ")";
      if ((name == "like" || name == "ilike") && args.size() >= 2) {
        std::string out = "(" + args[0]->ToString() + (name == "like" ? " LIKE " : " ILIKE ") +
                          args[1]->ToString();
        if (args.size() > 2) out += " ESCAPE " + args[2]->ToString();
        return out + ")";
      }
      return name + "(" + Join(args, 0, ", ") + ")";
    case ExprKind::kCast:
      return std::string(try_cast ? "TRY_CAST(" : "CAST(") + args[0]->ToString() + " AS " +
             (type ? type->ToString() : "unknown") + ")";
    case ExprKind::kAnd:
      return "(" + Join(args, 0, " AND ") + ")";
    case ExprKind::kOr:
      return "(" + Join(args, 0, " OR ") + ")";
    case ExprKind::kNot:
      return "(NOT " + args[0]->ToString() + ")";
    case ExprKind::kIsNull:
      return "(" + args[0]->ToString() + " IS NULL)";
    case ExprKind::kIsNotNull:
      return "(" + args[0]->ToString() + " IS NOT NULL)";
    case ExprKind::kCase: {
      std::string out = "CASE";
      for (size_t i = 0; i + 1 < args.size(); i += 2) {
        out += " WHEN " + args[i]->ToString() + " THEN " + args[i + 1]->ToString();
      }
      if (!args.empty()) out += " ELSE " + args.back()->ToString();
      return out + " END";
    }
    case ExprKind::kCoalesce:
      return "coalesce(" + Join(args, 0, ", ") + ")";
    case ExprKind::kIn:
      return "(" + args[0]->ToString() + " IN (" + Join(args, 1, ", ") + "))";
    case ExprKind::kIsDistinctFrom:
      return "(" + args[0]->ToString() + " IS DISTINCT FROM " + args[1]->ToString() + ")";
    case ExprKind::kIsNotDistinctFrom:
      return "(" + args[0]->ToString() + " IS NOT DISTINCT FROM " + args[1]->ToString() + ")";
    case ExprKind::kLambda:
      return "((" + name + ") -> " + args[0]->ToString() + ")";
    case ExprKind::kLambdaParam:
      return name;
  }
  return "?";
}

ExprPtr RewriteColumns(const ExprPtr& expr, const std::function<int32_t(int32_t)>& map) {
  if (expr->kind == ExprKind::kColumn) {
    auto e = std::make_shared<Expr>(*expr);
    e->column = map(expr->column);
    return e;
  }
  if (expr->args.empty()) return expr;
  auto e = std::make_shared<Expr>(*expr);
  for (ExprPtr& a : e->args) a = RewriteColumns(a, map);
  return e;
}

void CollectColumns(const Expr& expr, std::vector<int32_t>* out) {
  if (expr.kind == ExprKind::kColumn) out->push_back(expr.column);
  for (const ExprPtr& a : expr.args) CollectColumns(*a, out);
}

}  // namespace sqe::exec
