#pragma once
/// General decorrelation of subqueries (scalar, EXISTS, IN, quantified, LATERAL) whose
/// correlation the binder cannot turn into join conditions directly: non-equality
/// correlations, correlated references in the SELECT list, HAVING or nested subqueries.
///
/// A subquery plan that references columns of an outer plan ("free" columns) is rewritten
/// to run once over the "domain": the distinct values of those outer columns (a magic
/// set). The domain is joined in where the subquery first needs it, every free reference
/// becomes a reference to a domain column, and the domain columns are carried up through
/// projections, group keys, joins and set operations to the subquery's output. The
/// caller then joins the outer plan with the rewritten subquery on
/// `outer column IS NOT DISTINCT FROM domain column` (null-safe: NULL outer values have
/// their own subquery result).
///
/// An aggregate without GROUP BY yields one row even over no input; under a domain it is
/// grouped by the domain columns and LEFT JOINed back to the domain, so every domain value
/// keeps its row (count-like aggregates read 0 there, the others NULL).
///
/// Not supported (NotImplemented naming the construct): LIMIT / OFFSET / FETCH below a
/// correlated reference (it would need a per-value limit) and FULL JOINs with correlated
/// references.

#include <vector>

#include "planner/binder_internal.h"

namespace sqe::planner {

/// A correlated subquery plan rewritten to run once per domain value.
struct DecorrelatedPlan {
  /// The subquery's output columns, then one column per domain column.
  LogicalPtr plan;
  /// The domain columns of `plan`'s output (empty when the subquery was not correlated to
  /// the outer plan).
  std::vector<ColumnInfo> domain;
  /// `outer column IS NOT DISTINCT FROM domain column`: join conditions between the outer
  /// plan and `plan`.
  std::vector<ExprPtr> conditions;
};

/// Rewrites subquery plans correlated to one outer plan (see the file comment).
class Decorrelator {
 public:
  Decorrelator(Binder& binder, LogicalPtr outer);

  /// The column ids `plan`'s expressions reference that none of its nodes produce.
  static std::vector<int32_t> FreeColumns(const LogicalNode& plan);
  /// Whether `plan` references a column of `outer`'s output that it does not produce.
  static bool IsCorrelatedTo(const LogicalNode& plan, const LogicalNode& outer);

  /// `subquery` rewritten over the domain of the outer columns it references. Columns of
  /// further-out plans stay free (their own decorrelation handles them later).
  Result<DecorrelatedPlan> Decorrelate(const LogicalPtr& subquery);

 private:
  struct Pushed {
    LogicalPtr plan;
    std::vector<ColumnInfo> domain;  ///< in correlated_ order
  };
  Result<Pushed> Push(const LogicalPtr& node);
  Result<Pushed> PushJoin(const LogicalPtr& node);
  Result<Pushed> PushAggregate(const LogicalPtr& node);
  /// A fresh copy of the domain's columns (each use of the domain needs its own ids).
  Pushed DomainInstance();
  /// Whether the subtree at `node` references a correlated outer column it does not produce.
  bool Uses(const LogicalNode& node) const;
  ExprPtr Remap(const ExprPtr& expr, const std::vector<ColumnInfo>& domain) const;
  std::vector<ExprPtr> Remap(const std::vector<ExprPtr>& exprs,
                             const std::vector<ColumnInfo>& domain) const;
  /// A projection of `pushed` giving `columns` in order, then the domain columns.
  LogicalPtr Normalize(const Pushed& pushed, const std::vector<ColumnInfo>& columns);
  /// `a[i] IS NOT DISTINCT FROM b[i]` for each domain column.
  static std::vector<ExprPtr> DomainEquals(const std::vector<ColumnInfo>& a,
                                           const std::vector<ColumnInfo>& b);

  Binder& binder_;
  LogicalPtr outer_;
  std::vector<ColumnInfo> correlated_;  ///< the outer columns the subquery references
  LogicalPtr domain_;                   ///< DISTINCT correlated_ over outer_
};

/// Whether column `id` of `plan` is (a projection of) count, count_if or approx_distinct,
/// aggregates that give 0, not NULL, over no rows.
bool CountsToZero(const LogicalNode& plan, int32_t id);

/// Outer references read after the outer query's GROUP BY (a subquery in its SELECT list,
/// HAVING or ORDER BY) name the FROM's columns; those that are group keys of the
/// aggregation at the bottom of `outer`'s left spine are replaced by the keys' output
/// columns, in `sub` and in `exprs`.
LogicalPtr MapGroupKeys(const LogicalPtr& sub, const LogicalNode& outer,
                        std::vector<ExprPtr>* exprs = nullptr);

/// Whether `plan` gives at most one row (an aggregate without GROUP BY, or one VALUES
/// row, under projections and filters).
bool IsSingleRow(const LogicalNode& plan);

/// Makes a decorrelated scalar subquery fail with "Scalar sub-query has returned multiple
/// rows" when a domain value has several rows: groups by the domain, counts, and checks.
/// `value` (a column of decorrelated.plan) is replaced by the checked value column.
Result<DecorrelatedPlan> EnforceSingleRow(Binder& binder, const DecorrelatedPlan& decorrelated,
                                          ColumnInfo* value);

/// `left` joined with `right` (JOIN ... ON `conditions`), where `right` may reference
/// columns of `left` (LATERAL): `right` is then decorrelated against `left`.
Result<LogicalPtr> JoinLateral(Binder& binder, LogicalPtr left, LogicalPtr right, JoinType type,
                               std::vector<ExprPtr> conditions);

/// The rows of a correlated `x [NOT] IN (subquery)` for each row of an outer plan, counted
/// so the IN's NULL answer needs no join on an OR of NULL tests (a join without a hash key,
/// which over a subquery nested two levels deep meets every outer value of every row).
struct InSubqueryCounts {
  /// The outer plan LEFT JOINed with the counts (its columns, then the counts' columns).
  LogicalPtr plan;
  /// count(*) of the outer row's subquery rows (0 when it has none, never NULL).
  ExprPtr rows;
  /// count(y) of the outer row's subquery rows (its non-NULL values).
  ExprPtr non_null;
};

/// `plan` joined with the counts of `sub`'s rows that satisfy `conditions` (correlation
/// predicates between `plan` and `sub`, e.g. `outer IS NOT DISTINCT FROM domain`): the
/// filtered subquery is aggregated and decorrelated against `plan`, so the counts come from
/// one aggregate over the domain of outer values. `y` is `sub`'s IN column. References to
/// plans further out stay free (their own decorrelation handles them).
Result<InSubqueryCounts> JoinInSubqueryCounts(Binder& binder, LogicalPtr plan,
                                              const LogicalPtr& sub, const ColumnInfo& y,
                                              const std::vector<ExprPtr>& conditions);

/// Whether `exprs` reference a column that neither `a` nor `b` outputs (a column of a query
/// further out).
bool ReferencesBeyond(const std::vector<ExprPtr>& exprs, const LogicalNode& a,
                      const LogicalNode& b);

/// Whether `expr` reads a column that `plan` does not output (a correlated reference when
/// `plan` is a query's FROM, or a column from outside a join).
bool ReadsOutside(const exec::Expr& expr, const LogicalNode& plan);

/// A filter predicate that fails the query with "Scalar sub-query has returned multiple
/// rows" on a row whose (bigint) count argument is above 1, and is TRUE otherwise.
ExprPtr SingleRowCheck(ExprPtr count);

}  // namespace sqe::planner
