#include "main/server_run.h"

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "common/clock.h"
#include "common/logging.h"
#include "main/mode_bootstrap.h"
#include "main/process_catalog.h"
#include "main/server_command_line.h"
#include "main/termination_signals.h"
#include "main/version.h"

namespace sqe::app {
namespace {

/// All interfaces; the configuration has ports, not addresses.
constexpr const char* kListenHost = "0.0.0.0";

/// Stopping is bounded by the listeners' own timeouts (about 3 s); should anything still
/// hang, the process ends anyway so an orchestrator never has to SIGKILL it.
constexpr std::chrono::milliseconds kStopDeadline(4500);

long long MillisSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                               start)
      .count();
}

/// Ends the process if Disarm() is not called within the deadline.
class StopWatchdog {
 public:
  explicit StopWatchdog(std::chrono::milliseconds deadline)
      : thread_([this, deadline] {
          std::unique_lock<std::mutex> lock(mu_);
          if (!cv_.wait_for(lock, deadline, [this] { return disarmed_; })) {
            log::Error("server.stop_timeout",
                       {{"deadline_ms", static_cast<long long>(deadline.count())}});
            std::_Exit(kExitError);
          }
        }) {}
  ~StopWatchdog() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      disarmed_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool disarmed_ = false;
  std::thread thread_;
};

}  // namespace

int RunServer(const config::LoadedConfig& loaded) {
  const config::Config& config = loaded.config;
  auto startup = std::chrono::steady_clock::now();
  std::shared_ptr<Clock> clock = Clock::System();
  server::Readiness readiness;
  ServerContext context{config, readiness, clock, clock->MonotonicNow()};
  context.engine = std::make_shared<ProcessEngine>(config);
  Result<std::shared_ptr<auth::AuthChain>> auth = auth::MakeAuthChain(config.auth);
  if (!auth.ok()) {
    log::Error("server.start_failed",
               {{"mode", config.coordinator.mode}, {"error", auth.status().message()}});
    return kExitError;
  }
  context.auth = *auth;
  ProcessCatalog catalog;
  if (config.coordinator.mode != "worker") {
    catalog = MakeProcessCatalog(config);
    context.catalog = &catalog;
  }

  Result<ServerAssembly> assembly = AssembleServer(context);
  if (!assembly.ok()) {
    log::Error("server.start_failed",
               {{"mode", config.coordinator.mode}, {"error", assembly.status().message()}});
    return kExitError;
  }
  server::ListenerSet& listeners = assembly->listeners;

  // Bind every port before serving any, so a clash fails the start with nothing served.
  if (Status st = listeners.BindAll(kListenHost); !st.ok()) {
    log::Error("server.bind_failed", {{"error", st.message()}});
    return kExitError;
  }
  if (Status st = listeners.ServeAll(); !st.ok()) {
    log::Error("server.start_failed", {{"error", st.message()}});
    return kExitError;
  }
  for (const auto& [spec, detail] : assembly->not_implemented) {
    log::Warn("server.not_implemented",
              {{"listener", spec.name}, {"port", spec.port}, {"detail", detail}});
  }
  readiness.MarkReady();
  log::Info("server.ready", {{"mode", config.coordinator.mode},
                             {"version", kSqeVersion},
                             {"listeners", listeners.size()},
                             {"startup_ms", MillisSince(startup)}});

  std::string signal_name = WaitForTerminationSignal();
  auto stopping = std::chrono::steady_clock::now();
  log::Info("server.stopping", {{"signal", signal_name}});
  readiness.MarkDraining();
  {
    StopWatchdog watchdog(kStopDeadline);
    listeners.StopAll();
  }
  log::Info("server.stopped", {{"signal", signal_name}, {"stop_ms", MillisSince(stopping)}});
  return kExitOk;
}

}  // namespace sqe::app
