#pragma once
/// Ordered aggregates and row-dropping FILTER: `array_agg(x ORDER BY y DESC)`,
/// `listagg(x, ',') WITHIN GROUP (ORDER BY x)`, and `array_agg(x) FILTER (WHERE c)` for
/// aggregates that keep NULL inputs (where the binder's usual rewrite, NULLing the
/// arguments of rejected rows, would add NULL elements). The wrapper buffers each group's
/// rows (argument columns are kept, not copied), sorts them by the keys at the end and
/// feeds them in that order to the inner aggregate. Thread-safe; functions it makes live
/// as long as the process (interned, like the registry's instances).

#include <string_view>
#include <vector>

#include "columnar/data_type.h"
#include "common/result.h"
#include "exec/functions/registry.h"

namespace sqe::exec {

/// One ORDER BY key of an ordered aggregate.
struct AggregateSortKey {
  columnar::TypePtr type;
  bool ascending = true;
  bool nulls_first = false;  ///< Trino's default: NULLS LAST either way
};

/// An aggregate over inner's arguments, then one argument per key, then (with_filter) a
/// boolean: rows where it is not TRUE take no part. InvalidArgument for a key of a type
/// that cannot be ordered.
Result<const AggregateFunction*> MakeOrderedAggregate(const AggregateFunction* inner,
                                                      const std::vector<AggregateSortKey>& keys,
                                                      bool with_filter);

/// Whether `name` collects NULL inputs (array_agg, map_agg values, multimap_agg, checksum),
/// so FILTER (WHERE ...) must drop rows rather than NULL their arguments.
bool AggregateKeepsNullInputs(std::string_view name);

}  // namespace sqe::exec
