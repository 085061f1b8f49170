#include "common/memory_tracker.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace sqe {
namespace {

constexpr int64_t kMB = 1024 * 1024;

TEST(MemoryTrackerTest, ReserveAndReleaseTrackCurrentAndPeak) {
  auto t = MemoryTracker::Create(MemoryScope::kProcess, "", 0);
  ASSERT_TRUE(t->TryReserve(100).ok());
  ASSERT_TRUE(t->TryReserve(50).ok());
  EXPECT_EQ(t->current(), 150);
  t->Release(120);
  EXPECT_EQ(t->current(), 30);
  EXPECT_EQ(t->peak(), 150);
  t->ResetPeak();
  EXPECT_EQ(t->peak(), 30);
  t->Release(30);
  EXPECT_EQ(t->current(), 0);
}

TEST(MemoryTrackerTest, ZeroLimitIsUnlimited) {
  auto t = MemoryTracker::Create(MemoryScope::kOther, "scratch");
  EXPECT_EQ(t->limit(), 0);
  EXPECT_TRUE(t->TryReserve(int64_t{1} << 50).ok());
  EXPECT_EQ(t->Available(), std::numeric_limits<int64_t>::max());
  t->Release(int64_t{1} << 50);
}

TEST(MemoryTrackerTest, LimitIsInclusiveAndFailureChargesNothing) {
  auto t = MemoryTracker::Create(MemoryScope::kQuery, "q1", 1000);
  EXPECT_TRUE(t->TryReserve(1000).ok());
  Status st = t->TryReserve(1);
  EXPECT_EQ(st.code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(t->current(), 1000);
  EXPECT_EQ(t->Available(), 0);
  t->Release(1000);
}

TEST(MemoryTrackerTest, ChildrenChargeEveryAncestor) {
  auto process = MemoryTracker::Create(MemoryScope::kProcess, "");
  auto query = process->CreateChild(MemoryScope::kQuery, "q1");
  auto op1 = query->CreateChild(MemoryScope::kOperator, "hash_join");
  auto op2 = query->CreateChild(MemoryScope::kOperator, "sort");
  ASSERT_TRUE(op1->TryReserve(10).ok());
  ASSERT_TRUE(op2->TryReserve(20).ok());
  EXPECT_EQ(op1->current(), 10);
  EXPECT_EQ(op2->current(), 20);
  EXPECT_EQ(query->current(), 30);
  EXPECT_EQ(process->current(), 30);
  op1->Release(10);
  EXPECT_EQ(query->current(), 20);
  EXPECT_EQ(process->current(), 20);
  EXPECT_EQ(process->peak(), 30);
  op2->Release(20);
  EXPECT_EQ(process->current(), 0);
}

TEST(MemoryTrackerTest, ParentLimitRejectsAndRollsBackChildren) {
  auto process = MemoryTracker::Create(MemoryScope::kProcess, "", 0);
  auto query = process->CreateChild(MemoryScope::kQuery, "", 256 * kMB);
  auto op = query->CreateChild(MemoryScope::kOperator, "hash_aggregate");
  ASSERT_TRUE(op->TryReserve(220 * kMB).ok());
  Status st = op->TryReserve(64 * kMB);
  ASSERT_EQ(st.code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(st.message(),
            "query memory limit 256MB exceeded by operator 'hash_aggregate' (requested 64MB, "
            "in use 220MB)");
  EXPECT_EQ(op->current(), 220 * kMB);
  EXPECT_EQ(query->current(), 220 * kMB);
  EXPECT_EQ(process->current(), 220 * kMB);
  EXPECT_EQ(op->Available(), 36 * kMB);
  op->Release(220 * kMB);
  EXPECT_EQ(process->current(), 0);
}

TEST(MemoryTrackerTest, OwnLimitMessageNamesTrackerAndSetting) {
  auto query = MemoryTracker::Create(
      {MemoryScope::kQuery, "20261202_0001", 1 * kMB, "query.max_query_memory"});
  ASSERT_TRUE(query->TryReserve(kMB / 2 + 1).ok());
  Status st = query->TryReserve(kMB / 2);
  EXPECT_EQ(st.message(),
            "query '20261202_0001' memory limit 1MB exceeded (requested 512KB, in use "
            "512.0KB); raise query.max_query_memory or lower the memory the statement needs");
  query->Release(kMB / 2 + 1);
}

TEST(MemoryTrackerTest, ChildLimitBindsBeforeParent) {
  auto query = MemoryTracker::Create(MemoryScope::kQuery, "q", 100);
  auto op = query->CreateChild(MemoryScope::kOperator, "sort", 10);
  EXPECT_TRUE(op->TryReserve(10).ok());
  Status st = op->TryReserve(1);
  EXPECT_EQ(st.message(), "operator 'sort' memory limit 10B exceeded (requested 1B, in use 10B)");
  EXPECT_EQ(query->current(), 10);
  op->SetLimit(0);
  EXPECT_TRUE(op->TryReserve(90).ok());
  EXPECT_FALSE(op->TryReserve(1).ok());
  EXPECT_EQ(op->current(), 100);
  op->Release(100);
}

TEST(MemoryTrackerTest, ChildKeepsParentAlive) {
  std::shared_ptr<MemoryTracker> op;
  {
    auto query = MemoryTracker::Create(MemoryScope::kQuery, "q");
    op = query->CreateChild(MemoryScope::kOperator, "scan");
  }
  ASSERT_NE(op->parent(), nullptr);
  EXPECT_TRUE(op->TryReserve(5).ok());
  EXPECT_EQ(op->parent()->current(), 5);
  op->Release(5);
}

TEST(MemoryTrackerTest, DestroyedChildReturnsLeftoverToAncestors) {
  auto process = MemoryTracker::Create(MemoryScope::kProcess, "");
  {
    auto query = process->CreateChild(MemoryScope::kQuery, "leaky");
    ASSERT_TRUE(query->TryReserve(77).ok());
    EXPECT_EQ(process->current(), 77);
  }
  EXPECT_EQ(process->current(), 0);
}

TEST(MemoryTrackerTest, ReservationReleasesOnDestruction) {
  auto t = MemoryTracker::Create(MemoryScope::kQuery, "q", 100);
  {
    auto r = Reservation::Make(t, 60);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(t->current(), 60);
    EXPECT_FALSE(Reservation::Make(t, 50).ok());
    EXPECT_TRUE(r->Resize(100).ok());
    EXPECT_EQ(t->current(), 100);
    EXPECT_FALSE(r->Resize(101).ok());
    EXPECT_EQ(r->bytes(), 100);
    EXPECT_TRUE(r->Resize(10).ok());
    EXPECT_EQ(t->current(), 10);
    Reservation moved = std::move(*r);
    EXPECT_EQ(moved.bytes(), 10);
    EXPECT_EQ(r->bytes(), 0);
    EXPECT_EQ(t->current(), 10);
  }
  EXPECT_EQ(t->current(), 0);
}

TEST(MemoryTrackerTest, ReservationMoveAssignReleasesOld) {
  auto t = MemoryTracker::Create(MemoryScope::kQuery, "q");
  auto a = Reservation::Make(t, 5);
  auto b = Reservation::Make(t, 7);
  ASSERT_TRUE(a.ok() && b.ok());
  *a = std::move(*b);
  EXPECT_EQ(t->current(), 7);
  a->Reset();
  EXPECT_EQ(t->current(), 0);
  EXPECT_TRUE(Reservation::Make(nullptr, 123).ok());
  EXPECT_FALSE(Reservation::Make(t, -1).ok());
}

TEST(MemoryTrackerTest, ConcurrentReserveReleaseStaysExact) {
  auto process = MemoryTracker::Create(MemoryScope::kProcess, "");
  auto query = process->CreateChild(MemoryScope::kQuery, "q");
  constexpr int kThreads = 4;
  constexpr int kIterations = 20000;
  std::vector<std::shared_ptr<MemoryTracker>> ops;
  for (int i = 0; i < kThreads; ++i) {
    ops.push_back(query->CreateChild(MemoryScope::kOperator, "op" + std::to_string(i)));
  }
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      for (int n = 0; n < kIterations; ++n) {
        const int64_t bytes = 1 + (n % 97);
        ASSERT_TRUE(ops[i]->TryReserve(bytes).ok());
        if (n % 3 != 0) ops[i]->Release(bytes);
      }
    });
  }
  for (auto& th : threads) th.join();
  int64_t expected_per_op = 0;
  for (int n = 0; n < kIterations; n += 3) expected_per_op += 1 + (n % 97);
  for (auto& op : ops) EXPECT_EQ(op->current(), expected_per_op);
  EXPECT_EQ(query->current(), expected_per_op * kThreads);
  EXPECT_EQ(process->current(), expected_per_op * kThreads);
  for (auto& op : ops) op->Release(op->current());
  EXPECT_EQ(process->current(), 0);
}

