#pragma once
/// RowRandom: the random numbers of one generated row. Its state is a hash of (seed,
/// stream, row), so any row of any table can be generated alone, in any order and on any
/// thread, and the same seed always gives the same values (what lets sqe-datagen split a
/// table into ranges generated in parallel). The draws of a row come from a SplitMix64
/// sequence; a row always makes the same draws in the same order.
///
/// A value type; not shared between threads.

#include <cstdint>

namespace sqe::datagen {

class RowRandom {
 public:
  RowRandom(uint64_t seed, uint64_t stream, uint64_t row)
      : state_(Mix(Mix(seed ^ (stream * 0x9E3779B97F4A7C15ULL)) + row)) {}

  /// The next 64 random bits.
  uint64_t Next() {
    state_ += 0x9E3779B97F4A7C15ULL;
    return Mix(state_);
  }
  /// A uniform integer in [lo, hi] (hi >= lo, hi - lo < 2^32).
  int64_t Uniform(int64_t lo, int64_t hi) {
    const uint64_t range = static_cast<uint64_t>(hi - lo) + 1;
    return lo + static_cast<int64_t>(((Next() >> 32) * range) >> 32);
  }

 private:
  static uint64_t Mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

  uint64_t state_;
};

}  // namespace sqe::datagen
