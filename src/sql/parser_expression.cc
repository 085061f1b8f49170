// Expressions, by Trino's precedence from loosest to tightest: OR, AND, NOT, predicates
// (comparison, IS, BETWEEN, IN, LIKE), ||, + -, * / %, unary - +, AT TIME ZONE, then
// subscripts / dereferences on a primary expression.
#include <cctype>

#include "sql/parser_internal.h"

namespace sqe::sql {
namespace {

using ast::Expr;
using ast::ExprKind;
using ast::ExprPtr;

ExprPtr Make(ExprKind kind, const SourcePosition& pos) {
  auto e = std::make_shared<Expr>();
  e->kind = kind;
  e->pos = pos;
  return e;
}

ExprPtr MakeBinary(std::string op, const SourcePosition& op_pos, ExprPtr left, ExprPtr right) {
  auto e = Make(ExprKind::kBinary, left->pos);
  e->op = std::move(op);
  e->op_pos = op_pos;
  e->left = std::move(left);
  e->right = std::move(right);
  return e;
}

// Joins the terms of an AND / OR chain. Short chains nest to the left as written; long
// ones (generated SQL with thousands of ORs) become a balanced tree, which AND and OR allow
// as they are associative, so no later recursive pass goes thousands of levels deep.
ExprPtr Balanced(const std::string& op, std::vector<ExprPtr>& terms, size_t begin, size_t end) {
  if (end - begin == 1) return terms[begin];
  const size_t mid = begin + (end - begin) / 2;
  ExprPtr left = Balanced(op, terms, begin, mid);
  const SourcePosition op_pos = terms[mid]->pos;  // AND / OR: the right operand's start
  return MakeBinary(op, op_pos, std::move(left), Balanced(op, terms, mid, end));
}

ExprPtr Associate(const std::string& op, std::vector<ExprPtr> terms) {
  constexpr size_t kLeftDeepMax = 32;
  if (terms.size() > kLeftDeepMax) return Balanced(op, terms, 0, terms.size());
  ExprPtr out = std::move(terms[0]);
  for (size_t i = 1; i < terms.size(); ++i) {
    const SourcePosition op_pos = terms[i]->pos;  // AND / OR: the right operand's start
    out = MakeBinary(op, op_pos, std::move(out), std::move(terms[i]));
  }
  return out;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

constexpr std::string_view kComparisons[] = {"=", "<>", "!=", "<=", ">=", "<", ">"};
constexpr std::string_view kIntervalFields[] = {"YEAR", "MONTH",  "WEEK",  "DAY",
                                                "HOUR", "MINUTE", "SECOND"};
// Words written without parentheses that stand for a value of the session or the clock.
constexpr std::string_view kSpecials[] = {
    "current_date", "current_time",    "current_timestamp", "localtime",    "localtimestamp",
    "current_user", "current_catalog", "current_schema",    "current_path", "current_role"};

}  // namespace

bool Parser::StartsQuery(size_t ahead) const {
  const Token& t = Peek(ahead);
  return t.IsKeyword("select") || t.IsKeyword("with") || t.IsKeyword("values") ||
         (t.IsKeyword("table") && !Peek(ahead + 1).IsOperator("("));
}

Result<ExprPtr> Parser::ParseExpr() {
  DepthGuard guard(&depth_);
  SQE_RETURN_NOT_OK(CheckNesting());
  std::vector<ExprPtr> terms;
  do {
    SQE_ASSIGN_OR_RETURN(ExprPtr term, ParseAnd());
    terms.push_back(std::move(term));
  } while (Accept("or"));
  return Associate("OR", std::move(terms));
}

Result<ExprPtr> Parser::ParseAnd() {
  std::vector<ExprPtr> terms;
  do {
    SQE_ASSIGN_OR_RETURN(ExprPtr term, ParseNot());
    terms.push_back(std::move(term));
  } while (Accept("and"));
  return Associate("AND", std::move(terms));
}

Result<ExprPtr> Parser::ParseNot() {
  DepthGuard guard(&depth_);
  SQE_RETURN_NOT_OK(CheckNesting());
  if (Is("not")) {
    auto e = Make(ExprKind::kNot, Current().position);
    Advance();
    SQE_ASSIGN_OR_RETURN(e->left, ParseNot());
    return e;
  }
  return ParsePredicate();
}

Result<ExprPtr> Parser::ParsePredicate() {
  SQE_ASSIGN_OR_RETURN(ExprPtr left, ParseValueExpr());
  const SourcePosition pos = left->pos;
  for (std::string_view op : kComparisons) {
    if (!IsOp(op)) continue;
    const SourcePosition op_pos = Current().position;
    Advance();
    if ((Is("any") || Is("some") || Is("all")) && IsOpAt(1, "(")) {
      auto e = Make(ExprKind::kQuantified, pos);
      e->op = std::string(op);
      e->quantifier = Upper(Current().text);
      e->left = std::move(left);
      Advance();
      Advance();
      SQE_ASSIGN_OR_RETURN(e->subquery, ParseQuery());
      SQE_RETURN_NOT_OK(ExpectOp(")"));
      return e;
    }
    SQE_ASSIGN_OR_RETURN(ExprPtr right, ParseValueExpr());
    return MakeBinary(std::string(op), op_pos, std::move(left), std::move(right));
  }
  if (Accept("is")) {
    bool negated = Accept("not");
    if (Accept("null")) {
      auto e = Make(ExprKind::kIsNull, pos);
      e->negated = negated;
      e->left = std::move(left);
      return e;
    }
    SQE_RETURN_NOT_OK(Expect("distinct"));
    SQE_RETURN_NOT_OK(Expect("from"));
    auto e = Make(ExprKind::kIsDistinctFrom, pos);
    e->negated = negated;
    e->left = std::move(left);
    SQE_ASSIGN_OR_RETURN(e->right, ParseValueExpr());
    return e;
  }
  bool negated = false;
  if (Is("not") && (IsAt(1, "between") || IsAt(1, "in") || IsAt(1, "like") || IsAt(1, "ilike"))) {
    negated = true;
    Advance();
  }
  if (Accept("between")) {
    auto e = Make(ExprKind::kBetween, pos);
    e->negated = negated;
    e->left = std::move(left);
    SQE_ASSIGN_OR_RETURN(e->low, ParseValueExpr());
    SQE_RETURN_NOT_OK(Expect("and"));
    SQE_ASSIGN_OR_RETURN(e->high, ParseValueExpr());
    return e;
  }
  if (Accept("in")) {
    SQE_RETURN_NOT_OK(ExpectOp("("));
    if (StartsQuery(0)) {
      auto e = Make(ExprKind::kInSubquery, pos);
      e->negated = negated;
      e->left = std::move(left);
      SQE_ASSIGN_OR_RETURN(e->subquery, ParseQuery());
      SQE_RETURN_NOT_OK(ExpectOp(")"));
      return e;
    }
    auto e = Make(ExprKind::kInList, pos);
    e->negated = negated;
    e->left = std::move(left);
    SQE_ASSIGN_OR_RETURN(e->args, ParseExprList());
    SQE_RETURN_NOT_OK(ExpectOp(")"));
    return e;
  }
  if (Is("like") || Is("ilike")) {
    auto e = Make(ExprKind::kLike, pos);
    e->ilike = Current().IsKeyword("ilike");
    Advance();
    e->negated = negated;
    e->left = std::move(left);
    SQE_ASSIGN_OR_RETURN(e->right, ParseValueExpr());
    if (Accept("escape")) {
      SQE_ASSIGN_OR_RETURN(e->escape, ParseValueExpr());
    }
    return e;
  }
  if (negated) return Mismatch();
  return left;
}

Result<ExprPtr> Parser::ParseValueExpr() {
  SQE_ASSIGN_OR_RETURN(ExprPtr left, ParseAdditive());
  for (size_t links = 1; IsOp("||"); ++links) {
    const SourcePosition op_pos = Current().position;
    Advance();
    SQE_RETURN_NOT_OK(CheckChain(links));
    SQE_ASSIGN_OR_RETURN(ExprPtr right, ParseAdditive());
    left = MakeBinary("||", op_pos, std::move(left), std::move(right));
  }
  return left;
}

Result<ExprPtr> Parser::ParseAdditive() {
  SQE_ASSIGN_OR_RETURN(ExprPtr left, ParseMultiplicative());
  for (size_t links = 1; IsOp("+") || IsOp("-"); ++links) {
    SQE_RETURN_NOT_OK(CheckChain(links));
    std::string op = Current().text;
    const SourcePosition op_pos = Current().position;
    Advance();
    SQE_ASSIGN_OR_RETURN(ExprPtr right, ParseMultiplicative());
    left = MakeBinary(std::move(op), op_pos, std::move(left), std::move(right));
  }
  return left;
}

Result<ExprPtr> Parser::ParseMultiplicative() {
  SQE_ASSIGN_OR_RETURN(ExprPtr left, ParseUnary());
  for (size_t links = 1; IsOp("*") || IsOp("/") || IsOp("%"); ++links) {
    SQE_RETURN_NOT_OK(CheckChain(links));
    std::string op = Current().text;
    const SourcePosition op_pos = Current().position;
    Advance();
    SQE_ASSIGN_OR_RETURN(ExprPtr right, ParseUnary());
    left = MakeBinary(std::move(op), op_pos, std::move(left), std::move(right));
  }
  return left;
}

Result<ExprPtr> Parser::ParseUnary() {
  DepthGuard guard(&depth_);
  SQE_RETURN_NOT_OK(CheckNesting());
  if (IsOp("-") || IsOp("+")) {
    auto e = Make(ExprKind::kUnary, Current().position);
    e->op = Current().text;
    Advance();
    SQE_ASSIGN_OR_RETURN(e->left, ParseUnary());
    return e;
  }
  return ParseAtTimeZone();
}

Result<ExprPtr> Parser::ParseAtTimeZone() {
  SQE_ASSIGN_OR_RETURN(ExprPtr left, ParsePostfix());
  for (size_t links = 1; Is("at") && IsAt(1, "time") && IsAt(2, "zone"); ++links) {
    SQE_RETURN_NOT_OK(CheckChain(links));
    Advance();
    Advance();
    Advance();
    auto e = Make(ExprKind::kAtTimeZone, left->pos);
    e->left = std::move(left);
    if (Is("local")) {
      e->right = Make(ExprKind::kSpecial, Current().position);
      e->right->text = "local";
      Advance();
    } else {
      SQE_ASSIGN_OR_RETURN(e->right, ParsePostfix());
    }
    left = std::move(e);
  }
  return left;
}

Result<ExprPtr> Parser::ParsePostfix() {
  SQE_ASSIGN_OR_RETURN(ExprPtr e, ParsePrimary());
  for (size_t links = 1;; ++links) {
    SQE_RETURN_NOT_OK(CheckChain(links));
    if (IsOp("[")) {
      auto s = Make(ExprKind::kSubscript, e->pos);
      Advance();
      s->left = std::move(e);
      SQE_ASSIGN_OR_RETURN(s->right, ParseExpr());
      SQE_RETURN_NOT_OK(ExpectOp("]"));
      e = std::move(s);
    } else if (IsOp(".") && IsIdentifier(1)) {
      Advance();
      auto d = Make(ExprKind::kDereference, e->pos);
      d->left = std::move(e);
      SQE_ASSIGN_OR_RETURN(d->text, ParseIdentifier());
      e = std::move(d);
    } else {
      return e;
    }
  }
}

Result<std::vector<ExprPtr>> Parser::ParseExprList() {
  std::vector<ExprPtr> out;
  do {
    SQE_ASSIGN_OR_RETURN(ExprPtr e, ParseExpr());
    out.push_back(std::move(e));
  } while (AcceptOp(","));
  return out;
}

Result<ExprPtr> Parser::ParseArgument() {
  if (IsIdentifier() && IsOpAt(1, "=>")) {
    auto e = Make(ExprKind::kNamedArgument, Current().position);
    e->text = Current().text;
    Advance();
    Advance();
    SQE_ASSIGN_OR_RETURN(e->left, ParseExpr());
    return e;
  }
  return ParseExpr();
}

Result<std::vector<ast::SortItem>> Parser::ParseSortItems() {
  std::vector<ast::SortItem> items;
  do {
    ast::SortItem item;
    SQE_ASSIGN_OR_RETURN(item.expr, ParseExpr());
    if (Accept("desc")) {
      item.ascending = false;
    } else {
      Accept("asc");
    }
    if (Accept("nulls")) {
      if (Accept("first")) {
        item.nulls = ast::NullOrdering::kFirst;
      } else {
        SQE_RETURN_NOT_OK(Expect("last"));
        item.nulls = ast::NullOrdering::kLast;
      }
    }
    items.push_back(std::move(item));
  } while (AcceptOp(","));
  return items;
}

Result<ast::FrameBound> Parser::ParseFrameBound() {
  ast::FrameBound bound;
  if (Accept("unbounded")) {
    if (Accept("preceding")) {
      bound.kind = ast::FrameBoundKind::kUnboundedPreceding;
    } else {
      SQE_RETURN_NOT_OK(Expect("following"));
      bound.kind = ast::FrameBoundKind::kUnboundedFollowing;
    }
    return bound;
  }
  if (Accept("current")) {
    SQE_RETURN_NOT_OK(Expect("row"));
    bound.kind = ast::FrameBoundKind::kCurrentRow;
    return bound;
  }
  SQE_ASSIGN_OR_RETURN(bound.offset, ParseValueExpr());
  if (Accept("preceding")) {
    bound.kind = ast::FrameBoundKind::kPreceding;
  } else {
    SQE_RETURN_NOT_OK(Expect("following"));
    bound.kind = ast::FrameBoundKind::kFollowing;
  }
  return bound;
}

Result<ast::WindowSpec> Parser::ParseWindowSpecBody() {
  ast::WindowSpec spec;
  if (IsIdentifier() && !Is("partition") && !Is("order") && !Is("rows") && !Is("range") &&
      !Is("groups")) {
    SQE_ASSIGN_OR_RETURN(spec.existing_name, ParseIdentifier());
  }
  if (Accept("partition")) {
    SQE_RETURN_NOT_OK(Expect("by"));
    SQE_ASSIGN_OR_RETURN(spec.partition_by, ParseExprList());
  }
  if (Accept("order")) {
    SQE_RETURN_NOT_OK(Expect("by"));
    SQE_ASSIGN_OR_RETURN(spec.order_by, ParseSortItems());
  }
  if (Is("rows") || Is("range") || Is("groups")) {
    ast::WindowFrame frame;
    frame.type = Current().IsKeyword("rows")    ? ast::FrameType::kRows
                 : Current().IsKeyword("range") ? ast::FrameType::kRange
                                                : ast::FrameType::kGroups;
    Advance();
    if (Accept("between")) {
      SQE_ASSIGN_OR_RETURN(frame.start, ParseFrameBound());
      SQE_RETURN_NOT_OK(Expect("and"));
      SQE_ASSIGN_OR_RETURN(ast::FrameBound end, ParseFrameBound());
      frame.end = std::move(end);
    } else {
      SQE_ASSIGN_OR_RETURN(frame.start, ParseFrameBound());
    }
    spec.frame = std::move(frame);
  }
  return spec;
}

Result<ExprPtr> Parser::ParseFunctionCall(ast::QualifiedName name, SourcePosition pos) {
  auto e = Make(ExprKind::kFunctionCall, pos);
  e->name = std::move(name);
  SQE_RETURN_NOT_OK(ExpectOp("("));
  if (IsOp("*") && IsOpAt(1, ")")) {
    Advance();
    e->count_star = true;
  } else if (!IsOp(")")) {
    if (Accept("distinct")) {
      e->distinct = true;
    } else {
      Accept("all");
    }
    do {
      SQE_ASSIGN_OR_RETURN(ExprPtr arg, ParseArgument());
      e->args.push_back(std::move(arg));
    } while (AcceptOp(","));
    if (Is("order") && IsAt(1, "by")) {
      Advance();
      Advance();
      SQE_ASSIGN_OR_RETURN(e->order_by, ParseSortItems());
    }
  }
  SQE_RETURN_NOT_OK(ExpectOp(")"));
  if (Is("filter") && IsOpAt(1, "(")) {
    Advance();
    Advance();
    SQE_RETURN_NOT_OK(Expect("where"));
    SQE_ASSIGN_OR_RETURN(e->filter, ParseExpr());
    SQE_RETURN_NOT_OK(ExpectOp(")"));
  }
  if ((Is("ignore") || Is("respect")) && IsAt(1, "nulls")) {
    e->null_treatment = Current().IsKeyword("ignore") ? ast::NullTreatment::kIgnoreNulls
                                                      : ast::NullTreatment::kRespectNulls;
    Advance();
    Advance();
  }
  if (Accept("over")) {
    auto spec = std::make_shared<ast::WindowSpec>();
    if (IsIdentifier()) {
      SQE_ASSIGN_OR_RETURN(spec->existing_name, ParseIdentifier());
    } else {
      SQE_RETURN_NOT_OK(ExpectOp("("));
      SQE_ASSIGN_OR_RETURN(*spec, ParseWindowSpecBody());
      SQE_RETURN_NOT_OK(ExpectOp(")"));
    }
    e->window = std::move(spec);
  }
  return e;
}

Result<ExprPtr> Parser::ParseCase() {
  auto e = Make(ExprKind::kCase, Current().position);
  SQE_RETURN_NOT_OK(Expect("case"));
  if (!Is("when")) {
    SQE_ASSIGN_OR_RETURN(e->left, ParseExpr());
  }
  do {
    SQE_RETURN_NOT_OK(Expect("when"));
    ast::WhenClause clause;
    SQE_ASSIGN_OR_RETURN(clause.when, ParseExpr());
    SQE_RETURN_NOT_OK(Expect("then"));
    SQE_ASSIGN_OR_RETURN(clause.then, ParseExpr());
    e->when_clauses.push_back(std::move(clause));
  } while (Is("when"));
  if (Accept("else")) {
    SQE_ASSIGN_OR_RETURN(e->else_result, ParseExpr());
  }
  SQE_RETURN_NOT_OK(Expect("end"));
  return e;
}

Result<ExprPtr> Parser::ParseIntervalLiteral() {
  auto e = Make(ExprKind::kIntervalLiteral, Current().position);
  SQE_RETURN_NOT_OK(Expect("interval"));
  if (AcceptOp("-")) {
    e->negated = true;
  } else {
    AcceptOp("+");
  }
  SQE_ASSIGN_OR_RETURN(e->text, ParseStringLiteral());
  auto field = [&](std::string* out) -> Status {
    for (std::string_view f : kIntervalFields) {
      if (Accept(f)) {
        *out = std::string(f);
        return Status::OK();
      }
    }
    return Mismatch();
  };
  SQE_RETURN_NOT_OK(field(&e->interval_from));
  if (Accept("to")) SQE_RETURN_NOT_OK(field(&e->interval_to));
  return e;
}

Result<ExprPtr> Parser::ParseParenthesized() {
  const SourcePosition pos = Current().position;
  if (StartsQuery(1)) {
    Advance();
    auto e = Make(ExprKind::kScalarSubquery, pos);
    SQE_ASSIGN_OR_RETURN(e->subquery, ParseQuery());
    SQE_RETURN_NOT_OK(ExpectOp(")"));
    return e;
  }
  // (a, b) -> ... and () -> ...
  size_t i = 1;
  bool lambda = false;
  if (IsOpAt(1, ")")) {
    lambda = IsOpAt(2, "->");
  } else {
    while (IsIdentifier(i)) {
      if (IsOpAt(i + 1, ",")) {
        i += 2;
      } else {
        lambda = IsOpAt(i + 1, ")") && IsOpAt(i + 2, "->");
        break;
      }
    }
  }
  if (lambda) {
    auto e = Make(ExprKind::kLambda, pos);
    Advance();
    if (!AcceptOp(")")) {
      do {
        SQE_ASSIGN_OR_RETURN(std::string p, ParseIdentifier());
        e->lambda_params.push_back(std::move(p));
      } while (AcceptOp(","));
      SQE_RETURN_NOT_OK(ExpectOp(")"));
    }
    SQE_RETURN_NOT_OK(ExpectOp("->"));
    SQE_ASSIGN_OR_RETURN(e->left, ParseExpr());
    return e;
  }
  Advance();
  SQE_ASSIGN_OR_RETURN(std::vector<ExprPtr> items, ParseExprList());
  SQE_RETURN_NOT_OK(ExpectOp(")"));
  if (items.size() == 1) return items[0];
  auto row = Make(ExprKind::kRow, pos);
  row->args = std::move(items);
  return row;
}

Result<ExprPtr> Parser::ParseSpecialForm(bool* matched) {
  *matched = true;
  const Token& t = Current();
  const SourcePosition pos = t.position;
  const bool call = IsOpAt(1, "(");
  if (t.IsKeyword("null") || t.IsKeyword("true") || t.IsKeyword("false")) {
    auto e = Make(ExprKind::kLiteral, pos);
    e->literal_kind = t.IsKeyword("null") ? ast::LiteralKind::kNull : ast::LiteralKind::kBoolean;
    e->text = Lower(t.text);
    Advance();
    return e;
  }
  if (t.IsKeyword("interval") &&
      (Peek(1).kind == TokenKind::kString ||
       ((IsOpAt(1, "-") || IsOpAt(1, "+")) && Peek(2).kind == TokenKind::kString))) {
    return ParseIntervalLiteral();
  }
  if (t.IsKeyword("case")) return ParseCase();
  if ((t.IsKeyword("cast") || t.IsKeyword("try_cast")) && call) {
    auto e = Make(ExprKind::kCast, pos);
    e->try_cast = t.IsKeyword("try_cast");
    Advance();
    Advance();
    SQE_ASSIGN_OR_RETURN(e->left, ParseExpr());
    SQE_RETURN_NOT_OK(Expect("as"));
    SQE_ASSIGN_OR_RETURN(e->type, ParseType());
    SQE_RETURN_NOT_OK(ExpectOp(")"));
    return e;
  }
  if (t.IsKeyword("exists") && call) {
    auto e = Make(ExprKind::kExists, pos);
    Advance();
    Advance();
    SQE_ASSIGN_OR_RETURN(e->subquery, ParseQuery());
    SQE_RETURN_NOT_OK(ExpectOp(")"));
    return e;
  }
  if (t.IsKeyword("array") && IsOpAt(1, "[")) {
    auto e = Make(ExprKind::kArray, pos);
    Advance();
    Advance();
    if (!IsOp("]")) {
      SQE_ASSIGN_OR_RETURN(e->args, ParseExprList());
    }
    SQE_RETURN_NOT_OK(ExpectOp("]"));
    return e;
  }
  if (t.IsKeyword("row") && call) {
    auto e = Make(ExprKind::kRow, pos);
    Advance();
    Advance();
    SQE_ASSIGN_OR_RETURN(e->args, ParseExprList());
    SQE_RETURN_NOT_OK(ExpectOp(")"));
    return e;
  }
  if (t.IsKeyword("extract") && call) {
    auto e = Make(ExprKind::kExtract, pos);
    Advance();
    Advance();
    ExpectHere("<identifier>");
    if (Current().kind != TokenKind::kIdentifier &&
        Current().kind != TokenKind::kQuotedIdentifier) {
      return Mismatch();
    }
    e->text = Current().text;
    Advance();
    SQE_RETURN_NOT_OK(Expect("from"));
    SQE_ASSIGN_OR_RETURN(e->left, ParseValueExpr());
    SQE_RETURN_NOT_OK(ExpectOp(")"));
    return e;
  }
  if (t.IsKeyword("position") && call) {
    // position(needle IN haystack); anything else is an ordinary call named position.
    const size_t save = index_;
    const int32_t save_parameter = next_parameter_;
    auto e = Make(ExprKind::kPosition, pos);
    Advance();
    Advance();
    auto needle = ParseValueExpr();
    if (needle.ok() && Is("in")) {
      Advance();
      e->args.push_back(*needle);
      SQE_ASSIGN_OR_RETURN(ExprPtr haystack, ParseValueExpr());
      e->args.push_back(std::move(haystack));
      SQE_RETURN_NOT_OK(ExpectOp(")"));
      return e;
    }
    index_ = save;
    next_parameter_ = save_parameter;
    *matched = false;
    return ExprPtr();
  }
  if (t.IsKeyword("substring") && call) {
    ast::QualifiedName name;
    name.Append(t.text, false);
    Advance();
    Advance();
    SQE_ASSIGN_OR_RETURN(ExprPtr first, ParseExpr());
    if (Accept("from")) {
      auto e = Make(ExprKind::kSubstring, pos);
      e->args.push_back(std::move(first));
      SQE_ASSIGN_OR_RETURN(ExprPtr start, ParseExpr());
      e->args.push_back(std::move(start));
      if (Accept("for")) {
        SQE_ASSIGN_OR_RETURN(ExprPtr length, ParseExpr());
        e->args.push_back(std::move(length));
      }
      SQE_RETURN_NOT_OK(ExpectOp(")"));
      return e;
    }
    auto e = Make(ExprKind::kFunctionCall, pos);
    e->name = std::move(name);
    e->args.push_back(std::move(first));
    while (AcceptOp(",")) {
      SQE_ASSIGN_OR_RETURN(ExprPtr arg, ParseExpr());
      e->args.push_back(std::move(arg));
    }
    SQE_RETURN_NOT_OK(ExpectOp(")"));
    return e;
  }
  if ((t.IsKeyword("json_query") || t.IsKeyword("json_value")) && call) {
    // json_query(json, path [WITH [CONDITIONAL | UNCONDITIONAL] [ARRAY] WRAPPER | WITHOUT
    // [ARRAY] WRAPPER] [behaviour ON EMPTY] [behaviour ON ERROR]) and json_value(json, path
    // [RETURNING type] [behaviour ON EMPTY] [behaviour ON ERROR]): the clauses become
    // trailing string arguments (exec/functions/json.cc); RETURNING a CAST of the result.
    const bool query = t.IsKeyword("json_query");
    auto e = Make(ExprKind::kFunctionCall, pos);
    e->name.Append(t.text, false);
    Advance();
    Advance();
    SQE_ASSIGN_OR_RETURN(ExprPtr doc, ParseExpr());
    e->args.push_back(std::move(doc));
    SQE_RETURN_NOT_OK(ExpectOp(","));
    SQE_ASSIGN_OR_RETURN(ExprPtr path, ParseExpr());
    e->args.push_back(std::move(path));
    if (AcceptOp(")")) return e;  // the plain two-argument call
    auto text = [&](std::string value) {
      auto literal = Make(ExprKind::kLiteral, pos);
      literal->literal_kind = ast::LiteralKind::kString;
      literal->text = std::move(value);
      return literal;
    };
    if (Is("passing")) {
      return ErrorAt(Current().position, "json_query / json_value: PASSING is not supported");
    }
    std::string wrapper = "without";
    std::optional<ast::TypeName> returning;
    if (Accept("returning")) {
      const SourcePosition at = Current().position;
      SQE_ASSIGN_OR_RETURN(ast::TypeName type, ParseType());
      if (query) {
        // json_query(... RETURNING varchar | char | varbinary [FORMAT JSON [ENCODING ...]]):
        // the JSON text as that type.
        const std::string base = Lower(type.base);
        if (base != "varchar" && base != "char" && base != "varbinary") {
          return ErrorAt(at, "json_query RETURNING must be varchar, char or varbinary, not " +
                                 type.base + " (use json_value to get a typed scalar)");
        }
        if (Accept("format")) {
          SQE_RETURN_NOT_OK(Expect("json"));
          if (Accept("encoding") && !Accept("utf8")) {
            return ErrorAt(Current().position,
                           "json_query: only ENCODING UTF8 is supported for the result");
          }
        }
      }
      returning = std::move(type);
    }
    if (query && Accept("with")) {
      if (Accept("conditional")) {
        wrapper = "conditional";
      } else {
        Accept("unconditional");
        wrapper = "unconditional";
      }
      Accept("array");
      SQE_RETURN_NOT_OK(Expect("wrapper"));
    } else if (query && Accept("without")) {
      Accept("array");
      SQE_RETURN_NOT_OK(Expect("wrapper"));
    }
    std::string quotes = "keep";
    if (query && (Is("keep") || Is("omit"))) {
      quotes = Lower(Current().text);
      Advance();
      SQE_RETURN_NOT_OK(Expect("quotes"));
      if (Accept("on")) {
        SQE_RETURN_NOT_OK(Expect("scalar"));
        SQE_RETURN_NOT_OK(Expect("string"));
      }
      if (quotes == "omit" && wrapper != "without") {
        return ErrorAt(pos, "json_query: OMIT QUOTES cannot be used with an array wrapper");
      }
    }
    // [behaviour ON EMPTY] [behaviour ON ERROR]
    std::string kinds[2] = {"null", "null"};
    ExprPtr defaults[2];
    int last = -1;  // 0 after ON EMPTY, 1 after ON ERROR
    while (last < 1) {
      const SourcePosition at = Current().position;
      std::string kind;
      ExprPtr value;
      if (Accept("null")) {
        kind = "null";
      } else if (Accept("error")) {
        kind = "error";
      } else if (query && Accept("empty")) {
        if (Accept("array")) {
          kind = "empty array";
        } else {
          SQE_RETURN_NOT_OK(Expect("object"));
          kind = "empty object";
        }
      } else if (!query && Accept("default")) {
        kind = "default";
        SQE_ASSIGN_OR_RETURN(value, ParseValueExpr());
      } else {
        break;
      }
      SQE_RETURN_NOT_OK(Expect("on"));
      const int which = Accept("empty") ? 0 : 1;
      if (which == 1) SQE_RETURN_NOT_OK(Expect("error"));
      if (which <= last) return ErrorAt(at, "ON EMPTY must come before ON ERROR, once each");
      kinds[which] = kind;
      defaults[which] = std::move(value);
      last = which;
    }
    SQE_RETURN_NOT_OK(ExpectOp(")"));
    auto as_text = [&](ExprPtr value) -> ExprPtr {
      if (value == nullptr) return text("");
      auto cast = Make(ExprKind::kCast, pos);
      cast->left = std::move(value);
      cast->type.base = "varchar";
      return cast;
    };
    if (query) {
      e->args.push_back(text(wrapper));
      e->args.push_back(text(kinds[0]));
      e->args.push_back(text(kinds[1]));
      e->args.push_back(text(quotes));
      if (!returning || Lower(returning->base) == "varchar") return e;
      if (Lower(returning->base) == "varbinary") {
        auto bytes = Make(ExprKind::kFunctionCall, pos);
        bytes->name.Append("to_utf8", false);
        bytes->args.push_back(std::move(e));
        return bytes;
      }
      auto cast = Make(ExprKind::kCast, pos);
      cast->left = std::move(e);
      cast->type = std::move(*returning);
      return cast;
    }
    ExprPtr error_default = defaults[1];
    for (int which = 0; which < 2; ++which) {
      e->args.push_back(text(kinds[which]));
      e->args.push_back(as_text(std::move(defaults[which])));
    }
    if (!returning) return e;
    auto cast_to_returning = [&](ExprPtr value, bool try_cast) {
      auto cast = Make(ExprKind::kCast, pos);
      cast->left = std::move(value);
      cast->type = *returning;
      cast->try_cast = try_cast;
      return cast;
    };
    if (kinds[1] != "default") {
      // A value the type cannot hold is an error of the item: NULL unless ERROR ON ERROR.
      return cast_to_returning(e, kinds[1] != "error");
    }
    // DEFAULT v ON ERROR: a value the type cannot hold gives v (as the type); an SQL NULL
    // item stays NULL. CASE WHEN item IS NULL THEN NULL ELSE
    // coalesce(TRY_CAST(item AS type), CAST(v AS type)) END.
    auto is_null = Make(ExprKind::kIsNull, pos);
    is_null->left = e;
    auto null_value = Make(ExprKind::kLiteral, pos);
    null_value->literal_kind = ast::LiteralKind::kNull;
    auto fallback = Make(ExprKind::kFunctionCall, pos);
    fallback->name.Append("coalesce", false);
    fallback->args.push_back(cast_to_returning(e, true));
    fallback->args.push_back(cast_to_returning(std::move(error_default), false));
    auto choose = Make(ExprKind::kCase, pos);
    choose->when_clauses.push_back(ast::WhenClause{std::move(is_null), std::move(null_value)});
    choose->else_result = std::move(fallback);
    return choose;
  }
  if (t.IsKeyword("normalize") && call) {
    // normalize(x [, NFC | NFD | NFKC | NFKD]): a call of normalize whose form is a string.
    auto e = Make(ExprKind::kFunctionCall, pos);
    e->name.Append(t.text, false);
    Advance();
    Advance();
    SQE_ASSIGN_OR_RETURN(ExprPtr source, ParseExpr());
    e->args.push_back(std::move(source));
    if (AcceptOp(",")) {
      const Token& form = Current();
      const char* name = form.IsKeyword("nfc")    ? "NFC"
                         : form.IsKeyword("nfd")  ? "NFD"
                         : form.IsKeyword("nfkc") ? "NFKC"
                         : form.IsKeyword("nfkd") ? "NFKD"
                                                  : nullptr;
      if (name != nullptr) {
        auto literal = Make(ExprKind::kLiteral, form.position);
        literal->literal_kind = ast::LiteralKind::kString;
        literal->text = name;
        Advance();
        e->args.push_back(std::move(literal));
      } else {
        SQE_ASSIGN_OR_RETURN(ExprPtr arg, ParseExpr());
        e->args.push_back(std::move(arg));
      }
    }
    SQE_RETURN_NOT_OK(ExpectOp(")"));
    return e;
  }
  if (t.IsKeyword("trim") && call) {
    auto e = Make(ExprKind::kTrim, pos);
    Advance();
    Advance();
    e->text = "both";
    ExprPtr source, chars;
    if (Is("both") || Is("leading") || Is("trailing")) {
      e->text = Lower(Current().text);
      Advance();
      if (!Accept("from")) {
        SQE_ASSIGN_OR_RETURN(chars, ParseValueExpr());
        SQE_RETURN_NOT_OK(Expect("from"));
      }
      SQE_ASSIGN_OR_RETURN(source, ParseValueExpr());
    } else {
      SQE_ASSIGN_OR_RETURN(ExprPtr first, ParseValueExpr());
      if (Accept("from")) {
        chars = std::move(first);
        SQE_ASSIGN_OR_RETURN(source, ParseValueExpr());
      } else if (AcceptOp(",")) {
        source = std::move(first);
        SQE_ASSIGN_OR_RETURN(chars, ParseValueExpr());
      } else {
        source = std::move(first);
      }
    }
    SQE_RETURN_NOT_OK(ExpectOp(")"));
    e->args.push_back(std::move(source));
    if (chars) e->args.push_back(std::move(chars));
    return e;
  }
  if (t.kind == TokenKind::kIdentifier) {
    for (std::string_view special : kSpecials) {
      if (!t.IsKeyword(special)) continue;
      auto e = Make(ExprKind::kSpecial, pos);
      e->text = std::string(special);
      Advance();
      const bool takes_precision = special == "current_time" || special == "current_timestamp" ||
                                   special == "localtime" || special == "localtimestamp";
      if (takes_precision && AcceptOp("(")) {
        SQE_ASSIGN_OR_RETURN(ExprPtr precision, ParseExpr());
        e->args.push_back(std::move(precision));
        SQE_RETURN_NOT_OK(ExpectOp(")"));
      }
      return e;
    }
  }
  if (t.IsKeyword("listagg") && call) {
    // LISTAGG([DISTINCT] x [, separator] [ON OVERFLOW ERROR]) WITHIN GROUP (ORDER BY ...)
    // [FILTER (WHERE ...)]: an ordered aggregate call named listagg.
    auto e = Make(ExprKind::kFunctionCall, pos);
    e->name.Append(t.text, false);
    Advance();
    Advance();
    e->distinct = Accept("distinct");
    if (!e->distinct) Accept("all");
    SQE_ASSIGN_OR_RETURN(ExprPtr value, ParseExpr());
    e->args.push_back(std::move(value));
    if (AcceptOp(",")) {
      SQE_ASSIGN_OR_RETURN(ExprPtr separator, ParseExpr());
      e->args.push_back(std::move(separator));
    }
    if (Accept("on")) {
      SQE_RETURN_NOT_OK(Expect("overflow"));
      if (Is("truncate")) {
        return ErrorAt(Current().position, "LISTAGG ... ON OVERFLOW TRUNCATE is not supported");
      }
      SQE_RETURN_NOT_OK(Expect("error"));
    }
    SQE_RETURN_NOT_OK(ExpectOp(")"));
    SQE_RETURN_NOT_OK(Expect("within"));
    SQE_RETURN_NOT_OK(Expect("group"));
    SQE_RETURN_NOT_OK(ExpectOp("("));
    SQE_RETURN_NOT_OK(Expect("order"));
    SQE_RETURN_NOT_OK(Expect("by"));
    SQE_ASSIGN_OR_RETURN(e->order_by, ParseSortItems());
    SQE_RETURN_NOT_OK(ExpectOp(")"));
    if (Is("filter") && IsOpAt(1, "(")) {
      Advance();
      Advance();
      SQE_RETURN_NOT_OK(Expect("where"));
      SQE_ASSIGN_OR_RETURN(e->filter, ParseExpr());
      SQE_RETURN_NOT_OK(ExpectOp(")"));
    }
    return e;
  }
  if (t.IsKeyword("grouping") && call) {
    ast::QualifiedName name;
    name.Append(t.text, false);
    Advance();
    return ParseFunctionCall(std::move(name), pos);
  }
  *matched = false;
  return ExprPtr();
}

Result<ExprPtr> Parser::ParsePrimary() {
  const Token& t = Current();
  const SourcePosition pos = t.position;
  ExpectHere("<expression>");
  switch (t.kind) {
    case TokenKind::kInteger:
    case TokenKind::kDecimal:
    case TokenKind::kDouble:
    case TokenKind::kString:
    case TokenKind::kBinaryString: {
      auto e = Make(ExprKind::kLiteral, pos);
      e->literal_kind = t.kind == TokenKind::kInteger   ? ast::LiteralKind::kInteger
                        : t.kind == TokenKind::kDecimal ? ast::LiteralKind::kDecimal
                        : t.kind == TokenKind::kDouble  ? ast::LiteralKind::kDouble
                        : t.kind == TokenKind::kString  ? ast::LiteralKind::kString
                                                        : ast::LiteralKind::kBinary;
      e->text = t.text;
      Advance();
      return e;
    }
    case TokenKind::kParameter: {
      auto e = Make(ExprKind::kParameter, pos);
      e->parameter_index = next_parameter_++;
      Advance();
      return e;
    }
    case TokenKind::kOperator:
      if (t.IsOperator("(")) return ParseParenthesized();
      return Mismatch();
    case TokenKind::kEnd:
      return Mismatch();
    case TokenKind::kIdentifier:
    case TokenKind::kQuotedIdentifier:
      break;
  }
  if (t.kind == TokenKind::kIdentifier) {
    bool matched = false;
    SQE_ASSIGN_OR_RETURN(ExprPtr special, ParseSpecialForm(&matched));
    if (matched) return special;
    // type 'literal': DATE '2020-01-01', TIMESTAMP '...', DECIMAL '1.5', JSON '{}'
    if (!IsReserved(t) && Peek(1).kind == TokenKind::kString) {
      auto e = Make(ExprKind::kTypedLiteral, pos);
      e->type.base = Lower(t.text);
      Advance();
      e->text = Current().text;
      Advance();
      return e;
    }
  }
  if (!IsIdentifier()) return Mismatch();
  if (IsOpAt(1, "->")) {
    auto e = Make(ExprKind::kLambda, pos);
    e->lambda_params.push_back(t.text);
    Advance();
    Advance();
    SQE_ASSIGN_OR_RETURN(e->left, ParseExpr());
    return e;
  }
  ast::QualifiedName name;
  while (true) {
    name.Append(Current().text, Current().kind == TokenKind::kQuotedIdentifier);
    Advance();
    if (IsOp(".") && IsIdentifier(1)) {
      Advance();
      continue;
    }
    break;
  }
  if (IsOp("(")) return ParseFunctionCall(std::move(name), pos);
  if (IsOp(".") && IsOpAt(1, "*")) {
    Advance();
    Advance();
    auto e = Make(ExprKind::kStar, pos);
    e->name = std::move(name);
    return e;
  }
  auto e = Make(ExprKind::kIdentifier, pos);
  e->name = std::move(name);
  return e;
}

}  // namespace sqe::sql
