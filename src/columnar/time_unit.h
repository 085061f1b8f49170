#pragma once
/// TimeUnit: the resolution of time64 and timestamp values (Arrow's TimeUnit, limited to
/// the two Iceberg uses: microseconds for time/timestamp/timestamptz, nanoseconds for
/// timestamp_ns/timestamptz_ns).

#include <cstdint>

namespace sqe::columnar {

enum class TimeUnit : uint8_t { kMicro, kNano };

/// Ticks per second: 1'000'000 or 1'000'000'000.
constexpr int64_t TicksPerSecond(TimeUnit unit) {
  return unit == TimeUnit::kMicro ? 1'000'000 : 1'000'000'000;
}

/// Digits after the decimal point when printed: 6 or 9 (the "(6)" in timestamp(6)).
constexpr int FractionDigits(TimeUnit unit) { return unit == TimeUnit::kMicro ? 6 : 9; }

}  // namespace sqe::columnar
