#pragma once
/// Take and Filter: gather the rows a SelectionVector (or boolean mask) names from a
/// Column or Batch into new, compact columns, for every type including nested ones
/// (list and map elements and struct fields follow their rows). The output owns fresh
/// buffers charged to `tracker` (nullptr = untracked); the input is only read. Null
/// rows of a list or map come out with empty ranges. Thread-safe (pure functions).

#include <memory>

#include "columnar/batch.h"
#include "columnar/column.h"
#include "columnar/selection_vector.h"
#include "common/memory_tracker.h"
#include "common/result.h"

namespace sqe::columnar {

/// Row i of the result is row selection[i] of `column`. InvalidArgument when an index
/// is out of range; ResourceExhausted when the tracker refuses or int32 offsets would
/// overflow.
Result<Column> Take(const Column& column, const SelectionVector& selection,
                    std::shared_ptr<MemoryTracker> tracker = nullptr);
Result<Batch> Take(const Batch& batch, const SelectionVector& selection,
                   std::shared_ptr<MemoryTracker> tracker = nullptr);

/// The rows where `mask` (boolean, same length) is true and not null.
Result<Column> Filter(const Column& column, const Column& mask,
                      std::shared_ptr<MemoryTracker> tracker = nullptr);
Result<Batch> Filter(const Batch& batch, const Column& mask,
                     std::shared_ptr<MemoryTracker> tracker = nullptr);

}  // namespace sqe::columnar
