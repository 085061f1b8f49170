#pragma once
/// UserSessions: one engine Session per authenticated user, reused across that user's
/// calls (so USE / SET SESSION / PREPARE persist between statements) and dropped after
/// `coordinator.session_context_cache_ttl_secs` without use. A Session runs one statement
/// at a time; streamed results do not hold it (Session::Start). Shared by the protocol
/// listeners (Flight SQL, Trino HTTP); each listener keeps its own table. Thread-safe.

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "engine/engine.h"

namespace sqe::server {

class UserSessions {
 public:
  using Clock = std::chrono::steady_clock;
  UserSessions(std::shared_ptr<engine::Engine> engine, std::chrono::seconds idle_ttl)
      : engine_(std::move(engine)), idle_ttl_(idle_ttl) {}

  /// The user's session, made on first use.
  std::shared_ptr<engine::Session> ForUser(const std::string& user);
  size_t size() const;

 private:
  struct Entry {
    std::shared_ptr<engine::Session> session;
    Clock::time_point last_used;
  };
  std::shared_ptr<engine::Engine> engine_;
  const std::chrono::seconds idle_ttl_;
  mutable std::mutex mu_;
  std::map<std::string, Entry> sessions_;
};

}  // namespace sqe::server
