#include "iceberg/expr/evaluators.h"

#include <cmath>

namespace sqe::iceberg::expr {
namespace {

template <typename Map>
std::optional<typename Map::mapped_type> Find(const Map& m, int32_t id) {
  auto it = m.find(id);
  if (it == m.end()) return std::nullopt;
  return it->second;
}

bool IsNanLiteral(const Literal& l) {
  return (l.type() == TypeId::kFloat || l.type() == TypeId::kDouble) &&
         std::isnan(l.double_value());
}

// Whether [lower, upper] (either may be unknown) can hold a value satisfying `op v`.
Result<bool> RangeMightHold(Op op, const Literal& v, const std::optional<Literal>& lower,
                            const std::optional<Literal>& upper) {
  // NaN bounds say nothing about order (Java treats them as unknown).
  std::optional<Literal> lo = lower && !IsNanLiteral(*lower) ? lower : std::nullopt;
  std::optional<Literal> hi = upper && !IsNanLiteral(*upper) ? upper : std::nullopt;
  switch (op) {
    case Op::kLt:
      if (lo) {
        SQE_ASSIGN_OR_RETURN(int c, CompareLiterals(*lo, v));
        if (c >= 0) return false;
      }
      return true;
    case Op::kLtEq:
      if (lo) {
        SQE_ASSIGN_OR_RETURN(int c, CompareLiterals(*lo, v));
        if (c > 0) return false;
      }
      return true;
    case Op::kGt:
      if (hi) {
        SQE_ASSIGN_OR_RETURN(int c, CompareLiterals(*hi, v));
        if (c <= 0) return false;
      }
      return true;
    case Op::kGtEq:
      if (hi) {
        SQE_ASSIGN_OR_RETURN(int c, CompareLiterals(*hi, v));
        if (c < 0) return false;
      }
      return true;
    case Op::kEq:
      if (lo) {
        SQE_ASSIGN_OR_RETURN(int c, CompareLiterals(*lo, v));
        if (c > 0) return false;
      }
      if (hi) {
        SQE_ASSIGN_OR_RETURN(int c, CompareLiterals(*hi, v));
        if (c < 0) return false;
      }
      return true;
    case Op::kStartsWith: {
      const std::string& prefix = v.bytes();
      if (lo) {
        // The lower bound cut to the prefix's length must not be above the prefix.
        std::string cut = lo->bytes().substr(0, prefix.size());
        SQE_ASSIGN_OR_RETURN(int c, CompareLiterals(Literal::String(cut), v));
        if (c > 0) return false;
      }
      if (hi) {
        std::string cut = hi->bytes().substr(0, prefix.size());
        SQE_ASSIGN_OR_RETURN(int c, CompareLiterals(Literal::String(cut), v));
        if (c < 0) return false;
      }
      return true;
    }
    default:
      return true;
  }
}

constexpr size_t kInPredicateLimit = 200;  // past this many values, do not try to prune

Result<bool> MetricsLeaf(const Expression& e, const FileStats& s) {
  const int32_t id = e.field_id;
  auto values = Find(s.value_counts, id);
  auto nulls = Find(s.null_counts, id);
  auto nans = Find(s.nan_counts, id);
  bool all_null = values && nulls && *values == *nulls && *values > 0;
  bool all_nan = values && nans && *values == *nans && *values > 0;
  switch (e.op) {
    case Op::kIsNull:
      return !(nulls && *nulls == 0);
    case Op::kNotNull:
      return !all_null;
    case Op::kIsNan:
      if (nans && *nans == 0) return false;
      return !all_null;
    case Op::kNotNan:
      return !all_nan;
    case Op::kLt:
    case Op::kLtEq:
    case Op::kGt:
    case Op::kGtEq:
    case Op::kEq:
    case Op::kStartsWith:
      if (all_null || all_nan) return false;
      return RangeMightHold(e.op, e.literals[0], Find(s.lower_bounds, id),
                            Find(s.upper_bounds, id));
    case Op::kIn: {
      if (all_null || all_nan) return false;
      if (e.literals.size() > kInPredicateLimit) return true;
      auto lo = Find(s.lower_bounds, id);
      auto hi = Find(s.upper_bounds, id);
      for (const Literal& v : e.literals) {
        SQE_ASSIGN_OR_RETURN(bool may, RangeMightHold(Op::kEq, v, lo, hi));
        if (may) return true;
      }
      return false;
    }
    default:  // not_eq, not_in, not_starts_with: metrics cannot rule them out
      return true;
  }
}

// True, false, and, or with short-circuit; every other node goes to `leaf`.
template <typename Leaf>
Result<bool> WalkAndOr(const ExprPtr& e, const Leaf& leaf) {
  switch (e->op) {
    case Op::kTrue:
      return true;
    case Op::kFalse:
      return false;
    case Op::kAnd: {
      SQE_ASSIGN_OR_RETURN(bool l, WalkAndOr(e->left, leaf));
      if (!l) return false;
      return WalkAndOr(e->right, leaf);
    }
    case Op::kOr: {
      SQE_ASSIGN_OR_RETURN(bool l, WalkAndOr(e->left, leaf));
      if (l) return true;
      return WalkAndOr(e->right, leaf);
    }
    default:
      return leaf(e);
  }
}

Status NotPushedDown() {
  return Status::InvalidArgument("expression is not bound (NOT was not pushed down)");
}

Result<bool> SummaryLeaf(const Expression& e, const PartitionSummary* s) {
  if (s == nullptr) return true;  // no summary for the field: unknown
  bool no_values = !s->lower.has_value() && !s->upper.has_value();
  switch (e.op) {
    case Op::kIsNull:
      return s->contains_null;
    case Op::kNotNull:
      return !(no_values && s->contains_null);
    case Op::kIsNan:
      return s->contains_nan.value_or(true);
    case Op::kNotNan:
      return true;
    case Op::kLt:
    case Op::kLtEq:
    case Op::kGt:
    case Op::kGtEq:
    case Op::kEq:
    case Op::kStartsWith:
      if (no_values && s->contains_null && !s->contains_nan.value_or(false)) return false;
      return RangeMightHold(e.op, e.literals[0], s->lower, s->upper);
    case Op::kIn: {
      if (no_values && s->contains_null && !s->contains_nan.value_or(false)) return false;
      if (e.literals.size() > kInPredicateLimit) return true;
      for (const Literal& v : e.literals) {
        SQE_ASSIGN_OR_RETURN(bool may, RangeMightHold(Op::kEq, v, s->lower, s->upper));
        if (may) return true;
      }
      return false;
    }
    default:
      return true;
  }
}

Result<bool> EvaluateLeaf(const Expression& e, const Literal* value) {
  bool is_null = value == nullptr || value->is_null();
  switch (e.op) {
    case Op::kIsNull:
      return is_null;
    case Op::kNotNull:
      return !is_null;
    case Op::kIsNan:
      return !is_null && IsNanLiteral(*value);
    case Op::kNotNan:
      return is_null || !IsNanLiteral(*value);
    default:
      break;
  }
  if (is_null) return false;
  auto cmp = [&](const Literal& v) { return CompareLiterals(*value, v); };
  switch (e.op) {
    case Op::kLt: {
      SQE_ASSIGN_OR_RETURN(int c, cmp(e.literals[0]));
      return c < 0;
    }
    case Op::kLtEq: {
      SQE_ASSIGN_OR_RETURN(int c, cmp(e.literals[0]));
      return c <= 0;
    }
    case Op::kGt: {
      SQE_ASSIGN_OR_RETURN(int c, cmp(e.literals[0]));
      return c > 0;
    }
    case Op::kGtEq: {
      SQE_ASSIGN_OR_RETURN(int c, cmp(e.literals[0]));
      return c >= 0;
    }
    case Op::kEq: {
      SQE_ASSIGN_OR_RETURN(int c, cmp(e.literals[0]));
      return c == 0;
    }
    case Op::kNotEq: {
      SQE_ASSIGN_OR_RETURN(int c, cmp(e.literals[0]));
      return c != 0;
    }
    case Op::kIn:
    case Op::kNotIn: {
      bool found = false;
      for (const Literal& v : e.literals) {
        SQE_ASSIGN_OR_RETURN(int c, cmp(v));
        if (c == 0) {
          found = true;
          break;
        }
      }
      return e.op == Op::kIn ? found : !found;
    }
    case Op::kStartsWith:
    case Op::kNotStartsWith: {
      bool starts = value->bytes().starts_with(e.literals[0].bytes());
      return e.op == Op::kStartsWith ? starts : !starts;
    }
    default:
      return Status::Internal(std::string("cannot evaluate ") + OpName(e.op));
  }
}

}  // namespace

Result<bool> MetricsMightMatch(const ExprPtr& bound, const FileStats& stats) {
  if (stats.record_count == 0) return false;
  return WalkAndOr(bound, [&](const ExprPtr& e) -> Result<bool> {
    if (e->op == Op::kNot) return NotPushedDown();
    if (!e->bound()) return Status::InvalidArgument("predicate on " + e->column + " is not bound");
    return MetricsLeaf(*e, stats);
  });
}

Result<bool> SummariesMightMatch(const ExprPtr& partition_expr,
                                 const std::map<int32_t, PartitionSummary>& summaries) {
  return WalkAndOr(partition_expr, [&](const ExprPtr& e) -> Result<bool> {
    if (e->op == Op::kNot) return NotPushedDown();
    auto it = summaries.find(e->field_id);
    return SummaryLeaf(*e, it == summaries.end() ? nullptr : &it->second);
  });
}

Result<bool> Evaluate(const ExprPtr& e, const RowAccessor& row) {
  return WalkAndOr(e, [&](const ExprPtr& node) -> Result<bool> {
    if (node->op == Op::kNot) {
      SQE_ASSIGN_OR_RETURN(bool v, Evaluate(node->left, row));
      return !v;
    }
    return EvaluateLeaf(*node, row(node->field_id));
  });
}

}  // namespace sqe::iceberg::expr
