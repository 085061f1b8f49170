// Rules of the maintenance subsystem: the mode ladder needs a principal, the scheduler's
// intervals, lease choice and cron schedule, and partial-progress batching.

#include "common/cron_expression.h"
#include "config/config_validation_internal.h"

namespace sqe::config {

void CheckMaintenancePrincipal(ValidationContext& ctx) {
  const MaintenanceConfig& m = ctx.config().maintenance;
  if (m.mode == "off" || (m.mode != "advisory" && m.mode != "active")) return;
  if (!m.principal.has_value()) {
    ctx.Error("maintenance.principal",
              "maintenance.mode = \"" + m.mode + "\"" + ctx.SetBy("maintenance.mode") +
                  " requires a [maintenance.principal] block (token_endpoint, client_id, "
                  "client_secret); use mode = \"off\" to run without one");
    return;
  }
  if (m.principal->token_endpoint.empty()) {
    ctx.Error("maintenance.principal.token_endpoint",
              "maintenance.principal.token_endpoint is required when maintenance.mode is \"" +
                  m.mode + "\"");
  }
  if (m.principal->client_id.empty()) {
    ctx.Error(
        "maintenance.principal.client_id",
        "maintenance.principal.client_id is required when maintenance.mode is \"" + m.mode + "\"");
  }
}

void CheckScheduler(ValidationContext& ctx) {
  const MaintenanceSchedulerConfig& s = ctx.config().maintenance.scheduler;
  if (s.tick_secs <= 0) {
    ctx.Error("maintenance.scheduler.tick_secs",
              "maintenance.scheduler.tick_secs must be greater than zero, got " +
                  std::to_string(s.tick_secs) + ctx.SetBy("maintenance.scheduler.tick_secs"));
  }
  if (s.lease_ttl_secs <= 0) {
    ctx.Error("maintenance.scheduler.lease_ttl_secs",
              "maintenance.scheduler.lease_ttl_secs must be greater than zero, got " +
                  std::to_string(s.lease_ttl_secs) +
                  ctx.SetBy("maintenance.scheduler.lease_ttl_secs"));
  }
  if (s.enabled && s.lease == "none" && !s.single_scheduler_acknowledged) {
    ctx.Error("maintenance.scheduler.single_scheduler_acknowledged",
              "maintenance.scheduler.enabled = true with lease = \"none\" requires "
              "maintenance.scheduler.single_scheduler_acknowledged = true (an unleased "
              "scheduler is safe with one coordinator only); or use lease = \"catalog\"");
  }
  if (s.enabled && s.lease == "kubernetes") {
    ctx.Error("maintenance.scheduler.lease",
              "maintenance.scheduler.lease = \"kubernetes\" is not implemented; with "
              "scheduler.enabled = true use \"catalog\" (multi-coordinator HA) or \"none\" "
              "(single coordinator, with single_scheduler_acknowledged = true)");
  }
  auto cron = CronExpression::Parse(s.schedule);
  if (!cron.ok()) {
    ctx.Error("maintenance.scheduler.schedule",
              "maintenance.scheduler.schedule: " + cron.status().message() +
                  ctx.SetBy("maintenance.scheduler.schedule"));
  }
}

void CheckPartialProgress(ValidationContext& ctx) {
  const MaintenanceDistributionConfig& d = ctx.config().maintenance.distribution;
  if (d.partial_progress && d.partial_progress_batch < 1) {
    ctx.Error("maintenance.distribution.partial_progress_batch",
              "maintenance.distribution.partial_progress_batch must be at least 1 when "
              "maintenance.distribution.partial_progress = true, got " +
                  std::to_string(d.partial_progress_batch));
  }
}

}  // namespace sqe::config
