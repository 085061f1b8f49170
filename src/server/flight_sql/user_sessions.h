#pragma once
/// UserSessions moved to server/session/user_sessions.h (shared with the Trino listener);
/// this name stays so the Flight SQL code keeps compiling unchanged.

#include "server/session/user_sessions.h"

namespace sqe::server::flight_sql {
using server::UserSessions;
}  // namespace sqe::server::flight_sql
