#include "server/listener/listener_set.h"

#include <chrono>
#include <map>
#include <utility>

#include "common/logging.h"

namespace sqe::server {

ListenerSet::~ListenerSet() { StopAll(); }

void ListenerSet::Add(config::ListenerSpec spec, std::unique_ptr<Listener> listener) {
  entries_.push_back({std::move(spec), std::move(listener)});
}

std::vector<config::ListenerSpec> ListenerSet::specs() const {
  std::vector<config::ListenerSpec> out;
  for (const Entry& e : entries_) out.push_back(e.spec);
  return out;
}

Status ListenerSet::CheckDistinctPorts() const {
  std::map<int, const config::ListenerSpec*> by_port;
  for (const Entry& e : entries_) {
    auto [it, inserted] = by_port.emplace(e.spec.port, &e.spec);
    if (!inserted) {
      return Status::InvalidArgument(e.spec.field + " and " + it->second->field + " are both " +
                                     std::to_string(e.spec.port) + ": the " + e.spec.name +
                                     " and " + it->second->name +
                                     " listeners need different ports; change one of them");
    }
  }
  return Status::OK();
}

Status ListenerSet::BindAll(const std::string& host) {
  SQE_RETURN_NOT_OK(CheckDistinctPorts());
  host_ = host;
  for (Entry& e : entries_) {
    Status st = e.listener->Bind(host, e.spec.port);
    if (!st.ok()) {
      StopAll();
      return Status::IOError(e.spec.field + " = " + std::to_string(e.spec.port) +
                             ": cannot listen for the " + e.spec.name + " listener on " + host +
                             ":" + std::to_string(e.spec.port) + ": " + st.message() +
                             "; stop the process holding the port or choose another one with "
                             "--set " +
                             e.spec.field + "=<port>");
    }
  }
  return Status::OK();
}

Status ListenerSet::ServeAll() {
  for (Entry& e : entries_) {
    Status st = e.listener->Serve();
    if (!st.ok()) {
      StopAll();
      return st.WithContext("starting the " + e.spec.name + " listener (" + e.spec.field + ")");
    }
    log::Info("server.listening", {{"listener", e.spec.name},
                                   {"port", e.spec.port},
                                   {"field", e.spec.field},
                                   {"protocol", e.listener->protocol()},
                                   {"host", host_}});
  }
  return Status::OK();
}

void ListenerSet::StopAll() {
  for (auto it = entries_.rbegin(); it != entries_.rend(); ++it) {
    if (it->listener == nullptr) continue;
    auto begin = std::chrono::steady_clock::now();
    log::Info("server.listener_stopping", {{"listener", it->spec.name}});
    it->listener->Stop();
    it->listener.reset();
    log::Info(
        "server.listener_stopped",
        {{"listener", it->spec.name},
         {"stop_ms", static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                                std::chrono::steady_clock::now() - begin)
                                                .count())}});
  }
}

}  // namespace sqe::server
