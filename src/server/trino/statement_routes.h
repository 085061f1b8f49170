#pragma once
/// The Trino client protocol's statement and query endpoints on an HttpListener
/// (docs/dev/trino-protocol.md):
///   POST   /v1/statement                       a statement; answers QUEUED at once
///   GET    /v1/statement/executing/{id}/{slug}/{token}   the next page (nextUri)
///   DELETE /v1/statement/executing/{id}/{slug}/{token}   cancel (204)
///   GET    /v1/query                            the caller's queries
///   GET    /v1/query/{id}                       one query (queryId, state, query, self)
///   DELETE /v1/query/{id}                       cancel (204)
/// Every request is authenticated by the auth chain (Authorization: Basic or Bearer);
/// without credentials and without an anonymous provider the answer is 401 with
/// WWW-Authenticate. The authenticated user wins over X-Trino-User, except for the
/// anonymous provider, whose callers name themselves.

#include <chrono>
#include <memory>

#include "auth/auth_chain.h"
#include "engine/engine.h"
#include "engine/runtime_queries.h"
#include "server/http/http_listener.h"
#include "server/trino/trino_query.h"

namespace sqe::server::trino {

struct TrinoProtocolOptions {
  std::shared_ptr<engine::Engine> engine;
  std::shared_ptr<const auth::AuthChain> auth;
  /// A user's engine session is dropped after this long unused.
  std::chrono::seconds session_ttl{60};
  PagingOptions paging;
  /// An ended query is forgotten this long after its client last touched it.
  std::chrono::seconds query_retention{900};
  /// A running query nobody polled for this long is cancelled.
  std::chrono::seconds abandon_after{300};
  /// This node as system.runtime.nodes lists it.
  engine::RuntimeNode node{"sqe", "", "", true, "active"};
};

/// Adds the routes above. The listener keeps the protocol's state (sessions, queries)
/// alive; destroying it cancels the queries still running. The queries and `node` are
/// registered with the engine for system.runtime.queries / nodes while the listener lives.
void AddTrinoStatementRoutes(HttpListener& listener, TrinoProtocolOptions options);

}  // namespace sqe::server::trino
