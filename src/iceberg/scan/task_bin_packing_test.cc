// Bin-packing of scan tasks: small files combine up to the target, open-file cost bounds
// how many, large splits stay alone, deletes add weight, nothing is lost or duplicated.
#include "iceberg/scan/task_bin_packing.h"

#include <gtest/gtest.h>

#include <set>

namespace sqe::iceberg {
namespace {

FileScanTask Task(const std::string& path, int64_t length, int64_t delete_bytes = 0) {
  FileScanTask t;
  t.file.file_path = path;
  t.file.file_size_in_bytes = length;
  t.length = length;
  if (delete_bytes > 0) {
    DataFile d;
    d.content = FileContent::kPositionDeletes;
    d.file_size_in_bytes = delete_bytes;
    t.deletes.push_back(d);
  }
  return t;
}

std::multiset<std::string> Paths(const std::vector<CombinedScanTask>& bins) {
  std::multiset<std::string> out;
  for (const auto& b : bins) {
    for (const auto& t : b.tasks) out.insert(t.file.file_path);
  }
  return out;
}

TEST(TaskBinPacking, SmallFilesCombineUpToTheTarget) {
  std::vector<FileScanTask> tasks;
  for (int i = 0; i < 100; ++i) tasks.push_back(Task("f" + std::to_string(i), 1 << 20));
  BinPackingOptions o;
  o.target_size = 32 << 20;
  o.open_file_cost = 4 << 20;
  auto bins = PackScanTasks(tasks, o);
  // 1 MiB files weigh the 4 MiB open cost: 8 per 32 MiB bin -> 13 bins (the last holds 4).
  ASSERT_EQ(bins.size(), 13u);
  for (const auto& b : bins) EXPECT_LE(b.weight, o.target_size);
  EXPECT_EQ(Paths(bins).size(), 100u);
  EXPECT_EQ(bins[0].tasks.size(), 8u);
}

TEST(TaskBinPacking, LargeSplitsStayAloneAndDeletesAddWeight) {
  BinPackingOptions o;
  o.target_size = 100;
  o.open_file_cost = 1;
  auto bins = PackScanTasks({Task("big", 150), Task("a", 40), Task("b", 40, 30), Task("c", 20)}, o);
  // big alone (over target); a + c fit (60), b weighs 70 and goes with nothing else that fits.
  ASSERT_EQ(bins.size(), 3u);
  std::multiset<std::string> all = Paths(bins);
  EXPECT_EQ(all, (std::multiset<std::string>{"a", "b", "big", "c"}));
  for (const auto& b : bins) {
    if (b.tasks.size() > 1) EXPECT_LE(b.weight, o.target_size);
  }
  EXPECT_EQ(ScanTaskWeight(Task("b", 40, 30), 1), 70);
  EXPECT_EQ(ScanTaskWeight(Task("tiny", 1), 4 << 20), 4 << 20);
}

TEST(TaskBinPacking, LookbackBoundsOpenBins) {
  BinPackingOptions o;
  o.target_size = 100;
  o.open_file_cost = 1;
  o.lookback = 1;
  // With one open bin, 60 then 60 cannot share; a later 40 only sees the newest bin.
  auto bins = PackScanTasks({Task("x", 60), Task("y", 60), Task("z", 40)}, o);
  ASSERT_EQ(bins.size(), 2u);
  EXPECT_EQ(Paths(bins).size(), 3u);
  EXPECT_TRUE(PackScanTasks({}, o).empty());
}

}  // namespace
}  // namespace sqe::iceberg
