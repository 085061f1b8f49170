#include "iceberg/expr/strict_metrics.h"

#include <cmath>

namespace sqe::iceberg::expr {
namespace {

template <typename Map>
std::optional<typename Map::mapped_type> Find(const Map& m, int32_t id) {
  auto it = m.find(id);
  if (it == m.end()) return std::nullopt;
  return it->second;
}

bool IsFloating(const Expression& e) {
  return e.type && (e.type->id() == TypeId::kFloat || e.type->id() == TypeId::kDouble);
}

bool IsNan(const Literal& l) {
  return (l.type() == TypeId::kFloat || l.type() == TypeId::kDouble) &&
         std::isnan(l.double_value());
}

Result<int> Cmp(const Literal& a, const Literal& b) { return CompareLiterals(a, b); }

Result<bool> StrictLeaf(const Expression& e, const FileStats& s) {
  const int32_t id = e.field_id;
  const auto values = Find(s.value_counts, id);
  const auto nulls = Find(s.null_counts, id);
  const auto nans = Find(s.nan_counts, id);
  const bool no_nulls = nulls && *nulls == 0;
  // A float column needs a NaN count of 0 to say anything about order (NaN compares false).
  const bool no_nans = !IsFloating(e) || (nans && *nans == 0);
  std::optional<Literal> lo = Find(s.lower_bounds, id), hi = Find(s.upper_bounds, id);
  if (lo && IsNan(*lo)) lo.reset();
  if (hi && IsNan(*hi)) hi.reset();
  switch (e.op) {
    case Op::kIsNull:
      return values && nulls && *values == *nulls;
    case Op::kNotNull:
      return no_nulls;
    case Op::kIsNan:
      return values && nans && *values == *nans;
    case Op::kNotNan:
      return !IsFloating(e) || (nans && *nans == 0 && no_nulls);
    case Op::kLt:
    case Op::kLtEq: {
      if (!no_nulls || !no_nans || !hi) return false;
      SQE_ASSIGN_OR_RETURN(int c, Cmp(*hi, e.literals[0]));
      return e.op == Op::kLt ? c < 0 : c <= 0;
    }
    case Op::kGt:
    case Op::kGtEq: {
      if (!no_nulls || !no_nans || !lo) return false;
      SQE_ASSIGN_OR_RETURN(int c, Cmp(*lo, e.literals[0]));
      return e.op == Op::kGt ? c > 0 : c >= 0;
    }
    case Op::kEq: {
      if (!no_nulls || !no_nans || !lo || !hi) return false;
      SQE_ASSIGN_OR_RETURN(int a, Cmp(*lo, e.literals[0]));
      SQE_ASSIGN_OR_RETURN(int b, Cmp(*hi, e.literals[0]));
      return a == 0 && b == 0;
    }
    case Op::kNotEq: {
      if (!no_nulls || !no_nans || !lo || !hi) return false;
      SQE_ASSIGN_OR_RETURN(int a, Cmp(e.literals[0], *lo));
      SQE_ASSIGN_OR_RETURN(int b, Cmp(e.literals[0], *hi));
      return a < 0 || b > 0;
    }
    case Op::kIn: {
      // Every row equal to one literal: only provable when the file holds a single value.
      if (!no_nulls || !no_nans || !lo || !hi) return false;
      SQE_ASSIGN_OR_RETURN(int same, Cmp(*lo, *hi));
      if (same != 0) return false;
      for (const Literal& v : e.literals) {
        SQE_ASSIGN_OR_RETURN(int c, Cmp(*lo, v));
        if (c == 0) return true;
      }
      return false;
    }
    case Op::kNotIn: {
      if (!no_nulls || !no_nans || !lo || !hi) return false;
      for (const Literal& v : e.literals) {
        SQE_ASSIGN_OR_RETURN(int a, Cmp(v, *lo));
        SQE_ASSIGN_OR_RETURN(int b, Cmp(v, *hi));
        if (a >= 0 && b <= 0) return false;  // inside the range: some row may equal it
      }
      return true;
    }
    default:  // starts_with and its negation: truncated bounds prove nothing strict
      return false;
  }
}

Result<bool> Walk(const ExprPtr& e, const FileStats& s, const IdentityPartitionValues* identity) {
  switch (e->op) {
    case Op::kTrue:
      return true;
    case Op::kFalse:
      return false;
    case Op::kAnd: {
      SQE_ASSIGN_OR_RETURN(bool l, Walk(e->left, s, identity));
      if (!l) return false;
      return Walk(e->right, s, identity);
    }
    case Op::kOr: {
      SQE_ASSIGN_OR_RETURN(bool l, Walk(e->left, s, identity));
      if (l) return true;
      return Walk(e->right, s, identity);
    }
    case Op::kNot:
      return Status::InvalidArgument(
          "NOT must be pushed down before strict evaluation (bind the filter first)");
    default:
      break;
  }
  if (!e->bound()) return Status::InvalidArgument("predicate on " + e->column + " is not bound");
  if (identity != nullptr) {
    if (auto it = identity->find(e->field_id); it != identity->end()) {
      // Every row of the file has this value: the predicate's value on it is exact.
      const std::optional<Literal>& v = it->second;
      return Evaluate(
          e, [&](int32_t id) -> const Literal* { return id == e->field_id && v ? &*v : nullptr; });
    }
  }
  return StrictLeaf(*e, s);
}

}  // namespace

Result<bool> StrictMetricsMatch(const ExprPtr& bound, const FileStats& stats,
                                const IdentityPartitionValues* identity) {
  if (stats.record_count == 0) return true;  // no row can fail
  return Walk(bound, stats, identity);
}

}  // namespace sqe::iceberg::expr
