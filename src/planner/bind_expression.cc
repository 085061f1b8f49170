// Expressions: names, literals, operators, functions, CASE / CAST, aggregates after GROUP
// BY, and subqueries (turned into joins of the plan the expression runs over).

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "columnar/time_zone_rules.h"
#include "exec/expression_evaluator.h"
#include "exec/functions/lambda.h"
#include "exec/functions/row_functions.h"
#include "planner/binder_internal.h"
#include "planner/decorrelate.h"

namespace sqe::planner {

using exec::Expr;
using exec::ExprKind;

namespace {

/// `DECIMAL '1.50'` without a precision is typed by its digits, as Trino does
/// (decimal(3,2)), not as the bare `decimal` type (decimal(38,0)): the literal as a plain
/// decimal literal, or nullopt when `expr` is not such a literal (then the text is CAST).
std::optional<ast::Expr> UnsizedDecimalLiteral(const ast::Expr& expr) {
  std::string base = expr.type.base;
  for (char& c : base) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if ((base != "decimal" && base != "numeric") || !expr.type.numeric_params.empty()) {
    return std::nullopt;
  }
  std::string text = expr.text;
  const size_t begin = text.find_first_not_of(" \t");
  const size_t end = text.find_last_not_of(" \t");
  if (begin == std::string::npos) return std::nullopt;
  text = text.substr(begin, end - begin + 1);
  std::string sign;
  if (text[0] == '+' || text[0] == '-') {
    if (text[0] == '-') sign = "-";
    text = text.substr(1);
  }
  size_t digits = 0, dots = 0;
  for (char c : text) {
    if (c >= '0' && c <= '9') {
      ++digits;
    } else if (c == '.') {
      ++dots;
    } else {
      return std::nullopt;
    }
  }
  if (digits == 0 || digits > 38 || dots > 1) return std::nullopt;
  if (text[0] == '.') text = "0" + text;
  ast::Expr literal = expr;
  literal.kind = ast::ExprKind::kLiteral;
  literal.literal_kind = ast::LiteralKind::kDecimal;
  literal.text = sign + text;
  return literal;
}

bool IsNullLiteral(const ExprPtr& e) { return e->kind == ExprKind::kLiteral && e->type == nullptr; }

/// The zone a TIMESTAMP literal's text names ('2020-06-01 12:00:00 Europe/Paris',
/// '... +05:30', '...+05:30', '...Z'), canonical ('UTC', '+05:30'); nullopt without one.
/// Trino types such a literal as a timestamp with time zone in that zone. A trailing
/// region name that is no known zone is an error naming it.
Result<std::optional<std::string>> TimestampLiteralZone(std::string_view text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  constexpr size_t kDateLength = 10;  // the zone comes after 'yyyy-mm-dd'
  auto load = [](std::string_view zone) -> std::optional<std::string> {
    auto rules = columnar::TimeZoneRules::Load(zone);
    if (!rules.ok()) return std::nullopt;
    return (*rules)->name();
  };
  const size_t space = text.find_last_of(' ');
  if (space != std::string_view::npos && space > kDateLength) {
    const std::string_view last = text.substr(space + 1);
    if (auto zone = load(last)) return zone;
    if (last.find('/') != std::string_view::npos) {
      return columnar::TimeZoneRules::Load(last).status();
    }
  }
  const size_t sign = text.find_last_of("+-");
  if (sign != std::string_view::npos && sign > kDateLength) return load(text.substr(sign));
  if (text.size() > kDateLength && text.back() == 'Z') return std::optional<std::string>("UTC");
  return std::optional<std::string>();
}

/// The zone of AT TIME ZONE INTERVAL '...' HOUR [TO MINUTE] | MINUTE as a fixed offset
/// ('+05:30'), as Trino accepts it; nullopt for another interval.
std::optional<std::string> IntervalZone(const ast::Expr& interval) {
  const std::string& text = interval.text;
  int64_t hours = 0, minutes = 0;
  bool negative = interval.negated;
  size_t i = 0;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative ^= text[i++] == '-';
  auto number = [&](int64_t* out) {
    const size_t start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9' && i - start < 4) {
      *out = *out * 10 + (text[i++] - '0');
    }
    return i > start;
  };
  const std::string& from = interval.interval_from;
  const std::string& to = interval.interval_to;
  if (from == "HOUR" && to.empty()) {
    if (!number(&hours)) return std::nullopt;
  } else if (from == "HOUR" && to == "MINUTE") {
    if (!number(&hours) || i >= text.size() || text[i++] != ':' || !number(&minutes)) {
      return std::nullopt;
    }
  } else if (from == "MINUTE" && to.empty()) {
    if (!number(&minutes)) return std::nullopt;
  } else {
    return std::nullopt;
  }
  if (i != text.size()) return std::nullopt;
  const int64_t seconds = (hours * 3600 + minutes * 60) * (negative ? -1 : 1);
  if (seconds < -14 * 3600 || seconds > 14 * 3600) return std::nullopt;
  return columnar::FormatOffset(seconds);
}

}  // namespace

Result<columnar::TypePtr> Binder::CastTargetZone(const ExprPtr& value,
                                                 const columnar::TypePtr& type,
                                                 const sql::SourcePosition& at) {
  // As in Trino: a timestamp with time zone keeps its zone, a constant text its own zone,
  // anything else takes the session's.
  std::string zone = catalog_.eval_context().time_zone;
  if (value->type != nullptr && value->type->id() == columnar::TypeId::kTimestamp &&
      value->type->has_timezone()) {
    zone = value->type->timezone();
  } else if (value->kind == ExprKind::kLiteral && value->type != nullptr &&
             value->type->id() == columnar::TypeId::kString && !value->value.is_null()) {
    auto named = TimestampLiteralZone(value->value.string_value());
    if (!named.ok()) return ErrorAt(at, named.status().message());
    if (named->has_value()) zone = **named;
  }
  auto rules = columnar::TimeZoneRules::Load(zone);
  if (!rules.ok()) return type;  // an unusable session zone: keep UTC
  return columnar::Timestamp(type->unit(), (*rules)->name());
}

Result<ExprPtr> Binder::TypeZonedResult(ExprPtr call, const ExprPtr& zone,
                                        const sql::SourcePosition& at) {
  // The zone is part of the result's type (one zone per column), so it must be known now.
  if (zone->kind != ExprKind::kLiteral) {
    return ErrorAt(at,
                   "the time zone must be a constant such as 'America/New_York' or '+05:30' "
                   "(SQE keeps one zone per timestamp with time zone column, so a zone taken "
                   "from a column is not supported)");
  }
  if (zone->value.is_null() || call->type == nullptr || !call->type->has_timezone()) return call;
  auto rules = columnar::TimeZoneRules::Load(zone->value.string_value());
  if (!rules.ok()) return ErrorAt(at, rules.status().message());
  const columnar::TypePtr zoned = columnar::Timestamp(call->type->unit(), (*rules)->name());
  return CastTo(std::move(call), zoned, at);
}

// --- names ---------------------------------------------------------------------------------

Result<ExprPtr> Binder::ResolveColumn(const ast::QualifiedName& name,
                                      const sql::SourcePosition& pos, const Scope* scope) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < name.parts.size(); ++i)
    parts.push_back(NameOf(name.parts[i], name.quoted[i]));
  std::string column = Lower(parts.back());
  std::vector<std::string> qualifier(parts.begin(), parts.end() - 1);
  for (std::string& q : qualifier) q = Lower(q);
  for (const Scope* s = scope; s != nullptr; s = s->parent) {
    const ScopeColumn* found = nullptr;
    int matches = 0;
    for (const ScopeRelation& r : s->relations) {
      if (!qualifier.empty()) {
        bool match = false;
        if (qualifier.size() == 1) {
          match = r.alias == qualifier[0];
        } else if (r.name_parts.size() >= qualifier.size()) {
          match = std::equal(qualifier.begin(), qualifier.end(),
                             r.name_parts.end() - static_cast<long>(qualifier.size()));
        }
        if (!match) continue;
      }
      for (const ScopeColumn& c : r.columns) {
        if (c.name != column) continue;
        if (qualifier.empty() && c.qualified_only) continue;
        found = &c;
        ++matches;
      }
    }
    if (matches > 1) return ErrorAt(pos, "Column '" + name.ToString() + "' is ambiguous");
    if (found != nullptr) {
      if (s != scope) {
        // An outer reference: every subquery bound inside `s`'s descendants is correlated.
        for (CorrelationProbe* probe : probes_) {
          for (const Scope* o = probe->outer; o != nullptr; o = o->parent) {
            if (o == s) probe->correlated = true;
          }
        }
      }
      if (unknown_columns_.count(found->column.id) != 0) return Expr::Literal(exec::Value());
      return Expr::Column(found->column.id, found->column.type, found->column.name);
    }
  }
  return ErrorAt(pos, "Column '" + name.ToString() + "' cannot be resolved");
}

// --- literals ------------------------------------------------------------------------------

