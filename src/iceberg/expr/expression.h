#pragma once
/// Iceberg filter expressions for scan planning (spec "Scan Planning"): a tree of and /
/// or / not over predicates on columns. Expressions are built unbound (columns by name,
/// literals as given), then Bind()-ed to a schema: names become field ids, literals are
/// converted to the column's type, and NOT is pushed down to the predicates, so the
/// evaluators (metrics, partition projection, manifest summaries) see only and/or and
/// positive or negated leaf predicates. Immutable and shared (ExprPtr).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/result.h"
#include "iceberg/literal.h"
#include "iceberg/schema.h"

namespace sqe::iceberg::expr {

enum class Op : uint8_t {
  kTrue,
  kFalse,
  kAnd,
  kOr,
  kNot,
  kIsNull,
  kNotNull,
  kIsNan,
  kNotNan,
  kLt,
  kLtEq,
  kGt,
  kGtEq,
  kEq,
  kNotEq,
  kIn,
  kNotIn,
  kStartsWith,
  kNotStartsWith,
};

struct Expression;
using ExprPtr = std::shared_ptr<const Expression>;

struct Expression {
  Op op = Op::kTrue;
  ExprPtr left;   // and, or; not: the child
  ExprPtr right;  // and, or
  // Predicates:
  std::string column;             // unbound: the column name
  int32_t field_id = -1;          // bound: the field id (-1 while unbound)
  TypePtr type;                   // bound: the column's type
  std::vector<Literal> literals;  // comparisons: 1; in/not in: any number

  bool is_predicate() const { return op >= Op::kIsNull; }
  bool bound() const { return field_id >= 0; }
};

ExprPtr True();
ExprPtr False();
ExprPtr And(ExprPtr a, ExprPtr b);
ExprPtr Or(ExprPtr a, ExprPtr b);
ExprPtr Not(ExprPtr a);
ExprPtr IsNull(std::string column);
ExprPtr NotNull(std::string column);
ExprPtr IsNan(std::string column);
ExprPtr NotNan(std::string column);
ExprPtr Compare(Op op, std::string column, Literal value);  // lt .. not_eq, starts_with
ExprPtr In(std::string column, std::vector<Literal> values);
ExprPtr NotIn(std::string column, std::vector<Literal> values);

/// The predicate with the opposite meaning (lt -> gt_eq, in -> not_in, ...).
Op Negate(Op op);
const char* OpName(Op op);
/// "(id > 5 and data starts_with \"a\")".
std::string ToString(const ExprPtr& e);

/// Binds to `schema`: InvalidArgument for an unknown column (naming it), a literal that
/// cannot convert to the column's type, or a predicate the type does not support
/// (is_nan on a string, starts_with on a long). NOT is pushed down; constant parts fold.
Result<ExprPtr> Bind(const ExprPtr& e, const Schema& schema, bool case_sensitive = true);

/// Orders two literals of one type family: negative, 0, positive. InvalidArgument when
/// they cannot be compared (different types, nulls). Strings and binary compare as
/// unsigned bytes (UTF-8 order = code point order), as Iceberg does.
Result<int> CompareLiterals(const Literal& a, const Literal& b);

/// `value` as a literal of `type` (int -> long, long -> int when in range, float <->
/// double, int/long -> decimal, string -> date/timestamp when ISO-formatted, ...).
Result<Literal> ConvertLiteral(const Literal& value, const Type& type);

}  // namespace sqe::iceberg::expr
