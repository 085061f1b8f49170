#pragma once
/// ListenerSet: every listener of the process, bound all-or-nothing before any serves.
///
/// The bootstrap adds one Listener per planned port (config::PlannedListeners), then calls
/// BindAll(): it rejects two listeners on one port, binds each in plan order, and on the
/// first failure releases the ones already bound, so a port clash is reported before the
/// process has served a single request. ServeAll() then starts them and logs one
/// `server.listening` line each; StopAll() stops them in reverse order. Not thread-safe:
/// the bootstrap thread owns it.

#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "config/config.h"
#include "server/listener/listener.h"

namespace sqe::server {

class ListenerSet {
 public:
  ListenerSet() = default;
  ~ListenerSet();
  ListenerSet(ListenerSet&&) = default;
  ListenerSet& operator=(ListenerSet&&) = default;

  /// Adds a listener for `spec` (its name, port and the field that chose the port).
  void Add(config::ListenerSpec spec, std::unique_ptr<Listener> listener);

  /// Binds every listener on `host`. InvalidArgument when two share a port (naming both
  /// fields); IOError naming the field, the port and the OS reason when a bind fails.
  Status BindAll(const std::string& host);

  /// Starts every bound listener, in plan order. On failure stops all of them.
  Status ServeAll();

  /// Stops every listener, last-added first. Idempotent.
  void StopAll();

  size_t size() const { return entries_.size(); }
  std::vector<config::ListenerSpec> specs() const;

 private:
  struct Entry {
    config::ListenerSpec spec;
    std::unique_ptr<Listener> listener;
  };
  Status CheckDistinctPorts() const;

  std::vector<Entry> entries_;
  std::string host_;
};

}  // namespace sqe::server
