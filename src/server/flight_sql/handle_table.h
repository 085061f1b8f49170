#pragma once
/// HandleTable<T>: opaque server-side handles (Flight tickets, prepared statements), each
/// bound to the user who created it and expiring after an idle lifetime. A handle is 128
/// random bits as hex, so it cannot be guessed; looking one up as another user is refused
/// without revealing anything about it. Thread-safe.

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "common/result.h"

namespace sqe::server::flight_sql {

/// 128 random bits (OpenSSL's RAND_bytes) as 32 hex characters.
Result<std::string> NewHandle();

template <typename T>
class HandleTable {
 public:
  using Clock = std::chrono::steady_clock;

  HandleTable(std::string what, std::chrono::seconds lifetime, size_t max_entries)
      : what_(std::move(what)), lifetime_(lifetime), max_entries_(max_entries) {}

  /// Stores `value` for `user`; the new handle.
  Result<std::string> Add(const std::string& user, std::shared_ptr<T> value) {
    SQE_ASSIGN_OR_RETURN(std::string handle, NewHandle());
    std::lock_guard<std::mutex> lock(mu_);
    DropExpiredLocked(Clock::now());
    if (entries_.size() >= max_entries_) {
      return Status::ResourceExhausted("too many open " + what_ + "s (" +
                                       std::to_string(max_entries_) + "); close some");
    }
    entries_[handle] = Entry{user, std::move(value), Clock::now() + lifetime_};
    return handle;
  }

  /// The value behind `handle` for `user` (its lifetime starts again). NotFound for an
  /// unknown or expired handle, PermissionDenied for another user's.
  Result<std::shared_ptr<T>> Get(const std::string& handle, const std::string& user) {
    std::lock_guard<std::mutex> lock(mu_);
    SQE_ASSIGN_OR_RETURN(auto it, FindLocked(handle, user));
    it->second.expires = Clock::now() + lifetime_;
    return it->second.value;
  }

  /// Get() and forget the handle (single-use tickets).
  Result<std::shared_ptr<T>> Take(const std::string& handle, const std::string& user) {
    std::lock_guard<std::mutex> lock(mu_);
    SQE_ASSIGN_OR_RETURN(auto it, FindLocked(handle, user));
    std::shared_ptr<T> value = std::move(it->second.value);
    entries_.erase(it);
    return value;
  }

  /// Forgets the handle; same errors as Get().
  Status Remove(const std::string& handle, const std::string& user) {
    std::lock_guard<std::mutex> lock(mu_);
    SQE_ASSIGN_OR_RETURN(auto it, FindLocked(handle, user));
    entries_.erase(it);
    return Status::OK();
  }

  size_t size() const {
    std::lock_guard<std::mutex> lock(mu_);
    return entries_.size();
  }

 private:
  struct Entry {
    std::string user;
    std::shared_ptr<T> value;
    Clock::time_point expires;
  };
  using Iterator = typename std::map<std::string, Entry>::iterator;

  Result<Iterator> FindLocked(const std::string& handle, const std::string& user) {
    auto it = entries_.find(handle);
    if (it == entries_.end() || it->second.expires < Clock::now()) {
      if (it != entries_.end()) entries_.erase(it);
      return Status::NotFound("unknown or expired " + what_);
    }
    if (it->second.user != user) {
      return Status::PermissionDenied("the " + what_ + " belongs to another user");
    }
    return it;
  }

  void DropExpiredLocked(Clock::time_point now) {
    for (auto it = entries_.begin(); it != entries_.end();) {
      it = it->second.expires < now ? entries_.erase(it) : std::next(it);
    }
  }

  const std::string what_;
  const std::chrono::seconds lifetime_;
  const size_t max_entries_;
  mutable std::mutex mu_;
  std::map<std::string, Entry> entries_;
};

}  // namespace sqe::server::flight_sql
