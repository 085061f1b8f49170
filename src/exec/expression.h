#pragma once
/// Expr: a bound, typed expression tree, the one form the binder produces, the optimizer
/// rewrites and the executor evaluates. A column reference names a column by `column`:
/// in a logical plan that is the column's plan-wide id (sql/logical_plan.h); the physical
/// planner rewrites it to the index of the column in the operator's input batch.
/// Function calls carry the resolved function (exec/functions/registry.h); arguments were
/// already cast by the binder to the types the function's overload expects.
///
/// Immutable once built and shared (ExprPtr); thread-safe to read and to evaluate.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "columnar/data_type.h"
#include "exec/value.h"

namespace sqe::exec {

struct ScalarFunction;  // exec/functions/registry.h

enum class ExprKind : uint8_t {
  kColumn,          ///< `column`
  kLiteral,         ///< `value`
  kCall,            ///< `function`(args...) (arithmetic, comparison, LIKE, every scalar function)
  kCast,            ///< CAST(args[0] AS type); `try_cast`: failures give NULL
  kAnd,             ///< args[0] AND args[1] AND ... (three-valued)
  kOr,              ///< args[0] OR args[1] OR ...   (three-valued)
  kNot,             ///< NOT args[0]
  kIsNull,          ///< args[0] IS NULL
  kIsNotNull,       ///< args[0] IS NOT NULL
  kCase,            ///< CASE WHEN args[0] THEN args[1] [WHEN args[2] THEN args[3]]... ELSE last
                    ///< (args has an odd size: the ELSE is always present, NULL when absent)
  kCoalesce,        ///< first non-null of args (lazy: later args only for rows still null)
  kIn,              ///< args[0] IN (args[1], ...) with SQL null semantics
  kIsDistinctFrom,  ///< args[0] IS DISTINCT FROM args[1]
  kIsNotDistinctFrom,  ///< args[0] IS NOT DISTINCT FROM args[1]
  kLambda,       ///< a lambda argument of a higher-order call (transform, filter, ...): args[0]
                 ///< is the body, `column` the parameter count, `name` the parameter names
  kLambdaParam,  ///< parameter `column` of the enclosing lambdas, counted from the outermost
                 ///< lambda's first parameter; `name` its name
};

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

struct Expr {
  ExprKind kind = ExprKind::kLiteral;
  columnar::TypePtr type;  ///< result type
  int32_t column = -1;     ///< kColumn: logical column id, or input index after planning
  std::string name;        ///< kColumn: display name (EXPLAIN); kCall: the function's name
  Value value;             ///< kLiteral
  const ScalarFunction* function = nullptr;  ///< kCall
  bool try_cast = false;                     ///< kCast
  std::vector<ExprPtr> args;

  static ExprPtr Column(int32_t column, columnar::TypePtr type, std::string name = "");
  static ExprPtr Literal(Value value);
  static ExprPtr Call(const ScalarFunction* function, std::vector<ExprPtr> args,
                      columnar::TypePtr type);
  static ExprPtr Cast(ExprPtr arg, columnar::TypePtr type, bool try_cast = false);
  /// kAnd, kOr, kNot, kIsNull, kIsNotNull, kCase, kCoalesce, kIn, kIs[Not]DistinctFrom.
  static ExprPtr Make(ExprKind kind, std::vector<ExprPtr> args, columnar::TypePtr type);

  bool IsConstant() const;  ///< no column reference below (and deterministic functions only)
  /// SQL-like text for EXPLAIN: "(l_quantity < 24)", "sum(#3)"; columns print `name` or #id.
  std::string ToString() const;
};

/// A copy of `expr` with every column reference passed through `map` (the optimizer's
/// and planner's rewrite: id -> id, or id -> input index).
ExprPtr RewriteColumns(const ExprPtr& expr, const std::function<int32_t(int32_t)>& map);
/// Appends every column id / index `expr` references (with repeats).
void CollectColumns(const Expr& expr, std::vector<int32_t>* out);

}  // namespace sqe::exec
