#pragma once
/// ClientSessions: the engine sessions behind the Trino listener. Each user has one engine
/// Session (server/session's UserSessions, reused across requests), and Trino clients
/// carry their session state in headers; before a statement runs, Acquire() brings the
/// user's session to what the client's headers say (X-Trino-Catalog/-Schema,
/// SET/RESET SESSION for X-Trino-Session and -Time-Zone, PREPARE/DEALLOCATE for
/// X-Trino-Prepared-Statement), changing only what differs from what it applied before.
///
/// Thread-safe. A lease holds the user's session exclusively until it is dropped, so a
/// statement starts on exactly the state its client sent.

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "common/result.h"
#include "engine/engine.h"
#include "server/session/user_sessions.h"
#include "server/trino/client_headers.h"

namespace sqe::server::trino {

/// What the listener last applied to one engine session (and learnt from statements).
struct AppliedState {
  const engine::Session* session = nullptr;  ///< the session this state describes
  std::map<std::string, std::string> properties;
  std::map<std::string, std::string> prepared;
};

class ClientSessions {
 public:
  ClientSessions(std::shared_ptr<engine::Engine> engine, std::chrono::seconds idle_ttl);

  /// The user's session, locked, in the state `headers` describe.
  struct Lease {
    std::shared_ptr<engine::Session> session;
    AppliedState* applied = nullptr;  ///< valid while the lease lives
    std::unique_lock<std::mutex> lock;
  };

  /// Locks the user's session and applies the client's headers to it. The error of a
  /// statement that failed to apply (a bad catalog or property value) is returned.
  Result<Lease> Acquire(const std::string& user, const ClientHeaders& headers);

 private:
  struct Slot {
    std::mutex mu;
    AppliedState applied;
  };
  Status Apply(engine::Session& session, AppliedState& applied, const ClientHeaders& headers);

  UserSessions sessions_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<Slot>> slots_;
};

/// `name` is a plain or dotted SQL identifier ([A-Za-z0-9_] parts joined by '.'): safe to
/// splice into the statements Acquire runs.
bool IsPlainName(const std::string& name);

/// `value` as a SQL string literal ('it''s').
std::string SqlStringLiteral(const std::string& value);

}  // namespace sqe::server::trino
