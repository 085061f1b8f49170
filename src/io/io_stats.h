#pragma once
/// IoStats: counters of what storage I/O cost (requests by kind, bytes, retries, cache
/// hits). A FileSystem counts into the IoStats it was made with, so a query that opens
/// its files through a file system made for it gets its own figures (EXPLAIN ANALYZE),
/// and a process-wide one feeds the metrics endpoint. All counters are atomic.

#include <atomic>
#include <cstdint>
#include <string>

namespace sqe::io {

/// A plain copy of the counters at one moment.
struct IoStatsSnapshot {
  int64_t requests = 0;  // every request sent to the store (each retry counts)
  int64_t get_requests = 0;
  int64_t head_requests = 0;
  int64_t put_requests = 0;  // PUT object, multipart create/part/complete/abort
  int64_t list_requests = 0;
  int64_t delete_requests = 0;
  int64_t retries = 0;
  int64_t bytes_read = 0;
  int64_t bytes_written = 0;
  int64_t cache_hits = 0;  // reads served from a whole-file or tail prefetch, footer cache hits

  /// {"requests":..,"get_requests":..,...} on one line.
  std::string ToJson() const;
};

class IoStats {
 public:
  enum class Request { kGet, kHead, kPut, kList, kDelete };

  void AddRequest(Request kind);
  void AddRetry() { retries_.fetch_add(1, std::memory_order_relaxed); }
  void AddBytesRead(int64_t n) { bytes_read_.fetch_add(n, std::memory_order_relaxed); }
  void AddBytesWritten(int64_t n) { bytes_written_.fetch_add(n, std::memory_order_relaxed); }
  void AddCacheHit() { cache_hits_.fetch_add(1, std::memory_order_relaxed); }

  IoStatsSnapshot Snapshot() const;
  /// Adds every counter of `other` (folding a finished query's figures into a total).
  void Add(const IoStatsSnapshot& other);

 private:
  std::atomic<int64_t> requests_{0}, get_{0}, head_{0}, put_{0}, list_{0}, delete_{0};
  std::atomic<int64_t> retries_{0}, bytes_read_{0}, bytes_written_{0}, cache_hits_{0};
};

}  // namespace sqe::io
