// Rules that tie query and session settings together.

#include "config/config_validation_internal.h"

namespace sqe::config {

void CheckWritePath(ValidationContext& ctx) {
  const QueryConfig& q = ctx.config().query;
  if (q.merge_target_streaming && !q.write_buffer_tracking) {
    ctx.Error("query.merge_target_streaming",
              "query.merge_target_streaming = true needs query.write_buffer_tracking = true "
              "(streaming MERGE relies on pool-tracked write buffers)");
  }
}

void CheckSessionPersistence(ValidationContext& ctx) {
  const SessionConfig& s = ctx.config().session;
  if (s.persistence == "file" && s.persistence_path.empty()) {
    ctx.Error("session.persistence_path",
              "session.persistence_path must be set when session.persistence is \"file\"");
  }
}

}  // namespace sqe::config
