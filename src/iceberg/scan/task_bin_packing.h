#pragma once
/// Bin-packing of scan tasks into combined tasks of about `target_size` bytes, as Iceberg's
/// planTasks does: each task weighs max(its length + the sizes of its delete files,
/// open_file_cost) so many small files do not make many tiny tasks; tasks are placed
/// first-fit into the last `lookback` open bins, a full bin is closed (the largest first
/// when lookback is exceeded). File splits (cut at split offsets by PlanScan) are never
/// cut again. The order of tasks inside a bin is the input order.

#include <cstdint>
#include <vector>

#include "iceberg/scan/scan_planner.h"

namespace sqe::iceberg {

struct CombinedScanTask {
  std::vector<FileScanTask> tasks;
  int64_t weight = 0;  // the packing weight of the tasks (bytes)
};

struct BinPackingOptions {
  /// read.split.target-size (Iceberg's default 128 MiB).
  int64_t target_size = int64_t{128} << 20;
  /// read.split.open-file-cost (Iceberg's default 4 MiB).
  int64_t open_file_cost = int64_t{4} << 20;
  /// read.split.planning-lookback (Iceberg's default 10).
  int lookback = 10;
};

std::vector<CombinedScanTask> PackScanTasks(std::vector<FileScanTask> tasks,
                                            const BinPackingOptions& options = {});

/// The weight PackScanTasks gives `task`.
int64_t ScanTaskWeight(const FileScanTask& task, int64_t open_file_cost);

}  // namespace sqe::iceberg