Result<ExprPtr> Binder::BindLiteral(const ast::Expr& expr) {
  switch (expr.literal_kind) {
    case ast::LiteralKind::kNull:
      return Expr::Literal(exec::Value());
    case ast::LiteralKind::kBoolean:
      return Expr::Literal(exec::Value::Boolean(Lower(expr.text) == "true"));
    case ast::LiteralKind::kInteger: {
      errno = 0;
      char* end = nullptr;
      long long v = std::strtoll(expr.text.c_str(), &end, 10);
      if (errno == ERANGE || end == expr.text.c_str()) {
        // Past bigint: a decimal when it fits 38 digits (Trino).
        auto d = columnar::Decimal128::FromString(expr.text, 0);
        if (!d.ok() || expr.text.size() > 38) {
          return ErrorAt(expr.pos, "Invalid numeric literal: " + expr.text);
        }
        return Expr::Literal(exec::Value::Decimal(*d, static_cast<int32_t>(expr.text.size()), 0));
      }
      if (v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max()) {
        return Expr::Literal(exec::Value::Integer(static_cast<int32_t>(v)));
      }
      return Expr::Literal(exec::Value::BigInt(v));
    }
    case ast::LiteralKind::kDecimal: {
      // Trino: DECIMAL with as many digits as written.
      std::string text = expr.text;
      size_t dot = text.find('.');
      int32_t scale = dot == std::string::npos ? 0 : static_cast<int32_t>(text.size() - dot - 1);
      std::string digits;
      for (char c : text) {
        if (c >= '0' && c <= '9') digits += c;
      }
      size_t first = digits.find_first_not_of('0');
      int32_t precision =
          first == std::string::npos ? 1 : static_cast<int32_t>(digits.size() - first);
      precision = std::max(precision, scale);
      if (precision == 0) precision = 1;
      if (precision > 38) {
        // Too long for a decimal: a double, as Trino does with parse_decimal_literals_as_double.
        return Expr::Literal(exec::Value::Double(std::strtod(text.c_str(), nullptr)));
      }
      if (!text.empty() && text[0] == '.') text = "0" + text;
      if (!text.empty() && text.back() == '.') text.pop_back();
      auto d = columnar::Decimal128::FromString(text, scale);
      if (!d.ok()) return ErrorAt(expr.pos, "Invalid decimal literal: " + expr.text);
      return Expr::Literal(exec::Value::Decimal(*d, precision, scale));
    }
    case ast::LiteralKind::kDouble:
      return Expr::Literal(exec::Value::Double(std::strtod(expr.text.c_str(), nullptr)));
    case ast::LiteralKind::kString:
      return Expr::Literal(exec::Value::Varchar(expr.text));
    case ast::LiteralKind::kBinary:
      return Expr::Literal(exec::Value(columnar::Binary(), expr.text));
  }
  return ErrorAt(expr.pos, "unknown literal");
}

// --- coercion and calls --------------------------------------------------------------------

namespace {

/// typeof's answer: Trino's spelling, with an empty ARRAY[]'s element type `unknown`.
std::string TypeOfName(const columnar::TypePtr& type) {
  if (type == nullptr || exec::IsUnknownElementArray(type)) {
    return type == nullptr ? "unknown" : "array(unknown)";
  }
  if (type->id() == columnar::TypeId::kList) {
    return "array(" + TypeOfName(type->value_field().type()) + ")";
  }
  if (type->id() == columnar::TypeId::kStruct) {
    // Fields as DataType::ToString spells them, an untyped NULL's field as unknown.
    std::string out = "row(";
    for (int i = 0; i < type->num_fields(); ++i) {
      const columnar::Field& f = type->field(i);
      if (i > 0) out += ", ";
      if (!f.name().empty()) {
        const std::string one = columnar::Struct({f.WithType(columnar::Boolean())})->ToString();
        out += one.substr(4, one.size() - 4 - std::string(" boolean)").size()) + " ";
      }
      out += exec::IsUnknownRowField(f) ? "unknown" : TypeOfName(f.type());
    }
    return out + ")";
  }
  return type->ToString();
}

}  // namespace

ExprPtr Binder::LambdaParam(const std::string& name) const {
  if (lambda_params_.empty()) return nullptr;
  const std::string param = Lower(name);
  for (auto it = lambda_params_.rbegin(); it != lambda_params_.rend(); ++it) {
    if (it->first == param) return it->second;
  }
  return nullptr;
}

Result<ExprPtr> Binder::EmptyArrayOf(ExprPtr expr, const columnar::TypePtr& type) {
  // A value typed as ARRAY[] or ARRAY[NULL, ...] (no element type) is NULL or an array of
  // untyped NULLs: it stays so, typed as the array type asked for.
  const columnar::TypePtr& element = type->value_field().type();
  if (expr->kind == ExprKind::kLiteral) {
    if (expr->value.is_null()) return Expr::Literal(exec::Value::Null(type));
    exec::Value::Elements nulls(expr->value.elements().size(), exec::Value::Null(element));
    return Expr::Literal(
        exec::Value(type, std::make_shared<const exec::Value::Elements>(std::move(nulls))));
  }
  // An array of untyped NULLs, NULL stays NULL:
  // CASE WHEN x IS NULL THEN NULL ELSE repeat(NULL of the element type, cardinality(x)) END.
  SQE_ASSIGN_OR_RETURN(ExprPtr count, CallFunction("cardinality", {expr}, sql::SourcePosition{}));
  SQE_ASSIGN_OR_RETURN(ExprPtr repeated,
                       CallFunction("repeat", {Expr::Literal(exec::Value::Null(element)), count},
                                    sql::SourcePosition{}));
  return Expr::Make(ExprKind::kCase,
                    {Expr::Make(ExprKind::kIsNull, {expr}, columnar::Boolean()),
                     Expr::Literal(exec::Value::Null(type)), repeated},
                    type);
}

Result<ExprPtr> Binder::CastTo(ExprPtr expr, const columnar::TypePtr& type,
                               const sql::SourcePosition& at) {
  if (exec::IsUnknownElementArray(expr->type) && type->id() == columnar::TypeId::kList &&
      !exec::IsUnknownElementArray(type)) {
    return EmptyArrayOf(std::move(expr), type);
  }
  if (expr->type != nullptr && expr->type->Equals(*type)) return expr;
  if (IsNullLiteral(expr)) {
    if (!expr->name.empty() && expr->name[0] == '?') {
      const size_t index = std::stoul(expr->name.substr(1));
      if (index < parameter_types_.size() && parameter_types_[index] == nullptr) {
        parameter_types_[index] = type;
      }
    }
    return Expr::Literal(exec::Value::Null(type));
  }
  return Fold(Expr::Cast(std::move(expr), type, false));
}

Result<ExprPtr> Binder::CallFunction(const std::string& name, std::vector<ExprPtr> args,
                                     const sql::SourcePosition& at) {
  std::vector<columnar::TypePtr> types;
  for (const ExprPtr& a : args) types.push_back(a->type);
  auto fn = registry_.ResolveScalar(name, types);
  if (!fn.ok()) return ErrorAt(at, fn.status().message());
  for (size_t i = 0; i < args.size() && i < (*fn)->arg_types.size(); ++i) {
    SQE_ASSIGN_OR_RETURN(args[i], CastTo(args[i], (*fn)->arg_types[i], at));
  }
  // at_timezone (AT TIME ZONE), with_timezone, from_unixtime(x, zone): the result is
  // typed in the zone.
  const bool zoned = args.size() == 2 &&
                     (name == "with_timezone" || name == "at_timezone" || name == "from_unixtime");
  ExprPtr zone = zoned ? args[1] : nullptr;
  ExprPtr call = Expr::Call(*fn, std::move(args), (*fn)->return_type);
  if (zoned) return TypeZonedResult(Fold(call), zone, at);
  const std::string& session_zone = catalog_.eval_context().time_zone;
  if ((name == "current_timestamp" || name == "now") &&
      columnar::TimeZoneRules::Load(session_zone).ok()) {  // shown in the session's zone
    return TypeZonedResult(call, Expr::Literal(exec::Value::Varchar(session_zone)), at);
  }
  return (*fn)->deterministic ? Fold(call) : call;
}

Result<ExprPtr> Binder::BindPredicate(const ast::Expr& expr, ExprContext& ctx) {
  SQE_ASSIGN_OR_RETURN(ExprPtr bound, BindExpr(expr, ctx));
  if (bound->type == nullptr) return Expr::Literal(exec::Value::Null(columnar::Boolean()));
  if (bound->type->id() != columnar::TypeId::kBoolean) {
    return ErrorAt(expr.pos, std::string(ctx.clause) +
                                 " clause must evaluate to a boolean: "
                                 "actual type " +
                                 bound->type->ToString());
  }
  return bound;
}

// --- aggregates ----------------------------------------------------------------------------

void Binder::CollectAggregates(const ast::ExprPtr& expr, std::vector<const ast::Expr*>* out) const {
  if (expr != nullptr) CollectAggregates(*expr, out);
}

void Binder::CollectAggregates(const ast::Expr& expr, std::vector<const ast::Expr*>* out) const {
  if (expr.kind == ast::ExprKind::kFunctionCall && expr.window == nullptr && !expr.name.empty() &&
      (registry_.IsAggregate(Lower(expr.name.parts.back())) || IsGroupingCall(expr))) {
    out->push_back(&expr);
    return;  // nested aggregates are reported when the call is bound
  }
  if (expr.kind == ast::ExprKind::kExists || expr.kind == ast::ExprKind::kScalarSubquery) return;
  for (const ast::ExprPtr* child : {&expr.left, &expr.right, &expr.low, &expr.high, &expr.escape,
                                    &expr.else_result, &expr.filter}) {
    CollectAggregates(*child, out);
  }
  for (const ast::ExprPtr& a : expr.args) CollectAggregates(a, out);
  for (const ast::WhenClause& w : expr.when_clauses) {
    CollectAggregates(w.when, out);
    CollectAggregates(w.then, out);
  }
  if (expr.window != nullptr) {  // rank() OVER (ORDER BY sum(x))
    for (const ast::ExprPtr& p : expr.window->partition_by) CollectAggregates(p, out);
    for (const ast::SortItem& o : expr.window->order_by) CollectAggregates(o.expr, out);
  }
}

bool Binder::ContainsAggregate(const ast::Expr& expr) const {
  std::vector<const ast::Expr*> calls;
  CollectAggregates(expr, &calls);
  return !calls.empty();
}

bool ContainsSubquery(const ast::Expr& expr) {
  if (expr.subquery != nullptr) return true;
  for (const ast::ExprPtr* child : {&expr.left, &expr.right, &expr.low, &expr.high, &expr.escape,
                                    &expr.else_result, &expr.filter}) {
    if (ContainsSubquery(*child)) return true;
  }
  for (const ast::ExprPtr& a : expr.args) {
    if (ContainsSubquery(a)) return true;
  }
  for (const ast::WhenClause& w : expr.when_clauses) {
    if (ContainsSubquery(w.when) || ContainsSubquery(w.then)) return true;
  }
  return false;
}

