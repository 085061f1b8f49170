#include "engine/query_slot.h"

#include <gtest/gtest.h>

#include <optional>
#include <thread>
#include <vector>

namespace sqe::engine {
namespace {

TEST(QuerySlotTest, RefusesPastTheLimitAndReleasesOnDestruction) {
  std::atomic<int64_t> running{0};
  std::optional<QuerySlot> first;
  {
    auto a = QuerySlot::Reserve(running, 2);
    ASSERT_TRUE(a.ok());
    first.emplace(std::move(*a));
  }
  auto second = QuerySlot::Reserve(running, 2);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(running.load(), 2);
  auto third = QuerySlot::Reserve(running, 2);
  ASSERT_FALSE(third.ok());
  EXPECT_EQ(third.status().code(), StatusCode::kResourceExhausted);
  EXPECT_NE(third.status().message().find("query.max_concurrent_queries = 2"), std::string::npos);
  EXPECT_EQ(running.load(), 2);
  first.reset();
  EXPECT_EQ(running.load(), 1);
  second->Release();
  second->Release();  // a second release does nothing
  EXPECT_EQ(running.load(), 0);
}

TEST(QuerySlotTest, ZeroMeansUnlimited) {
  std::atomic<int64_t> running{0};
  std::vector<QuerySlot> slots;
  for (int i = 0; i < 1000; ++i) {
    auto s = QuerySlot::Reserve(running, 0);
    ASSERT_TRUE(s.ok());
    slots.push_back(std::move(*s));
  }
  EXPECT_EQ(running.load(), 1000);
  slots.clear();
  EXPECT_EQ(running.load(), 0);
}

// Many threads reserve at once: at no moment do more than `limit` hold a place.
TEST(QuerySlotTest, ABurstNeverExceedsTheLimit) {
  constexpr int64_t kLimit = 3;
  std::atomic<int64_t> running{0};
  std::atomic<int64_t> holders{0};
  std::atomic<int64_t> most{0};
  std::atomic<int64_t> granted{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 20000; ++i) {
        auto slot = QuerySlot::Reserve(running, kLimit);
        if (!slot.ok()) continue;
        granted.fetch_add(1);
        int64_t now = holders.fetch_add(1) + 1;
        int64_t seen = most.load();
        while (now > seen && !most.compare_exchange_weak(seen, now)) {
        }
        holders.fetch_sub(1);
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_LE(most.load(), kLimit);
  EXPECT_GT(granted.load(), 0);
  EXPECT_EQ(running.load(), 0);
}

}  // namespace
}  // namespace sqe::engine
