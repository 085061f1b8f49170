#include "server/http/http_listener.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <chrono>

namespace sqe::server {
namespace {

TEST(HttpListenerTest, ServesRoutesAnd404) {
  HttpListener listener;
  listener.Get("/hello", [](const HttpRequest& req) {
    return HttpResponse::Json(200, "{\"q\":\"" + req.query.find("x")->second + "\"}");
  });
  listener.Post("/echo", [](const HttpRequest& req) {
    HttpResponse r;
    r.content_type = "text/plain";
    r.body = req.body;
    return r;
  });
  ASSERT_TRUE(listener.Bind("127.0.0.1", 0).ok());
  int port = listener.bound_port();
  ASSERT_TRUE(listener.Serve().ok());

  httplib::Client client("127.0.0.1", port);
  auto hello = client.Get("/hello?x=1");
  ASSERT_TRUE(hello);
  EXPECT_EQ(hello->status, 200);
  EXPECT_EQ(hello->body, R"({"q":"1"})");
  EXPECT_EQ(hello->get_header_value("Content-Type"), "application/json");

  auto echo = client.Post("/echo", "payload", "text/plain");
  ASSERT_TRUE(echo);
  EXPECT_EQ(echo->body, "payload");

  auto missing = client.Get("/missing");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->status, 404);
  listener.Stop();
}

TEST(HttpListenerTest, PortInUseIsReported) {
  HttpListener first;
  ASSERT_TRUE(first.Bind("127.0.0.1", 0).ok());
  HttpListener second;
  Status st = second.Bind("127.0.0.1", first.bound_port());
  EXPECT_EQ(st.code(), StatusCode::kIOError);
  EXPECT_NE(st.message().find("address already in use"), std::string::npos) << st.message();
}

TEST(HttpListenerTest, StopWithoutServeReleasesThePort) {
  int port = 0;
  {
    HttpListener listener;
    ASSERT_TRUE(listener.Bind("127.0.0.1", 0).ok());
    port = listener.bound_port();
  }
  HttpListener again;
  EXPECT_TRUE(again.Bind("127.0.0.1", port).ok());
}

TEST(HttpListenerTest, StopsPromptlyWithAnIdleKeepAliveClient) {
  HttpListener listener;
  listener.Get("/x", [](const HttpRequest&) { return HttpResponse::Json(200, "{}"); });
  ASSERT_TRUE(listener.Bind("127.0.0.1", 0).ok());
  ASSERT_TRUE(listener.Serve().ok());
  httplib::Client client("127.0.0.1", listener.bound_port());
  client.set_keep_alive(true);
  ASSERT_TRUE(client.Get("/x"));
  auto start = std::chrono::steady_clock::now();
  listener.Stop();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(3));
}

TEST(HttpListenerTest, StopRightAfterServeDoesNotHang) {
  for (int i = 0; i < 20; ++i) {
    HttpListener listener;
    ASSERT_TRUE(listener.Bind("127.0.0.1", 0).ok());
    ASSERT_TRUE(listener.Serve().ok());
    listener.Stop();
  }
}

}  // namespace
}  // namespace sqe::server
