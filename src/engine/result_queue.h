#pragma once
/// ResultQueue: the bounded hand-over between a query's pipeline threads (producers) and
/// the one consumer of a ResultCursor. Push waits while the queue is full, which is the
/// back-pressure that keeps a streamed result from piling up in memory; it gives up when
/// the consumer closed the queue or the query was interrupted. Thread-safe.

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>

#include "columnar/batch.h"
#include "common/result.h"
#include "exec/exec_context.h"

namespace sqe::engine {

class ResultQueue {
 public:
  explicit ResultQueue(size_t capacity) : capacity_(capacity == 0 ? 1 : capacity) {}

  /// Adds a batch, waiting for room. Cancelled once the consumer closed the queue; the
  /// query's own interrupt (cancel, timeout) while waiting.
  Status Push(const columnar::Batch& batch, const exec::ExecContext& ctx);
  /// The producer is done: `status` OK for the end of the result, or the query's error.
  void Finish(Status status);
  /// The next batch (waiting for one), nullopt at the end, or the query's error.
  Result<std::optional<columnar::Batch>> Pop();
  /// The consumer is gone: producers waiting in Push return Cancelled.
  void Close();

  size_t size() const;

 private:
  const size_t capacity_;
  mutable std::mutex mu_;
  std::condition_variable not_full_;
  std::condition_variable not_empty_;
  std::deque<columnar::Batch> batches_;
  bool finished_ = false;
  bool closed_ = false;
  Status status_;
};

}  // namespace sqe::engine
