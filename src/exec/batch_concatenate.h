#pragma once
/// Concatenate: one Column (or Batch) holding the rows of several, in order, for every
/// type including nested ones. Pipeline breakers use it to turn the batches they
/// collected (a sort run, a join's build side) into one batch that a single selection
/// vector can index (columnar::Take). The output owns fresh buffers charged to
/// `tracker`. Strings and lists keep int32 offsets, so a column's data is limited to
/// 2^31 - 1 bytes (ResourceExhausted past that). Thread-safe (pure functions).

#include <memory>
#include <vector>

#include "columnar/batch.h"
#include "columnar/column.h"
#include "common/memory_tracker.h"
#include "common/result.h"

namespace sqe::exec {

/// Precondition: `parts` is not empty and every part has the same type.
Result<columnar::Column> Concatenate(const std::vector<columnar::Column>& parts,
                                     const std::shared_ptr<MemoryTracker>& tracker);
/// Precondition: every batch has `schema`'s columns. No batches: an empty batch.
Result<columnar::Batch> Concatenate(const columnar::SchemaPtr& schema,
                                    const std::vector<columnar::Batch>& batches,
                                    const std::shared_ptr<MemoryTracker>& tracker);

/// The bytes `batch`'s buffers hold (an estimate for memory reservations: slices count
/// their whole shared buffers).
int64_t BatchBytes(const columnar::Batch& batch);

}  // namespace sqe::exec
