#pragma once
/// Subqueries (IN, EXISTS, scalar, quantified; correlated or not) in the ON condition of a
/// LEFT, RIGHT or FULL join. An ON condition of an outer join decides which pairs match; it
/// never removes a row of a preserved side. So each conjunct of the ON that holds a
/// subquery is placed by the sides its subquery and operands refer to:
///
/// - one side that is not preserved (or no side, when one is not preserved): a filter of
///   that input before the join (its rows could never match otherwise);
/// - one preserved side (or no side of a FULL join): a boolean column computed on that input
///   (mark joins, left joins of decorrelated subqueries) and read by the join condition;
/// - both sides ("spanning"): each preserved input is numbered (row_number), the join runs
///   without the spanning conjuncts, the conjuncts are evaluated over its pairs, and per
///   preserved row the pairs that match are kept, or else one pair with the other side's
///   columns NULL. FULL JOIN gets the rows of each preserved side from its own branch of a
///   UNION ALL. The join's columns then have new ids, which the scope takes over.

#include <vector>

#include "planner/binder_internal.h"

namespace sqe::planner {

/// `left` joined with `right` (`type`: kLeft, kRight or kFull) on `on`, an ON condition
/// that holds subqueries, and on `conditions` (bound already: JOIN USING's equalities).
/// `joined` resolves the ON's names (the columns of both sides); when the result has new
/// column ids, `joined`'s columns are changed to them.
Result<LogicalPtr> BindOuterJoinOn(Binder& binder, const sql::ast::Expr& on, LogicalPtr left,
                                   LogicalPtr right, JoinType type, std::vector<ExprPtr> conditions,
                                   Scope* joined);

}  // namespace sqe::planner
