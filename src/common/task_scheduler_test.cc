#include "common/task_scheduler.h"

#include <gtest/gtest.h>

#include <atomic>
#include <vector>

namespace sqe {
namespace {

TEST(TaskSchedulerTest, ParallelForRunsEveryItemOnce) {
  TaskScheduler scheduler(3);
  std::vector<std::atomic<int>> hits(1000);
  ASSERT_TRUE(ParallelFor(&scheduler, 1000, 0, [&](int64_t i) {
                hits[static_cast<size_t>(i)].fetch_add(1);
                return Status::OK();
              }).ok());
  for (auto& h : hits) EXPECT_EQ(h.load(), 1);
}

TEST(TaskSchedulerTest, ParallelForReturnsTheErrorAndStopsStartingItems) {
  TaskScheduler scheduler(2);
  std::atomic<int> ran{0};
  Status st = ParallelFor(&scheduler, 100000, 0, [&](int64_t i) {
    ran.fetch_add(1);
    return i == 10 ? Status::Corruption("bad item 10") : Status::OK();
  });
  EXPECT_EQ(st.code(), StatusCode::kCorruption);
  EXPECT_EQ(st.message(), "bad item 10");
  EXPECT_LT(ran.load(), 100000);
}

TEST(TaskSchedulerTest, NestedParallelForDoesNotDeadlock) {
  TaskScheduler scheduler(2);
  std::atomic<int> total{0};
  ASSERT_TRUE(ParallelFor(&scheduler, 8, 0, [&](int64_t) {
                return ParallelFor(&scheduler, 8, 0, [&](int64_t) {
                  total.fetch_add(1);
                  return Status::OK();
                });
              }).ok());
  EXPECT_EQ(total.load(), 64);
}

TEST(TaskSchedulerTest, InlineWithoutScheduler) {
  int sum = 0;
  ASSERT_TRUE(ParallelFor(nullptr, 5, 4, [&](int64_t i) {
                sum += static_cast<int>(i);
                return Status::OK();
              }).ok());
  EXPECT_EQ(sum, 10);
}

TEST(TaskSchedulerTest, SubmittedTasksRunBeforeDestruction) {
  std::atomic<int> done{0};
  {
    TaskScheduler scheduler(2);
    for (int i = 0; i < 50; ++i) scheduler.Submit([&] { done.fetch_add(1); });
  }
  EXPECT_EQ(done.load(), 50);
}

}  // namespace
}  // namespace sqe
