#pragma once
/// QueryRegistry: the Trino listener's queries by id, from POST until they are forgotten:
/// `retention` after they ended (a later GET of their nextUri answers 410 Gone), and
/// queries whose client stopped polling for `abandon_after` are cancelled first. Sweep()
/// does both; the listener calls it on each new statement. Thread-safe.

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "server/trino/trino_query.h"

namespace sqe::server::trino {

class QueryRegistry {
 public:
  QueryRegistry(std::chrono::seconds retention, std::chrono::seconds abandon_after);
  /// Cancels every query and waits for their threads.
  ~QueryRegistry();

  /// A new query id in Trino's shape: 20261204_215818_00001_k3x9q (UTC time, counter,
  /// this registry's suffix).
  std::string NewId();
  /// A random secret that the query's nextUri carries (16 hex digits).
  std::string NewSlug();

  void Add(std::shared_ptr<TrinoQuery> query);
  std::shared_ptr<TrinoQuery> Find(const std::string& id) const;
  std::vector<std::shared_ptr<TrinoQuery>> All() const;
  /// Cancels abandoned queries and forgets those ended more than `retention` ago.
  void Sweep();

 private:
  const std::chrono::seconds retention_;
  const std::chrono::seconds abandon_after_;
  const std::string suffix_;
  std::atomic<uint64_t> counter_{0};
  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<TrinoQuery>> queries_;
};

}  // namespace sqe::server::trino
