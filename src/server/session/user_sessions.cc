#include "server/session/user_sessions.h"

namespace sqe::server {

std::shared_ptr<engine::Session> UserSessions::ForUser(const std::string& user) {
  std::lock_guard<std::mutex> lock(mu_);
  Clock::time_point now = Clock::now();
  // Idle sessions go; one still in use elsewhere lives on through its shared_ptr.
  for (auto it = sessions_.begin(); it != sessions_.end();) {
    bool idle = idle_ttl_.count() > 0 && now - it->second.last_used > idle_ttl_;
    it = idle && it->first != user ? sessions_.erase(it) : std::next(it);
  }
  Entry& entry = sessions_[user];
  if (entry.session == nullptr)
    entry.session = std::shared_ptr<engine::Session>(engine_->NewSession(user));
  entry.last_used = now;
  return entry.session;
}

size_t UserSessions::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return sessions_.size();
}

}  // namespace sqe::server
