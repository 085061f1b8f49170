#pragma once

#include <atomic>
#include <cstdint>

#include "common/result.h"

namespace sqe::engine {

/// One of query.max_concurrent_queries' places, held while a query runs. Reserving checks
/// the limit and takes the place in one atomic step, so a burst of queries never runs more
/// than the limit at once. Released when the slot is destroyed or Release is called.
class QuerySlot {
 public:
  /// Takes a place counted in `running`; ResourceExhausted naming the limit when `limit`
  /// (> 0; 0 = unlimited) places are already taken.
  static Result<QuerySlot> Reserve(std::atomic<int64_t>& running, int64_t limit);

  QuerySlot(QuerySlot&& other) noexcept : running_(other.running_) { other.running_ = nullptr; }
  QuerySlot& operator=(QuerySlot&&) = delete;
  QuerySlot(const QuerySlot&) = delete;
  QuerySlot& operator=(const QuerySlot&) = delete;
  ~QuerySlot() { Release(); }

  /// Gives the place back; later calls do nothing.
  void Release();

 private:
  explicit QuerySlot(std::atomic<int64_t>* running) : running_(running) {}
  std::atomic<int64_t>* running_;
};

}  // namespace sqe::engine
