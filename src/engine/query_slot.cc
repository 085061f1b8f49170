#include "engine/query_slot.h"

#include <string>

namespace sqe::engine {

Result<QuerySlot> QuerySlot::Reserve(std::atomic<int64_t>& running, int64_t limit) {
  int64_t current = running.load();
  do {
    if (limit > 0 && current >= limit) {
      return Status::ResourceExhausted(
          "Too many queries are running (query.max_concurrent_queries = " + std::to_string(limit) +
          "); retry later");
    }
  } while (!running.compare_exchange_weak(current, current + 1));
  return QuerySlot(&running);
}

void QuerySlot::Release() {
  if (running_ == nullptr) return;
  running_->fetch_sub(1);
  running_ = nullptr;
}

}  // namespace sqe::engine
