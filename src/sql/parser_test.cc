// The SQL parser: precedence, every expression kind (asserted through the fully
// parenthesized ToString form), queries and relations, every statement kind with its
// fields, the 22 TPC-H queries, and errors that point at the problem with line:column.
#include "sql/parser.h"

#include <gtest/gtest.h>

#include <random>
#include <type_traits>

namespace sqe::sql {
namespace {

using namespace ast;  // NOLINT: tests read better with the node names unqualified

std::string E(std::string_view sql) {
  auto r = ParseExpression(sql);
  EXPECT_TRUE(r.ok()) << sql << "\n" << r.status().ToString();
  return r.ok() ? (*r)->ToString() : "<error>";
}

ExprPtr ParseE(std::string_view sql) {
  auto r = ParseExpression(sql);
  EXPECT_TRUE(r.ok()) << sql << "\n" << r.status().ToString();
  return r.ok() ? *r : std::make_shared<Expr>();
}

StatementPtr S(std::string_view sql) {
  auto r = ParseStatement(sql);
  EXPECT_TRUE(r.ok()) << sql << "\n" << r.status().ToString();
  return r.ok() ? *r : std::make_shared<QueryStatement>();
}

template <typename T>
std::shared_ptr<T> As(std::string_view sql, StatementKind kind) {
  StatementPtr s = S(sql);
  EXPECT_EQ(s->kind, kind) << sql << " parsed as " << StatementKindName(s->kind);
  if (s->kind != kind) {
    // An empty node of the right type, so the failing test reports instead of crashing.
    if constexpr (std::is_default_constructible_v<T>) {
      return std::make_shared<T>();
    } else {
      return std::make_shared<T>(kind);
    }
  }
  return std::static_pointer_cast<T>(s);
}

QueryPtr Q(std::string_view sql) {
  auto s = As<QueryStatement>(sql, StatementKind::kQuery);
  return s->query ? s->query : std::make_shared<Query>();
}

// The query printed back, the easiest way to assert its whole structure.
std::string QS(std::string_view sql) {
  QueryPtr q = Q(sql);
  return q->body ? q->ToString() : "<error>";
}

std::string Error(std::string_view sql) {
  auto r = ParseStatement(sql);
  EXPECT_FALSE(r.ok()) << sql;
  if (r.ok()) return "";
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  return r.status().message();
}

// ---------------------------------------------------------------------------------------
// Expressions

TEST(ParserExpr, Precedence) {
  EXPECT_EQ(E("1 + 2 * 3"), "(1 + (2 * 3))");
  EXPECT_EQ(E("(1 + 2) * 3"), "((1 + 2) * 3)");
  EXPECT_EQ(E("1 - 2 - 3"), "((1 - 2) - 3)");
  EXPECT_EQ(E("a OR b AND c"), "(a OR (b AND c))");
  EXPECT_EQ(E("a AND b OR c AND d"), "((a AND b) OR (c AND d))");
  EXPECT_EQ(E("NOT a = b"), "(NOT (a = b))");
  EXPECT_EQ(E("NOT a AND b"), "((NOT a) AND b)");
  EXPECT_EQ(E("- a[1]"), "(-a[1])");
  EXPECT_EQ(E("-2 * 3"), "((-2) * 3)");
  EXPECT_EQ(E("x BETWEEN 1 AND 2 AND y"), "((x BETWEEN 1 AND 2) AND y)");
  EXPECT_EQ(E("a || b + c"), "(a || (b + c))");
  EXPECT_EQ(E("a || b = c"), "((a || b) = c)");
  EXPECT_EQ(E("a % 2 = 0 OR b <> c"), "(((a % 2) = 0) OR (b <> c))");
  EXPECT_EQ(E("a + b < c * d"), "((a + b) < (c * d))");
  EXPECT_EQ(E("-ts AT TIME ZONE 'UTC'"), "(-(ts AT TIME ZONE 'UTC'))");
  EXPECT_EQ(E("a.b.c[2].d"), "a.b.c[2].d");
  EXPECT_EQ(E("x != 1 AND y >= 2 AND z <= 3 AND w > 4 AND v < 5"),
            "(((((x != 1) AND (y >= 2)) AND (z <= 3)) AND (w > 4)) AND (v < 5))");
}

TEST(ParserExpr, Literals) {
  EXPECT_EQ(E("NULL"), "NULL");
  EXPECT_EQ(E("TRUE"), "true");
  EXPECT_EQ(E("'it''s'"), "'it''s'");
  EXPECT_EQ(E("X'0aFF'"), "X'0AFF'");
  auto check = [](std::string_view sql, LiteralKind kind, std::string text) {
    ExprPtr e = ParseE(sql);
    EXPECT_EQ(e->kind, ExprKind::kLiteral) << sql;
    EXPECT_EQ(e->literal_kind, kind) << sql;
    EXPECT_EQ(e->text, text) << sql;
  };
  check("42", LiteralKind::kInteger, "42");
  check("4.20", LiteralKind::kDecimal, "4.20");
  check("1e3", LiteralKind::kDouble, "1e3");
  check("'abc'", LiteralKind::kString, "abc");
  check("false", LiteralKind::kBoolean, "false");
  check("null", LiteralKind::kNull, "null");
}

TEST(ParserExpr, JsonQueryAndJsonValueClausesBecomeTrailingArguments) {
  // The plain calls keep two arguments.
  EXPECT_EQ(ParseE("json_query(d, 'lax $.a')")->args.size(), 2u);
  EXPECT_EQ(ParseE("json_value(d, 'lax $.a')")->args.size(), 2u);
  auto texts = [](const ExprPtr& call) {
    std::vector<std::string> out;
    for (size_t i = 2; i < call->args.size(); ++i) out.push_back(call->args[i]->text);
    return out;
  };
  ExprPtr q = ParseE(
      "json_query(d, 'lax $.a' WITH CONDITIONAL ARRAY WRAPPER EMPTY OBJECT ON "
      "EMPTY ERROR ON ERROR)");
  EXPECT_EQ(texts(q), (std::vector<std::string>{"conditional", "empty object", "error", "keep"}));
  q = ParseE("json_query(d, 'lax $.a' WITHOUT WRAPPER OMIT QUOTES ON SCALAR STRING)");
  EXPECT_EQ(texts(q), (std::vector<std::string>{"without", "null", "null", "omit"}));
  q = ParseE("json_query(d, 'lax $.a' WITH WRAPPER EMPTY ARRAY ON ERROR)");
  EXPECT_EQ(texts(q), (std::vector<std::string>{"unconditional", "null", "empty array", "keep"}));
  // json_value: (kind, default) per clause; RETURNING wraps the call in a cast (TRY_CAST
  // unless ERROR ON ERROR).
  ExprPtr v = ParseE("json_value(d, 'lax $.a' RETURNING bigint DEFAULT 1 ON EMPTY NULL ON ERROR)");
  ASSERT_EQ(v->kind, ExprKind::kCast);
  EXPECT_TRUE(v->try_cast);
  EXPECT_EQ(v->type.base, "bigint");
  ASSERT_EQ(v->left->args.size(), 6u);
  EXPECT_EQ(v->left->args[2]->text, "default");
  EXPECT_EQ(v->left->args[3]->kind, ExprKind::kCast);  // the default as varchar
  EXPECT_EQ(v->left->args[4]->text, "null");
  v = ParseE("json_value(d, 'lax $.a' RETURNING integer ERROR ON ERROR)");
  ASSERT_EQ(v->kind, ExprKind::kCast);
  EXPECT_FALSE(v->try_cast);
  EXPECT_FALSE(ParseExpression("json_query(d, 'lax $.a' WITH ARRAY WRAPPER OMIT QUOTES)").ok());
  EXPECT_FALSE(ParseExpression("json_query(d, 'lax $.a' ERROR ON ERROR NULL ON EMPTY)").ok());
  EXPECT_FALSE(ParseExpression("json_value(d, 'lax $.a' EMPTY ARRAY ON EMPTY)").ok());
  EXPECT_FALSE(ParseExpression("json_query(d, 'lax $.a' PASSING 1 AS x)").ok());
}

TEST(ParserExpr, TypedAndIntervalLiterals) {
  EXPECT_EQ(E("DATE '1998-12-01'"), "DATE '1998-12-01'");
  EXPECT_EQ(E("timestamp '2020-01-01 00:00:00'"), "TIMESTAMP '2020-01-01 00:00:00'");
  EXPECT_EQ(E("DECIMAL '1.50'"), "DECIMAL '1.50'");
  EXPECT_EQ(E("JSON '[1]'"), "JSON '[1]'");
  ExprPtr d = ParseE("date '1998-12-01' - interval '90' day");
  ASSERT_EQ(d->kind, ExprKind::kBinary);
  EXPECT_EQ(d->left->kind, ExprKind::kTypedLiteral);
  EXPECT_EQ(d->left->type.base, "date");
  EXPECT_EQ(d->left->text, "1998-12-01");
  ExprPtr i = d->right;
  ASSERT_EQ(i->kind, ExprKind::kIntervalLiteral);
  EXPECT_EQ(i->text, "90");
  EXPECT_EQ(i->interval_from, "DAY");
  EXPECT_TRUE(i->interval_to.empty());
  ExprPtr ym = ParseE("INTERVAL -'1-2' YEAR TO MONTH");
  EXPECT_TRUE(ym->negated);
  EXPECT_EQ(ym->interval_from, "YEAR");
  EXPECT_EQ(ym->interval_to, "MONTH");
  EXPECT_EQ(ym->ToString(), "INTERVAL -'1-2' YEAR TO MONTH");
  // A column named interval still works.
  EXPECT_EQ(E("interval + 1"), "(interval + 1)");
}

TEST(ParserExpr, ParametersAreNumberedInOrder) {
  auto s = As<QueryStatement>("SELECT ? FROM t WHERE a = ? AND b IN (?, ?)", StatementKind::kQuery);
  const Select& sel = *s->query->body->select;
  EXPECT_EQ(sel.items[0].expr->kind, ExprKind::kParameter);
  EXPECT_EQ(sel.items[0].expr->parameter_index, 0);
  EXPECT_EQ(sel.where->left->right->parameter_index, 1);
  EXPECT_EQ(sel.where->right->args[1]->parameter_index, 3);
}

TEST(ParserExpr, IdentifiersKeepCaseAndQuoting) {
  ExprPtr e = ParseE("Cat.\"My Schema\".T");
  ASSERT_EQ(e->kind, ExprKind::kIdentifier);
  EXPECT_EQ(e->name.parts, (std::vector<std::string>{"Cat", "My Schema", "T"}));
  EXPECT_EQ(e->name.quoted, (std::vector<bool>{false, true, false}));
  EXPECT_EQ(e->ToString(), "Cat.\"My Schema\".T");
  // Non-reserved keywords are ordinary names.
  EXPECT_EQ(E("date + year + value + comment + position + count + key + first + last"),
            "((((((((date + year) + value) + comment) + position) + count) + key) + first) + "
            "last)");
}

TEST(ParserExpr, Predicates) {
  EXPECT_EQ(E("x NOT BETWEEN 1 AND 10"), "(x NOT BETWEEN 1 AND 10)");
  EXPECT_EQ(E("x IN (1, 2, 3)"), "(x IN (1, 2, 3))");
  EXPECT_EQ(E("x NOT IN ('a')"), "(x NOT IN ('a'))");
  EXPECT_EQ(E("x IN (SELECT y FROM t)"), "(x IN (SELECT y FROM t))");
  EXPECT_EQ(E("x NOT IN (SELECT y FROM t)"), "(x NOT IN (SELECT y FROM t))");
  EXPECT_EQ(E("EXISTS (SELECT 1 FROM t WHERE t.a = b)"),
            "EXISTS (SELECT 1 FROM t WHERE (t.a = b))");
  EXPECT_EQ(E("(SELECT max(a) FROM t) + 1"), "((SELECT max(a) FROM t) + 1)");
  EXPECT_EQ(E("x > ALL (SELECT y FROM t)"), "(x > ALL (SELECT y FROM t))");
  EXPECT_EQ(E("x = ANY (SELECT y FROM t)"), "(x = ANY (SELECT y FROM t))");
  EXPECT_EQ(E("x <> SOME (SELECT y FROM t)"), "(x <> SOME (SELECT y FROM t))");
  EXPECT_EQ(E("s LIKE 'a%'"), "(s LIKE 'a%')");
  EXPECT_EQ(E("s NOT LIKE 'a!%%' ESCAPE '!'"), "(s NOT LIKE 'a!%%' ESCAPE '!')");
  EXPECT_EQ(E("s ILIKE 'A%'"), "(s ILIKE 'A%')");
  EXPECT_EQ(E("x IS NULL"), "(x IS NULL)");
  EXPECT_EQ(E("x IS NOT NULL"), "(x IS NOT NULL)");
  EXPECT_EQ(E("x IS DISTINCT FROM y"), "(x IS DISTINCT FROM y)");
  EXPECT_EQ(E("x IS NOT DISTINCT FROM y + 1"), "(x IS NOT DISTINCT FROM (y + 1))");
  ExprPtr q = ParseE("x >= ALL (SELECT 1)");
  EXPECT_EQ(q->kind, ExprKind::kQuantified);
  EXPECT_EQ(q->quantifier, "ALL");
  EXPECT_EQ(q->op, ">=");
}

TEST(ParserExpr, CaseCastAndSpecialForms) {
  EXPECT_EQ(E("CASE WHEN a > 0 THEN 'p' WHEN a < 0 THEN 'n' ELSE 'z' END"),
            "CASE WHEN (a > 0) THEN 'p' WHEN (a < 0) THEN 'n' ELSE 'z' END");
  EXPECT_EQ(E("CASE x WHEN 1 THEN 'one' END"), "CASE x WHEN 1 THEN 'one' END");
  EXPECT_EQ(E("CAST(a AS decimal(10, 2))"), "CAST(a AS decimal(10,2))");
  EXPECT_EQ(E("TRY_CAST(a AS bigint)"), "TRY_CAST(a AS bigint)");
  EXPECT_EQ(E("EXTRACT(YEAR FROM o_orderdate)"), "EXTRACT(YEAR FROM o_orderdate)");
  EXPECT_EQ(E("a[1] + m['k']"), "(a[1] + m['k'])");
  EXPECT_EQ(E("ARRAY[1, 2, 3]"), "ARRAY[1, 2, 3]");
  EXPECT_EQ(E("ARRAY[]"), "ARRAY[]");
  EXPECT_EQ(E("ROW(1, 'a')"), "ROW(1, 'a')");
  EXPECT_EQ(E("(1, 'a')"), "ROW(1, 'a')");
  EXPECT_EQ(E("ts AT TIME ZONE 'America/New_York'"), "(ts AT TIME ZONE 'America/New_York')");
  EXPECT_EQ(E("position('b' IN s)"), "POSITION('b' IN s)");
  EXPECT_EQ(E("substring(c_phone from 1 for 2)"), "SUBSTRING(c_phone FROM 1 FOR 2)");
  EXPECT_EQ(E("substring(s FROM 3)"), "SUBSTRING(s FROM 3)");
  EXPECT_EQ(E("substring(s, 1, 2)"), "substring(s, 1, 2)");
  EXPECT_EQ(ParseE("substring(s, 1, 2)")->kind, ExprKind::kFunctionCall);
  EXPECT_EQ(E("trim(BOTH 'x' FROM s)"), "TRIM(BOTH 'x' FROM s)");
  EXPECT_EQ(E("trim(LEADING FROM s)"), "TRIM(LEADING FROM s)");
  EXPECT_EQ(E("trim(s)"), "TRIM(BOTH FROM s)");
  EXPECT_EQ(E("trim('x' FROM s)"), "TRIM(BOTH 'x' FROM s)");
  EXPECT_EQ(E("current_date"), "CURRENT_DATE");
  EXPECT_EQ(E("current_timestamp(3)"), "CURRENT_TIMESTAMP(3)");
  EXPECT_EQ(E("localtimestamp"), "LOCALTIMESTAMP");
  EXPECT_EQ(E("current_user || current_catalog || current_schema"),
            "((CURRENT_USER || CURRENT_CATALOG) || CURRENT_SCHEMA)");
  EXPECT_EQ(ParseE("current_time")->kind, ExprKind::kSpecial);
}

TEST(ParserExpr, Types) {
  EXPECT_EQ(ParseE("CAST(x AS varchar)")->type.ToString(), "varchar");
  EXPECT_EQ(ParseE("CAST(x AS VARCHAR(20))")->type.ToString(), "varchar(20)");
  EXPECT_EQ(ParseE("CAST(x AS double precision)")->type.ToString(), "double");
  EXPECT_EQ(ParseE("CAST(x AS array(map(varchar, bigint)))")->type.ToString(),
            "array(map(varchar,bigint))");
  EXPECT_EQ(ParseE("CAST(x AS array<int>)")->type.ToString(), "array(int)");
  EXPECT_EQ(ParseE("CAST(x AS row(a bigint, b decimal(5,1)))")->type.ToString(),
            "row(a bigint, b decimal(5,1))");
  EXPECT_EQ(ParseE("CAST(x AS row(bigint, double))")->type.ToString(), "row(bigint, double)");
  TypeName ts = ParseE("CAST(x AS timestamp(6) with time zone)")->type;
  EXPECT_EQ(ts.base, "timestamp");
  EXPECT_EQ(ts.numeric_params, (std::vector<int64_t>{6}));
  EXPECT_TRUE(ts.with_time_zone);
  EXPECT_EQ(ts.ToString(), "timestamp(6) with time zone");
  EXPECT_EQ(ParseE("CAST(x AS interval day to second)")->type.base, "interval day to second");
  EXPECT_EQ(ParseE("CAST(x AS INTERVAL YEAR TO MONTH)")->type.base, "interval year to month");
}

TEST(ParserExpr, FunctionCalls) {
  ExprPtr c = ParseE("count(*)");
  EXPECT_TRUE(c->count_star);
  EXPECT_TRUE(c->args.empty());
  EXPECT_EQ(c->ToString(), "count(*)");
  ExprPtr d = ParseE("count(DISTINCT a)");
  EXPECT_TRUE(d->distinct);
  EXPECT_EQ(E("sum(x) FILTER (WHERE x > 0)"), "sum(x) FILTER (WHERE (x > 0))");
  EXPECT_EQ(E("array_agg(x ORDER BY y DESC NULLS LAST)"),
            "array_agg(x ORDER BY y DESC NULLS LAST)");
  EXPECT_EQ(E("system.builtin.abs(-1)"), "system.builtin.abs((-1))");
  EXPECT_EQ(E("f()"), "f()");
  EXPECT_EQ(E("f(x).field"), "f(x).field");
  EXPECT_EQ(E("grouping(a, b)"), "grouping(a, b)");
  ExprPtr l = ParseE(
      "listagg(DISTINCT name, ', ' ON OVERFLOW ERROR) WITHIN GROUP (ORDER BY id "
      "DESC) FILTER (WHERE id > 0)");
  EXPECT_EQ(l->kind, ExprKind::kFunctionCall);
  EXPECT_EQ(l->ToString(), "listagg(DISTINCT name, ', ' ORDER BY id DESC) FILTER (WHERE (id > 0))");
  EXPECT_EQ(E("LISTAGG(x) WITHIN GROUP (ORDER BY x)"), "LISTAGG(x ORDER BY x)");
  EXPECT_FALSE(
      ParseExpression("listagg(x, ',' ON OVERFLOW TRUNCATE) WITHIN GROUP (ORDER BY x)").ok());
}

TEST(ParserExpr, WindowFunctions) {
  EXPECT_EQ(E("rank() OVER (PARTITION BY a, b ORDER BY c DESC)"),
            "rank() OVER (PARTITION BY a, b ORDER BY c DESC)");
  EXPECT_EQ(E("sum(x) OVER (ORDER BY t ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)"),
            "sum(x) OVER (ORDER BY t ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)");
  EXPECT_EQ(E("avg(x) OVER (ORDER BY t RANGE BETWEEN 2 PRECEDING AND 3 FOLLOWING)"),
            "avg(x) OVER (ORDER BY t RANGE BETWEEN 2 PRECEDING AND 3 FOLLOWING)");
  EXPECT_EQ(E("count(*) OVER (GROUPS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)"),
            "count(*) OVER (GROUPS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)");
  EXPECT_EQ(E("sum(x) OVER (ROWS 5 PRECEDING)"), "sum(x) OVER (ROWS 5 PRECEDING)");
  EXPECT_EQ(E("sum(x) OVER w"), "sum(x) OVER w");
  EXPECT_EQ(E("sum(x) OVER (w ORDER BY y)"), "sum(x) OVER (w ORDER BY y)");
  ExprPtr lv = ParseE("last_value(x) IGNORE NULLS OVER (ORDER BY t)");
  EXPECT_EQ(lv->null_treatment, NullTreatment::kIgnoreNulls);
  ASSERT_TRUE(lv->window);
  EXPECT_EQ(lv->window->order_by.size(), 1u);
  ExprPtr w = ParseE("sum(x) OVER (ORDER BY t ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING)");
  ASSERT_TRUE(w->window && w->window->frame && w->window->frame->end);
  EXPECT_EQ(w->window->frame->type, FrameType::kRows);
  EXPECT_EQ(w->window->frame->start.kind, FrameBoundKind::kPreceding);
  EXPECT_EQ(w->window->frame->end->kind, FrameBoundKind::kFollowing);
}

TEST(ParserExpr, LambdasAndNamedArguments) {
  EXPECT_EQ(E("transform(a, x -> x + 1)"), "transform(a, (x) -> (x + 1))");
  EXPECT_EQ(E("reduce(a, 0, (s, x) -> s + x, s -> s)"),
            "reduce(a, 0, (s, x) -> (s + x), (s) -> s)");
  EXPECT_EQ(E("f(() -> 1)"), "f(() -> 1)");
  ExprPtr call = ParseE("f(table_name => 'x', 3)");
  ASSERT_EQ(call->args.size(), 2u);
  EXPECT_EQ(call->args[0]->kind, ExprKind::kNamedArgument);
  EXPECT_EQ(call->args[0]->text, "table_name");
  EXPECT_EQ(call->args[0]->left->text, "x");
}

TEST(ParserExpr, PrintedFormParsesToTheSameTree) {
  for (const char* sql : {
           "1 + 2 * 3 - -4 / 5 % 6",
           "a OR NOT b AND c IS NOT NULL",
           "x NOT BETWEEN 1 AND 2 OR y NOT IN (1, 2) OR z NOT LIKE 'a''b' ESCAPE '!'",
           "a IS DISTINCT FROM b AND c IS NOT DISTINCT FROM d",
           "x = ANY (SELECT y FROM t) AND EXISTS (SELECT 1) AND x IN (SELECT 1)",
           "CASE a WHEN 1 THEN 'x' ELSE NULL END || CASE WHEN b THEN 'y' END",
           "CAST(a AS row(x bigint, y array(decimal(10,2)))) = TRY_CAST(b AS varchar(3))",
           "DATE '2020-01-01' + INTERVAL -'3' MONTH < TIMESTAMP '2020-01-01 00:00:00'",
           "INTERVAL '1-2' YEAR TO MONTH",
           "count(*) FILTER (WHERE a > 1) + count(DISTINCT b)",
           "array_agg(x ORDER BY y DESC NULLS FIRST) IGNORE NULLS OVER (PARTITION BY p ORDER BY "
           "o RANGE BETWEEN INTERVAL '1' DAY PRECEDING AND CURRENT ROW)",
           "rank() OVER w + sum(x) OVER (w ROWS 2 FOLLOWING)",
           "EXTRACT(DOW FROM ts) + a[1][2] + m['k'].f.g",
           "ARRAY[ROW(1, 'a'), (2, 'b')]",
           "transform(a, x -> x * 2) = zip_with(a, b, (x, y) -> x + y)",
           "ts AT TIME ZONE 'UTC' AT TIME ZONE LOCAL",
           "POSITION('a' IN s) + length(SUBSTRING(s FROM 2 FOR 3)) + length(TRIM(LEADING 'x' "
           "FROM s))",
           "current_date + current_timestamp(3) + localtimestamp",
           "\"Quoted Col\".\"x\" = X'0aff' AND t.* IS NULL",
           "(SELECT max(a) FROM t WHERE t.b = outer_b) > ?",
           "grouping(a, b) = 0",
       }) {
    ExprPtr first = ParseE(sql);
    const std::string printed = first->ToString();
    auto again = ParseExpression(printed);
    ASSERT_TRUE(again.ok()) << sql << "\nprinted: " << printed << "\n" << again.status().ToString();
    EXPECT_EQ((*again)->ToString(), printed) << sql;
  }
}

TEST(ParserExpr, PositionsPointAtFirstToken) {
  ExprPtr e = ParseE("a +\n  b * c");
  EXPECT_EQ(e->pos.line, 1);
  EXPECT_EQ(e->pos.column, 1);
  EXPECT_EQ(e->right->pos.line, 2);
  EXPECT_EQ(e->right->pos.column, 3);
}

TEST(ParserExpr, BinaryOperatorPositions) {
  // `pos` is the left operand's start, `op_pos` the operator's (Trino reports there).
  ExprPtr e = ParseE("a +\n  b * c");
  EXPECT_EQ(e->op_pos.line, 1);
  EXPECT_EQ(e->op_pos.column, 3);
  EXPECT_EQ(e->right->op_pos.line, 2);
  EXPECT_EQ(e->right->op_pos.column, 5);
  ExprPtr cmp = ParseE("x.y   <> 'a' || 'b'");
  EXPECT_EQ(cmp->pos.column, 1);
  EXPECT_EQ(cmp->op_pos.column, 7);
  EXPECT_EQ(cmp->right->op_pos.column, 14);  // ||
  ExprPtr chain = ParseE("a AND b AND c");
  EXPECT_EQ(chain->op_pos.column, 13);  // AND / OR: the right operand's start
}

// ---------------------------------------------------------------------------------------
// Queries

TEST(ParserQuery, SelectClauses) {
  QueryPtr q =
      Q("SELECT DISTINCT a, b AS bee, c cee, t.*, * FROM t WHERE a > 1 GROUP BY a, b HAVING "
        "count(*) > 2 ORDER BY a DESC NULLS FIRST, 2 OFFSET 5 LIMIT 10");
  const Select& s = *q->body->select;
  EXPECT_TRUE(s.distinct);
  ASSERT_EQ(s.items.size(), 5u);
  EXPECT_FALSE(s.items[0].alias.has_value());
  EXPECT_EQ(*s.items[1].alias, "bee");
  EXPECT_EQ(*s.items[2].alias, "cee");
  EXPECT_EQ(s.items[3].expr->kind, ExprKind::kStar);
  EXPECT_EQ(s.items[3].expr->name.ToString(), "t");
  EXPECT_EQ(s.items[4].expr->kind, ExprKind::kStar);
  EXPECT_TRUE(s.items[4].expr->name.empty());
  ASSERT_EQ(s.from.size(), 1u);
  EXPECT_EQ(s.from[0]->kind, RelationKind::kTable);
  EXPECT_EQ(s.where->ToString(), "(a > 1)");
  EXPECT_EQ(s.group_by.elements.size(), 2u);
  EXPECT_EQ(s.having->ToString(), "(count(*) > 2)");
  ASSERT_EQ(q->order_by.size(), 2u);
  EXPECT_FALSE(q->order_by[0].ascending);
  EXPECT_EQ(q->order_by[0].nulls, NullOrdering::kFirst);
  EXPECT_EQ(q->offset->text, "5");
  EXPECT_EQ(q->limit->text, "10");
}

TEST(ParserQuery, LimitForms) {
  EXPECT_EQ(Q("SELECT 1 LIMIT ALL")->limit, nullptr);
  QueryPtr f = Q("SELECT a FROM t ORDER BY a FETCH FIRST 3 ROWS WITH TIES");
  EXPECT_EQ(f->limit->text, "3");
  EXPECT_TRUE(f->with_ties);
  QueryPtr one = Q("SELECT a FROM t FETCH NEXT ROW ONLY");
  EXPECT_EQ(one->limit->text, "1");
  EXPECT_FALSE(one->with_ties);
  QueryPtr lo = Q("SELECT a FROM t LIMIT 10 OFFSET 20");
  EXPECT_EQ(lo->limit->text, "10");
  EXPECT_EQ(lo->offset->text, "20");
  EXPECT_EQ(QS("SELECT a FROM t OFFSET 2 ROWS FETCH FIRST 5 ROWS ONLY"),
            "SELECT a FROM t OFFSET 2 LIMIT 5");
}

TEST(ParserQuery, SetOperationsIntersectBindsTighter) {
  EXPECT_EQ(QS("SELECT 1 UNION SELECT 2 INTERSECT SELECT 3"),
            "(SELECT 1 UNION (SELECT 2 INTERSECT SELECT 3))");
  EXPECT_EQ(QS("SELECT 1 UNION ALL SELECT 2 EXCEPT SELECT 3"),
            "((SELECT 1 UNION ALL SELECT 2) EXCEPT SELECT 3)");
  EXPECT_EQ(QS("(SELECT 1 UNION SELECT 2) INTERSECT SELECT 3"),
            "((SELECT 1 UNION SELECT 2) INTERSECT SELECT 3)");
  QueryPtr q = Q("SELECT a FROM x UNION DISTINCT SELECT b FROM y ORDER BY 1 LIMIT 3");
  EXPECT_EQ(q->body->kind, QueryBodyKind::kSetOperation);
  EXPECT_TRUE(q->body->set_distinct);
  EXPECT_EQ(q->order_by.size(), 1u);
  EXPECT_EQ(QS("(SELECT a FROM x ORDER BY a LIMIT 1) UNION ALL (SELECT b FROM y)"),
            "((SELECT a FROM x ORDER BY a LIMIT 1) UNION ALL SELECT b FROM y)");
}

TEST(ParserQuery, ValuesTableAndWith) {
  QueryPtr v = Q("VALUES (1, 'a'), (2, 'b')");
  ASSERT_EQ(v->body->kind, QueryBodyKind::kValues);
  ASSERT_EQ(v->body->rows.size(), 2u);
  EXPECT_EQ(v->body->rows[1].size(), 2u);
  QueryPtr single = Q("VALUES 1, 2, 3");
  EXPECT_EQ(single->body->rows.size(), 3u);
  EXPECT_EQ(single->body->rows[0].size(), 1u);
  QueryPtr t = Q("TABLE lake.sales.orders");
  EXPECT_EQ(t->body->kind, QueryBodyKind::kTable);
  EXPECT_EQ(t->body->table.ToString(), "lake.sales.orders");
  QueryPtr w =
      Q("WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5), "
        "s AS (SELECT * FROM r) SELECT * FROM s");
  ASSERT_TRUE(w->with);
  EXPECT_TRUE(w->with->recursive);
  ASSERT_EQ(w->with->queries.size(), 2u);
  EXPECT_EQ(w->with->queries[0].name, "r");
  EXPECT_EQ(w->with->queries[0].column_aliases, (std::vector<std::string>{"n"}));
  EXPECT_EQ(w->with->queries[0].query->body->kind, QueryBodyKind::kSetOperation);
  EXPECT_EQ(QS("SELECT * FROM (VALUES (1, 2)) AS v (a, b)"),
            "SELECT * FROM (VALUES (1, 2)) AS v (a, b)");
}

TEST(ParserQuery, GroupingSets) {
  QueryPtr q =
      Q("SELECT a, b, sum(c) FROM t GROUP BY DISTINCT ROLLUP (a, b), CUBE ((a, "
        "b), c), GROUPING SETS ((a), (a, b), ()), (d, e), ()");
  const Select& s = *q->body->select;
  EXPECT_TRUE(s.group_by.distinct);
  ASSERT_EQ(s.group_by.elements.size(), 5u);
  const auto& e = s.group_by.elements;
  EXPECT_EQ(e[0].kind, GroupingKind::kRollup);
  EXPECT_EQ(e[0].sets.size(), 2u);
  EXPECT_EQ(e[1].kind, GroupingKind::kCube);
  EXPECT_EQ(e[1].sets[0].size(), 2u);
  EXPECT_EQ(e[2].kind, GroupingKind::kGroupingSets);
  ASSERT_EQ(e[2].sets.size(), 3u);
  EXPECT_EQ(e[2].sets[1].size(), 2u);
  EXPECT_TRUE(e[2].sets[2].empty());
  EXPECT_EQ(e[3].kind, GroupingKind::kSimple);
  EXPECT_EQ(e[3].exprs.size(), 2u);
  EXPECT_TRUE(e[4].exprs.empty());
}

TEST(ParserQuery, NamedWindows) {
  QueryPtr q =
      Q("SELECT rank() OVER w, sum(x) OVER (w ROWS 1 PRECEDING) FROM t WINDOW w AS "
        "(PARTITION BY a ORDER BY b), w2 AS (w)");
  const Select& s = *q->body->select;
  ASSERT_EQ(s.windows.size(), 2u);
  EXPECT_EQ(s.windows[0].name, "w");
  EXPECT_EQ(s.windows[0].spec.partition_by.size(), 1u);
  EXPECT_EQ(s.windows[1].spec.existing_name, "w");
  EXPECT_EQ(s.items[0].expr->window->existing_name, "w");
}

TEST(ParserQuery, Joins) {
  EXPECT_EQ(QS("SELECT * FROM a JOIN b ON a.x = b.x LEFT OUTER JOIN c USING (y) CROSS JOIN d"),
            "SELECT * FROM (((a JOIN b ON (a.x = b.x)) LEFT JOIN c USING (y)) CROSS JOIN d)");
  EXPECT_EQ(QS("SELECT * FROM a RIGHT JOIN b ON true FULL OUTER JOIN c ON false"),
            "SELECT * FROM ((a RIGHT JOIN b ON true) FULL JOIN c ON false)");
  EXPECT_EQ(QS("SELECT * FROM a NATURAL JOIN b"), "SELECT * FROM (a NATURAL JOIN b)");
  EXPECT_EQ(QS("SELECT * FROM a INNER JOIN b ON a.k = b.k"),
            "SELECT * FROM (a JOIN b ON (a.k = b.k))");
  EXPECT_EQ(QS("SELECT * FROM (a JOIN b ON a.k = b.k) j"),
            "SELECT * FROM (a JOIN b ON (a.k = b.k)) AS j");
  EXPECT_EQ(QS("SELECT * FROM ((SELECT 1) UNION (SELECT 2)) u"),
            "SELECT * FROM ((SELECT 1 UNION SELECT 2)) AS u");
  EXPECT_EQ(QS("SELECT * FROM ((a JOIN b USING (k)))"), "SELECT * FROM (a JOIN b USING (k))");
  QueryPtr q = Q("SELECT * FROM a, b x, c AS y (p, q)");
  const auto& from = q->body->select->from;
  ASSERT_EQ(from.size(), 3u);
  EXPECT_EQ(*from[1]->alias, "x");
  EXPECT_EQ(*from[2]->alias, "y");
  EXPECT_EQ(from[2]->column_aliases, (std::vector<std::string>{"p", "q"}));
}

TEST(ParserQuery, RelationKinds) {
  QueryPtr q = Q("SELECT * FROM \"orders$snapshots\" FOR VERSION AS OF 42");
  const Relation& r = *q->body->select->from[0];
  EXPECT_EQ(r.kind, RelationKind::kTable);
  EXPECT_TRUE(r.name.quoted[0]);
  EXPECT_EQ(r.name.parts[0], "orders$snapshots");
  EXPECT_EQ(r.time_travel, TimeTravelKind::kVersion);
  EXPECT_EQ(r.time_travel_expr->text, "42");
  QueryPtr q2 = Q("SELECT * FROM t FOR TIMESTAMP AS OF TIMESTAMP '2024-01-01 00:00:00' x");
  const Relation& ts = *q2->body->select->from[0];
  EXPECT_EQ(ts.time_travel, TimeTravelKind::kTimestamp);
  EXPECT_EQ(*ts.alias, "x");
  QueryPtr q3 = Q("SELECT * FROM t, LATERAL (SELECT * FROM u WHERE u.a = t.a) l");
  const Relation& lat = *q3->body->select->from[1];
  EXPECT_EQ(lat.kind, RelationKind::kSubquery);
  EXPECT_TRUE(lat.lateral);
  QueryPtr q4 =
      Q("SELECT * FROM UNNEST(ARRAY[1, 2], ARRAY['a', 'b']) WITH ORDINALITY AS u (n, s, i)");
  const Relation& un = *q4->body->select->from[0];
  EXPECT_EQ(un.kind, RelationKind::kUnnest);
  EXPECT_EQ(un.args.size(), 2u);
  EXPECT_TRUE(un.with_ordinality);
  EXPECT_EQ(un.column_aliases.size(), 3u);
  QueryPtr q5 = Q("SELECT * FROM read_parquet('data/*.parquet') p");
  const Relation& tf = *q5->body->select->from[0];
  EXPECT_EQ(tf.kind, RelationKind::kTableFunction);
  EXPECT_EQ(tf.name.ToString(), "read_parquet");
  EXPECT_EQ(tf.args[0]->text, "data/*.parquet");
  EXPECT_EQ(*tf.alias, "p");
  QueryPtr q6 = Q("SELECT * FROM TABLE(system.sequence(start => 1, stop => 10))");
  const Relation& tf2 = *q6->body->select->from[0];
  EXPECT_EQ(tf2.kind, RelationKind::kTableFunction);
  EXPECT_EQ(tf2.name.ToString(), "system.sequence");
  ASSERT_EQ(tf2.args.size(), 2u);
  EXPECT_EQ(tf2.args[1]->kind, ExprKind::kNamedArgument);
  EXPECT_EQ(tf2.args[1]->text, "stop");
}

TEST(ParserQuery, TableSample) {
  QueryPtr q =
      Q("SELECT * FROM t AS x TABLESAMPLE BERNOULLI (10.5) JOIN u TABLESAMPLE SYSTEM (1) "
        "ON true");
  const Relation& join = *q->body->select->from[0];
  EXPECT_EQ(join.left->sample_method, "BERNOULLI");
  EXPECT_EQ(join.left->sample_percentage->text, "10.5");
  EXPECT_EQ(*join.left->alias, "x");
  EXPECT_EQ(join.right->sample_method, "SYSTEM");
}

TEST(ParserQuery, ClauseWordsAreNotImplicitAliases) {
  QueryPtr q = Q("SELECT a FROM t LIMIT 5");
  EXPECT_FALSE(q->body->select->items[0].alias.has_value());
  EXPECT_FALSE(q->body->select->from[0]->alias.has_value());
  EXPECT_EQ(q->limit->text, "5");
  QueryPtr o = Q("SELECT a FROM t OFFSET 1");
  EXPECT_FALSE(o->body->select->from[0]->alias.has_value());
  EXPECT_EQ(o->offset->text, "1");
}

// ---------------------------------------------------------------------------------------
// TPC-H: all 22 queries, written in the usual way (dates, intervals, subqueries, views as
// WITH) must parse.

const char* const kTpch[22] = {
    // Q1
    "select l_returnflag, l_linestatus, sum(l_quantity) as sum_qty, sum(l_extendedprice) as "
    "sum_base_price, sum(l_extendedprice * (1 - l_discount)) as sum_disc_price, "
    "sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) as sum_charge, avg(l_quantity) as "
    "avg_qty, avg(l_extendedprice) as avg_price, avg(l_discount) as avg_disc, count(*) as "
    "count_order from lineitem where l_shipdate <= date '1998-12-01' - interval '90' day "
    "group by l_returnflag, l_linestatus order by l_returnflag, l_linestatus",
    // Q2
    "select s_acctbal, s_name, n_name, p_partkey, p_mfgr, s_address, s_phone, s_comment from "
    "part, supplier, partsupp, nation, region where p_partkey = ps_partkey and s_suppkey = "
    "ps_suppkey and p_size = 15 and p_type like '%BRASS' and s_nationkey = n_nationkey and "
    "n_regionkey = r_regionkey and r_name = 'EUROPE' and ps_supplycost = (select "
    "min(ps_supplycost) from partsupp, supplier, nation, region where p_partkey = ps_partkey "
    "and s_suppkey = ps_suppkey and s_nationkey = n_nationkey and n_regionkey = r_regionkey "
    "and r_name = 'EUROPE') order by s_acctbal desc, n_name, s_name, p_partkey limit 100",
    // Q3
    "select l_orderkey, sum(l_extendedprice * (1 - l_discount)) as revenue, o_orderdate, "
    "o_shippriority from customer, orders, lineitem where c_mktsegment = 'BUILDING' and "
    "c_custkey = o_custkey and l_orderkey = o_orderkey and o_orderdate < date '1995-03-15' and "
    "l_shipdate > date '1995-03-15' group by l_orderkey, o_orderdate, o_shippriority order by "
    "revenue desc, o_orderdate limit 10",
    // Q4
    "select o_orderpriority, count(*) as order_count from orders where o_orderdate >= date "
    "'1993-07-01' and o_orderdate < date '1993-07-01' + interval '3' month and exists (select "
    "* from lineitem where l_orderkey = o_orderkey and l_commitdate < l_receiptdate) group by "
    "o_orderpriority order by o_orderpriority",
    // Q5
    "select n_name, sum(l_extendedprice * (1 - l_discount)) as revenue from customer, orders, "
    "lineitem, supplier, nation, region where c_custkey = o_custkey and l_orderkey = "
    "o_orderkey and l_suppkey = s_suppkey and c_nationkey = s_nationkey and s_nationkey = "
    "n_nationkey and n_regionkey = r_regionkey and r_name = 'ASIA' and o_orderdate >= date "
    "'1994-01-01' and o_orderdate < date '1994-01-01' + interval '1' year group by n_name "
    "order by revenue desc",
    // Q6
    "select sum(l_extendedprice * l_discount) as revenue from lineitem where l_shipdate >= "
    "date '1994-01-01' and l_shipdate < date '1994-01-01' + interval '1' year and l_discount "
    "between .06 - 0.01 and .06 + 0.01 and l_quantity < 24",
    // Q7
    "select supp_nation, cust_nation, l_year, sum(volume) as revenue from (select n1.n_name "
    "as supp_nation, n2.n_name as cust_nation, extract(year from l_shipdate) as l_year, "
    "l_extendedprice * (1 - l_discount) as volume from supplier, lineitem, orders, customer, "
    "nation n1, nation n2 where s_suppkey = l_suppkey and o_orderkey = l_orderkey and "
    "c_custkey = o_custkey and s_nationkey = n1.n_nationkey and c_nationkey = n2.n_nationkey "
    "and ((n1.n_name = 'FRANCE' and n2.n_name = 'GERMANY') or (n1.n_name = 'GERMANY' and "
    "n2.n_name = 'FRANCE')) and l_shipdate between date '1995-01-01' and date '1996-12-31') "
    "as shipping group by supp_nation, cust_nation, l_year order by supp_nation, cust_nation, "
    "l_year",
    // Q8
    "select o_year, sum(case when nation = 'BRAZIL' then volume else 0 end) / sum(volume) as "
    "mkt_share from (select extract(year from o_orderdate) as o_year, l_extendedprice * (1 - "
    "l_discount) as volume, n2.n_name as nation from part, supplier, lineitem, orders, "
    "customer, nation n1, nation n2, region where p_partkey = l_partkey and s_suppkey = "
    "l_suppkey and l_orderkey = o_orderkey and o_custkey = c_custkey and c_nationkey = "
    "n1.n_nationkey and n1.n_regionkey = r_regionkey and r_name = 'AMERICA' and s_nationkey = "
    "n2.n_nationkey and o_orderdate between date '1995-01-01' and date '1996-12-31' and "
    "p_type = 'ECONOMY ANODIZED STEEL') as all_nations group by o_year order by o_year",
    // Q9
    "select nation, o_year, sum(amount) as sum_profit from (select n_name as nation, "
    "extract(year from o_orderdate) as o_year, l_extendedprice * (1 - l_discount) - "
    "ps_supplycost * l_quantity as amount from part, supplier, lineitem, partsupp, orders, "
    "nation where s_suppkey = l_suppkey and ps_suppkey = l_suppkey and ps_partkey = "
    "l_partkey and p_partkey = l_partkey and o_orderkey = l_orderkey and s_nationkey = "
    "n_nationkey and p_name like '%green%') as profit group by nation, o_year order by "
    "nation, o_year desc",
    // Q10
    "select c_custkey, c_name, sum(l_extendedprice * (1 - l_discount)) as revenue, c_acctbal, "
    "n_name, c_address, c_phone, c_comment from customer, orders, lineitem, nation where "
    "c_custkey = o_custkey and l_orderkey = o_orderkey and o_orderdate >= date '1993-10-01' "
    "and o_orderdate < date '1993-10-01' + interval '3' month and l_returnflag = 'R' and "
    "c_nationkey = n_nationkey group by c_custkey, c_name, c_acctbal, c_phone, n_name, "
    "c_address, c_comment order by revenue desc limit 20",
    // Q11
    "select ps_partkey, sum(ps_supplycost * ps_availqty) as value from partsupp, supplier, "
    "nation where ps_suppkey = s_suppkey and s_nationkey = n_nationkey and n_name = 'GERMANY' "
    "group by ps_partkey having sum(ps_supplycost * ps_availqty) > (select "
    "sum(ps_supplycost * ps_availqty) * 0.0001 from partsupp, supplier, nation where "
    "ps_suppkey = s_suppkey and s_nationkey = n_nationkey and n_name = 'GERMANY') order by "
    "value desc",
    // Q12
    "select l_shipmode, sum(case when o_orderpriority = '1-URGENT' or o_orderpriority = "
    "'2-HIGH' then 1 else 0 end) as high_line_count, sum(case when o_orderpriority <> "
    "'1-URGENT' and o_orderpriority <> '2-HIGH' then 1 else 0 end) as low_line_count from "
    "orders, lineitem where o_orderkey = l_orderkey and l_shipmode in ('MAIL', 'SHIP') and "
    "l_commitdate < l_receiptdate and l_shipdate < l_commitdate and l_receiptdate >= date "
    "'1994-01-01' and l_receiptdate < date '1994-01-01' + interval '1' year group by "
    "l_shipmode order by l_shipmode",
    // Q13
    "select c_count, count(*) as custdist from (select c_custkey, count(o_orderkey) from "
    "customer left outer join orders on c_custkey = o_custkey and o_comment not like "
    "'%special%requests%' group by c_custkey) as c_orders (c_custkey, c_count) group by "
    "c_count order by custdist desc, c_count desc",
    // Q14
    "select 100.00 * sum(case when p_type like 'PROMO%' then l_extendedprice * (1 - "
    "l_discount) else 0 end) / sum(l_extendedprice * (1 - l_discount)) as promo_revenue from "
    "lineitem, part where l_partkey = p_partkey and l_shipdate >= date '1995-09-01' and "
    "l_shipdate < date '1995-09-01' + interval '1' month",
    // Q15 (the view as a WITH query)
    "with revenue0 (supplier_no, total_revenue) as (select l_suppkey, sum(l_extendedprice * (1 "
    "- l_discount)) from lineitem where l_shipdate >= date '1996-01-01' and l_shipdate < date "
    "'1996-01-01' + interval '3' month group by l_suppkey) select s_suppkey, s_name, "
    "s_address, s_phone, total_revenue from supplier, revenue0 where s_suppkey = supplier_no "
    "and total_revenue = (select max(total_revenue) from revenue0) order by s_suppkey",
    // Q16
    "select p_brand, p_type, p_size, count(distinct ps_suppkey) as supplier_cnt from "
    "partsupp, part where p_partkey = ps_partkey and p_brand <> 'Brand#45' and p_type not "
    "like 'MEDIUM POLISHED%' and p_size in (49, 14, 23, 45, 19, 3, 36, 9) and ps_suppkey not "
    "in (select s_suppkey from supplier where s_comment like '%Customer%Complaints%') group "
    "by p_brand, p_type, p_size order by supplier_cnt desc, p_brand, p_type, p_size",
    // Q17
    "select sum(l_extendedprice) / 7.0 as avg_yearly from lineitem, part where p_partkey = "
    "l_partkey and p_brand = 'Brand#23' and p_container = 'MED BOX' and l_quantity < (select "
    "0.2 * avg(l_quantity) from lineitem where l_partkey = p_partkey)",
    // Q18
    "select c_name, c_custkey, o_orderkey, o_orderdate, o_totalprice, sum(l_quantity) from "
    "customer, orders, lineitem where o_orderkey in (select l_orderkey from lineitem group by "
    "l_orderkey having sum(l_quantity) > 300) and c_custkey = o_custkey and o_orderkey = "
    "l_orderkey group by c_name, c_custkey, o_orderkey, o_orderdate, o_totalprice order by "
    "o_totalprice desc, o_orderdate limit 100",
    // Q19
    "select sum(l_extendedprice * (1 - l_discount)) as revenue from lineitem, part where "
    "(p_partkey = l_partkey and p_brand = 'Brand#12' and p_container in ('SM CASE', 'SM BOX', "
    "'SM PACK', 'SM PKG') and l_quantity >= 1 and l_quantity <= 1 + 10 and p_size between 1 "
    "and 5 and l_shipmode in ('AIR', 'AIR REG') and l_shipinstruct = 'DELIVER IN PERSON') or "
    "(p_partkey = l_partkey and p_brand = 'Brand#23' and p_container in ('MED BAG', 'MED "
    "BOX', 'MED PKG', 'MED PACK') and l_quantity >= 10 and l_quantity <= 10 + 10 and p_size "
    "between 1 and 10 and l_shipmode in ('AIR', 'AIR REG') and l_shipinstruct = 'DELIVER IN "
    "PERSON') or (p_partkey = l_partkey and p_brand = 'Brand#34' and p_container in ('LG "
    "CASE', 'LG BOX', 'LG PACK', 'LG PKG') and l_quantity >= 20 and l_quantity <= 20 + 10 and "
    "p_size between 1 and 15 and l_shipmode in ('AIR', 'AIR REG') and l_shipinstruct = "
    "'DELIVER IN PERSON')",
    // Q20
    "select s_name, s_address from supplier, nation where s_suppkey in (select ps_suppkey "
    "from partsupp where ps_partkey in (select p_partkey from part where p_name like "
    "'forest%') and ps_availqty > (select 0.5 * sum(l_quantity) from lineitem where "
    "l_partkey = ps_partkey and l_suppkey = ps_suppkey and l_shipdate >= date '1994-01-01' "
    "and l_shipdate < date '1994-01-01' + interval '1' year)) and s_nationkey = n_nationkey "
    "and n_name = 'CANADA' order by s_name",
    // Q21
    "select s_name, count(*) as numwait from supplier, lineitem l1, orders, nation where "
    "s_suppkey = l1.l_suppkey and o_orderkey = l1.l_orderkey and o_orderstatus = 'F' and "
    "l1.l_receiptdate > l1.l_commitdate and exists (select * from lineitem l2 where "
    "l2.l_orderkey = l1.l_orderkey and l2.l_suppkey <> l1.l_suppkey) and not exists (select "
    "* from lineitem l3 where l3.l_orderkey = l1.l_orderkey and l3.l_suppkey <> l1.l_suppkey "
    "and l3.l_receiptdate > l3.l_commitdate) and s_nationkey = n_nationkey and n_name = "
    "'SAUDI ARABIA' group by s_name order by numwait desc, s_name limit 100",
    // Q22
    "select cntrycode, count(*) as numcust, sum(c_acctbal) as totacctbal from (select "
    "substring(c_phone from 1 for 2) as cntrycode, c_acctbal from customer where "
    "substring(c_phone from 1 for 2) in ('13', '31', '23', '29', '30', '18', '17') and "
    "c_acctbal > (select avg(c_acctbal) from customer where c_acctbal > 0.00 and "
    "substring(c_phone from 1 for 2) in ('13', '31', '23', '29', '30', '18', '17')) and not "
    "exists (select * from orders where o_custkey = c_custkey)) as custsale group by "
    "cntrycode order by cntrycode",
};

TEST(ParserTpch, All22QueriesParse) {
  for (int i = 0; i < 22; ++i) {
    auto r = ParseStatement(kTpch[i]);
    ASSERT_TRUE(r.ok()) << "Q" << (i + 1) << ": " << r.status().ToString();
    EXPECT_EQ((*r)->kind, StatementKind::kQuery) << "Q" << (i + 1);
    // Printing and parsing again gives the same tree.
    const std::string printed = static_cast<const QueryStatement&>(**r).query->ToString();
    auto again = ParseStatement(printed);
    ASSERT_TRUE(again.ok()) << "Q" << (i + 1) << " reprinted: " << printed << "\n"
                            << again.status().ToString();
    EXPECT_EQ(static_cast<const QueryStatement&>(**again).query->ToString(), printed)
        << "Q" << (i + 1);
  }
}

TEST(ParserTpch, Q1AndQ13AndQ22Shapes) {
  QueryPtr q1 = Q(kTpch[0]);
  const Select& s1 = *q1->body->select;
  EXPECT_EQ(s1.where->ToString(), "(l_shipdate <= (DATE '1998-12-01' - INTERVAL '90' DAY))");
  EXPECT_EQ(s1.items.size(), 10u);
  EXPECT_TRUE(s1.items[9].expr->count_star);
  EXPECT_EQ(*s1.items[9].alias, "count_order");

  QueryPtr q13 = Q(kTpch[12]);
  const Relation& sub = *q13->body->select->from[0];
  EXPECT_EQ(*sub.alias, "c_orders");
  EXPECT_EQ(sub.column_aliases, (std::vector<std::string>{"c_custkey", "c_count"}));
  const Relation& join = *sub.subquery->body->select->from[0];
  EXPECT_EQ(join.kind, RelationKind::kJoin);
  EXPECT_EQ(join.join_kind, JoinKind::kLeft);
  EXPECT_EQ(join.on->ToString(),
            "((c_custkey = o_custkey) AND (o_comment NOT LIKE '%special%requests%'))");

  QueryPtr q22 = Q(kTpch[21]);
  const Select& inner = *q22->body->select->from[0]->subquery->body->select;
  EXPECT_EQ(inner.items[0].expr->kind, ExprKind::kSubstring);
  EXPECT_EQ(inner.where->left->left->kind, ExprKind::kInList);
  EXPECT_EQ(inner.where->left->left->args.size(), 7u);
  EXPECT_EQ(inner.where->right->kind, ExprKind::kNot);
  EXPECT_EQ(inner.where->right->left->kind, ExprKind::kExists);
}

TEST(ParserTpch, MutatedQueriesNeverCrash) {
  // A bounded mutation loop: delete, duplicate or insert bytes in the TPC-H texts. Every
  // result must be a tree that prints, or an error pointing at a line and column.
  std::mt19937 rng(20240601);
  const std::string inserts = "(),;'\"*+-.=<>[]? \nabcSELECTFROMWHEREANDORNOTCASEWHENEND0123";
  int parsed = 0;
  for (int round = 0; round < 40; ++round) {
    for (const char* query : kTpch) {
      std::string sql = query;
      const int edits = 1 + static_cast<int>(rng() % 3);
      for (int e = 0; e < edits && !sql.empty(); ++e) {
        const size_t at = rng() % sql.size();
        const size_t len = 1 + rng() % 8;
        switch (rng() % 3) {
          case 0:
            sql.erase(at, len);
            break;
          case 1:
            sql.insert(at, sql.substr(at, len));
            break;
          default:
            sql.insert(at, 1, inserts[rng() % inserts.size()]);
        }
      }
      auto r = ParseStatements(sql);
      if (r.ok()) {
        ++parsed;
        for (const StatementPtr& st : *r) {
          if (st->kind == StatementKind::kQuery) {
            EXPECT_FALSE(static_cast<const QueryStatement&>(*st).query->ToString().empty());
          }
        }
      } else {
        EXPECT_EQ(r.status().message().rfind("line ", 0), 0u) << sql << "\n"
                                                              << r.status().message();
      }
    }
  }
  EXPECT_GT(parsed, 0);  // some mutations (in literals, say) still parse
}

// ---------------------------------------------------------------------------------------
// Statements

TEST(ParserStatement, KindsAndNames) {
  struct Case {
    const char* sql;
    StatementKind kind;
    const char* name;
  };
  for (const Case& c : std::vector<Case>{
           {"SELECT 1", StatementKind::kQuery, "SELECT"},
           {"(SELECT 1)", StatementKind::kQuery, "SELECT"},
           {"VALUES 1", StatementKind::kQuery, "SELECT"},
           {"WITH a AS (SELECT 1) SELECT * FROM a", StatementKind::kQuery, "SELECT"},
           {"SHOW CATALOGS", StatementKind::kShowCatalogs, "SHOW CATALOGS"},
           {"SHOW SCHEMAS", StatementKind::kShowSchemas, "SHOW SCHEMAS"},
           {"SHOW TABLES", StatementKind::kShowTables, "SHOW TABLES"},
           {"SHOW COLUMNS FROM t", StatementKind::kShowColumns, "SHOW COLUMNS"},
           {"DESCRIBE t", StatementKind::kShowColumns, "SHOW COLUMNS"},
           {"DESC t", StatementKind::kShowColumns, "SHOW COLUMNS"},
           {"SHOW CREATE TABLE t", StatementKind::kShowCreateTable, "SHOW CREATE TABLE"},
           {"SHOW CREATE VIEW v", StatementKind::kShowCreateView, "SHOW CREATE VIEW"},
           {"SHOW FUNCTIONS", StatementKind::kShowFunctions, "SHOW FUNCTIONS"},
           {"SHOW SESSION", StatementKind::kShowSession, "SHOW SESSION"},
           {"SHOW STATS FOR t", StatementKind::kShowStats, "SHOW STATS"},
           {"USE s", StatementKind::kUse, "USE"},
           {"SET SESSION x = 1", StatementKind::kSetSession, "SET SESSION"},
           {"RESET SESSION x", StatementKind::kResetSession, "RESET SESSION"},
           {"PREPARE p FROM SELECT 1", StatementKind::kPrepare, "PREPARE"},
           {"EXECUTE p", StatementKind::kExecute, "EXECUTE"},
           {"EXECUTE IMMEDIATE 'SELECT 1'", StatementKind::kExecuteImmediate, "EXECUTE IMMEDIATE"},
           {"DEALLOCATE PREPARE p", StatementKind::kDeallocate, "DEALLOCATE"},
           {"DESCRIBE INPUT p", StatementKind::kDescribeInput, "DESCRIBE INPUT"},
           {"DESCRIBE OUTPUT p", StatementKind::kDescribeOutput, "DESCRIBE OUTPUT"},
           {"CREATE SCHEMA s", StatementKind::kCreateSchema, "CREATE SCHEMA"},
           {"DROP SCHEMA s", StatementKind::kDropSchema, "DROP SCHEMA"},
           {"CREATE TABLE t (a int)", StatementKind::kCreateTable, "CREATE TABLE"},
           {"CREATE TABLE t AS SELECT 1 x", StatementKind::kCreateTableAsSelect,
            "CREATE TABLE AS SELECT"},
           {"DROP TABLE t", StatementKind::kDropTable, "DROP TABLE"},
           {"CREATE VIEW v AS SELECT 1", StatementKind::kCreateView, "CREATE VIEW"},
           {"DROP VIEW v", StatementKind::kDropView, "DROP VIEW"},
           {"ALTER TABLE t RENAME TO u", StatementKind::kAlterTable, "ALTER TABLE"},
           {"INSERT INTO t VALUES 1", StatementKind::kInsert, "INSERT"},
           {"DELETE FROM t", StatementKind::kDelete, "DELETE"},
           {"UPDATE t SET a = 1", StatementKind::kUpdate, "UPDATE"},
           {"MERGE INTO t USING s ON t.k = s.k WHEN MATCHED THEN DELETE", StatementKind::kMerge,
            "MERGE"},
           {"CALL p()", StatementKind::kCall, "CALL"},
           {"GRANT SELECT ON t TO u", StatementKind::kGrant, "GRANT"},
           {"REVOKE SELECT ON t FROM u", StatementKind::kRevoke, "REVOKE"},
           {"CREATE ROLE r", StatementKind::kCreateRole, "CREATE ROLE"},
           {"DROP ROLE r", StatementKind::kDropRole, "DROP ROLE"},
           {"SET ROLE r", StatementKind::kSetRole, "SET ROLE"},
           {"CREATE SECRET s (TYPE s3)", StatementKind::kCreateSecret, "CREATE SECRET"},
           {"DROP SECRET s", StatementKind::kDropSecret, "DROP SECRET"},
           {"ATTACH 'x' AS c", StatementKind::kAttach, "ATTACH"},
           {"DETACH c", StatementKind::kDetach, "DETACH"},
           {"START TRANSACTION", StatementKind::kStartTransaction, "START TRANSACTION"},
           {"BEGIN", StatementKind::kStartTransaction, "START TRANSACTION"},
           {"COMMIT", StatementKind::kCommit, "COMMIT"},
           {"ROLLBACK WORK", StatementKind::kRollback, "ROLLBACK"},
           {"COMMENT ON TABLE t IS 'x'", StatementKind::kComment, "COMMENT"},
           {"ANALYZE t", StatementKind::kAnalyze, "ANALYZE"},
           {"EXPLAIN SELECT 1", StatementKind::kExplain, "EXPLAIN"},
       }) {
    auto r = ParseStatement(c.sql);
    ASSERT_TRUE(r.ok()) << c.sql << "\n" << r.status().ToString();
    EXPECT_EQ((*r)->kind, c.kind) << c.sql;
    EXPECT_STREQ(StatementKindName((*r)->kind), c.name) << c.sql;
  }
}

TEST(ParserStatement, TextAndPositionOfEachStatement) {
  auto r = ParseStatements("  SELECT 1;\n\n;  INSERT INTO t VALUES (1, 'a;b') ; ");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[0]->text, "SELECT 1");
  EXPECT_EQ((*r)[1]->text, "INSERT INTO t VALUES (1, 'a;b')");
  EXPECT_EQ((*r)[1]->pos.line, 3);
  EXPECT_EQ((*r)[1]->pos.column, 4);
  EXPECT_EQ(S("SELECT 1;")->text, "SELECT 1");
  auto empty = ParseStatements(" ; -- nothing\n");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
}

TEST(ParserStatement, Explain) {
  auto e = As<ExplainStatement>("EXPLAIN (TYPE DISTRIBUTED, FORMAT JSON) SELECT 1",
                                StatementKind::kExplain);
  ASSERT_EQ(e->options.size(), 2u);
  EXPECT_EQ(e->options[0].name, "TYPE");
  EXPECT_EQ(e->options[0].value, "DISTRIBUTED");
  EXPECT_EQ(e->options[1].value, "JSON");
  EXPECT_EQ(e->statement->kind, StatementKind::kQuery);
  auto a = As<ExplainStatement>("EXPLAIN ANALYZE VERBOSE INSERT INTO t SELECT * FROM u",
                                StatementKind::kExplain);
  EXPECT_TRUE(a->analyze);
  EXPECT_TRUE(a->verbose);
  EXPECT_EQ(a->statement->kind, StatementKind::kInsert);
  EXPECT_EQ(a->statement->text, "INSERT INTO t SELECT * FROM u");
  auto p = As<ExplainStatement>("EXPLAIN (SELECT 1)", StatementKind::kExplain);
  EXPECT_TRUE(p->options.empty());
}

TEST(ParserStatement, Show) {
  auto s = As<ShowStatement>("SHOW SCHEMAS FROM lake LIKE 's%'", StatementKind::kShowSchemas);
  EXPECT_EQ(s->target.ToString(), "lake");
  EXPECT_EQ(*s->like.pattern, "s%");
  auto t = As<ShowStatement>("SHOW TABLES IN lake.sales LIKE 'o\\_%' ESCAPE '\\'",
                             StatementKind::kShowTables);
  EXPECT_EQ(t->target.ToString(), "lake.sales");
  EXPECT_EQ(*t->like.pattern, "o\\_%");
  EXPECT_EQ(*t->like.escape, "\\");
  EXPECT_EQ(As<ShowStatement>("SHOW CATALOGS LIKE 'l%'", StatementKind::kShowCatalogs)
                ->like.pattern.value_or(""),
            "l%");
  EXPECT_EQ(
      As<ShowStatement>("DESCRIBE lake.s.t", StatementKind::kShowColumns)->target.parts.size(), 3u);
  EXPECT_EQ(As<ShowStatement>("SHOW COLUMNS IN t", StatementKind::kShowColumns)->target.ToString(),
            "t");
  EXPECT_EQ(As<ShowStatement>("SHOW FUNCTIONS LIKE 'array%'", StatementKind::kShowFunctions)
                ->like.pattern.value_or(""),
            "array%");
  EXPECT_EQ(As<ShowStatement>("SHOW SESSION LIKE 'query%'", StatementKind::kShowSession)
                ->like.pattern.value_or(""),
            "query%");
  EXPECT_TRUE(
      As<ShowStatement>("SHOW STATS FOR (SELECT * FROM t WHERE a > 1)", StatementKind::kShowStats)
          ->query);
  // A table named "input" still describes as a table.
  EXPECT_EQ(As<ShowStatement>("DESCRIBE input", StatementKind::kShowColumns)->target.ToString(),
            "input");
}

TEST(ParserStatement, SessionAndPreparedStatements) {
  auto u = As<UseStatement>("USE lake.sales", StatementKind::kUse);
  EXPECT_EQ(*u->catalog, "lake");
  EXPECT_EQ(u->schema, "sales");
  EXPECT_FALSE(As<UseStatement>("USE sales", StatementKind::kUse)->catalog.has_value());
  auto set = As<SetSessionStatement>("SET SESSION lake.target_split_size = '64MB'",
                                     StatementKind::kSetSession);
  EXPECT_EQ(set->name.ToString(), "lake.target_split_size");
  EXPECT_EQ(set->value->text, "64MB");
  auto reset =
      As<ResetSessionStatement>("RESET SESSION query_max_run_time", StatementKind::kResetSession);
  EXPECT_EQ(reset->name.ToString(), "query_max_run_time");
  auto prep =
      As<PrepareStatement>("PREPARE q1 FROM SELECT * FROM t WHERE a = ?", StatementKind::kPrepare);
  EXPECT_EQ(prep->name, "q1");
  EXPECT_EQ(prep->statement->kind, StatementKind::kQuery);
  EXPECT_EQ(prep->statement->text, "SELECT * FROM t WHERE a = ?");
  auto ex = As<ExecuteStatement>("EXECUTE q1 USING 1, 'x'", StatementKind::kExecute);
  EXPECT_EQ(ex->name, "q1");
  EXPECT_EQ(ex->parameters.size(), 2u);
  auto imm = As<ExecuteImmediateStatement>("EXECUTE IMMEDIATE 'SELECT ?' USING 5",
                                           StatementKind::kExecuteImmediate);
  EXPECT_EQ(imm->sql, "SELECT ?");
  EXPECT_EQ(imm->parameters.size(), 1u);
  EXPECT_EQ(As<PreparedNameStatement>("DEALLOCATE q1", StatementKind::kDeallocate)->name, "q1");
  EXPECT_EQ(As<PreparedNameStatement>("DESCRIBE OUTPUT q1", StatementKind::kDescribeOutput)->name,
            "q1");
}

TEST(ParserStatement, Schemas) {
  auto c = As<CreateSchemaStatement>(
      "CREATE SCHEMA IF NOT EXISTS lake.sales WITH (location = 's3://b/sales')",
      StatementKind::kCreateSchema);
  EXPECT_TRUE(c->if_not_exists);
  EXPECT_EQ(c->name.ToString(), "lake.sales");
  ASSERT_EQ(c->properties.size(), 1u);
  EXPECT_EQ(c->properties[0].name, "location");
  auto d = As<DropSchemaStatement>("DROP SCHEMA IF EXISTS s CASCADE", StatementKind::kDropSchema);
  EXPECT_TRUE(d->if_exists);
  EXPECT_TRUE(d->cascade);
  EXPECT_FALSE(
      As<DropSchemaStatement>("DROP SCHEMA s RESTRICT", StatementKind::kDropSchema)->cascade);
}

TEST(ParserStatement, CreateTable) {
  auto t = As<CreateTableStatement>(
      "CREATE TABLE IF NOT EXISTS lake.sales.orders (\n"
      "  id bigint NOT NULL COMMENT 'the key',\n"
      "  ts timestamp(6) with time zone,\n"
      "  price decimal(12, 2),\n"
      "  tags array(varchar),\n"
      "  attrs map(varchar, varchar) WITH (x = 1),\n"
      "  \"Date\" date,\n"
      "  LIKE other INCLUDING PROPERTIES\n"
      ") COMMENT 'orders' WITH (partitioning = ARRAY['day(ts)', 'bucket(id, 16)'], "
      "format_version = 2)",
      StatementKind::kCreateTable);
  EXPECT_TRUE(t->if_not_exists);
  EXPECT_EQ(t->name.ToString(), "lake.sales.orders");
  ASSERT_EQ(t->columns.size(), 6u);
  EXPECT_EQ(t->columns[0].name, "id");
  EXPECT_EQ(t->columns[0].type.base, "bigint");
  EXPECT_TRUE(t->columns[0].not_null);
  EXPECT_EQ(*t->columns[0].comment, "the key");
  EXPECT_EQ(t->columns[1].type.ToString(), "timestamp(6) with time zone");
  EXPECT_EQ(t->columns[2].type.ToString(), "decimal(12,2)");
  EXPECT_EQ(t->columns[3].type.ToString(), "array(varchar)");
  EXPECT_EQ(t->columns[4].properties.size(), 1u);
  EXPECT_TRUE(t->columns[5].quoted);
  EXPECT_EQ(t->columns[5].name, "Date");
  ASSERT_EQ(t->likes.size(), 1u);
  EXPECT_EQ(t->likes[0].table.ToString(), "other");
  EXPECT_TRUE(*t->likes[0].including_properties);
  EXPECT_EQ(*t->comment, "orders");
  ASSERT_EQ(t->properties.size(), 2u);
  EXPECT_EQ(t->properties[0].name, "partitioning");
  EXPECT_EQ(t->properties[0].value->ToString(), "ARRAY['day(ts)', 'bucket(id, 16)']");
  EXPECT_EQ(t->properties[1].value->text, "2");

  auto spark = As<CreateTableStatement>(
      "CREATE TABLE t (id bigint, ts timestamp, region varchar) PARTITIONED BY (day(ts), "
      "bucket(16, id), region)",
      StatementKind::kCreateTable);
  ASSERT_EQ(spark->partitioned_by.size(), 3u);
  EXPECT_EQ(spark->partitioned_by[0]->ToString(), "day(ts)");
  EXPECT_EQ(spark->partitioned_by[1]->ToString(), "bucket(16, id)");
  EXPECT_EQ(spark->partitioned_by[2]->kind, ExprKind::kIdentifier);
}

TEST(ParserStatement, CreateTableAsSelect) {
  auto c = As<CreateTableAsSelectStatement>(
      "CREATE TABLE IF NOT EXISTS t2 (x, y) COMMENT 'copy' WITH (format = 'PARQUET') AS "
      "SELECT a, b FROM t WITH NO DATA",
      StatementKind::kCreateTableAsSelect);
  EXPECT_TRUE(c->if_not_exists);
  EXPECT_EQ(c->column_aliases, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(*c->comment, "copy");
  EXPECT_EQ(c->properties.size(), 1u);
  EXPECT_FALSE(c->with_data);
  EXPECT_EQ(c->query->ToString(), "SELECT a, b FROM t");
  auto w = As<CreateTableAsSelectStatement>(
      "CREATE OR REPLACE TABLE t2 AS WITH a AS (SELECT 1 x) SELECT * FROM a WITH DATA",
      StatementKind::kCreateTableAsSelect);
  EXPECT_TRUE(w->or_replace);
  EXPECT_TRUE(w->with_data);
  EXPECT_TRUE(w->query->with.has_value());
}

TEST(ParserStatement, ViewsAndDrops) {
  auto v = As<CreateViewStatement>(
      "CREATE OR REPLACE VIEW v COMMENT 'c' SECURITY INVOKER AS SELECT * FROM t",
      StatementKind::kCreateView);
  EXPECT_TRUE(v->or_replace);
  EXPECT_EQ(*v->comment, "c");
  EXPECT_EQ(*v->security, "INVOKER");
  EXPECT_EQ(v->query->ToString(), "SELECT * FROM t");
  auto dv = As<DropObjectStatement>("DROP VIEW IF EXISTS v", StatementKind::kDropView);
  EXPECT_TRUE(dv->if_exists);
  auto dt = As<DropObjectStatement>("DROP TABLE lake.s.t", StatementKind::kDropTable);
  EXPECT_FALSE(dt->if_exists);
  EXPECT_EQ(dt->name.ToString(), "lake.s.t");
}

TEST(ParserStatement, AlterTable) {
  auto rename =
      As<AlterTableStatement>("ALTER TABLE IF EXISTS t RENAME TO s.u", StatementKind::kAlterTable);
  EXPECT_TRUE(rename->if_exists);
  EXPECT_EQ(rename->action, AlterTableAction::kRenameTable);
  EXPECT_EQ(rename->new_name.ToString(), "s.u");
  auto add = As<AlterTableStatement>(
      "ALTER TABLE t ADD COLUMN IF NOT EXISTS c varchar NOT NULL COMMENT 'x'",
      StatementKind::kAlterTable);
  EXPECT_EQ(add->action, AlterTableAction::kAddColumn);
  EXPECT_TRUE(add->column_if_not_exists);
  EXPECT_EQ(add->column.name, "c");
  EXPECT_TRUE(add->column.not_null);
  auto drop = As<AlterTableStatement>("ALTER TABLE t DROP COLUMN IF EXISTS s.f",
                                      StatementKind::kAlterTable);
  EXPECT_EQ(drop->action, AlterTableAction::kDropColumn);
  EXPECT_TRUE(drop->column_if_exists);
  EXPECT_EQ(drop->column_name.ToString(), "s.f");
  auto rc =
      As<AlterTableStatement>("ALTER TABLE t RENAME COLUMN a TO b", StatementKind::kAlterTable);
  EXPECT_EQ(rc->action, AlterTableAction::kRenameColumn);
  EXPECT_EQ(rc->column_name.ToString(), "a");
  EXPECT_EQ(rc->new_column_name, "b");
  auto ty = As<AlterTableStatement>("ALTER TABLE t ALTER COLUMN a SET DATA TYPE bigint",
                                    StatementKind::kAlterTable);
  EXPECT_EQ(ty->action, AlterTableAction::kSetColumnType);
  EXPECT_EQ(ty->type.base, "bigint");
  EXPECT_EQ(As<AlterTableStatement>("ALTER TABLE t ALTER COLUMN a DROP NOT NULL",
                                    StatementKind::kAlterTable)
                ->action,
            AlterTableAction::kDropNotNull);
  auto props = As<AlterTableStatement>(
      "ALTER TABLE t SET PROPERTIES format_version = 2, partitioning = ARRAY['month(ts)']",
      StatementKind::kAlterTable);
  EXPECT_EQ(props->action, AlterTableAction::kSetProperties);
  ASSERT_EQ(props->properties.size(), 2u);
  EXPECT_EQ(props->properties[1].name, "partitioning");
  auto tbl = As<AlterTableStatement>(
      "ALTER TABLE t SET TBLPROPERTIES ('write.format.default' = 'parquet', 'k' = 'v')",
      StatementKind::kAlterTable);
  EXPECT_EQ(tbl->action, AlterTableAction::kSetTblProperties);
  ASSERT_EQ(tbl->properties.size(), 2u);
  EXPECT_EQ(tbl->properties[0].name, "write.format.default");
  EXPECT_EQ(tbl->properties[0].value->text, "parquet");
  auto exec = As<AlterTableStatement>(
      "ALTER TABLE t EXECUTE optimize(file_size_threshold => '128MB') WHERE ts > DATE "
      "'2024-01-01'",
      StatementKind::kAlterTable);
  EXPECT_EQ(exec->action, AlterTableAction::kExecute);
  EXPECT_EQ(exec->procedure, "optimize");
  ASSERT_EQ(exec->args.size(), 1u);
  EXPECT_EQ(exec->args[0]->kind, ExprKind::kNamedArgument);
  EXPECT_EQ(exec->where->ToString(), "(ts > DATE '2024-01-01')");
  EXPECT_EQ(
      As<AlterTableStatement>("ALTER TABLE t EXECUTE expire_snapshots", StatementKind::kAlterTable)
          ->procedure,
      "expire_snapshots");
}

TEST(ParserStatement, InsertDeleteUpdate) {
  auto i = As<InsertStatement>("INSERT INTO s.t (a, b) VALUES (1, 'x'), (2, 'y')",
                               StatementKind::kInsert);
  EXPECT_EQ(i->table.ToString(), "s.t");
  EXPECT_EQ(i->columns, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(i->query->body->rows.size(), 2u);
  auto is = As<InsertStatement>("INSERT INTO t SELECT * FROM u", StatementKind::kInsert);
  EXPECT_TRUE(is->columns.empty());
  auto ip = As<InsertStatement>("INSERT INTO t (SELECT * FROM u)", StatementKind::kInsert);
  EXPECT_TRUE(ip->columns.empty());
  auto d = As<DeleteStatement>("DELETE FROM t WHERE a = 1", StatementKind::kDelete);
  EXPECT_EQ(d->where->ToString(), "(a = 1)");
  auto u = As<UpdateStatement>("UPDATE t SET a = a + 1, b = DEFAULT_B WHERE c IS NULL",
                               StatementKind::kUpdate);
  EXPECT_FALSE(u->alias.has_value());
  ASSERT_EQ(u->assignments.size(), 2u);
  EXPECT_EQ(u->assignments[0].column.ToString(), "a");
  EXPECT_EQ(u->assignments[0].value->ToString(), "(a + 1)");
  EXPECT_EQ(u->where->ToString(), "(c IS NULL)");
}

TEST(ParserStatement, Merge) {
  auto m = As<MergeStatement>(
      "MERGE INTO target t USING (SELECT * FROM src) s ON t.id = s.id "
      "WHEN MATCHED AND s.op = 'D' THEN DELETE "
      "WHEN MATCHED THEN UPDATE SET v = s.v, n = t.n + 1 "
      "WHEN NOT MATCHED AND s.v IS NOT NULL THEN INSERT (id, v) VALUES (s.id, s.v)",
      StatementKind::kMerge);
  EXPECT_EQ(m->target.ToString(), "target");
  EXPECT_EQ(*m->target_alias, "t");
  EXPECT_EQ(m->source->kind, RelationKind::kSubquery);
  EXPECT_EQ(*m->source->alias, "s");
  EXPECT_EQ(m->on->ToString(), "(t.id = s.id)");
  ASSERT_EQ(m->clauses.size(), 3u);
  EXPECT_TRUE(m->clauses[0].matched);
  EXPECT_EQ(m->clauses[0].action, MergeAction::kDelete);
  EXPECT_EQ(m->clauses[0].condition->ToString(), "(s.op = 'D')");
  EXPECT_EQ(m->clauses[1].action, MergeAction::kUpdate);
  EXPECT_EQ(m->clauses[1].assignments.size(), 2u);
  EXPECT_FALSE(m->clauses[2].matched);
  EXPECT_EQ(m->clauses[2].action, MergeAction::kInsert);
  EXPECT_EQ(m->clauses[2].insert_columns, (std::vector<std::string>{"id", "v"}));
  EXPECT_EQ(m->clauses[2].insert_values.size(), 2u);
}

TEST(ParserStatement, Call) {
  auto c = As<CallStatement>(
      "CALL lake.system.rollback_to_snapshot(schema_name => 'sales', table_name => 'orders', "
      "snapshot_id => 42)",
      StatementKind::kCall);
  EXPECT_EQ(c->procedure.ToString(), "lake.system.rollback_to_snapshot");
  ASSERT_EQ(c->args.size(), 3u);
  EXPECT_EQ(c->args[2]->text, "snapshot_id");
  EXPECT_EQ(c->args[2]->left->text, "42");
  auto p = As<CallStatement>("CALL system.sync('a', 1)", StatementKind::kCall);
  EXPECT_EQ(p->args[0]->kind, ExprKind::kLiteral);
}

TEST(ParserStatement, GrantRevokeAndRoles) {
  auto g = As<GrantStatement>("GRANT SELECT, INSERT ON TABLE s.t TO ROLE analyst WITH GRANT OPTION",
                              StatementKind::kGrant);
  EXPECT_EQ(g->privileges, (std::vector<std::string>{"SELECT", "INSERT"}));
  EXPECT_EQ(g->object_kind, "TABLE");
  EXPECT_EQ(g->object.ToString(), "s.t");
  EXPECT_EQ(g->principal.kind, PrincipalKind::kRole);
  EXPECT_EQ(g->principal.name, "analyst");
  EXPECT_TRUE(g->grant_option);
  auto all =
      As<GrantStatement>("GRANT ALL PRIVILEGES ON SCHEMA s TO USER alice", StatementKind::kGrant);
  EXPECT_TRUE(all->all_privileges);
  EXPECT_EQ(all->object_kind, "SCHEMA");
  EXPECT_EQ(all->principal.kind, PrincipalKind::kUser);
  auto r =
      As<GrantStatement>("REVOKE GRANT OPTION FOR DELETE ON t FROM bob", StatementKind::kRevoke);
  EXPECT_TRUE(r->grant_option);
  EXPECT_EQ(r->privileges, (std::vector<std::string>{"DELETE"}));
  EXPECT_EQ(r->principal.kind, PrincipalKind::kUnspecified);
  EXPECT_EQ(r->principal.name, "bob");
  EXPECT_EQ(As<RoleStatement>("CREATE ROLE analyst IN lake", StatementKind::kCreateRole)->catalog,
            "lake");
  EXPECT_TRUE(
      As<RoleStatement>("DROP ROLE IF EXISTS analyst", StatementKind::kDropRole)->if_exists);
  EXPECT_TRUE(As<RoleStatement>("SET ROLE ALL", StatementKind::kSetRole)->is_all);
  EXPECT_TRUE(As<RoleStatement>("SET ROLE NONE", StatementKind::kSetRole)->is_none);
  EXPECT_EQ(As<RoleStatement>("SET ROLE analyst IN lake", StatementKind::kSetRole)->name,
            "analyst");
}

TEST(ParserStatement, SecretsAndAttach) {
  auto s = As<SecretStatement>(
      "CREATE OR REPLACE PERSISTENT SECRET IF NOT EXISTS my_s3 (TYPE s3, KEY_ID 'AKIA', SECRET "
      "'xyz', REGION 'eu-west-1')",
      StatementKind::kCreateSecret);
  EXPECT_TRUE(s->or_replace);
  EXPECT_TRUE(s->if_not_exists);
  EXPECT_EQ(s->persistence, SecretPersistence::kPersistent);
  EXPECT_EQ(s->name, "my_s3");
  ASSERT_EQ(s->options.size(), 4u);
  EXPECT_EQ(s->options[0].name, "type");
  EXPECT_EQ(s->options[0].value->ToString(), "s3");
  EXPECT_EQ(s->options[1].name, "key_id");
  EXPECT_EQ(s->options[2].name, "secret");
  EXPECT_EQ(s->options[2].value->text, "xyz");
  auto tmp = As<SecretStatement>("CREATE TEMPORARY SECRET (TYPE s3)", StatementKind::kCreateSecret);
  EXPECT_EQ(tmp->persistence, SecretPersistence::kTemporary);
  EXPECT_TRUE(tmp->name.empty());
  auto ds =
      As<SecretStatement>("DROP PERSISTENT SECRET IF EXISTS my_s3", StatementKind::kDropSecret);
  EXPECT_TRUE(ds->if_exists);
  EXPECT_EQ(ds->name, "my_s3");
  auto a = As<AttachStatement>(
      "ATTACH DATABASE IF NOT EXISTS 'https://cat.example/api' AS lake (TYPE iceberg, "
      "ENDPOINT 'https://x', READ_ONLY)",
      StatementKind::kAttach);
  EXPECT_TRUE(a->if_not_exists);
  EXPECT_EQ(a->path, "https://cat.example/api");
  EXPECT_EQ(a->name, "lake");
  ASSERT_EQ(a->options.size(), 3u);
  EXPECT_EQ(a->options[0].name, "type");
  EXPECT_EQ(a->options[2].name, "read_only");
  EXPECT_EQ(a->options[2].value->text, "true");
  auto d = As<AttachStatement>("DETACH DATABASE IF EXISTS lake", StatementKind::kDetach);
  EXPECT_TRUE(d->if_exists);
  EXPECT_EQ(d->name, "lake");
}

TEST(ParserStatement, TransactionsCommentAnalyze) {
  auto t = As<TransactionStatement>("START TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY",
                                    StatementKind::kStartTransaction);
  EXPECT_EQ(*t->isolation_level, "REPEATABLE READ");
  EXPECT_TRUE(*t->read_only);
  auto c = As<CommentStatement>("COMMENT ON COLUMN s.t.c IS 'the c'", StatementKind::kComment);
  EXPECT_EQ(c->object_kind, "COLUMN");
  EXPECT_EQ(c->name.ToString(), "s.t.c");
  EXPECT_EQ(*c->comment, "the c");
  EXPECT_FALSE(As<CommentStatement>("COMMENT ON TABLE t IS NULL", StatementKind::kComment)
                   ->comment.has_value());
  auto a = As<AnalyzeStatement>("ANALYZE s.t WITH (columns = ARRAY['a'])", StatementKind::kAnalyze);
  EXPECT_EQ(a->table.ToString(), "s.t");
  EXPECT_EQ(a->properties.size(), 1u);
}

// ---------------------------------------------------------------------------------------
// Errors

TEST(ParserErrors, MisspelledFrom) {
  std::string m = Error("SELECT * FORM t");
  EXPECT_EQ(m.substr(0, m.find('\n')),
            "line 1:10: mismatched input 'FORM'. Expecting: ',', ';', 'EXCEPT', 'FETCH', 'FROM', "
            "'GROUP', 'HAVING', 'INTERSECT', 'LIMIT', 'OFFSET', 'ORDER', 'UNION', 'WHERE', "
            "'WINDOW', <EOF>");
  EXPECT_NE(m.find("\nSELECT * FORM t\n         ^"), std::string::npos) << m;
}

TEST(ParserErrors, TypicalMistakes) {
  struct Case {
    const char* sql;
    const char* prefix;
  };
  for (const Case& c : std::vector<Case>{
           {"SELECT * FROM", "line 1:14: mismatched input '<EOF>'. Expecting: "},
           {"SELECT * FROM t WHERE", "line 1:22: mismatched input '<EOF>'. Expecting: "},
           {"SELECT (1 + 2 FROM t", "line 1:15: mismatched input 'FROM'. Expecting: "},
           {"SELECT f(1, 2 FROM t", "line 1:15: mismatched input 'FROM'. Expecting: "},
           {"SELECT 1 + 2) FROM t", "line 1:13: mismatched input ')'. Expecting: "},
           {"SELECT a FROM t garbage more", "line 1:25: mismatched input 'more'. Expecting: "},
           {"SELECT 'open", "line 1:8: unterminated string literal"},
           {"SELECT a,\n  FROM t", "line 2:3: mismatched input 'FROM'. Expecting: "},
           {"SELEC 1", "line 1:1: mismatched input 'SELEC'. Expecting: "},
           {"CREATE TABLE t", "line 1:15: mismatched input '<EOF>'. Expecting: "},
           {"INSERT t VALUES 1", "line 1:8: mismatched input 't'. Expecting: 'INTO'"},
           {"SELECT CASE WHEN a THEN 1", "line 1:26: mismatched input '<EOF>'. Expecting: "},
           {"SELECT a FROM t JOIN u", "line 1:23: mismatched input '<EOF>'. Expecting: "},
           {"SELECT 1; SELECT 2", "line 1:11: mismatched input 'SELECT'. Expecting: <EOF>"},
       }) {
    std::string m = Error(c.sql);
    EXPECT_EQ(m.rfind(c.prefix, 0), 0u) << c.sql << "\n" << m;
  }
  auto script = ParseStatements("SELECT 1;\nSELECT");
  ASSERT_FALSE(script.ok());
  EXPECT_EQ(script.status().message().rfind("line 2:7: mismatched input '<EOF>'", 0), 0u)
      << script.status().message();
  // The expected list names the likely fixes.
  EXPECT_NE(Error("SELECT * FROM t JOIN u").find("'ON'"), std::string::npos);
  EXPECT_NE(Error("SELECT * FROM t JOIN u").find("'USING'"), std::string::npos);
  EXPECT_NE(Error("SELECT * FROM").find("<identifier>"), std::string::npos);
  EXPECT_NE(Error("SELECT (1 + 2 FROM t").find("')'"), std::string::npos);
  EXPECT_NE(Error("SELEC 1").find("'SELECT'"), std::string::npos);
}

TEST(ParserErrors, EmptyInput) {
  EXPECT_EQ(Error("").rfind("line 1:1: mismatched input '<EOF>'. Expecting: ", 0), 0u);
  EXPECT_EQ(Error("  -- only a comment").rfind("line 1:20: mismatched input '<EOF>'", 0), 0u);
}

TEST(ParserErrors, ReservedWordsNeedQuotes) {
  EXPECT_NE(Error("SELECT select FROM t").find("mismatched input 'select'"), std::string::npos);
  EXPECT_TRUE(ParseStatement("SELECT \"select\" FROM t").ok());
  EXPECT_NE(Error("SELECT a FROM order").find("mismatched input 'order'"), std::string::npos);
}

TEST(ParserErrors, DeepNestingIsAnErrorNotACrash) {
  for (const std::string& sql : {
           "SELECT " + std::string(5000, '(') + "1" + std::string(5000, ')'),
           [] {
             std::string s = "SELECT ";
             for (int i = 0; i < 3000; ++i) s += "(SELECT ";
             return s + "1" + std::string(3000, ')');
           }(),
           "SELECT " +
               [] {
                 std::string s;
                 for (int i = 0; i < 50000; ++i) s += "NOT ";
                 return s;
               }() +
               "TRUE",
           [] {
             std::string s;
             for (int i = 0; i < 20000; ++i) s += "EXPLAIN ";
             return s + "SELECT 1";
           }(),
           "SELECT CAST(x AS " +
               [] {
                 std::string s;
                 for (int i = 0; i < 5000; ++i) s += "array(";
                 return s;
               }() +
               "int" + std::string(5000, ')') + ")",
       }) {
    std::string m = Error(sql);
    EXPECT_NE(m.find("statement is nested too deeply to parse"), std::string::npos)
        << m.substr(0, 200);
  }
  // Moderate nesting is fine.
  EXPECT_TRUE(ParseStatement("SELECT " + std::string(40, '(') + "1" + std::string(40, ')')).ok());
}

TEST(ParserExpr, LongOrChainsBecomeBalancedTrees) {
  std::string sql = "x = 0";
  for (int i = 1; i < 20000; ++i) sql += " OR x = " + std::to_string(i);
  auto r = ParseExpression(sql);
  ASSERT_TRUE(r.ok()) << r.status().ToString().substr(0, 200);
  int depth = 0;
  for (const Expr* e = r->get(); e->kind == ExprKind::kBinary && e->op == "OR"; e = e->left.get()) {
    ++depth;
  }
  EXPECT_LE(depth, 16);  // log2(20000) rounded up, not 20000
  // Short chains keep the written left-to-right nesting.
  EXPECT_EQ(E("a OR b OR c"), "((a OR b) OR c)");
  // Hundreds of UNION ALL branches are fine.
  std::string unions = "SELECT 0";
  for (int i = 1; i < 300; ++i) unions += " UNION ALL SELECT " + std::to_string(i);
  EXPECT_TRUE(ParseStatement(unions).ok());
}

TEST(ParserErrors, ParseExpressionRejectsTrailingInput) {
  auto r = ParseExpression("1 + 2 3");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message().rfind("line 1:7: mismatched input '3'", 0), 0u)
      << r.status().message();
}

// Found by sql_parser_fuzz: the longest chain the parser accepts used to overflow the
// stack when printed (each level of Expr::ToString took ~12 KB under ASan).
TEST(ParserExpr, LongestAcceptedChainPrints) {
  std::string sql = "1";
  int terms = 1;
  for (; terms < 5000; ++terms) {
    std::string longer = sql + " + 1";
    if (!ParseExpression(longer).ok()) break;
    sql = std::move(longer);
  }
  EXPECT_GT(terms, 300);
  EXPECT_LT(terms, 5000);  // the parser has a limit
  auto r = ParseExpression(sql);
  ASSERT_TRUE(r.ok());
  std::string text = (*r)->ToString();
  EXPECT_EQ(
      text, std::string(terms - 1, '(') + "1" + [&] {
        std::string tail;
        for (int i = 1; i < terms; ++i) tail += " + 1)";
        return tail;
      }());
}

}  // namespace
}  // namespace sqe::sql
