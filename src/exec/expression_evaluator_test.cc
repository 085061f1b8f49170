#include "exec/expression_evaluator.h"

#include <gtest/gtest.h>

#include "columnar/test_columns.h"
#include "exec/functions/cast.h"
#include "exec/functions/registry.h"

namespace sqe::exec {
namespace {

using columnar::Batch;
using columnar::Column;
using columnar::Field;
using columnar::testing::Bools;
using columnar::testing::Int32s;
using columnar::testing::Int64s;
using columnar::testing::Strings;

EvalContext Ctx() { return EvalContext{}; }

Batch MakeBatch(std::vector<Column> columns) {
  std::vector<Field> fields;
  for (size_t i = 0; i < columns.size(); ++i) {
    fields.emplace_back("c" + std::to_string(i), columns[i].type());
  }
  return columnar::testing::ValueOrDie(
      Batch::Make(columnar::Schema::Make(std::move(fields)), std::move(columns)));
}

ExprPtr Col(int i, columnar::TypePtr t) {
  return Expr::Column(i, std::move(t), "c" + std::to_string(i));
}
ExprPtr Lit(Value v) { return Expr::Literal(std::move(v)); }

/// A call resolved like the binder does: arguments cast to the overload's types.
ExprPtr Call(const std::string& name, std::vector<ExprPtr> args) {
  std::vector<columnar::TypePtr> types;
  for (const auto& a : args) types.push_back(a->type);
  const ScalarFunction* fn =
      columnar::testing::ValueOrDie(FunctionRegistry::Global().ResolveScalar(name, types));
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i]->type == nullptr || !args[i]->type->Equals(*fn->arg_types[i])) {
      args[i] = Expr::Cast(args[i], fn->arg_types[i]);
    }
  }
  return Expr::Call(fn, std::move(args), fn->return_type);
}

std::string Text(const Column& c) {
  auto t = CastColumn(c, columnar::String(), false, Ctx());
  if (!t.ok()) return "<" + t.status().ToString() + ">";
  std::string out;
  for (int64_t i = 0; i < t->length(); ++i) {
    if (i > 0) out += ", ";
    out += t->IsNull(i) ? std::string("NULL") : std::string(t->StringAt(i));
  }
  return out;
}

std::string RunExpr(const ExprPtr& e, const Batch& b) {
  auto r = Evaluate(*e, b, Ctx());
  if (!r.ok()) return "error: " + r.status().message();
  EXPECT_EQ(r->length(), b.num_rows());
  return Text(*r);
}

TEST(Evaluator, ColumnsLiteralsAndCalls) {
  Batch b = MakeBatch({Int64s({1, 2, std::nullopt})});
  EXPECT_EQ(RunExpr(Col(0, columnar::Int64()), b), "1, 2, NULL");
  EXPECT_EQ(RunExpr(Lit(Value::Varchar("x")), b), "x, x, x");
  EXPECT_EQ(RunExpr(Call("+", {Col(0, columnar::Int64()), Lit(Value::Integer(10))}), b),
            "11, 12, NULL");
  EXPECT_EQ(RunExpr(Col(5, columnar::Int64()), b).substr(0, 38),
            "error: expression references column #5");
}

TEST(Evaluator, ThreeValuedAndOrTruthTables) {
  // All nine combinations of (true, false, NULL) x (true, false, NULL).
  Batch b = MakeBatch(
      {Bools({true, true, true, false, false, false, std::nullopt, std::nullopt, std::nullopt}),
       Bools({true, false, std::nullopt, true, false, std::nullopt, true, false, std::nullopt})});
  auto a = Col(0, columnar::Boolean());
  auto c = Col(1, columnar::Boolean());
  EXPECT_EQ(RunExpr(Expr::Make(ExprKind::kAnd, {a, c}, columnar::Boolean()), b),
            "true, false, NULL, false, false, false, NULL, false, NULL");
  EXPECT_EQ(RunExpr(Expr::Make(ExprKind::kOr, {a, c}, columnar::Boolean()), b),
            "true, true, true, true, false, NULL, true, NULL, NULL");
  EXPECT_EQ(RunExpr(Expr::Make(ExprKind::kNot, {a}, columnar::Boolean()), b),
            "false, false, false, true, true, true, NULL, NULL, NULL");
  EXPECT_EQ(
      RunExpr(Expr::Make(ExprKind::kAnd, {a, c, Lit(Value::Boolean(false))}, columnar::Boolean()),
              b),
      "false, false, false, false, false, false, false, false, false");
}

