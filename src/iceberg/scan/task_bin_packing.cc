#include "iceberg/scan/task_bin_packing.h"

#include <algorithm>
#include <deque>

namespace sqe::iceberg {

int64_t ScanTaskWeight(const FileScanTask& task, int64_t open_file_cost) {
  int64_t weight = task.length;
  for (const DataFile& d : task.deletes) weight += d.file_size_in_bytes;
  return std::max(weight, std::max<int64_t>(open_file_cost, 1));
}

std::vector<CombinedScanTask> PackScanTasks(std::vector<FileScanTask> tasks,
                                            const BinPackingOptions& options) {
  const int64_t target = std::max<int64_t>(options.target_size, 1);
  const size_t lookback = static_cast<size_t>(std::max(options.lookback, 1));
  std::vector<CombinedScanTask> done;
  std::deque<CombinedScanTask> open;
  for (FileScanTask& task : tasks) {
    const int64_t weight = ScanTaskWeight(task, options.open_file_cost);
    auto fits = std::find_if(open.begin(), open.end(), [&](const CombinedScanTask& bin) {
      return bin.weight + weight <= target;
    });
    if (fits != open.end()) {
      fits->weight += weight;
      fits->tasks.push_back(std::move(task));
      continue;
    }
    CombinedScanTask bin;
    bin.weight = weight;
    bin.tasks.push_back(std::move(task));
    open.push_back(std::move(bin));
    if (open.size() > lookback) {
      // Close the fullest open bin: it is the one least likely to take more.
      auto fullest = std::max_element(
          open.begin(), open.end(),
          [](const CombinedScanTask& a, const CombinedScanTask& b) { return a.weight < b.weight; });
      done.push_back(std::move(*fullest));
      open.erase(fullest);
    }
  }
  for (CombinedScanTask& bin : open) done.push_back(std::move(bin));
  return done;
}

}  // namespace sqe::iceberg
