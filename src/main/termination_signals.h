#pragma once
/// SIGINT/SIGTERM handling without async signal handlers: the main thread blocks both
/// before it starts any thread (threads inherit the mask, so no other thread ever takes
/// them), then waits for one with sigwait() once the server is up. SIGPIPE is ignored so a
/// client that hangs up never kills the process.

#include <string>

namespace sqe::app {

/// Blocks SIGINT and SIGTERM in the calling thread and ignores SIGPIPE. Call first thing
/// in main(), before any thread exists.
void BlockTerminationSignals();

/// Blocks until SIGINT or SIGTERM arrives; returns its name ("SIGTERM").
std::string WaitForTerminationSignal();

}  // namespace sqe::app