TEST(Evaluator, AndSkipsRowsTheLeftSideDecided) {
  // x <> 0 AND 10 / x > 1: the division never sees x = 0.
  Batch b = MakeBatch({Int64s({0, 5, 20, std::nullopt})});
  auto x = Col(0, columnar::Int64());
  auto nonzero = Call("<>", {x, Lit(Value::BigInt(0))});
  auto div = Call(">", {Call("/", {Lit(Value::BigInt(10)), x}), Lit(Value::BigInt(1))});
  EXPECT_EQ(RunExpr(Expr::Make(ExprKind::kAnd, {nonzero, div}, columnar::Boolean()), b),
            "false, true, false, NULL");
  auto zero = Call("=", {x, Lit(Value::BigInt(0))});
  EXPECT_EQ(RunExpr(Expr::Make(ExprKind::kOr, {zero, div}, columnar::Boolean()), b),
            "true, true, false, NULL");
  // Without the guard the division fails.
  EXPECT_EQ(RunExpr(div, b), "error: Division by zero");
}

TEST(Evaluator, CaseIsLazy) {
  Batch b = MakeBatch({Int64s({0, 5, std::nullopt, -2})});
  auto x = Col(0, columnar::Int64());
  // CASE WHEN x = 0 THEN 0 ELSE 10 / x END
  auto e = Expr::Make(ExprKind::kCase,
                      {Call("=", {x, Lit(Value::BigInt(0))}), Lit(Value::BigInt(0)),
                       Call("/", {Lit(Value::BigInt(10)), x})},
                      columnar::Int64());
  EXPECT_EQ(RunExpr(e, b), "0, 2, NULL, -5");
  // Several WHENs, first match wins, no ELSE -> NULL; mixed branch types are cast.
  auto many = Expr::Make(
      ExprKind::kCase,
      {Call(">", {x, Lit(Value::BigInt(1))}), Lit(Value::Varchar("big")),
       Call(">", {x, Lit(Value::BigInt(-10))}), Lit(Value::Varchar("small")), Lit(Value())},
      columnar::String());
  EXPECT_EQ(RunExpr(many, b), "small, big, NULL, small");
  // A constant condition taking every row.
  auto all = Expr::Make(ExprKind::kCase,
                        {Lit(Value::Boolean(true)), x, Call("/", {Lit(Value::BigInt(1)), x})},
                        columnar::Int64());
  EXPECT_EQ(RunExpr(all, b), "0, 5, NULL, -2");
}

TEST(Evaluator, CoalesceIsLazy) {
  Batch b = MakeBatch({Int64s({std::nullopt, 4, std::nullopt}), Int64s({0, 0, 2})});
  auto a = Col(0, columnar::Int64());
  auto z = Col(1, columnar::Int64());
  // coalesce(a, 10 / z, -1): 10 / z only runs where a is NULL (rows 0 and 2); row 0 divides
  // by zero, so it must fail... only if evaluated. Here row 0 needs it: expect the error.
  auto failing = Expr::Make(ExprKind::kCoalesce,
                            {a, Call("/", {Lit(Value::BigInt(10)), z}), Lit(Value::BigInt(-1))},
                            columnar::Int64());
  EXPECT_EQ(RunExpr(failing, b), "error: Division by zero");
  Batch ok = MakeBatch({Int64s({7, 4, std::nullopt}), Int64s({0, 0, 2})});
  EXPECT_EQ(RunExpr(failing, ok), "7, 4, 5");
  auto strings = Expr::Make(ExprKind::kCoalesce,
                            {Lit(Value::Null(columnar::String())), Lit(Value::Varchar("ä"))},
                            columnar::String());
  EXPECT_EQ(RunExpr(strings, ok), "ä, ä, ä");
}