bool ContainsSubquery(const ast::ExprPtr& expr) {
  return expr != nullptr && ContainsSubquery(*expr);
}

std::vector<const ast::Expr*> AstConjuncts(const ast::Expr& expr) {
  std::vector<const ast::Expr*> conjuncts;
  std::vector<const ast::Expr*> stack = {&expr};
  while (!stack.empty()) {
    const ast::Expr* e = stack.back();
    stack.pop_back();
    if (e->kind == ast::ExprKind::kBinary && Binder::Lower(e->op) == "and") {
      stack.push_back(e->right.get());
      stack.push_back(e->left.get());
      continue;
    }
    conjuncts.push_back(e);
  }
  return conjuncts;
}

namespace {

const std::string& IntervalUnit(const std::string& field) {
  static const std::string kUnits[] = {"year", "month", "day", "hour", "minute", "second"};
  for (const std::string& u : kUnits) {
    if (Binder::Lower(field) == u) return u;
  }
  return kUnits[2];
}

}  // namespace

// --- the main switch -------------------------------------------------------------------------

Result<ExprPtr> Binder::BindExpr(const ast::Expr& expr, ExprContext& ctx) {
  if (expr.kind == ast::ExprKind::kFunctionCall && expr.window != nullptr) {
    return WindowColumn(expr, ctx);
  }
  // After GROUP BY: aggregate calls and group keys become columns of the aggregation.
  if (ctx.aggregation != nullptr) {
    const AggregationInfo& agg = *ctx.aggregation;
    auto grouping = agg.grouping_calls.find(&expr);
    if (grouping != agg.grouping_calls.end()) return grouping->second;
    auto it = agg.call_column.find(&expr);
    if (it != agg.call_column.end()) {
      for (size_t i = 0; i < agg.aggregate_columns.size(); ++i) {
        if (agg.aggregate_columns[i].id == it->second) {
          const ColumnInfo& c = agg.aggregate_columns[i];
          return Expr::Column(c.id, c.type, c.name);
        }
      }
    }
    if (!ContainsAggregate(expr) && !ContainsSubquery(expr)) {
      ExprContext pre;
      pre.scope = agg.from_scope;
      pre.clause = ctx.clause;
      pre.windows = ctx.windows;
      SQE_ASSIGN_OR_RETURN(ExprPtr bound, BindExpr(expr, pre));
      for (size_t i = 0; i < agg.keys.size(); ++i) {
        if (ExprEquals(*agg.keys[i], *bound)) {
          const ColumnInfo& c = agg.key_columns[i];
          return Expr::Column(c.id, c.type, c.name);
        }
      }
      // Columns of the FROM that are not keys are an error; constants and outer
      // references are fine.
      std::vector<int32_t> cols;
      exec::CollectColumns(*bound, &cols);
      bool uses_from = false;
      for (const ScopeRelation& r : agg.from_scope->relations) {
        for (const ScopeColumn& c : r.columns) {
          if (std::find(cols.begin(), cols.end(), c.column.id) != cols.end()) uses_from = true;
        }
      }
      if (!uses_from) return bound;
      if ((expr.kind == ast::ExprKind::kIdentifier && !IsRowFieldPath(expr, agg.from_scope)) ||
          expr.kind == ast::ExprKind::kDereference) {
        return ErrorAt(expr.pos, "'" + expr.name.ToString() +
                                     "' must be an aggregate expression or appear in GROUP BY "
                                     "clause");
      }
      // A composite over keys: bind its parts (below) against the aggregation.
    }
  }

  switch (expr.kind) {
    case ast::ExprKind::kIdentifier:
      if (expr.name.parts.size() == 1) {
        if (ExprPtr param = LambdaParam(expr.name.parts[0])) return param;
      }
      {
        auto column = ResolveColumn(expr.name, expr.pos, ctx.scope);
        if (column.ok() || expr.name.parts.size() < 2) return column;
        return BindFieldPath(expr, ctx, column.status());  // t.col.x: a row's field
      }
    case ast::ExprKind::kDereference:
      return BindDereference(expr, ctx);
    case ast::ExprKind::kLiteral:
      return BindLiteral(expr);
    case ast::ExprKind::kTypedLiteral: {
      if (std::optional<ast::Expr> digits = UnsizedDecimalLiteral(expr)) {
        return BindLiteral(*digits);
      }
      SQE_ASSIGN_OR_RETURN(columnar::TypePtr type, ResolveType(expr.type));
      if (type->id() == columnar::TypeId::kTimestamp && !type->has_timezone()) {
        // TIMESTAMP '2020-06-01 12:00:00 Europe/Paris' is a timestamp with time zone.
        auto zone = TimestampLiteralZone(expr.text);
        if (!zone.ok()) return ErrorAt(expr.pos, zone.status().message());
        if (zone->has_value()) type = columnar::Timestamp(type->unit(), **zone);
      }
      ExprPtr text = Expr::Literal(exec::Value::Varchar(expr.text));
      if (type->id() == columnar::TypeId::kString) return text;
      ExprPtr cast = Expr::Cast(text, type, false);
      auto value = exec::EvaluateConstant(*cast, catalog_.eval_context());
      if (!value.ok()) {
        return ErrorAt(expr.pos, "'" + expr.text + "' is not a valid " + type->ToString() +
                                     " literal: " + value.status().message());
      }
      return Expr::Literal(*value);
    }
    case ast::ExprKind::kIntervalLiteral:
      return ErrorAt(expr.pos,
                     "INTERVAL values are only supported added to or subtracted from "
                     "a date or timestamp");
    case ast::ExprKind::kParameter: {
      if (expr.parameter_index < 0 ||
          expr.parameter_index >= static_cast<int32_t>(parameters_.size())) {
        return ErrorAt(expr.pos, "No value provided for parameter " +
                                     std::to_string(expr.parameter_index + 1) +
                                     " (EXECUTE ... USING gives one value per '?')");
      }
      const exec::Value& value = parameters_[expr.parameter_index];
      if (value.type() == nullptr) {
        // No value yet (Describe): an untyped NULL that remembers which `?` it is, so
        // CastTo can record the type the query gives it.
        auto marked = std::make_shared<Expr>(*Expr::Literal(value));
        marked->name = "?" + std::to_string(expr.parameter_index);
        return ExprPtr(std::move(marked));
      }
      return Expr::Literal(value);
    }
    case ast::ExprKind::kStar:
      return ErrorAt(expr.pos, "'*' is only allowed in the select list and count(*)");
    case ast::ExprKind::kUnary: {
      if (expr.op == "+") return BindExpr(*expr.left, ctx);
      // -<integer literal>: negate the text so -2147483648 stays an integer.
      if (expr.left->kind == ast::ExprKind::kLiteral &&
          (expr.left->literal_kind == ast::LiteralKind::kInteger ||
           expr.left->literal_kind == ast::LiteralKind::kDecimal ||
           expr.left->literal_kind == ast::LiteralKind::kDouble)) {
        ast::Expr negated = *expr.left;
        negated.text = "-" + negated.text;
        if (expr.left->literal_kind == ast::LiteralKind::kDecimal) {
          SQE_ASSIGN_OR_RETURN(ExprPtr v, BindLiteral(*expr.left));
          return CallFunction("negate", {v}, expr.pos);
        }
        return BindLiteral(negated);
      }
      SQE_ASSIGN_OR_RETURN(ExprPtr v, BindExpr(*expr.left, ctx));
      return CallFunction("negate", {v}, expr.pos);
    }
    case ast::ExprKind::kNot: {
      SQE_ASSIGN_OR_RETURN(ExprPtr v, BindPredicate(*expr.left, ctx));
      return Fold(Expr::Make(ExprKind::kNot, {v}, columnar::Boolean()));
    }
    case ast::ExprKind::kBinary: {
      std::string op = Lower(expr.op);
      if (op == "and" || op == "or") {
        SQE_ASSIGN_OR_RETURN(ExprPtr l, BindPredicate(*expr.left, ctx));
        SQE_ASSIGN_OR_RETURN(ExprPtr r, BindPredicate(*expr.right, ctx));
        ExprKind kind = op == "and" ? ExprKind::kAnd : ExprKind::kOr;
        std::vector<ExprPtr> args;
        for (const ExprPtr& side : {l, r}) {
          if (side->kind == kind) {
            args.insert(args.end(), side->args.begin(), side->args.end());
          } else {
            args.push_back(side);
          }
        }
        return Fold(Expr::Make(kind, std::move(args), columnar::Boolean()));
      }
      if ((op == "+" || op == "-") && (IsIntervalExpr(*expr.left) || IsIntervalExpr(*expr.right))) {
        return BindIntervalArithmetic(expr, ctx);
      }
      if (op == "!=") op = "<>";
      SQE_ASSIGN_OR_RETURN(ExprPtr l, BindExpr(*expr.left, ctx));
      SQE_ASSIGN_OR_RETURN(ExprPtr r, BindExpr(*expr.right, ctx));
      if (op != "||" && !registry_.ResolveScalar(op, {l->type, r->type}).ok()) {
        // Trino's wording and position: "line 1:10: Cannot apply operator: integer + varchar".
        auto name = [](const ExprPtr& e) { return e->type ? e->type->ToString() : "unknown"; };
        return ErrorAt(expr.op_pos,
                       "Cannot apply operator: " + name(l) + " " + expr.op + " " + name(r));
      }
      return CallFunction(op, {l, r}, expr.op_pos);
    }
    case ast::ExprKind::kBetween: {
      SQE_ASSIGN_OR_RETURN(ExprPtr v, BindExpr(*expr.left, ctx));
      SQE_ASSIGN_OR_RETURN(ExprPtr low, BindExpr(*expr.low, ctx));
      SQE_ASSIGN_OR_RETURN(ExprPtr high, BindExpr(*expr.high, ctx));
      SQE_ASSIGN_OR_RETURN(ExprPtr ge, CallFunction(">=", {v, low}, expr.pos));
      SQE_ASSIGN_OR_RETURN(ExprPtr le, CallFunction("<=", {v, high}, expr.pos));
      ExprPtr both = Fold(Expr::Make(ExprKind::kAnd, {ge, le}, columnar::Boolean()));
      if (expr.negated) return Fold(Expr::Make(ExprKind::kNot, {both}, columnar::Boolean()));
      return both;
    }
    case ast::ExprKind::kInList: {
      SQE_ASSIGN_OR_RETURN(ExprPtr v, BindExpr(*expr.left, ctx));
      std::vector<ExprPtr> items;
      columnar::TypePtr type = v->type;
      for (const ast::ExprPtr& a : expr.args) {
        SQE_ASSIGN_OR_RETURN(ExprPtr item, BindExpr(*a, ctx));
        if (type == nullptr) {
          type = item->type;
        } else if (item->type != nullptr) {
          auto common = exec::CommonSuperType(type, item->type);
          if (!common.has_value()) {
            return ErrorAt(a->pos, "IN value and list items must be the same type: " +
                                       type->ToString() + " vs " + item->type->ToString());
          }
          type = *common;
        }
        items.push_back(std::move(item));
      }
      if (type == nullptr) type = columnar::Boolean();
      std::vector<ExprPtr> args;
      SQE_ASSIGN_OR_RETURN(ExprPtr cv, CastTo(v, type, expr.pos));
      args.push_back(cv);
      for (size_t i = 0; i < items.size(); ++i) {
        SQE_ASSIGN_OR_RETURN(ExprPtr ci, CastTo(items[i], type, expr.args[i]->pos));
        args.push_back(ci);
      }
      ExprPtr in = Fold(Expr::Make(ExprKind::kIn, std::move(args), columnar::Boolean()));
      if (expr.negated) return Fold(Expr::Make(ExprKind::kNot, {in}, columnar::Boolean()));
      return in;
    }
    case ast::ExprKind::kInSubquery:
    case ast::ExprKind::kExists: {
      if (ctx.plan == nullptr) {
        return ErrorAt(expr.pos, std::string("subqueries are not supported in ") + ctx.clause);
      }
      SQE_ASSIGN_OR_RETURN(ExprPtr mark, BindSubqueryJoin(expr, false, true, ctx.scope, ctx.plan));
      if (expr.negated) return Expr::Make(ExprKind::kNot, {mark}, columnar::Boolean());
      return mark;
    }
    case ast::ExprKind::kScalarSubquery:
      return BindScalarSubquery(expr, ctx);
    case ast::ExprKind::kQuantified:
      return BindQuantified(expr, ctx);
    case ast::ExprKind::kLike: {
      SQE_ASSIGN_OR_RETURN(ExprPtr v, BindExpr(*expr.left, ctx));
      SQE_ASSIGN_OR_RETURN(ExprPtr pattern, BindExpr(*expr.right, ctx));
      std::vector<ExprPtr> args = {v, pattern};
      if (expr.escape != nullptr) {
        SQE_ASSIGN_OR_RETURN(ExprPtr esc, BindExpr(*expr.escape, ctx));
        args.push_back(esc);
      }
      SQE_ASSIGN_OR_RETURN(ExprPtr like,
                           CallFunction(expr.ilike ? "ilike" : "like", std::move(args), expr.pos));
      if (expr.negated) return Fold(Expr::Make(ExprKind::kNot, {like}, columnar::Boolean()));
      return like;
    }
    case ast::ExprKind::kIsNull: {
      SQE_ASSIGN_OR_RETURN(ExprPtr v, BindExpr(*expr.left, ctx));
      return Fold(Expr::Make(expr.negated ? ExprKind::kIsNotNull : ExprKind::kIsNull, {v},
                             columnar::Boolean()));
    }
    case ast::ExprKind::kIsDistinctFrom: {
      SQE_ASSIGN_OR_RETURN(ExprPtr l, BindExpr(*expr.left, ctx));
      SQE_ASSIGN_OR_RETURN(ExprPtr r, BindExpr(*expr.right, ctx));
      columnar::TypePtr type = l->type ? l->type : r->type;
      if (l->type != nullptr && r->type != nullptr) {
        auto common = exec::CommonSuperType(l->type, r->type);
        if (!common.has_value()) {
          return ErrorAt(expr.pos,
                         "Cannot compare " + l->type->ToString() + " and " + r->type->ToString());
        }
        type = *common;
      }
      if (type == nullptr) type = columnar::Boolean();
      SQE_ASSIGN_OR_RETURN(l, CastTo(l, type, expr.pos));
      SQE_ASSIGN_OR_RETURN(r, CastTo(r, type, expr.pos));
      return Fold(
          Expr::Make(expr.negated ? ExprKind::kIsNotDistinctFrom : ExprKind::kIsDistinctFrom,
                     {l, r}, columnar::Boolean()));
    }
    case ast::ExprKind::kCase: {
      ExprPtr operand;
      if (expr.left != nullptr) {
        SQE_ASSIGN_OR_RETURN(operand, BindExpr(*expr.left, ctx));
      }
      std::vector<ExprPtr> conditions, results;
      for (const ast::WhenClause& w : expr.when_clauses) {
        if (operand != nullptr) {
          SQE_ASSIGN_OR_RETURN(ExprPtr value, BindExpr(*w.when, ctx));
          SQE_ASSIGN_OR_RETURN(ExprPtr eq, CallFunction("=", {operand, value}, w.when->pos));
          conditions.push_back(eq);
        } else {
          SQE_ASSIGN_OR_RETURN(ExprPtr c, BindPredicate(*w.when, ctx));
          conditions.push_back(c);
        }
        SQE_ASSIGN_OR_RETURN(ExprPtr r, BindExpr(*w.then, ctx));
        results.push_back(r);
      }
      ExprPtr otherwise = Expr::Literal(exec::Value());
      if (expr.else_result != nullptr) {
        SQE_ASSIGN_OR_RETURN(otherwise, BindExpr(*expr.else_result, ctx));
      }
      results.push_back(otherwise);
      columnar::TypePtr type;
      for (size_t i = 0; i < results.size(); ++i) {
        const ExprPtr& r = results[i];
        if (r->type == nullptr) continue;
        if (type == nullptr) {
          type = r->type;
          continue;
        }
        auto common = exec::CommonSuperType(type, r->type);
        if (!common.has_value()) {
          return ErrorAt(expr.pos,
                         "All CASE results must be the same type or coercible to a "
                         "common type. Cannot find common type between " +
                             type->ToString() + " and " + r->type->ToString());
        }
        type = *common;
      }
      if (type == nullptr) type = columnar::Boolean();
      std::vector<ExprPtr> args;
      for (size_t i = 0; i < conditions.size(); ++i) {
        args.push_back(conditions[i]);
        SQE_ASSIGN_OR_RETURN(ExprPtr r, CastTo(results[i], type, expr.pos));
        args.push_back(r);
      }
      SQE_ASSIGN_OR_RETURN(ExprPtr e, CastTo(results.back(), type, expr.pos));
      args.push_back(e);
      return Fold(Expr::Make(ExprKind::kCase, std::move(args), type));
    }
    case ast::ExprKind::kCast: {
      SQE_ASSIGN_OR_RETURN(ExprPtr v, BindExpr(*expr.left, ctx));
      auto type = ResolveType(expr.type);
      if (!type.ok()) return ErrorAt(expr.pos, type.status().message());
      if ((*type)->id() == columnar::TypeId::kTimestamp && (*type)->has_timezone()) {
        SQE_ASSIGN_OR_RETURN(*type, CastTargetZone(v, *type, expr.pos));
      }
      if (exec::IsUnknownElementArray(v->type) && (*type)->id() == columnar::TypeId::kList) {
        return EmptyArrayOf(std::move(v), *type);
      }
      if (v->type != nullptr && v->type->Equals(**type)) return v;
      if (IsNullLiteral(v)) return Expr::Literal(exec::Value::Null(*type));
      ExprPtr cast = Expr::Cast(v, *type, expr.try_cast);
      if (cast->IsConstant()) {
        auto value = exec::EvaluateConstant(*cast, catalog_.eval_context());
        if (!value.ok() && try_depth_ > 0) return cast;
        if (!value.ok()) return ErrorAt(expr.pos, value.status().message());
        return Expr::Literal(*value);
      }
      return cast;
    }
    case ast::ExprKind::kFunctionCall:
      return BindFunctionCall(expr, ctx);
    case ast::ExprKind::kExtract: {
      SQE_ASSIGN_OR_RETURN(ExprPtr v, BindExpr(*expr.left, ctx));
      std::string field = Lower(expr.text);
      if (field == "dow") field = "day_of_week";
      if (field == "doy") field = "day_of_year";
      if (field == "day_of_month") field = "day";
      if (field == "yow") field = "year_of_week";
      return CallFunction(field, {v}, expr.pos);
    }
    case ast::ExprKind::kSubscript: {
      SQE_ASSIGN_OR_RETURN(ExprPtr base, BindExpr(*expr.left, ctx));
      if (base->type != nullptr && base->type->id() == columnar::TypeId::kStruct) {
        return BindRowSubscript(std::move(base), *expr.right);
      }
      SQE_ASSIGN_OR_RETURN(ExprPtr index, BindExpr(*expr.right, ctx));
      return CallFunction("subscript", {std::move(base), std::move(index)}, expr.pos);
    }
    case ast::ExprKind::kArray: {
      std::vector<ExprPtr> items;
      columnar::TypePtr type;
      for (const ast::ExprPtr& a : expr.args) {
        SQE_ASSIGN_OR_RETURN(ExprPtr item, BindExpr(*a, ctx));
        if (item->type != nullptr) {
          if (type == nullptr) {
            type = item->type;
          } else {
            auto common = exec::CommonSuperType(type, item->type);
            if (!common.has_value()) return ErrorAt(a->pos, "ARRAY elements must have one type");
            type = *common;
          }
        }
        items.push_back(std::move(item));
      }
      if (items.empty()) {
        // ARRAY[] has no element type of its own: it takes the array type its context asks
        // for (CastTo, CommonSuperType).
        return Expr::Literal(exec::Value(exec::UnknownElementArray(),
                                         std::make_shared<const exec::Value::Elements>()));
      }
      if (type == nullptr) {
        // ARRAY[NULL, ...]: only untyped NULLs, so no element type of its own (Trino's
        // array(unknown)); it takes the array type its context asks for, like ARRAY[].
        exec::Value::Elements nulls(items.size(), exec::Value::Null(columnar::Boolean()));
        return Expr::Literal(
            exec::Value(exec::UnknownElementArray(),
                        std::make_shared<const exec::Value::Elements>(std::move(nulls))));
      }
      exec::Value::Elements values;
      bool constant = true;
      for (size_t i = 0; i < items.size(); ++i) {
        SQE_ASSIGN_OR_RETURN(items[i], CastTo(items[i], type, expr.args[i]->pos));
        if (items[i]->kind != ExprKind::kLiteral) constant = false;
        if (constant) values.push_back(items[i]->value);
      }
      if (!constant) return CallFunction("array_constructor", std::move(items), expr.pos);
      return Expr::Literal(exec::Value(
          columnar::List(type), std::make_shared<const exec::Value::Elements>(std::move(values))));
    }
    case ast::ExprKind::kRow:
      return BindRowConstructor(expr, ctx);
    case ast::ExprKind::kLambda:
      return ErrorAt(expr.pos,
                     "a lambda expression may only be an argument of a function "
                     "such as transform, filter or reduce");
    case ast::ExprKind::kAtTimeZone: {
      // ts AT TIME ZONE zone | LOCAL: at_timezone (exec/functions/datetime_format.cc).
      SQE_ASSIGN_OR_RETURN(ExprPtr value, BindExpr(*expr.left, ctx));
      // The result is the same instant typed in the zone (CallFunction, TypeZonedResult).
      ExprPtr zone;
      if (expr.right->kind == ast::ExprKind::kSpecial && expr.right->text == "local") {
        zone = Expr::Literal(exec::Value::Varchar(catalog_.eval_context().time_zone));
      } else if (expr.right->kind == ast::ExprKind::kIntervalLiteral) {
        std::optional<std::string> offset = IntervalZone(*expr.right);
        if (!offset) {
          return ErrorAt(expr.right->pos,
                         "AT TIME ZONE INTERVAL takes an offset of at most 14 hours as "
                         "INTERVAL 'h' HOUR, INTERVAL 'h:mm' HOUR TO MINUTE or INTERVAL 'm' "
                         "MINUTE");
        }
        zone = Expr::Literal(exec::Value::Varchar(*offset));
      } else {
        SQE_ASSIGN_OR_RETURN(zone, BindExpr(*expr.right, ctx));
      }
      return CallFunction("at_timezone", {std::move(value), std::move(zone)}, expr.pos);
    }
    case ast::ExprKind::kSpecial: {
      const std::string& name = expr.text;
      if (name == "current_user") return Expr::Literal(exec::Value::Varchar(catalog_.user()));
      if (name == "current_catalog") {
        return Expr::Literal(exec::Value::Varchar(catalog_.current_catalog()));
      }
      if (name == "current_schema") {
        if (catalog_.current_schema().empty())
          return Expr::Literal(exec::Value::Null(columnar::String()));
        return Expr::Literal(exec::Value::Varchar(catalog_.current_schema()));
      }
      return CallFunction(name, {}, expr.pos);
    }
    case ast::ExprKind::kPosition: {
      SQE_ASSIGN_OR_RETURN(ExprPtr needle, BindExpr(*expr.args[0], ctx));
      SQE_ASSIGN_OR_RETURN(ExprPtr haystack, BindExpr(*expr.args[1], ctx));
      return CallFunction("strpos", {haystack, needle}, expr.pos);
    }
    case ast::ExprKind::kSubstring: {
      std::vector<ExprPtr> args;
      for (const ast::ExprPtr& a : expr.args) {
        SQE_ASSIGN_OR_RETURN(ExprPtr b, BindExpr(*a, ctx));
        args.push_back(b);
      }
      return CallFunction("substr", std::move(args), expr.pos);
    }
    case ast::ExprKind::kTrim: {
      std::vector<ExprPtr> args;
      for (const ast::ExprPtr& a : expr.args) {
        if (a == nullptr) continue;
        SQE_ASSIGN_OR_RETURN(ExprPtr b, BindExpr(*a, ctx));
        args.push_back(b);
      }
      std::string spec = Lower(expr.text);
      std::string fn = spec == "leading" ? "ltrim" : spec == "trailing" ? "rtrim" : "trim";
      return CallFunction(fn, std::move(args), expr.pos);
    }
    case ast::ExprKind::kNamedArgument:
      return ErrorAt(expr.pos, "named arguments (=>) are only allowed in CALL and table functions");
  }
  return ErrorAt(expr.pos, "unsupported expression");
}

