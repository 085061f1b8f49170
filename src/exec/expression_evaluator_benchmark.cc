// Expression evaluation micro-benchmark: the vectorized evaluator over 8192-row batches
// (1M rows a run) of TPC-H lineitem-like columns:
//   price_expr:  l_extendedprice * (1 - l_discount) * (1 + l_tax)   (decimal, Q1)
//   date_filter: l_shipdate <= DATE '1998-09-02'                    (predicate, Q1)
//   and_filter:  l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24 (lazy AND, Q6)
//   bigint_expr: a * 3 + b > 100                                    (bigint arithmetic)
//   like:        l_comment LIKE '%final%requests%'                (strings, Q13)
// Reports rows/s.
//
//   build/release/src/exec/expression_evaluator_benchmark [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include "columnar/benchmark_columns.h"
#include "exec/expression_evaluator.h"

namespace sqe::exec {
namespace {

namespace bm = columnar::benchmarking;

constexpr int64_t kRows = 1 << 20;
enum Column { kPrice, kDiscount, kTax, kQuantity, kShipDate, kA, kB, kComment };

struct Input {
  columnar::SchemaPtr schema;
  std::vector<columnar::Batch> batches;
};

const Input& Data() {
  static const Input* input = [] {
    auto* in = new Input();
    in->batches = bm::CutIntoBatches(
        {bm::RandomDecimalColumn(kRows, 90000, 10495000, 11),
         bm::RandomDecimalColumn(kRows, 0, 10, 12), bm::RandomDecimalColumn(kRows, 0, 8, 13),
         bm::RandomDecimalColumn(kRows, 100, 5000, 14), bm::RandomDateColumn(kRows, 15),
         bm::RandomInt64Column(kRows, 1000, 16), bm::RandomInt64Column(kRows, 1000, 17),
         bm::RandomStringColumn(kRows, 6, 18)},
        8192, &in->schema);
    return in;
  }();
  return *input;
}

ExprPtr Col(int i) {
  const auto& field = Data().schema->field(i);
  return Expr::Column(i, field.type(), field.name());
}

ExprPtr Cents(int64_t cents) {
  return Expr::Literal(Value::Decimal(columnar::Decimal128(cents), 15, 2));
}

/// A call resolved as the binder does: arguments cast to the chosen overload's types.
ExprPtr Call(const std::string& name, std::vector<ExprPtr> args) {
  std::vector<columnar::TypePtr> types;
  for (const auto& a : args) types.push_back(a->type);
  const ScalarFunction* fn = bm::OrDie(FunctionRegistry::Global().ResolveScalar(name, types));
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i]->type->Equals(*fn->arg_types[i])) {
      args[i] = Expr::Cast(args[i], fn->arg_types[i]);
    }
  }
  return Expr::Call(fn, std::move(args), fn->return_type);
}

ExprPtr Expression(int which) {
  switch (which) {
    case 0:
      return Call("*", {Call("*", {Col(kPrice), Call("-", {Cents(100), Col(kDiscount)})}),
                        Call("+", {Cents(100), Col(kTax)})});
    case 1:
      return Call("<=", {Col(kShipDate), Expr::Literal(Value::Date(10471))});
    case 2:
      return Expr::Make(
          ExprKind::kAnd,
          {Call(">=", {Col(kDiscount), Cents(5)}), Call("<=", {Col(kDiscount), Cents(7)}),
           Call("<", {Col(kQuantity), Cents(2400)})},
          columnar::Boolean());
    case 3:
      return Call(">", {Call("+", {Call("*", {Col(kA), Expr::Literal(Value::BigInt(3))}), Col(kB)}),
                        Expr::Literal(Value::BigInt(100))});
    default:
      return Call("like", {Col(kComment), Expr::Literal(Value::Varchar("%final%requests%"))});
  }
}

constexpr const char* kLabels[] = {"price_expr", "date_filter", "and_filter", "bigint_expr",
                                   "like"};

void BM_Evaluate(benchmark::State& state) {
  const int which = static_cast<int>(state.range(0));
  const ExprPtr expr = Expression(which);
  const EvalContext ctx;
  const bool predicate = expr->type->Equals(*columnar::Boolean());
  int64_t kept = 0;
  for (auto _ : state) {
    kept = 0;
    for (const auto& batch : Data().batches) {
      if (predicate) {
        auto rows = bm::OrDie(EvaluatePredicate(*expr, batch, ctx));
        kept += rows.size();
      } else {
        auto column = bm::OrDie(Evaluate(*expr, batch, ctx));
        kept += column.length();
      }
    }
  }
  state.SetLabel(kLabels[which]);
  state.counters["selectivity"] = static_cast<double>(kept) / kRows;
  state.counters["rows_per_s"] =
      benchmark::Counter(static_cast<double>(kRows), benchmark::Counter::kIsIterationInvariantRate);
}

BENCHMARK(BM_Evaluate)->ArgName("expr")->DenseRange(0, 4)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace sqe::exec

BENCHMARK_MAIN();
