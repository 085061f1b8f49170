#pragma once
/// TaskScheduler: a fixed pool of worker threads (ARCHITECTURE.md, src/common) and
/// ParallelFor, the way the engine runs independent work items (row groups of a file,
/// files of a scan) on several cores. ParallelFor lets the calling thread work too and
/// never waits for helpers that have not started, so nested use cannot deadlock.

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "common/status.h"

namespace sqe {

class TaskScheduler {
 public:
  /// `threads` <= 0 means one per hardware thread.
  explicit TaskScheduler(int threads);
  ~TaskScheduler();  // finishes queued tasks, then joins
  TaskScheduler(const TaskScheduler&) = delete;
  TaskScheduler& operator=(const TaskScheduler&) = delete;

  /// A process-wide scheduler with one thread per hardware thread.
  static TaskScheduler& Default();

  int thread_count() const { return static_cast<int>(workers_.size()); }
  /// Queues `task`; it runs on some worker thread.
  void Submit(std::function<void()> task);

 private:
  void WorkerLoop();

  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

/// Runs body(i) for i in [0, n) on up to `parallelism` threads (the caller included;
/// <= 0: the scheduler's thread count + 1) and returns the first error; after an error
/// no new items start. With `scheduler` null or parallelism 1 it runs inline.
Status ParallelFor(TaskScheduler* scheduler, int64_t n, int parallelism,
                   const std::function<Status(int64_t)>& body);

}  // namespace sqe
