#include "server/flight_sql/running_queries.h"

namespace sqe::server::flight_sql {

RunningQueries::Registration::Registration(RunningQueries* owner, std::string handle)
    : owner_(owner), handle_(std::move(handle)) {}

RunningQueries::Registration::~Registration() {
  std::lock_guard<std::mutex> lock(owner_->mu_);
  owner_->entries_.erase(handle_);
}

void RunningQueries::Registration::Attach(engine::ResultCursor* cursor) {
  std::lock_guard<std::mutex> lock(owner_->mu_);
  auto it = owner_->entries_.find(handle_);
  if (it == owner_->entries_.end()) return;
  it->second.cursor = cursor;
  if (it->second.cancelled) cursor->Cancel();
}

void RunningQueries::Registration::Detach() {
  std::lock_guard<std::mutex> lock(owner_->mu_);
  auto it = owner_->entries_.find(handle_);
  if (it != owner_->entries_.end()) it->second.cursor = nullptr;
}

std::unique_ptr<RunningQueries::Registration> RunningQueries::Add(const std::string& handle,
                                                                  const std::string& user) {
  std::lock_guard<std::mutex> lock(mu_);
  entries_[handle] = Entry{user, nullptr, false};
  return std::make_unique<Registration>(this, handle);
}

Result<bool> RunningQueries::Cancel(const std::string& handle, const std::string& user) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(handle);
  if (it == entries_.end()) return false;
  if (it->second.user != user) {
    return Status::PermissionDenied("the query belongs to another user");
  }
  it->second.cancelled = true;
  if (it->second.cursor != nullptr) it->second.cursor->Cancel();
  return true;
}

size_t RunningQueries::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return entries_.size();
}

}  // namespace sqe::server::flight_sql
