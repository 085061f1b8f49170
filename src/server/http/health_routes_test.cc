#include "server/http/health_routes.h"

#include <gtest/gtest.h>
#include <httplib.h>

namespace sqe::server {
namespace {

TEST(HealthRoutesTest, HealthAndReadinessFollowTheLifecycle) {
  Readiness readiness;
  HttpListener listener;
  AddHealthRoutes(listener, readiness);
  ASSERT_TRUE(listener.Bind("127.0.0.1", 0).ok());
  ASSERT_TRUE(listener.Serve().ok());
  httplib::Client client("127.0.0.1", listener.bound_port());

  auto health = client.Get("/health");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 200);
  EXPECT_EQ(health->body, R"({"status":"ok"})");

  auto starting = client.Get("/ready");
  ASSERT_TRUE(starting);
  EXPECT_EQ(starting->status, 503);
  EXPECT_EQ(starting->body, R"({"status":"starting"})");

  readiness.MarkReady();
  auto ready = client.Get("/ready");
  ASSERT_TRUE(ready);
  EXPECT_EQ(ready->status, 200);
  EXPECT_EQ(ready->body, R"({"status":"ready"})");

  readiness.MarkDraining();
  auto draining = client.Get("/ready");
  ASSERT_TRUE(draining);
  EXPECT_EQ(draining->status, 503);
  EXPECT_EQ(draining->body, R"({"status":"draining"})");
  // Liveness stays up while draining.
  EXPECT_EQ(client.Get("/health")->status, 200);

  auto other = client.Get("/metrics");
  ASSERT_TRUE(other);
  EXPECT_EQ(other->status, 404);
  listener.Stop();
}

TEST(ReadinessTest, NeverLeavesDraining) {
  Readiness readiness;
  readiness.MarkDraining();
  readiness.MarkReady();
  EXPECT_EQ(readiness.state(), Readiness::State::kDraining);
}

}  // namespace
}  // namespace sqe::server