Result<IntervalAmount> ParseIntervalLiteral(const ast::Expr& literal) {
  const ast::Expr* interval = &literal;
  std::string from = Binder::Lower(interval->interval_from);
  std::string to = Binder::Lower(interval->interval_to);
  std::string text = interval->text;
  bool negative = interval->negated;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = negative != (text[0] == '-');
    text = text.substr(1);
  }
  std::string unit;
  int64_t amount = 0;
  auto parse_int = [&](const std::string& s, int64_t* out) {
    if (s.empty()) return false;
    int64_t v = 0;
    for (char c : s) {
      if (c < '0' || c > '9') return false;
      v = v * 10 + (c - '0');
      if (v > (int64_t{1} << 50)) return false;
    }
    *out = v;
    return true;
  };
  if (to.empty()) {
    unit = IntervalUnit(from);
    if (unit == "second" && text.find('.') != std::string::npos) {
      double seconds = std::strtod(text.c_str(), nullptr);
      unit = "millisecond";
      amount = static_cast<int64_t>(std::llround(seconds * 1000));
    } else if (!parse_int(text, &amount)) {
      return Status::InvalidArgument("Invalid INTERVAL " + from + " value: '" + interval->text +
                                     "'");
    }
  } else if (from == "year" && to == "month") {
    size_t dash = text.find('-');
    int64_t years = 0, months = 0;
    if (dash == std::string::npos || !parse_int(text.substr(0, dash), &years) ||
        !parse_int(text.substr(dash + 1), &months)) {
      return Status::InvalidArgument("Invalid INTERVAL YEAR TO MONTH value: '" + interval->text +
                                     "'");
    }
    unit = "month";
    amount = years * 12 + months;
  } else {
    // DAY TO SECOND and friends: "d hh:mm:ss[.fff]" as milliseconds.
    int64_t days = 0;
    std::string rest = text;
    size_t space = text.find(' ');
    if (space != std::string::npos) {
      if (!parse_int(text.substr(0, space), &days)) {
        return Status::InvalidArgument("Invalid INTERVAL value: '" + interval->text + "'");
      }
      rest = text.substr(space + 1);
    } else if (from == "day") {
      if (!parse_int(text, &days)) {
        return Status::InvalidArgument("Invalid INTERVAL value: '" + interval->text + "'");
      }
      rest.clear();
    }
    double seconds = 0;
    if (!rest.empty()) {
      int64_t h = 0, m = 0;
      double s = 0;
      if (std::sscanf(rest.c_str(), "%ld:%ld:%lf", &h, &m, &s) < 2) {
        return Status::InvalidArgument("Invalid INTERVAL value: '" + interval->text + "'");
      }
      seconds = static_cast<double>(h) * 3600 + static_cast<double>(m) * 60 + s;
    }
    unit = "millisecond";
    amount = days * 86400000 + static_cast<int64_t>(std::llround(seconds * 1000));
  }
  if (negative) amount = -amount;
  return IntervalAmount{unit, amount};
}

