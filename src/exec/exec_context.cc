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

Result<SpillDirectory*> ExecContext::SpillDirectoryForQuery() {
  if (spill_dir.empty()) {
    return Status::ResourceExhausted(
        "spilling to disk is off (worker.spill_to_disk = false or worker.spill_dir empty)");
  }
  std::lock_guard<std::mutex> lock(spill_mutex_);
  if (spill_directory_ == nullptr) {
    SQE_ASSIGN_OR_RETURN(spill_directory_, SpillDirectory::Create(spill_dir));
  }
  return spill_directory_.get();
}

int64_t ExecContext::spilled_bytes() {
  std::lock_guard<std::mutex> lock(spill_mutex_);
  return spill_directory_ != nullptr ? spill_directory_->bytes_spilled().load() : 0;
}

}  // namespace sqe::exec
