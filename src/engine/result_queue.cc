#include "engine/result_queue.h"

#include <chrono>

namespace sqe::engine {

Status ResultQueue::Push(const columnar::Batch& batch, const exec::ExecContext& ctx) {
  std::unique_lock<std::mutex> lock(mu_);
  while (batches_.size() >= capacity_ && !closed_) {
    // Wake now and then to notice a cancel or a timeout of the query while waiting.
    not_full_.wait_for(lock, std::chrono::milliseconds(100));
    if (!closed_) {
      lock.unlock();
      SQE_RETURN_NOT_OK(ctx.CheckInterrupt());
      lock.lock();
    }
  }
  if (closed_) return Status::Cancelled("the result's reader went away");
  batches_.push_back(batch);
  not_empty_.notify_one();
  return Status::OK();
}

void ResultQueue::Finish(Status status) {
  std::lock_guard<std::mutex> lock(mu_);
  finished_ = true;
  status_ = std::move(status);
  not_empty_.notify_all();
}

Result<std::optional<columnar::Batch>> ResultQueue::Pop() {
  std::unique_lock<std::mutex> lock(mu_);
  not_empty_.wait(lock, [this] { return !batches_.empty() || finished_; });
  // A failed query reports its error even if batches are still queued.
  if (finished_ && !status_.ok()) return status_;
  if (batches_.empty()) return std::optional<columnar::Batch>();
  columnar::Batch batch = std::move(batches_.front());
  batches_.pop_front();
  not_full_.notify_one();
  return std::optional<columnar::Batch>(std::move(batch));
}

void ResultQueue::Close() {
  std::lock_guard<std::mutex> lock(mu_);
  closed_ = true;
  batches_.clear();
  not_full_.notify_all();
}

size_t ResultQueue::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return batches_.size();
}

}  // namespace sqe::engine