Result<ExprPtr> Binder::BindFunctionCall(const ast::Expr& expr, ExprContext& ctx) {
  std::string name = Lower(expr.name.parts.back());
  if (expr.window != nullptr) return WindowColumn(expr, ctx);
  if (registry_.IsAggregate(name) && !registry_.IsScalar(name)) {
    return ErrorAt(expr.pos, std::string(ctx.clause) + " clause cannot contain aggregations: " +
                                 expr.name.ToString() + "(...)");
  }
  if (IsGroupingCall(expr)) {
    return ErrorAt(expr.pos, std::string(ctx.clause) + " clause cannot contain grouping()");
  }
  if (expr.distinct || expr.count_star || expr.filter != nullptr) {
    return ErrorAt(expr.pos, "DISTINCT, * and FILTER are only allowed in aggregate functions");
  }
  for (const ast::ExprPtr& a : expr.args) {
    if (a->kind == ast::ExprKind::kLambda) return BindLambdaCall(name, expr, ctx);
  }
  if (name == "to_milliseconds" && expr.args.size() == 1 && IsIntervalExpr(*expr.args[0])) {
    return BindToMilliseconds(expr, ctx);  // bind_interval.cc
  }
  // The step as an INTERVAL literal, possibly negated (- INTERVAL '1' DAY).
  const ast::Expr* interval_step = nullptr;
  bool negated_step = false;
  if (name == "sequence" && expr.args.size() == 3) {
    const ast::Expr* a = expr.args[2].get();
    while (a->kind == ast::ExprKind::kUnary && a->left != nullptr &&
           (a->op == "-" || a->op == "+")) {
      negated_step ^= a->op == "-";
      a = a->left.get();
    }
    if (a->kind == ast::ExprKind::kIntervalLiteral) interval_step = a;
  }
  if (interval_step != nullptr) {
    // No INTERVAL type: the step reaches the kernel (exec/functions/sequence.cc)
    // as an amount of months or of milliseconds.
    Result<IntervalAmount> step = ParseIntervalLiteral(*interval_step);
    if (!step.ok()) return ErrorAt(interval_step->pos, step.status().message());
    if (negated_step) step->amount = -step->amount;
    const bool months = step->unit == "year" || step->unit == "month";
    const int64_t scale = step->unit == "year"     ? 12
                          : step->unit == "day"    ? 86'400'000
                          : step->unit == "hour"   ? 3'600'000
                          : step->unit == "minute" ? 60'000
                          : step->unit == "second" ? 1'000
                                                   : 1;
    int64_t amount = 0;
    if (__builtin_mul_overflow(step->amount, scale, &amount)) {
      return ErrorAt(expr.args[2]->pos,
                     "INTERVAL value out of range: '" + expr.args[2]->text + "'");
    }
    std::vector<ExprPtr> args;
    for (size_t k = 0; k < 2; ++k) {
      SQE_ASSIGN_OR_RETURN(ExprPtr bound, BindExpr(*expr.args[k], ctx));
      args.push_back(std::move(bound));
    }
    args.push_back(Expr::Literal(exec::Value::BigInt(amount)));
    args.push_back(Expr::Literal(exec::Value::Varchar(months ? "month" : "millisecond")));
    return CallFunction("$sequence_interval", std::move(args), expr.pos);
  }
  std::vector<ExprPtr> args;
  const bool is_try = name == "try";
  if (is_try) ++try_depth_;
  for (const ast::ExprPtr& a : expr.args) {
    Result<ExprPtr> b = BindExpr(*a, ctx);
    if (!b.ok()) {
      if (is_try) --try_depth_;
      return b.status();
    }
    args.push_back(std::move(*b));
  }
  if (is_try) --try_depth_;
  if (name == "typeof") {
    if (args.size() != 1) return ErrorAt(expr.pos, "typeof takes one argument");
    return Expr::Literal(exec::Value::Varchar(TypeOfName(args[0]->type)));
  }
  if (name == "coalesce") {
    if (args.empty()) return ErrorAt(expr.pos, "coalesce needs at least one argument");
    columnar::TypePtr type;
    for (const ExprPtr& a : args) {
      if (a->type == nullptr) continue;
      if (type == nullptr) {
        type = a->type;
        continue;
      }
      auto common = exec::CommonSuperType(type, a->type);
      if (!common.has_value()) {
        return ErrorAt(expr.pos, "All COALESCE operands must be the same type: " +
                                     type->ToString() + " vs " + a->type->ToString());
      }
      type = *common;
    }
    if (type == nullptr) return Expr::Literal(exec::Value());
    for (ExprPtr& a : args) {
      SQE_ASSIGN_OR_RETURN(a, CastTo(a, type, expr.pos));
    }
    if (args.size() == 1) return args[0];
    return Fold(Expr::Make(ExprKind::kCoalesce, std::move(args), type));
  }
  if (name == "if") {
    if (args.size() < 2 || args.size() > 3) {
      return ErrorAt(expr.pos, "if(condition, true_value[, false_value]) takes 2 or 3 arguments");
    }
    ast::Expr as_case;
    as_case.kind = ast::ExprKind::kCase;
    as_case.pos = expr.pos;
    as_case.when_clauses.push_back({expr.args[0], expr.args[1]});
    if (expr.args.size() == 3) as_case.else_result = expr.args[2];
    return BindExpr(as_case, ctx);
  }
  return CallFunction(name, std::move(args), expr.pos);
}

