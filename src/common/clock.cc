#include "common/clock.h"

#include <thread>

namespace sqe {
namespace {

class SystemClock final : public Clock {
 public:
  WallTime Now() const override { return std::chrono::system_clock::now(); }
  MonoTime MonotonicNow() const override { return std::chrono::steady_clock::now(); }
  void SleepFor(std::chrono::nanoseconds d) override { std::this_thread::sleep_for(d); }
};

}  // namespace

int64_t WallClockMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::shared_ptr<Clock> Clock::System() {
  static const std::shared_ptr<Clock> clock = std::make_shared<SystemClock>();
  return clock;
}

FakeClock::FakeClock(WallTime start) : wall_(start), mono_(MonoTime(std::chrono::hours(1))) {}

Clock::WallTime FakeClock::Now() const {
  std::lock_guard<std::mutex> lock(mu_);
  return wall_;
}

Clock::MonoTime FakeClock::MonotonicNow() const {
  std::lock_guard<std::mutex> lock(mu_);
  return mono_;
}

void FakeClock::SleepFor(std::chrono::nanoseconds d) {
  std::unique_lock<std::mutex> lock(mu_);
  const MonoTime wake = mono_ + d;
  ++sleepers_;
  cv_.wait(lock, [&] { return mono_ >= wake; });
  --sleepers_;
}

void FakeClock::Advance(std::chrono::nanoseconds d) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    wall_ += std::chrono::duration_cast<std::chrono::system_clock::duration>(d);
    mono_ += d;
  }
  cv_.notify_all();
}

void FakeClock::SetWallTime(WallTime t) {
  std::lock_guard<std::mutex> lock(mu_);
  wall_ = t;
}

int FakeClock::sleepers() const {
  std::lock_guard<std::mutex> lock(mu_);
  return sleepers_;
}

}  // namespace sqe