TEST(MemoryTrackerTest, ConcurrentReserversNeverExceedLimit) {
  constexpr int64_t kLimit = 1000;
  auto query = MemoryTracker::Create(MemoryScope::kQuery, "q", kLimit);
  std::atomic<int64_t> max_seen{0};
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&, i] {
      auto op = query->CreateChild(MemoryScope::kOperator, "op" + std::to_string(i));
      for (int n = 0; n < 20000; ++n) {
        const int64_t bytes = 1 + (n * 7 + i) % 300;
        if (op->TryReserve(bytes).ok()) {
          int64_t cur = query->current();
          int64_t prev = max_seen.load();
          while (cur > prev && !max_seen.compare_exchange_weak(prev, cur)) {
          }
          op->Release(bytes);
        } else {
          failures.fetch_add(1);
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_LE(max_seen.load(), kLimit);
  EXPECT_LE(query->peak(), kLimit);
  EXPECT_EQ(query->current(), 0);
}

TEST(MemoryTrackerTest, ScopeNames) {
  EXPECT_EQ(MemoryScopeName(MemoryScope::kProcess), "process");
  EXPECT_EQ(MemoryScopeName(MemoryScope::kWorker), "worker");
  EXPECT_EQ(MemoryScopeName(MemoryScope::kOperator), "operator");
  EXPECT_EQ(MemoryTracker::Create(MemoryScope::kProcess, "")->Describe(), "process");
}

}  // namespace
}  // namespace sqe