Result<ExprPtr> Binder::BindLambdaCall(const std::string& name, const ast::Expr& expr,
                                       ExprContext& ctx) {
  std::vector<ExprPtr> args;
  std::vector<columnar::TypePtr> types;
  // Binds lambda argument i (the types of the arguments before it known).
  auto bind_lambda = [&](size_t i) -> Result<ExprPtr> {
    const ast::Expr& a = *expr.args[i];
    auto param_types = exec::LambdaParameterTypes(name, i, types);
    if (!param_types.ok()) return ErrorAt(a.pos, param_types.status().message());
    if (param_types->size() != a.lambda_params.size()) {
      return ErrorAt(a.pos, "the lambda argument " + std::to_string(i + 1) + " of " + name +
                                " takes " + std::to_string(param_types->size()) +
                                " parameter(s), not " + std::to_string(a.lambda_params.size()));
    }
    const size_t depth = lambda_params_.size();
    std::string names;
    for (size_t p = 0; p < param_types->size(); ++p) {
      auto param = std::make_shared<Expr>();
      param->kind = ExprKind::kLambdaParam;
      param->column = static_cast<int32_t>(depth + p);
      param->name = a.lambda_params[p];
      param->type = (*param_types)[p];
      names += (p ? ", " : "") + a.lambda_params[p];
      lambda_params_.emplace_back(Lower(a.lambda_params[p]), std::move(param));
    }
    Result<ExprPtr> body = BindExpr(*a.left, ctx);
    lambda_params_.resize(depth);
    if (!body.ok()) return body.status();
    ExprPtr b = *body;
    if (b->type == nullptr) b = Expr::Literal(exec::Value::Null(columnar::Boolean()));
    auto lambda = std::make_shared<Expr>();
    lambda->kind = ExprKind::kLambda;
    lambda->column = static_cast<int32_t>(param_types->size());
    lambda->name = names;
    lambda->type = b->type;
    lambda->args.push_back(std::move(b));
    return ExprPtr(lambda);
  };
  for (size_t i = 0; i < expr.args.size(); ++i) {
    if (expr.args[i]->kind != ast::ExprKind::kLambda) {
      SQE_ASSIGN_OR_RETURN(ExprPtr b, BindExpr(*expr.args[i], ctx));
      types.push_back(b->type);
      args.push_back(std::move(b));
      continue;
    }
    SQE_ASSIGN_OR_RETURN(ExprPtr lambda, bind_lambda(i));
    // reduce's state takes the type both the initial value and the input function's
    // result coerce to: reduce(bigint_array, 0, (s, x) -> s + x, s -> s) sums in bigint.
    if (name == "reduce" && i == 2 && types[1] != nullptr && !types[1]->Equals(*lambda->type)) {
      auto common = exec::CommonSuperType(types[1], lambda->type);
      if (common.has_value() && !(*common)->Equals(*types[1])) {
        types[1] = *common;
        SQE_ASSIGN_OR_RETURN(lambda, bind_lambda(i));
      }
    }
    types.push_back(lambda->type);
    args.push_back(std::move(lambda));
  }
  auto fn = registry_.ResolveScalar(name, types);
  if (!fn.ok()) return ErrorAt(expr.pos, fn.status().message());
  for (size_t i = 0; i < args.size() && i < (*fn)->arg_types.size(); ++i) {
    const columnar::TypePtr& want = (*fn)->arg_types[i];
    if (args[i]->kind != ExprKind::kLambda) {
      SQE_ASSIGN_OR_RETURN(args[i], CastTo(args[i], want, expr.pos));
      continue;
    }
    if (want == nullptr || args[i]->type->Equals(*want)) continue;
    auto lambda = std::make_shared<Expr>(*args[i]);
    SQE_ASSIGN_OR_RETURN(lambda->args[0], CastTo(lambda->args[0], want, expr.args[i]->pos));
    lambda->type = want;
    args[i] = std::move(lambda);
  }
  return Expr::Call(*fn, std::move(args), (*fn)->return_type);
}

// --- subqueries --------------------------------------------------------------------------------

Result<std::vector<ExprPtr>> Binder::BindWhere(const ast::Expr& where, const Scope* scope,
                                               LogicalPtr* plan, Decorrelation* decorrelation,
                                               bool filter_plain_first) {
  std::vector<const ast::Expr*> conjuncts = AstConjuncts(where);
  // With filter_plain_first, conjuncts[0, first_with_subquery) hold no subquery: what is
  // bound so far filters *plan before each later conjunct's subqueries are bound, so the
  // outer values a correlated subquery is decorrelated over are the filtered ones.
  size_t first_with_subquery = conjuncts.size();
  if (filter_plain_first) {
    auto split = std::stable_partition(conjuncts.begin(), conjuncts.end(),
                                       [](const ast::Expr* c) { return !ContainsSubquery(*c); });
    first_with_subquery = static_cast<size_t>(split - conjuncts.begin());
  }
  std::vector<ExprPtr> out;
  for (size_t i = 0; i < conjuncts.size(); ++i) {
    const ast::Expr* c = conjuncts[i];
    if (i >= first_with_subquery && !out.empty()) {
      *plan = FilterNode(*plan, std::move(out));
      out.clear();
    }
    const ast::Expr* inner = c;
    bool negated = false;
    if (c->kind == ast::ExprKind::kNot &&
        (c->left->kind == ast::ExprKind::kExists || c->left->kind == ast::ExprKind::kInSubquery)) {
      inner = c->left.get();
      negated = true;
    }
    if (inner->kind == ast::ExprKind::kExists || inner->kind == ast::ExprKind::kInSubquery) {
      bool neg = negated != inner->negated;
      SQE_RETURN_NOT_OK(BindSubqueryJoin(*inner, neg, false, scope, plan).status());
      continue;
    }
    ExprContext ctx;
    ctx.scope = scope;
    ctx.plan = plan;
    ctx.clause = "WHERE";
    SQE_ASSIGN_OR_RETURN(ExprPtr bound, BindPredicate(*c, ctx));
    std::vector<ExprPtr> parts;
    SplitAnd(bound, &parts);
    for (const ExprPtr& p : parts) {
      if (decorrelation != nullptr && ReadsOutside(*p, **plan)) {
        decorrelation->correlated.push_back(p);
        continue;
      }
      out.push_back(p);
    }
  }
  return out;
}

