#pragma once
/// Readiness: whether the process should receive traffic, as /ready reports it.
/// Starting until every listener serves, Ready until shutdown begins, then Draining; it
/// never goes back. Thread-safe (one atomic); read by request handlers, written by the
/// bootstrap and the shutdown path.

#include <atomic>
#include <string_view>

namespace sqe::server {

class Readiness {
 public:
  enum class State { kStarting, kReady, kDraining };

  State state() const { return state_.load(std::memory_order_acquire); }
  bool ready() const { return state() == State::kReady; }

  /// Starting -> Ready (no effect once draining).
  void MarkReady();
  /// Any state -> Draining.
  void MarkDraining() { state_.store(State::kDraining, std::memory_order_release); }

  /// "starting", "ready", "draining".
  static std::string_view Name(State state);

 private:
  std::atomic<State> state_{State::kStarting};
};

}  // namespace sqe::server
