#pragma once
/// RunningQueries: the statements DoGet is streaming, by the handle of their ticket, so that
/// a CancelFlightInfo (or the older CancelQuery action) naming the FlightInfo of a running
/// query can stop it. A DoGet registers its handle before the query starts (a cancel that
/// arrives while it starts is not lost) and attaches the cursor once it exists; the
/// registration ends with the stream. Entries are bound to the user who redeemed the
/// ticket. Thread-safe.

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "common/result.h"
#include "engine/result_cursor.h"

namespace sqe::server::flight_sql {

class RunningQueries {
 public:
  /// One stream's registration; unregisters on destruction. Detach() before the cursor
  /// it attached is destroyed.
  class Registration {
   public:
    Registration(RunningQueries* owner, std::string handle);
    ~Registration();
    Registration(const Registration&) = delete;
    Registration& operator=(const Registration&) = delete;

    /// Attaches the running cursor; cancels it at once when a cancel came first.
    void Attach(engine::ResultCursor* cursor);
    void Detach();

   private:
    RunningQueries* owner_;
    std::string handle_;
  };

  /// Registers `handle` as streaming for `user`.
  std::unique_ptr<Registration> Add(const std::string& handle, const std::string& user);

  /// Cancels the query of `handle`: true when it is running (then cancelled), false when
  /// no stream has it; PermissionDenied for another user's query.
  Result<bool> Cancel(const std::string& handle, const std::string& user);

  size_t size() const;

 private:
  struct Entry {
    std::string user;
    engine::ResultCursor* cursor = nullptr;
    bool cancelled = false;
  };
  mutable std::mutex mu_;
  std::map<std::string, Entry> entries_;
};

}  // namespace sqe::server::flight_sql