namespace {

bool SimpleSelect(const ast::Query& query) {
  return query.body->kind == ast::QueryBodyKind::kSelect && !query.with.has_value() &&
         query.order_by.empty() && query.limit == nullptr && query.offset == nullptr;
}

ExprPtr BoolOr(std::vector<ExprPtr> args) {
  return Expr::Make(ExprKind::kOr, std::move(args), columnar::Boolean());
}

ExprPtr NullBool() { return Expr::Literal(exec::Value::Null(columnar::Boolean())); }

ExprPtr BoolLiteral(bool v) { return Expr::Literal(exec::Value::Boolean(v)); }

}  // namespace

Result<ExprPtr> Binder::BindSubqueryJoin(const ast::Expr& expr, bool negated, bool as_mark,
                                         const Scope* scope, LogicalPtr* plan) {
  const ast::Query& query = *expr.subquery;
  CorrelationProbe probe;
  probe.outer = scope;
  probes_.push_back(&probe);
  Decorrelation decorrelation;
  decorrelation.pass_through_correlated_columns = true;
  Result<QueryPlan> sub = Status::OK();
  if (SimpleSelect(query)) {
    sub = BindSelect(*query.body->select, scope, current_ctes_, nullptr, &decorrelation);
    if (sub.ok() && !decorrelation.correlated.empty() &&
        Decorrelator::IsCorrelatedTo(*sub->plan, **plan)) {
      // Outer references outside the WHERE too: decorrelate the whole subquery instead.
      decorrelation = Decorrelation();
      sub = BindQueryNode(query, scope, current_ctes_);
    }
  } else {
    sub = BindQueryNode(query, scope, current_ctes_);
  }
  probes_.pop_back();
  SQE_RETURN_NOT_OK(sub.status());
  LogicalPtr sub_plan = MapGroupKeys(sub->plan, **plan, &decorrelation.correlated);
  // Correlation conditions between *plan and sub_plan.
  std::vector<ExprPtr> conditions = decorrelation.correlated;
  if (Decorrelator::IsCorrelatedTo(*sub_plan, **plan)) {
    Decorrelator decorrelator(*this, *plan);
    auto decorrelated = decorrelator.Decorrelate(sub_plan);
    if (!decorrelated.ok()) return ErrorAt(expr.pos, decorrelated.status().message());
    sub_plan = decorrelated->plan;
    conditions.insert(conditions.end(), decorrelated->conditions.begin(),
                      decorrelated->conditions.end());
  }
  const bool correlated = !conditions.empty();
  JoinType type = as_mark ? JoinType::kMark : negated ? JoinType::kAnti : JoinType::kSemi;
  auto make_join = [&](std::vector<ExprPtr> on, bool null_aware) -> ExprPtr {
    LogicalPtr join = JoinNode(*plan, sub_plan, type, std::move(on));
    join->null_aware = null_aware;
    *plan = join;
    if (type != JoinType::kMark) return nullptr;
    ColumnInfo mark = NewColumn("$mark", columnar::Boolean());
    join->output.push_back(mark);
    return Expr::Column(mark.id, mark.type, mark.name);
  };
  if (expr.kind != ast::ExprKind::kInSubquery) {
    ExprPtr mark = make_join(std::move(conditions), false);
    if (mark != nullptr && negated) return Expr::Make(ExprKind::kNot, {mark}, columnar::Boolean());
    return mark;
  }
  // x IN (subquery); (a, b) [NOT] IN (SELECT x, y ...) compares rows (bind_row.cc).
  if (sub->names.size() != 1 && !PackRowInSubquery(*expr.left, sub->names.size(), &sub_plan)) {
    return ErrorAt(expr.pos,
                   "Multiple columns returned by subquery are not yet supported. "
                   "Found " +
                       std::to_string(sub->names.size()));
  }
  ExprContext ctx;
  ctx.scope = scope;
  ctx.plan = plan;
  ctx.clause = "IN";
  SQE_ASSIGN_OR_RETURN(ExprPtr value, BindExpr(*expr.left, ctx));
  const ColumnInfo& c = sub_plan->output[0];
  ExprPtr item = Expr::Column(c.id, c.type, c.name);
  SQE_ASSIGN_OR_RETURN(ExprPtr eq, CallFunction("=", {value, item}, expr.pos));
  // Nested: x, the correlation or the subquery refers to a query further out, whose own
  // decorrelation pairs each row here with each of its values.
  std::vector<ExprPtr> references = conditions;
  references.push_back(value);
  const bool nested = ReferencesBeyond(references, **plan, *sub_plan) ||
                      !Decorrelator::FreeColumns(*sub_plan).empty();
  // Arrays, maps and rows compare element by element, so "unknown" is a property of a pair,
  // not of one key: ARRAY[1] = ARRAY[2, NULL] is FALSE, ARRAY[1, NULL] = ARRAY[1, NULL] NULL.
  // Their NOT IN and IN as a value ask each pair whether x = y is unknown (below), never
  // the null-aware hash join.
  const bool nested_key = value->type != nullptr && value->type->is_nested();
  if (!correlated && !nested && (!nested_key || type == JoinType::kSemi)) {
    // The hash join's null-aware mode: NULLs anywhere on the build side count.
    std::vector<ExprPtr> on = {eq};
    ExprPtr mark = make_join(std::move(on), type != JoinType::kSemi);
    if (mark != nullptr && negated) return Expr::Make(ExprKind::kNot, {mark}, columnar::Boolean());
    return mark;
  }
  // Correlated: NULLs count only among the rows of the outer row's own subquery result, so
  // no null-aware join: x IN S is TRUE when some row has y = x, else NULL when some row has
  // y or x NULL, else FALSE.
  if (type == JoinType::kSemi) {
    conditions.insert(conditions.begin(), eq);
    make_join(std::move(conditions), false);
    return ExprPtr();
  }
  ExprPtr x_null = Expr::Make(ExprKind::kIsNull, {value}, columnar::Boolean());
  if (!nested) {
    // One level: joins on the NULL tests, x = y or the correlation as their hash key (for
    // nested values: x = y is NULL, with the correlation as the key, if any).
    ExprPtr unknown =
        nested_key ? Expr::Make(ExprKind::kIsNull, {eq}, columnar::Boolean())
                   : BoolOr({Expr::Make(ExprKind::kIsNull, {item}, columnar::Boolean()), x_null});
    if (type == JoinType::kAnti) {
      // NOT IN keeps the rows whose answer is FALSE: no row equal, no row unknown.
      conditions.push_back(BoolOr({eq, unknown}));
      make_join(std::move(conditions), false);
      return ExprPtr();
    }
    std::vector<ExprPtr> match = conditions;
    match.insert(match.begin(), eq);
    ExprPtr found = make_join(std::move(match), false);
    conditions.push_back(unknown);
    ExprPtr maybe = make_join(std::move(conditions), false);
    ExprPtr in = Expr::Make(ExprKind::kCase,
                            {found, BoolLiteral(true), maybe, NullBool(), BoolLiteral(false)},
                            columnar::Boolean());
    if (negated) return Expr::Make(ExprKind::kNot, {in}, columnar::Boolean());
    return in;
  }
  // Nested: a join on the NULL tests would have no hash key and meet every subquery row for
  // every outer value (and a null-aware join cannot take the outer values). The NULL answer
  // comes from the counts of the outer row's subquery rows instead (decorrelate.h), and the
  // join keeps x = y as its key.
  SQE_ASSIGN_OR_RETURN(InSubqueryCounts counts,
                       JoinInSubqueryCounts(*this, *plan, sub_plan, c, conditions));
  *plan = counts.plan;
  std::vector<ExprPtr> match = conditions;
  match.insert(match.begin(), eq);
  ExprPtr found = make_join(std::move(match), false);
  SQE_ASSIGN_OR_RETURN(ExprPtr some_null,
                       CallFunction("<", {counts.non_null, counts.rows}, expr.pos));
  if (type == JoinType::kAnti) {
    // NOT IN keeps the rows whose answer is FALSE: no row equal (the anti join), and no
    // rows at all or x and every y non-NULL.
    SQE_ASSIGN_OR_RETURN(
        ExprPtr empty,
        CallFunction("=", {counts.rows, Expr::Literal(exec::Value::BigInt(0))}, expr.pos));
    ExprPtr known = Expr::Make(ExprKind::kAnd,
                               {Expr::Make(ExprKind::kNot, {x_null}, columnar::Boolean()),
                                Expr::Make(ExprKind::kNot, {some_null}, columnar::Boolean())},
                               columnar::Boolean());
    *plan = FilterNode(*plan, {BoolOr({empty, known})});
    return ExprPtr();
  }
  SQE_ASSIGN_OR_RETURN(
      ExprPtr any,
      CallFunction(">", {counts.rows, Expr::Literal(exec::Value::BigInt(0))}, expr.pos));
  ExprPtr maybe =
      Expr::Make(ExprKind::kAnd, {any, BoolOr({x_null, some_null})}, columnar::Boolean());
  ExprPtr in =
      Expr::Make(ExprKind::kCase, {found, BoolLiteral(true), maybe, NullBool(), BoolLiteral(false)},
                 columnar::Boolean());
  if (negated) return Expr::Make(ExprKind::kNot, {in}, columnar::Boolean());
  return in;
}

