#include "server/trino/info_route.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <nlohmann/json.hpp>

namespace sqe::server {
namespace {

using std::chrono::milliseconds;

TEST(TrinoDurationTest, PicksTheMostSuccinctUnit) {
  EXPECT_EQ(FormatTrinoDuration(milliseconds(850)), "850.00ms");
  EXPECT_EQ(FormatTrinoDuration(milliseconds(12340)), "12.34s");
  EXPECT_EQ(FormatTrinoDuration(milliseconds(330000)), "5.50m");
  EXPECT_EQ(FormatTrinoDuration(milliseconds(7200000)), "2.00h");
  EXPECT_EQ(FormatTrinoDuration(milliseconds(108000000)), "1.25d");
  EXPECT_EQ(FormatTrinoDuration(milliseconds(0)), "0.00ms");
}

TEST(TrinoInfoRouteTest, AnswersTrinoStyleNodeInfo) {
  auto clock = std::make_shared<FakeClock>();
  Readiness readiness;
  HttpListener listener;
  AddTrinoInfoRoute(listener, {"sqe-0.1.0", "sqe", true, clock->MonotonicNow()}, readiness, clock);
  ASSERT_TRUE(listener.Bind("127.0.0.1", 0).ok());
  ASSERT_TRUE(listener.Serve().ok());
  httplib::Client client("127.0.0.1", listener.bound_port());

  auto starting = nlohmann::json::parse(client.Get("/v1/info")->body);
  EXPECT_EQ(starting["starting"], true);

  readiness.MarkReady();
  clock->Advance(std::chrono::seconds(90));
  auto info = nlohmann::json::parse(client.Get("/v1/info")->body);
  EXPECT_EQ(info["nodeVersion"]["version"], "sqe-0.1.0");
  EXPECT_EQ(info["environment"], "sqe");
  EXPECT_EQ(info["coordinator"], true);
  EXPECT_EQ(info["starting"], false);
  EXPECT_EQ(info["uptime"], "1.50m");
  EXPECT_EQ(client.Get("/v1/statement")->status, 404);
  auto status = nlohmann::json::parse(client.Get("/v1/status")->body);
  EXPECT_EQ(status["nodeVersion"]["version"], "sqe-0.1.0");
  EXPECT_EQ(status["coordinator"], true);
  EXPECT_EQ(status["uptime"], "1.50m");
  listener.Stop();
}

}  // namespace
}  // namespace sqe::server
