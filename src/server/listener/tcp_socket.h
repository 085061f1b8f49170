#pragma once
/// Opening a listening TCP socket with the options every SQE listener uses: SO_REUSEADDR
/// (a restart may rebind while old connections sit in TIME_WAIT) and never SO_REUSEPORT
/// (a second process must not silently share a port), close-on-exec.

#include <string>

#include "common/result.h"

namespace sqe::server {

/// Binds host:port (IPv4 dotted address, or "" / "0.0.0.0" for all interfaces) and starts
/// listening. Returns the socket; the caller owns and closes it. IOError carries the OS
/// reason, e.g. "Address already in use".
Result<int> OpenListeningSocket(const std::string& host, int port, int backlog = 128);

/// The local port of a bound socket, 0 on error.
int LocalPort(int fd);

/// The OS reason for `err` in the words a user can act on.
std::string DescribeBindError(int err);

}  // namespace sqe::server
