#pragma once
/// ExecContext: what every operator of one running query shares: the query's memory
/// tracker (operators make child trackers of it), the scheduler and thread count,
/// cancellation and the deadline, the file system for scans and writes, and the
/// expression context. Made by engine/QueryContext; outlives every operator call.
///
/// Thread safety: all members are safe to use from every pipeline thread.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "common/memory_tracker.h"
#include "common/status.h"
#include "common/task_scheduler.h"
#include "exec/functions/registry.h"
#include "exec/spill_file.h"

namespace sqe::io {
class FileSystem;
}

namespace sqe::exec {

class ExecContext {
 public:
  std::shared_ptr<MemoryTracker> tracker;  ///< the query's tracker
  TaskScheduler* scheduler = nullptr;      ///< nullptr: run on the calling thread
  int threads = 1;                         ///< pipeline parallelism (query threads)
  io::FileSystem* fs = nullptr;            ///< default file system for paths without a table
  EvalContext eval;
  int64_t batch_size = 8192;  ///< target rows per batch
  /// WITH RECURSIVE: the most recursion steps that may produce rows (session property
  /// max_recursion_depth, Trino's default 10); one more that does fails the query.
  int64_t max_recursion_depth = 10;
  /// Spilling allowed (query.spill_to_disk) and where ("" = no spilling).
  std::string spill_dir;
  /// CPU time the query's pipeline threads spent so far (their thread clocks, summed):
  /// the Trino protocol's cpuTimeMillis. Work a pipeline hands to other threads inside one
  /// operator (a scan's parallel row-group decode) is not counted.
  std::atomic<int64_t> cpu_nanos{0};

  /// Cancels the query: every operator sees it at its next CheckInterrupt().
  void Cancel(std::string reason = "query was cancelled") {
    cancelled_.store(true, std::memory_order_relaxed);
    std::lock_guard<std::mutex> lock(mutex_);
    cancel_reason_ = std::move(reason);
  }
  bool cancelled() const { return cancelled_.load(std::memory_order_relaxed); }
  /// Sets the deadline (query.timeout_secs); none by default.
  void SetTimeout(std::chrono::milliseconds timeout, std::string setting = "query.timeout_secs") {
    deadline_ = std::chrono::steady_clock::now() + timeout;
    has_deadline_ = true;
    timeout_setting_ = std::move(setting);
    timeout_ = timeout;
  }
  /// Cancelled or DeadlineExceeded once the query must stop; OK otherwise. Operators call
  /// it between batches (cheap: an atomic load and, with a deadline, a clock read).
  Status CheckInterrupt() const;

  /// The query's private spill directory under spill_dir, made on the first call (the
  /// same one later; thread-safe) and removed with its files when this context is
  /// destroyed. ResourceExhausted saying spilling is off (worker.spill_to_disk) when
  /// spill_dir is empty; IOError when the directory cannot be made.
  Result<SpillDirectory*> SpillDirectoryForQuery();
  /// Bytes the query has written to its spill directory so far (0 when it never spilled).
  /// Any thread.
  int64_t spilled_bytes();
  /// Whether spilling is allowed (spill_dir set).
  bool spill_enabled() const { return !spill_dir.empty(); }

 private:
  std::atomic<bool> cancelled_{false};
  mutable std::mutex mutex_;
  std::string cancel_reason_;
  bool has_deadline_ = false;
  std::chrono::steady_clock::time_point deadline_;
  std::chrono::milliseconds timeout_{0};
  std::string timeout_setting_;
  std::mutex spill_mutex_;
  std::unique_ptr<SpillDirectory> spill_directory_;
};

}  // namespace sqe::exec
