#pragma once
/// What `system.runtime.queries` and `system.runtime.nodes` show: the listeners (the Trino
/// HTTP server keeps every statement it runs in its query registry) register a lister with
/// the engine; the system tables call every registered lister when they are read.
///
/// Thread safety: registration and listing may happen from any thread; listers are called
/// outside the engine's lock, possibly after they were removed (hold the listener weakly).

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace sqe::engine {

class Engine;

/// One statement as a protocol saw it.
struct RuntimeQuery {
  std::string query_id;
  /// QUEUED, RUNNING, FINISHED or FAILED (Trino's query states).
  std::string state;
  std::string user;
  std::string source;
  std::string query;
  /// Milliseconds since the epoch; `end_ms` is -1 while the query runs.
  int64_t created_ms = 0;
  int64_t end_ms = -1;
  /// Set for failed queries: Trino's errorType and errorName (USER_ERROR, SYNTAX_ERROR).
  std::string error_type;
  std::string error_code;
};

/// One node of the cluster as a listener serves it.
struct RuntimeNode {
  std::string node_id;
  std::string http_uri;
  std::string node_version;
  bool coordinator = true;
  /// "active" or "shutting_down".
  std::string state = "active";
};

/// What one listener knows now.
struct RuntimeSnapshot {
  std::vector<RuntimeQuery> queries;
  std::vector<RuntimeNode> nodes;
};

using RuntimeLister = std::function<RuntimeSnapshot()>;

/// Registers `lister` with `engine`; the returned id removes it again. The lister must
/// stay callable until it is removed (listeners remove theirs before they stop).
int AddRuntimeLister(Engine& engine, RuntimeLister lister);
void RemoveRuntimeLister(Engine& engine, int id);

/// Every registered lister's queries and nodes together (nodes once per node_id).
RuntimeSnapshot ListRuntime(Engine& engine);

}  // namespace sqe::engine
