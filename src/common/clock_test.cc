#include "common/clock.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace sqe {
namespace {

using namespace std::chrono_literals;

TEST(ClockTest, SystemClockMoves) {
  auto clock = Clock::System();
  auto a = clock->MonotonicNow();
  clock->SleepFor(1ms);
  EXPECT_GT(clock->MonotonicNow(), a);
}

TEST(FakeClockTest, AdvanceMovesBothTimes) {
  FakeClock clock;
  auto wall = clock.Now();
  auto mono = clock.MonotonicNow();
  clock.Advance(90s);
  EXPECT_EQ(clock.Now() - wall, 90s);
  EXPECT_EQ(clock.MonotonicNow() - mono, 90s);
}

TEST(FakeClockTest, SleepReturnsOnlyWhenAdvancedFarEnough) {
  FakeClock clock;
  std::atomic<bool> woke{false};
  std::thread sleeper([&] {
    clock.SleepFor(10s);
    woke = true;
  });
  while (clock.sleepers() == 0) std::this_thread::sleep_for(1ms);
  clock.Advance(5s);
  std::this_thread::sleep_for(20ms);
  EXPECT_FALSE(woke.load());
  clock.Advance(5s);
  sleeper.join();
  EXPECT_TRUE(woke.load());
}

}  // namespace
}  // namespace sqe
