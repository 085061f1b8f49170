#include "iceberg/write/commit_support.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <random>
#include <string>
#include <thread>

namespace sqe::iceberg::write_internal {
namespace {

std::mt19937_64& Rng() {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  return rng;
}

}  // namespace

int64_t NewSnapshotId() {
  std::uniform_int_distribution<int64_t> dist(1, std::numeric_limits<int64_t>::max());
  return dist(Rng());
}

int64_t SummaryLong(const Snapshot* s, const char* key) {
  if (s == nullptr) return 0;
  auto it = s->summary.find(key);
  if (it == s->summary.end()) return 0;
  try {
    return std::stoll(it->second);
  } catch (...) {
    return 0;
  }
}

void BackoffBeforeRetry(int attempt, int64_t base_ms) {
  const int64_t base = std::max<int64_t>(1, base_ms);
  const int64_t cap = std::min<int64_t>(1000, base << std::min(attempt, 10));
  std::this_thread::sleep_for(std::chrono::milliseconds(
      std::uniform_int_distribution<int64_t>(base, std::max(cap, base))(Rng())));
}

}  // namespace sqe::iceberg::write_internal
