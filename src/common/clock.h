#pragma once
/// Clock: the source of time for code that schedules or expires things (sessions, tokens,
/// the maintenance scheduler), so tests can drive it with FakeClock instead of sleeping.
/// Implementations are thread-safe.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>

namespace sqe {

class Clock {
 public:
  using WallTime = std::chrono::system_clock::time_point;
  using MonoTime = std::chrono::steady_clock::time_point;

  virtual ~Clock() = default;
  /// Wall-clock time (UTC), for cron schedules, expiry stamps and logs.
  virtual WallTime Now() const = 0;
  /// Monotonic time, for durations and timeouts.
  virtual MonoTime MonotonicNow() const = 0;
  /// Blocks the caller for `d` of this clock's time (FakeClock returns once advanced).
  virtual void SleepFor(std::chrono::nanoseconds d) = 0;

  /// The process-wide real clock.
  static std::shared_ptr<Clock> System();
};

/// Milliseconds since the Unix epoch of the real wall clock (Iceberg's timestamp-ms).
int64_t WallClockMillis();

/// A clock that moves only when told to. SleepFor blocks until Advance() covers the sleep.
class FakeClock final : public Clock {
 public:
  explicit FakeClock(WallTime start = WallTime(std::chrono::seconds(1'700'000'000)));

  WallTime Now() const override;
  MonoTime MonotonicNow() const override;
  void SleepFor(std::chrono::nanoseconds d) override;

  /// Moves both wall and monotonic time forward and wakes sleepers whose time came.
  void Advance(std::chrono::nanoseconds d);
  /// Sets the wall time (monotonic time is unaffected, as on a real machine).
  void SetWallTime(WallTime t);
  /// Number of threads blocked in SleepFor right now (tests wait on it before Advance()).
  int sleepers() const;

 private:
  mutable std::mutex mu_;
  std::condition_variable_any cv_;
  WallTime wall_;
  MonoTime mono_;
  int sleepers_ = 0;
};

}  // namespace sqe
