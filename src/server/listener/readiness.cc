#include "server/listener/readiness.h"

namespace sqe::server {

void Readiness::MarkReady() {
  State expected = State::kStarting;
  state_.compare_exchange_strong(expected, State::kReady, std::memory_order_acq_rel);
}

std::string_view Readiness::Name(State state) {
  switch (state) {
    case State::kStarting:
      return "starting";
    case State::kReady:
      return "ready";
    case State::kDraining:
      return "draining";
  }
  return "unknown";
}

}  // namespace sqe::server