TEST(Evaluator, InWithNullSemantics) {
  Batch b = MakeBatch({Int64s({1, 2, std::nullopt, 3})});
  auto x = Col(0, columnar::Int64());
  auto in = Expr::Make(ExprKind::kIn, {x, Lit(Value::BigInt(1)), Lit(Value::BigInt(3))},
                       columnar::Boolean());
  EXPECT_EQ(RunExpr(in, b), "true, false, NULL, true");
  // A NULL in the list turns non-matches into NULL.
  auto with_null =
      Expr::Make(ExprKind::kIn, {x, Lit(Value::BigInt(1)), Lit(Value::Null(columnar::Int64()))},
                 columnar::Boolean());
  EXPECT_EQ(RunExpr(with_null, b), "true, NULL, NULL, NULL");
  auto s = MakeBatch({Strings({"ä", "b"})});
  auto in_str = Expr::Make(ExprKind::kIn, {Col(0, columnar::String()), Lit(Value::Varchar("ä"))},
                           columnar::Boolean());
  EXPECT_EQ(RunExpr(in_str, s), "true, false");
  // Long literal lists take the hash-set path; the semantics are the same.
  std::vector<ExprPtr> long_list = {x};
  for (int64_t k = 10; k < 20; ++k) long_list.push_back(Lit(Value::BigInt(k)));
  long_list.push_back(Lit(Value::BigInt(3)));
  EXPECT_EQ(RunExpr(Expr::Make(ExprKind::kIn, long_list, columnar::Boolean()), b),
            "false, false, NULL, true");
  long_list.push_back(Lit(Value::Null(columnar::Int64())));
  EXPECT_EQ(RunExpr(Expr::Make(ExprKind::kIn, long_list, columnar::Boolean()), b),
            "NULL, NULL, NULL, true");
  std::vector<ExprPtr> words = {Col(0, columnar::String())};
  for (const char* w : {"p", "q", "r", "s", "t", "u", "v", "ä"}) {
    words.push_back(Lit(Value::Varchar(w)));
  }
  EXPECT_EQ(RunExpr(Expr::Make(ExprKind::kIn, words, columnar::Boolean()), s), "true, false");
  // Items of a wider type than the value: compared in the common super type.
  auto wider = Expr::Make(ExprKind::kIn, {Col(0, columnar::Int64()), Lit(Value::Double(2.0))},
                          columnar::Boolean());
  EXPECT_EQ(RunExpr(wider, b), "false, true, NULL, false");
}

TEST(Evaluator, IsNullAndDistinctFrom) {
  Batch b =
      MakeBatch({Int64s({1, 1, std::nullopt, std::nullopt}), Int64s({1, 2, 1, std::nullopt})});
  auto a = Col(0, columnar::Int64());
  auto c = Col(1, columnar::Int64());
  EXPECT_EQ(RunExpr(Expr::Make(ExprKind::kIsNull, {a}, columnar::Boolean()), b),
            "false, false, true, true");
  EXPECT_EQ(RunExpr(Expr::Make(ExprKind::kIsNotNull, {a}, columnar::Boolean()), b),
            "true, true, false, false");
  EXPECT_EQ(RunExpr(Expr::Make(ExprKind::kIsDistinctFrom, {a, c}, columnar::Boolean()), b),
            "false, true, true, false");
  EXPECT_EQ(RunExpr(Expr::Make(ExprKind::kIsNotDistinctFrom, {a, c}, columnar::Boolean()), b),
            "true, false, false, true");
  EXPECT_EQ(
      RunExpr(Expr::Make(ExprKind::kIsDistinctFrom, {a, Lit(Value())}, columnar::Boolean()), b),
      "true, true, false, false");
}

TEST(Evaluator, CastAndTryCast) {
  Batch b = MakeBatch({Strings({"12", "x", std::nullopt})});
  auto s = Col(0, columnar::String());
  EXPECT_EQ(RunExpr(Expr::Cast(s, columnar::Int32(), true), b), "12, NULL, NULL");
  EXPECT_EQ(RunExpr(Expr::Cast(s, columnar::Int32(), false), b),
            "error: Cannot cast 'x' to INTEGER");
}

TEST(Evaluator, PredicateSelectsTrueRows) {
  Batch b = MakeBatch({Int64s({5, 1, std::nullopt, 9})});
  auto p = Call(">", {Col(0, columnar::Int64()), Lit(Value::BigInt(3))});
  auto sel = EvaluatePredicate(*p, b, Ctx());
  ASSERT_TRUE(sel.ok());
  EXPECT_EQ(sel->indices(), (std::vector<uint32_t>{0, 3}));
  auto all = EvaluatePredicate(*Lit(Value::Boolean(true)), b, Ctx());
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 4);
  EXPECT_FALSE(EvaluatePredicate(*Col(0, columnar::Int64()), b, Ctx()).ok());
}

TEST(Evaluator, EvaluateConstantFolds) {
  auto e = Call("*", {Lit(Value::Integer(6)), Lit(Value::Integer(7))});
  auto v = EvaluateConstant(*e, Ctx());
  ASSERT_TRUE(v.ok());
  EXPECT_TRUE(v->Equals(Value::Integer(42)));
  auto d =
      EvaluateConstant(*Expr::Cast(Lit(Value::Varchar("2024-01-31")), columnar::Date32()), Ctx());
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->ToSql(), "DATE '2024-01-31'");
  auto bad = EvaluateConstant(*Call("/", {Lit(Value::Integer(1)), Lit(Value::Integer(0))}), Ctx());
  EXPECT_FALSE(bad.ok());
  EXPECT_FALSE(EvaluateConstant(*Col(0, columnar::Int64()), Ctx()).ok());
  auto untyped = EvaluateConstant(*Lit(Value()), Ctx());
  ASSERT_TRUE(untyped.ok());
  EXPECT_EQ(untyped->type(), nullptr);
}

