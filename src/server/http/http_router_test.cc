#include "server/http/http_router.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace sqe::server {
namespace {

HttpHandler Answer(std::string body) {
  return [body](const HttpRequest&) { return HttpResponse::Json(200, body); };
}

HttpRequest Get(std::string path) {
  HttpRequest r;
  r.path = std::move(path);
  return r;
}

TEST(HttpRouterTest, ExactRouteAndUnknownPath) {
  HttpRouter router;
  router.Add(HttpMethod::kGet, "/health", Answer("h"));
  EXPECT_EQ(router.Dispatch(Get("/health")).body, "h");
  HttpResponse missing = router.Dispatch(Get("/nope"));
  EXPECT_EQ(missing.status, 404);
  EXPECT_NE(missing.body.find("not found"), std::string::npos);
  EXPECT_EQ(router.Dispatch(Get("/health/extra")).status, 404);
}

TEST(HttpRouterTest, PrefixRoutesLongestFirstExactWins) {
  HttpRouter router;
  router.Add(HttpMethod::kGet, "/v1/*", Answer("short"));
  router.Add(HttpMethod::kGet, "/v1/statement/*", Answer("long"));
  router.Add(HttpMethod::kGet, "/v1/info", Answer("exact"));
  EXPECT_EQ(router.Dispatch(Get("/v1/statement/q/1")).body, "long");
  EXPECT_EQ(router.Dispatch(Get("/v1/node")).body, "short");
  EXPECT_EQ(router.Dispatch(Get("/v1/info")).body, "exact");
  EXPECT_EQ(router.Dispatch(Get("/v2")).status, 404);
}

TEST(HttpRouterTest, WrongMethodIs405WithAllow) {
  HttpRouter router;
  router.Add(HttpMethod::kPost, "/api/v1/catalogs/refresh", Answer("ok"));
  HttpResponse r = router.Dispatch(Get("/api/v1/catalogs/refresh"));
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(r.headers["Allow"], "POST");
}

TEST(HttpRouterTest, ThrowingHandlerIs500) {
  HttpRouter router;
  router.Add(HttpMethod::kGet, "/boom",
             [](const HttpRequest&) -> HttpResponse { throw std::runtime_error("x"); });
  EXPECT_EQ(router.Dispatch(Get("/boom")).status, 500);
}

TEST(HttpRequestTest, HeaderLookupIgnoresCase) {
  HttpRequest r;
  r.headers["x-trino-user"] = "alice";
  EXPECT_EQ(r.Header("X-Trino-User"), "alice");
  EXPECT_EQ(r.Header("missing"), "");
}

}  // namespace
}  // namespace sqe::server
