#include "exec/exec_context.h"

#include <string>

namespace sqe::exec {

Status ExecContext::CheckInterrupt() const {
  if (cancelled()) {
    std::lock_guard<std::mutex> lock(mutex_);
    return Status::Cancelled(cancel_reason_);
  }
  if (has_deadline_ && std::chrono::steady_clock::now() >= deadline_) {
    return Status::DeadlineExceeded("query exceeded its time limit of " +
                                    std::to_string(timeout_.count() / 1000) + "s (" +
                                    timeout_setting_ + ")");
  }
  return Status::OK();
}

}  // namespace sqe::exec