Result<ExprPtr> Binder::BindScalarSubquery(const ast::Expr& expr, ExprContext& ctx) {
  const ast::Query& query = *expr.subquery;
  CorrelationProbe probe;
  probe.outer = ctx.scope;
  probes_.push_back(&probe);
  Decorrelation decorrelation;
  decorrelation.group_by_correlation = true;
  Result<QueryPlan> sub = Status::OK();
  if (SimpleSelect(query)) {
    sub = BindSelect(*query.body->select, ctx.scope, current_ctes_, nullptr, &decorrelation);
    if (sub.ok() && !decorrelation.correlated.empty() && ctx.plan != nullptr &&
        Decorrelator::IsCorrelatedTo(*sub->plan, **ctx.plan)) {
      // Outer references outside the WHERE too: decorrelate the whole subquery instead.
      decorrelation = Decorrelation();
      sub = BindQueryNode(query, ctx.scope, current_ctes_);
    }
  } else {
    sub = BindQueryNode(query, ctx.scope, current_ctes_);
  }
  probes_.pop_back();
  SQE_RETURN_NOT_OK(sub.status());
  if (ctx.plan != nullptr) {
    sub->plan = MapGroupKeys(sub->plan, **ctx.plan, &decorrelation.outer_keys);
    if (!decorrelation.correlated.empty() && Decorrelator::IsCorrelatedTo(*sub->plan, **ctx.plan)) {
      // Group-key references outside the WHERE too: decorrelate the whole subquery.
      decorrelation = Decorrelation();
      probes_.push_back(&probe);
      sub = BindQueryNode(query, ctx.scope, current_ctes_);
      probes_.pop_back();
      SQE_RETURN_NOT_OK(sub.status());
      sub->plan = MapGroupKeys(sub->plan, **ctx.plan);
    }
  }
  size_t keys = decorrelation.inner_key_columns.size();
  if (sub->names.size() != keys + 1) {
    return ErrorAt(expr.pos, "Multiple columns returned by subquery are not yet supported. Found " +
                                 std::to_string(sub->names.size() - keys));
  }
  if (!probe.correlated) {
    // Uncorrelated: run it now and use its value.
    SQE_ASSIGN_OR_RETURN(std::vector<columnar::Batch> batches, catalog_.Execute(sub->plan));
    const ColumnInfo& c = sub->plan->output[0];
    int64_t rows = 0;
    exec::Value value = exec::Value::Null(c.type);
    for (const columnar::Batch& b : batches) {
      if (b.num_rows() == 0) continue;
      rows += b.num_rows();
      if (rows > 1) return ErrorAt(expr.pos, "Scalar sub-query has returned multiple rows");
      SQE_ASSIGN_OR_RETURN(value, exec::Value::FromColumn(b.column(0), 0));
    }
    return Expr::Literal(value);
  }
  if (ctx.plan == nullptr) {
    return ErrorAt(expr.pos,
                   std::string("correlated subqueries are not supported in ") + ctx.clause);
  }
  if (decorrelation.correlated.empty()) {
    // General: the subquery over the domain of its outer values, checked for one row per
    // value unless it is an aggregate, LEFT JOINed on the values.
    ColumnInfo value = sub->plan->output[0];
    Decorrelator decorrelator(*this, *ctx.plan);
    auto decorrelated = decorrelator.Decorrelate(sub->plan);
    if (!decorrelated.ok()) return ErrorAt(expr.pos, decorrelated.status().message());
    DecorrelatedPlan d = std::move(*decorrelated);
    if (!IsSingleRow(*sub->plan)) {
      SQE_ASSIGN_OR_RETURN(d, EnforceSingleRow(*this, d, &value));
    }
    *ctx.plan = JoinNode(*ctx.plan, d.plan, JoinType::kLeft, d.conditions);
    return Expr::Column(value.id, value.type, value.name);
  }
  // LEFT JOIN the grouped subquery on its correlation keys; the value is its last column.
  std::vector<ExprPtr> conditions;
  for (size_t i = 0; i < keys; ++i) {
    const ColumnInfo& k = sub->plan->output[i];
    SQE_ASSIGN_OR_RETURN(
        ExprPtr eq,
        CallFunction("=", {decorrelation.outer_keys[i], Expr::Column(k.id, k.type, k.name)},
                     expr.pos));
    conditions.push_back(eq);
  }
  const ColumnInfo value = sub->plan->output[keys];
  *ctx.plan = JoinNode(*ctx.plan, sub->plan, JoinType::kLeft, std::move(conditions));
  ExprPtr ref = Expr::Column(value.id, value.type, value.name);
  // An outer row without inner rows finds no group: count-like aggregates must read 0
  // there, as over an empty input, not NULL.
  if (CountsToZero(*sub->plan, value.id)) {
    return Fold(Expr::Make(ExprKind::kCoalesce,
                           {ref, Expr::Literal(exec::Value(value.type, int64_t{0}))}, value.type));
  }
  return ref;
}

Result<ExprPtr> Binder::BindQuantified(const ast::Expr& expr, ExprContext& ctx) {
  std::string op = expr.op == "!=" ? "<>" : expr.op;
  const bool all = Lower(expr.quantifier) == "all";
  if ((op == "=" && !all) || (op == "<>" && all)) {
    ast::Expr in = expr;
    in.kind = ast::ExprKind::kInSubquery;
    in.negated = op == "<>";
    return BindExpr(in, ctx);
  }
  if (ctx.plan == nullptr) {
    return ErrorAt(expr.pos, std::string("subqueries are not supported in ") + ctx.clause);
  }
  SQE_ASSIGN_OR_RETURN(ExprPtr x, BindExpr(*expr.left, ctx));
  CorrelationProbe probe;
  probe.outer = ctx.scope;
  probes_.push_back(&probe);
  Result<QueryPlan> sub = BindQueryNode(*expr.subquery, ctx.scope, current_ctes_);
  probes_.pop_back();
  SQE_RETURN_NOT_OK(sub.status());
  if (sub->names.size() != 1) {
    return ErrorAt(expr.pos, "Multiple columns returned by subquery are not yet supported. Found " +
                                 std::to_string(sub->names.size()));
  }
  // The subquery as count(*), count(y), min(y), max(y): enough to decide every comparison.
  const ColumnInfo y = sub->plan->output[0];
  LogicalPtr agg = MakeNode(LogicalKind::kAggregate);
  agg->children.push_back(MapGroupKeys(sub->plan, **ctx.plan));
  struct Spec {
    const char* name;
    bool arg;
  };
  for (Spec spec :
       {Spec{"count", false}, Spec{"count", true}, Spec{"min", true}, Spec{"max", true}}) {
    std::vector<columnar::TypePtr> types;
    AggregateSpec a;
    if (spec.arg) {
      types.push_back(y.type);
      a.args.push_back(Expr::Column(y.id, y.type, y.name));
    }
    auto fn = registry_.ResolveAggregate(spec.name, types, false);
    if (!fn.ok()) return ErrorAt(expr.pos, fn.status().message());
    a.function = *fn;
    agg->aggregates.push_back(std::move(a));
    agg->output.push_back(NewColumn(std::string("$") + spec.name, (*fn)->return_type));
  }
  std::vector<ExprPtr> stats;  // rows, non-null rows, min, max
  if (!probe.correlated) {
    SQE_ASSIGN_OR_RETURN(std::vector<columnar::Batch> batches, catalog_.Execute(agg));
    for (size_t i = 0; i < agg->output.size(); ++i) {
      exec::Value v = exec::Value::Null(agg->output[i].type);
      for (const columnar::Batch& b : batches) {
        if (b.num_rows() == 0) continue;
        SQE_ASSIGN_OR_RETURN(v, exec::Value::FromColumn(b.column(static_cast<int>(i)), 0));
        break;
      }
      stats.push_back(Expr::Literal(v));
    }
  } else {
    Decorrelator decorrelator(*this, *ctx.plan);
    auto decorrelated = decorrelator.Decorrelate(agg);
    if (!decorrelated.ok()) return ErrorAt(expr.pos, decorrelated.status().message());
    *ctx.plan = JoinNode(*ctx.plan, decorrelated->plan, JoinType::kLeft, decorrelated->conditions);
    for (const ColumnInfo& c : agg->output) stats.push_back(Expr::Column(c.id, c.type, c.name));
  }
  const ExprPtr& rows = stats[0];
  const ExprPtr& non_null = stats[1];
  const ExprPtr& min = stats[2];
  const ExprPtr& max = stats[3];
  // The comparison that decides: x > ALL (S) is x > max(S), x > ANY (S) is x > min(S), ...
  ExprPtr decides;
  if (op == "=" || op == "<>") {
    SQE_ASSIGN_OR_RETURN(ExprPtr with_min, CallFunction(op, {x, min}, expr.pos));
    SQE_ASSIGN_OR_RETURN(ExprPtr with_max, CallFunction(op, {x, max}, expr.pos));
    decides = Expr::Make(op == "=" ? ExprKind::kAnd : ExprKind::kOr, {with_min, with_max},
                         columnar::Boolean());
  } else {
    const bool greater = op == ">" || op == ">=";
    SQE_ASSIGN_OR_RETURN(decides, CallFunction(op, {x, greater == all ? max : min}, expr.pos));
  }
  SQE_ASSIGN_OR_RETURN(ExprPtr empty,
                       CallFunction("=", {rows, Expr::Literal(exec::Value::BigInt(0))}, expr.pos));
  SQE_ASSIGN_OR_RETURN(ExprPtr has_null, CallFunction("<", {non_null, rows}, expr.pos));
  ExprPtr x_null = Expr::Make(ExprKind::kIsNull, {x}, columnar::Boolean());
  // ALL: TRUE over no rows; FALSE when a row decides against; NULL when x or a row is NULL.
  // ANY: FALSE over no rows; TRUE when a row decides for; NULL when x or a row is NULL.
  ExprPtr decisive = all ? Expr::Make(ExprKind::kNot, {decides}, columnar::Boolean()) : decides;
  return Fold(Expr::Make(ExprKind::kCase,
                         {empty, BoolLiteral(all), x_null, NullBool(), decisive, BoolLiteral(!all),
                          has_null, NullBool(), BoolLiteral(all)},
                         columnar::Boolean()));
}

}  // namespace sqe::planner
