#pragma once
/// The group-map convention of GroupAccumulator::Merge for the accumulators SQE's
/// aggregate functions make (RegisterAggregateFunctions): a group mapped to kSkipGroup is
/// left out of the merge. HashAggregate uses it to merge one radix partition of a
/// thread's table at a time (each partition's groups go to that partition's table).

#include <cstdint>

namespace sqe::exec {

/// group_map value meaning "do not merge this group".
inline constexpr uint32_t kSkipGroup = UINT32_MAX;

}  // namespace sqe::exec
