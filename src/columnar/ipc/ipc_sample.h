#pragma once
/// A batch holding every type of our columnar model (nested ones included) with nulls,
/// shared by the IPC tests and `sqe-ipc-tool write-sample` (the pyarrow interop test
/// asserts its exact values; keep both in sync with interop_test.py).

#include "columnar/batch.h"
#include "common/result.h"

namespace sqe::columnar::ipc {

/// Three rows; row 1 is null in every nullable column.
Result<Batch> MakeSampleBatch();

}  // namespace sqe::columnar::ipc
