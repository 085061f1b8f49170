#include "common/task_scheduler.h"

#include <atomic>
#include <memory>

namespace sqe {

TaskScheduler::TaskScheduler(int threads) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  workers_.reserve(static_cast<size_t>(threads));
  for (int i = 0; i < threads; ++i) workers_.emplace_back([this] { WorkerLoop(); });
}

TaskScheduler::~TaskScheduler() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  cv_.notify_all();
  for (auto& t : workers_) t.join();
}

TaskScheduler& TaskScheduler::Default() {
  static TaskScheduler* scheduler = new TaskScheduler(0);  // never destroyed: no exit races
  return *scheduler;
}

void TaskScheduler::Submit(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(std::move(task));
  }
  cv_.notify_one();
}

void TaskScheduler::WorkerLoop() {
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping and drained
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    task();
  }
}

namespace {

// Shared by the caller and its helpers; helpers hold it by shared_ptr so one that starts
// after the caller returned finds `closed` and leaves without touching anything else.
struct ParallelForState {
  const std::function<Status(int64_t)>* body = nullptr;
  int64_t n = 0;
  std::atomic<int64_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex mutex;
  std::condition_variable cv;
  int active = 0;
  bool closed = false;
  Status first_error;

  void Work() {
    for (;;) {
      if (failed.load(std::memory_order_relaxed)) return;
      int64_t i = next.fetch_add(1);
      if (i >= n) return;
      Status st = (*body)(i);
      if (!st.ok()) {
        std::lock_guard<std::mutex> lock(mutex);
        if (!failed.exchange(true)) first_error = std::move(st);
        return;
      }
    }
  }
};

}  // namespace

Status ParallelFor(TaskScheduler* scheduler, int64_t n, int parallelism,
                   const std::function<Status(int64_t)>& body) {
  if (n <= 0) return Status::OK();
  if (parallelism <= 0) parallelism = scheduler ? scheduler->thread_count() + 1 : 1;
  if (scheduler == nullptr || parallelism == 1 || n == 1) {
    for (int64_t i = 0; i < n; ++i) SQE_RETURN_NOT_OK(body(i));
    return Status::OK();
  }
  auto state = std::make_shared<ParallelForState>();
  state->body = &body;
  state->n = n;
  int64_t helpers = std::min<int64_t>(parallelism - 1, n - 1);
  for (int64_t h = 0; h < helpers; ++h) {
    scheduler->Submit([state] {
      {
        std::lock_guard<std::mutex> lock(state->mutex);
        if (state->closed) return;
        ++state->active;
      }
      state->Work();
      {
        std::lock_guard<std::mutex> lock(state->mutex);
        --state->active;
      }
      state->cv.notify_all();
    });
  }
  state->Work();
  std::unique_lock<std::mutex> lock(state->mutex);
  state->closed = true;
  state->cv.wait(lock, [&] { return state->active == 0; });
  return state->failed.load() ? state->first_error : Status::OK();
}

}  // namespace sqe
