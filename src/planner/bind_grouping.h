#pragma once
/// Grouping sets (ROLLUP, CUBE, GROUPING SETS, GROUP BY DISTINCT) as sets of key indices,
/// and the value of grouping(...) for one set. The binder (bind_grouping.cc) resolves
/// GROUP BY's expressions to key indices first; these functions only combine indices, so
/// they are testable without a catalog.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/result.h"
#include "sql/ast.h"

namespace sqe::planner {

/// Most keys a query with grouping sets may have (a set is a 64-bit mask of key indices).
inline constexpr size_t kMaxGroupingKeys = 63;
/// Most grouping sets one GROUP BY may expand to.
inline constexpr size_t kMaxGroupingSets = 4096;

/// One GROUP BY element with its expressions resolved to key indices. kSimple: `parts`
/// holds one entry, the element's keys. kRollup / kCube: one entry per listed part
/// (`ROLLUP((a, b), c)` has parts {a, b} and {c}). kGroupingSets: one entry per set.
struct GroupingElementKeys {
  sql::ast::GroupingKind kind = sql::ast::GroupingKind::kSimple;
  std::vector<std::vector<size_t>> parts;
};

/// The grouping sets that GROUP BY's elements denote: the cross product of each element's
/// sets (union of one set from each), each a mask with bit k set when key k is grouped.
/// ROLLUP(p1..pn) gives n + 1 sets (longest first), CUBE(p1..pn) all 2^n subsets.
/// `distinct` (GROUP BY DISTINCT) drops repeated sets, keeping the first. Fails when a key
/// index is beyond kMaxGroupingKeys or the expansion exceeds kMaxGroupingSets.
Result<std::vector<uint64_t>> ExpandGroupingSets(const std::vector<GroupingElementKeys>& elements,
                                                 bool distinct);

/// Whether every element is kSimple (a plain GROUP BY: one set of every key).
bool IsPlainGroupBy(const std::vector<GroupingElementKeys>& elements);

/// grouping(k1, ..., kn) for a set: bit n-1-i is 1 when key args[i] is not grouped in
/// `set` (aggregated away); the first argument is the most significant bit (Trino, DuckDB).
int64_t GroupingValue(uint64_t set, const std::vector<size_t>& args);

}  // namespace sqe::planner
