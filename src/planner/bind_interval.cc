// Interval arithmetic: an interval expression (INTERVAL literals combined with +, -, unary
// minus, and * or / by a number) added to or subtracted from a date, time or timestamp.
// Intervals are not a value type of their own: an interval expression is bound as its bigint
// amount (months for year to month, milliseconds for day to second) and ends in date_add.

#include <string>
#include <vector>

#include "planner/binder_internal.h"

namespace sqe::planner {

using columnar::TypeId;
using exec::Expr;

namespace {

bool IsUnaryMinus(const ast::Expr& expr) {
  return expr.kind == ast::ExprKind::kUnary && expr.op == "-" && expr.left != nullptr;
}

bool IsArithmetic(const ast::Expr& expr, const char* op) {
  return expr.kind == ast::ExprKind::kBinary && expr.op == op && expr.left != nullptr &&
         expr.right != nullptr;
}

/// Milliseconds in one `unit` of a day-to-second interval literal.
int64_t MillisPerUnit(const std::string& unit) {
  if (unit == "day") return 86400000;
  if (unit == "hour") return 3600000;
  if (unit == "minute") return 60000;
  if (unit == "second") return 1000;
  return 1;  // millisecond
}

const char* IntervalTypeName(bool year_month) {
  return year_month ? "interval year to month" : "interval day to second";
}

}  // namespace

bool IsIntervalExpr(const ast::Expr& expr) {
  if (expr.kind == ast::ExprKind::kIntervalLiteral) return true;
  if (IsUnaryMinus(expr)) return IsIntervalExpr(*expr.left);
  if (IsArithmetic(expr, "+") || IsArithmetic(expr, "-")) {
    return IsIntervalExpr(*expr.left) && IsIntervalExpr(*expr.right);
  }
  if (IsArithmetic(expr, "*")) return IsIntervalExpr(*expr.left) != IsIntervalExpr(*expr.right);
  if (IsArithmetic(expr, "/")) return IsIntervalExpr(*expr.left) && !IsIntervalExpr(*expr.right);
  return false;
}

Result<Binder::BoundInterval> Binder::BindInterval(const ast::Expr& expr, ExprContext& ctx) {
  if (expr.kind == ast::ExprKind::kIntervalLiteral) {
    Result<IntervalAmount> parsed = ParseIntervalLiteral(expr);
    if (!parsed.ok()) return ErrorAt(expr.pos, parsed.status().message());
    BoundInterval out;
    out.year_month = parsed->unit == "year" || parsed->unit == "month";
    const int64_t per_unit =
        out.year_month ? (parsed->unit == "year" ? 12 : 1) : MillisPerUnit(parsed->unit);
    out.amount = Expr::Literal(exec::Value::BigInt(parsed->amount * per_unit));
    return out;
  }
  if (IsUnaryMinus(expr)) {
    SQE_ASSIGN_OR_RETURN(BoundInterval inner, BindInterval(*expr.left, ctx));
    SQE_ASSIGN_OR_RETURN(
        inner.amount,
        CallFunction("-", {Expr::Literal(exec::Value::BigInt(0)), inner.amount}, expr.pos));
    return inner;
  }
  if (IsArithmetic(expr, "+") || IsArithmetic(expr, "-")) {
    SQE_ASSIGN_OR_RETURN(BoundInterval left, BindInterval(*expr.left, ctx));
    SQE_ASSIGN_OR_RETURN(BoundInterval right, BindInterval(*expr.right, ctx));
    if (left.year_month != right.year_month) {
      return ErrorAt(expr.op_pos,
                     "Cannot apply operator: " + std::string(IntervalTypeName(left.year_month)) +
                         " " + expr.op + " " + IntervalTypeName(right.year_month));
    }
    SQE_ASSIGN_OR_RETURN(left.amount, CallFunction(expr.op, {left.amount, right.amount}, expr.pos));
    return left;
  }
  // interval * number, number * interval, interval / number.
  const bool interval_left = IsIntervalExpr(*expr.left);
  const ast::Expr& interval_side = interval_left ? *expr.left : *expr.right;
  const ast::Expr& number_side = interval_left ? *expr.right : *expr.left;
  SQE_ASSIGN_OR_RETURN(BoundInterval interval, BindInterval(interval_side, ctx));
  SQE_ASSIGN_OR_RETURN(ExprPtr number, BindExpr(number_side, ctx));
  const bool integral = number->type == nullptr || number->type->id() == TypeId::kInt8 ||
                        number->type->id() == TypeId::kInt16 ||
                        number->type->id() == TypeId::kInt32 ||
                        number->type->id() == TypeId::kInt64;
  const bool numeric = integral || number->type->id() == TypeId::kFloat32 ||
                       number->type->id() == TypeId::kFloat64 ||
                       number->type->id() == TypeId::kDecimal128;
  if (!numeric) {
    return ErrorAt(expr.op_pos,
                   "Cannot apply operator: " + std::string(IntervalTypeName(interval.year_month)) +
                       " " + expr.op + " " + number->type->ToString());
  }
  if (IsArithmetic(expr, "*") && integral) {
    SQE_ASSIGN_OR_RETURN(number, CastTo(number, columnar::Int64(), number_side.pos));
    SQE_ASSIGN_OR_RETURN(interval.amount, CallFunction("*", {interval.amount, number}, expr.pos));
    return interval;
  }
  // A fractional factor or a division: in double, rounded back to whole months/milliseconds.
  SQE_ASSIGN_OR_RETURN(ExprPtr amount, CastTo(interval.amount, columnar::Float64(), expr.pos));
  SQE_ASSIGN_OR_RETURN(number, CastTo(number, columnar::Float64(), number_side.pos));
  SQE_ASSIGN_OR_RETURN(ExprPtr scaled, CallFunction(expr.op, {amount, number}, expr.pos));
  SQE_ASSIGN_OR_RETURN(interval.amount, CastTo(scaled, columnar::Int64(), expr.pos));
  return interval;
}

Result<ExprPtr> Binder::BindIntervalArithmetic(const ast::Expr& expr, ExprContext& ctx) {
  const ast::Expr* interval = expr.right.get();
  const ast::Expr* value = expr.left.get();
  const bool subtract = expr.op == "-";
  if (IsIntervalExpr(*expr.left)) {
    if (IsIntervalExpr(*expr.right)) {
      return ErrorAt(expr.pos,
                     "INTERVAL values are only supported added to or subtracted from a date, "
                     "time or timestamp (date_diff gives the distance between two of them)");
    }
    if (subtract) return ErrorAt(expr.pos, "cannot subtract a date/timestamp from an INTERVAL");
    std::swap(interval, value);
  }
  SQE_ASSIGN_OR_RETURN(ExprPtr base, BindExpr(*value, ctx));
  std::string unit;
  ExprPtr amount;
  if (interval->kind == ast::ExprKind::kIntervalLiteral) {
    // One literal keeps its own unit, so DATE '2024-01-31' + INTERVAL '1' DAY stays a date.
    Result<IntervalAmount> parsed = ParseIntervalLiteral(*interval);
    if (!parsed.ok()) return ErrorAt(interval->pos, parsed.status().message());
    unit = parsed->unit;
    amount = Expr::Literal(exec::Value::BigInt(subtract ? -parsed->amount : parsed->amount));
  } else {
    SQE_ASSIGN_OR_RETURN(BoundInterval bound, BindInterval(*interval, ctx));
    amount = bound.amount;
    if (subtract) {
      SQE_ASSIGN_OR_RETURN(
          amount, CallFunction("-", {Expr::Literal(exec::Value::BigInt(0)), amount}, expr.pos));
    }
    unit = bound.year_month ? "month" : "millisecond";
    if (!bound.year_month && base->type != nullptr && base->type->id() == TypeId::kDate32) {
      // A date moves by whole days; a part of a day cannot be added to a date (Trino).
      if (amount->kind == exec::ExprKind::kLiteral && !amount->value.is_null() &&
          amount->value.int_value() % 86400000 != 0) {
        return ErrorAt(interval->pos, "Cannot add hour, minutes or seconds to a date");
      }
      SQE_ASSIGN_OR_RETURN(
          amount,
          CallFunction("/", {amount, Expr::Literal(exec::Value::BigInt(86400000))}, expr.pos));
      unit = "day";
    }
  }
  return CallFunction("date_add", {Expr::Literal(exec::Value::Varchar(unit)), amount, base},
                      expr.pos);
}

Result<ExprPtr> Binder::BindToMilliseconds(const ast::Expr& call, ExprContext& ctx) {
  SQE_ASSIGN_OR_RETURN(BoundInterval interval, BindInterval(*call.args[0], ctx));
  if (interval.year_month) {
    return ErrorAt(call.pos,
                   "Unexpected parameters (interval year to month) for function to_milliseconds. "
                   "Expected: to_milliseconds(interval day to second)");
  }
  return interval.amount;
}

}  // namespace sqe::planner
