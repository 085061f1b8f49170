#pragma once
/// Crash points: named places in the write path (a data file written, a manifest written,
/// a metadata file written but not yet the catalog's current one, ...) where a test makes
/// the process stop dead, to prove that a crash at any of them loses nothing and commits
/// nothing twice. Off unless the environment variable SQE_TEST_PAUSE_AT names the point:
/// then the process prints "sqe-crash-point: paused at <name>" on stderr and sleeps until
/// the test kills it (SIGKILL, so no cleanup runs). The check is one cached lookup.

#include <string_view>

namespace sqe {

/// Pauses forever if SQE_TEST_PAUSE_AT equals `name`; returns at once otherwise.
void CrashPoint(std::string_view name);

}  // namespace sqe