TEST(Expression, ToStringRewriteCollect) {
  auto e = Call("<", {Col(3, columnar::Int64()), Lit(Value::Integer(24))});
  EXPECT_EQ(e->ToString(), "(c3 < CAST(24 AS bigint))");
  EXPECT_FALSE(e->IsConstant());
  auto moved = RewriteColumns(e, [](int32_t c) { return c + 10; });
  std::vector<int32_t> cols;
  CollectColumns(*moved, &cols);
  EXPECT_EQ(cols, (std::vector<int32_t>{13}));
  EXPECT_EQ(Expr::Column(7, columnar::Int64())->ToString(), "#7");
  auto c = Expr::Make(ExprKind::kCase,
                      {Lit(Value::Boolean(true)), Lit(Value::Integer(1)), Lit(Value::Integer(2))},
                      columnar::Int32());
  EXPECT_EQ(c->ToString(), "CASE WHEN true THEN 1 ELSE 2 END");
  EXPECT_TRUE(c->IsConstant());
  auto rnd = Call("random", {});
  EXPECT_FALSE(rnd->IsConstant());
  auto in = Expr::Make(ExprKind::kIn, {Col(0, columnar::Int32()), Lit(Value::Integer(1))},
                       columnar::Boolean());
  EXPECT_EQ(in->ToString(), "(c0 IN (1))");
}

TEST(Evaluator, SlicedInputsWithOffsets) {
  // Columns with a non-zero offset (a sliced batch) evaluate like fresh ones.
  Batch full =
      MakeBatch({Int64s({100, 0, 3, std::nullopt, 4}), Strings({"z", "a", "b", "c", "d"})});
  Batch b = full.Slice(1, 4);
  auto x = Col(0, columnar::Int64());
  auto e = Expr::Make(ExprKind::kCase,
                      {Call("=", {x, Lit(Value::BigInt(0))}), Lit(Value::Null(columnar::String())),
                       Call("||", {Col(1, columnar::String()), Lit(Value::Varchar("!"))})},
                      columnar::String());
  EXPECT_EQ(RunExpr(e, b), "NULL, b!, c!, d!");
  EXPECT_EQ(RunExpr(Call("nullif", {x, Lit(Value::BigInt(3))}), b), "0, NULL, NULL, 4");
}

}  // namespace
}  // namespace sqe::exec

namespace sqe::exec {
namespace {

TEST(Evaluator, TryNullsOnlyTheFailingRows) {
  Batch b = MakeBatch({Int64s({0, 5, std::nullopt, 2})});
  auto x = Col(0, columnar::Int64());
  auto divide = Call("/", {Lit(Value::BigInt(10)), x});
  EXPECT_EQ(RunExpr(divide, b), "error: Division by zero");
  EXPECT_EQ(RunExpr(Call("try", {divide}), b), "NULL, 2, NULL, 5");
}

TEST(Evaluator, LambdaBodyReadsItsParameterAndTheRowsColumns) {
  // transform(c1, x -> x * c0) over rows (c0 = 10, c1 = [1, 2]) and (c0 = 3, c1 = [4]).
  Batch b = MakeBatch({Int64s({10, 3}), columnar::testing::Int64Lists({{{1, 2}}, {{4}}})});
  auto param = std::make_shared<Expr>();
  param->kind = ExprKind::kLambdaParam;
  param->column = 0;
  param->name = "x";
  param->type = columnar::Int64();
  auto body = Call("*", {param, Col(0, columnar::Int64())});
  auto lambda = std::make_shared<Expr>();
  lambda->kind = ExprKind::kLambda;
  lambda->column = 1;
  lambda->name = "x";
  lambda->type = body->type;
  lambda->args = {body};
  auto fn = columnar::testing::ValueOrDie(FunctionRegistry::Global().ResolveScalar(
      "transform", {columnar::List(columnar::Int64()), body->type}));
  auto call = Expr::Call(fn, {Col(1, columnar::List(columnar::Int64())), lambda}, fn->return_type);
  auto r = Evaluate(*call, b, Ctx());
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(columnar::testing::Json(*r), "[[10,20],[12]]");
  EXPECT_EQ(call->ToString(), "transform(c1, ((x) -> (x * c0)))");
}

}  // namespace
}  // namespace sqe::exec
