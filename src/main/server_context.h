#pragma once
/// What the per-mode bootstrap needs to build the process: the configuration, the shared
/// readiness flag, the clock, the process catalog and the auth chain. Owned by RunServer(), which
/// outlives everything built from it.

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "auth/auth_chain.h"
#include "common/clock.h"
#include "config/config.h"
#include "engine/engine.h"
#include "main/process_catalog.h"
#include "server/listener/listener_set.h"
#include "server/listener/readiness.h"

namespace sqe::app {

/// The one query engine of the process, opened on first use by the listeners that run
/// statements (Flight SQL, Trino HTTP), so they share its catalog, memory accounting and
/// query.max_concurrent_queries. Thread-safe; every call after the first returns the same
/// engine or the same error.
class ProcessEngine {
 public:
  explicit ProcessEngine(const config::Config& config) : config_(config) {}
  Result<std::shared_ptr<engine::Engine>> Get() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!engine_.has_value()) {
      engine::EngineOptions options;
      options.config = config_;
      engine_ = engine::Engine::Open(std::move(options));
    }
    return *engine_;
  }

 private:
  const config::Config& config_;
  std::mutex mutex_;
  std::optional<Result<std::shared_ptr<engine::Engine>>> engine_;
};

struct ServerContext {
  const config::Config& config;
  server::Readiness& readiness;
  std::shared_ptr<Clock> clock;
  Clock::MonoTime started_at;
  /// The catalog (or why there is none); null in worker mode, which has no catalog.
  const ProcessCatalog* catalog = nullptr;
  /// Who may call the process's endpoints ([auth]); every authenticating listener shares it.
  std::shared_ptr<const auth::AuthChain> auth;
  /// The statement listeners' shared engine; null: each opens its own (tests).
  std::shared_ptr<ProcessEngine> engine;
};

/// Everything a mode starts. Today only listeners; sessions, catalogs, the scheduler and
/// the worker heartbeat join as their issues land.
struct ServerAssembly {
  server::ListenerSet listeners;
  /// Listener name -> what it does not implement yet; logged once the listeners serve.
  std::vector<std::pair<config::ListenerSpec, std::string>> not_implemented;
};

}  // namespace sqe::app
