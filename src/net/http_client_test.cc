#include "net/http_client.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace sqe::net {
namespace {

using std::chrono::milliseconds;
using std::chrono::steady_clock;

int64_t MillisSince(steady_clock::time_point start) {
  return std::chrono::duration_cast<milliseconds>(steady_clock::now() - start).count();
}

// Holds slow handlers until the test is done with them, so TearDown never waits for a
// sleeping handler.
class Gate {
 public:
  void Open() {
    std::lock_guard<std::mutex> lock(mu_);
    open_ = true;
    cv_.notify_all();
  }
  void Wait(milliseconds limit) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait_for(lock, limit, [&] { return open_; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool open_ = false;
};

// Accepts connections and closes them at once: a server that drops every request.
class ClosingServer {
 public:
  ClosingServer() {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    EXPECT_EQ(::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
    EXPECT_EQ(::listen(fd_, 16), 0);
    socklen_t len = sizeof(addr);
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] {
      while (!stop_.load()) {
        pollfd p{fd_, POLLIN, 0};
        if (::poll(&p, 1, 20) <= 0) continue;
        int c = ::accept(fd_, nullptr, nullptr);
        if (c >= 0) ::close(c);
      }
    });
  }
  ~ClosingServer() {
    stop_.store(true);
    thread_.join();
    ::close(fd_);
  }
  int port() const { return port_; }

 private:
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// A port nothing listens on: bound once to learn a free number, then closed.
int ClosedPort() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  socklen_t len = sizeof(addr);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

std::string RandomBytes(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rng() & 0xff);
  return s;
}

class HttpClientTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_.new_task_queue = [] { return new httplib::ThreadPool(32); };
    server_.set_keep_alive_max_count(1000);
    server_.Get("/hello", [](const httplib::Request&, httplib::Response& res) {
      res.set_content("hello world", "text/plain");
    });
    server_.Get("/data", [this](const httplib::Request&, httplib::Response& res) {
      res.set_content(data_, "application/octet-stream");
    });
    server_.Get("/missing", [](const httplib::Request&, httplib::Response& res) {
      res.status = 404;
      res.set_content("<Error><Code>NoSuchKey</Code></Error>", "application/xml");
    });
    server_.Get("/echo-header", [](const httplib::Request& req, httplib::Response& res) {
      res.set_header("X-Reply", "  padded value  ");
      res.set_content(req.get_header_value("X-Custom") + "|" + req.get_header_value("X-Other"),
                      "text/plain");
    });
    server_.Get("/slow", [this](const httplib::Request&, httplib::Response& res) {
      gate_.Wait(milliseconds(5000));
      res.set_content("late", "text/plain");
    });
    server_.Get("/stall-body", [this](const httplib::Request&, httplib::Response& res) {
      res.set_content_provider(100, "text/plain",
                               [this](size_t offset, size_t, httplib::DataSink& sink) {
                                 if (offset == 0) {
                                   sink.write("0123456789", 10);
                                   return true;
                                 }
                                 gate_.Wait(milliseconds(5000));
                                 return false;
                               });
    });
    auto record = [this](const httplib::Request& req, httplib::Response& res) {
      std::lock_guard<std::mutex> lock(mu_);
      received_body_ = req.body;
      received_method_ = req.method;
      received_content_length_ =
          req.has_header("Content-Length") ? req.get_header_value("Content-Length") : "<none>";
      received_expect_ = req.has_header("Expect");
      received_content_type_ =
          req.has_header("Content-Type") ? req.get_header_value("Content-Type") : "<none>";
      res.set_content("stored " + std::to_string(req.body.size()), "text/plain");
    };
    server_.Put("/object", record);
    server_.Post("/object", record);
    server_.Delete("/object", record);

    port_ = server_.bind_to_any_port("127.0.0.1");
    ASSERT_GT(port_, 0);
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(milliseconds(1));
    data_ = RandomBytes(1000, 7);
  }

  void TearDown() override {
    gate_.Open();
    server_.stop();
    thread_.join();
  }

  std::string Url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }

  std::shared_ptr<HttpClient> MakeClient(HttpClientOptions options = {}) {
    auto client = HttpClient::Make(options);
    EXPECT_TRUE(client.ok()) << client.status().ToString();
    return client.ok() ? *client : nullptr;
  }

  static HttpRequest Request(std::string method, std::string url) {
    HttpRequest r;
    r.method = std::move(method);
    r.url = std::move(url);
    return r;
  }

  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
  Gate gate_;
  std::string data_;

  std::mutex mu_;
  std::string received_body_;
  std::string received_method_;
  std::string received_content_length_;
  std::string received_content_type_;
  bool received_expect_ = false;
};

TEST_F(HttpClientTest, GetReturnsBodyAndHeaders) {
  auto client = MakeClient();
  HttpOutcome out = client->Send(Request("GET", Url("/hello")));
  ASSERT_TRUE(out.ok()) << out.error;
  EXPECT_EQ(out.response.status, 200);
  EXPECT_EQ(out.response.body, "hello world");
  EXPECT_EQ(out.response.body_bytes, 11);
  EXPECT_EQ(out.response.Header("Content-Type"), "text/plain");
  EXPECT_EQ(out.response.Header("content-length"), "11");
  for (const auto& [name, value] : out.response.headers) {
    for (char c : name) EXPECT_FALSE(std::isupper(static_cast<unsigned char>(c))) << name;
  }
  EXPECT_FALSE(out.response.Header("x-absent").has_value());
}

TEST_F(HttpClientTest, HeadReportsContentLengthWithoutBody) {
  auto client = MakeClient();
  HttpOutcome out = client->Send(Request("HEAD", Url("/data")));
  ASSERT_TRUE(out.ok()) << out.error;
  EXPECT_EQ(out.response.status, 200);
  EXPECT_EQ(out.response.Header("content-length"), "1000");
  EXPECT_TRUE(out.response.body.empty());
  EXPECT_EQ(out.response.body_bytes, 0);
}

TEST_F(HttpClientTest, PutSendsBodyByteExact) {
  auto client = MakeClient();
  std::string payload = RandomBytes(1 << 20, 42);
  HttpRequest req = Request("PUT", Url("/object"));
  req.body = payload;
  HttpOutcome out = client->Send(req);
  ASSERT_TRUE(out.ok()) << out.error;
  EXPECT_EQ(out.response.status, 200);
  EXPECT_EQ(out.response.body, "stored 1048576");
  std::lock_guard<std::mutex> lock(mu_);
  EXPECT_EQ(received_method_, "PUT");
  EXPECT_EQ(received_body_.size(), payload.size());
  EXPECT_TRUE(received_body_ == payload);
  EXPECT_EQ(received_content_length_, "1048576");
  EXPECT_FALSE(received_expect_);
}

TEST_F(HttpClientTest, EmptyPutSendsContentLengthZero) {
  auto client = MakeClient();
  HttpOutcome out = client->Send(Request("PUT", Url("/object")));
  ASSERT_TRUE(out.ok()) << out.error;
  EXPECT_EQ(out.response.status, 200);
  std::lock_guard<std::mutex> lock(mu_);
  EXPECT_EQ(received_method_, "PUT");
  EXPECT_EQ(received_content_length_, "0");
  EXPECT_TRUE(received_body_.empty());
}

TEST_F(HttpClientTest, PostSendsBodyWithoutDefaultContentType) {
  auto client = MakeClient();
  std::string payload = "<Delete><Object><Key>a</Key></Object></Delete>";
  HttpRequest req = Request("POST", Url("/object"));
  req.body = payload;
  HttpOutcome out = client->Send(req);
  ASSERT_TRUE(out.ok()) << out.error;
  EXPECT_EQ(out.response.status, 200);
  {
    std::lock_guard<std::mutex> lock(mu_);
    EXPECT_EQ(received_method_, "POST");
    EXPECT_EQ(received_body_, payload);
    EXPECT_EQ(received_content_type_, "<none>");
    EXPECT_FALSE(received_expect_);
  }
  // A caller's Content-Type goes through; an empty POST says Content-Length: 0.
  HttpRequest typed = Request("POST", Url("/object"));
  typed.headers = {{"Content-Type", "application/xml"}};
  out = client->Send(typed);
  ASSERT_TRUE(out.ok()) << out.error;
  std::lock_guard<std::mutex> lock(mu_);
  EXPECT_EQ(received_content_type_, "application/xml");
  EXPECT_EQ(received_content_length_, "0");
}

TEST_F(HttpClientTest, DeleteUsesMethod) {
  auto client = MakeClient();
  HttpOutcome out = client->Send(Request("DELETE", Url("/object")));
  ASSERT_TRUE(out.ok()) << out.error;
  EXPECT_EQ(out.response.status, 200);
  std::lock_guard<std::mutex> lock(mu_);
  EXPECT_EQ(received_method_, "DELETE");
}

TEST_F(HttpClientTest, CustomHeadersArriveAndResponseValuesAreTrimmed) {
  auto client = MakeClient();
  HttpRequest req = Request("GET", Url("/echo-header"));
  req.headers = {{"X-Custom", "one two"}, {"X-Other", "3"}};
  HttpOutcome out = client->Send(req);
  ASSERT_TRUE(out.ok()) << out.error;
  EXPECT_EQ(out.response.body, "one two|3");
  EXPECT_EQ(out.response.Header("x-reply"), "padded value");
}

TEST_F(HttpClientTest, ResponseBufferReceivesBodyExactly) {
  auto client = MakeClient();
  std::vector<uint8_t> buffer(data_.size(), 0);
  HttpRequest req = Request("GET", Url("/data"));
  req.response_buffer = buffer.data();
  req.response_capacity = static_cast<int64_t>(buffer.size());
  HttpOutcome out = client->Send(req);
  ASSERT_TRUE(out.ok()) << out.error;
  EXPECT_EQ(out.response.status, 200);
  EXPECT_TRUE(out.response.body.empty());
  EXPECT_EQ(out.response.body_bytes, 1000);
  EXPECT_EQ(std::string(buffer.begin(), buffer.end()), data_);
}

TEST_F(HttpClientTest, ResponseLongerThanCapacityFails) {
  auto client = MakeClient();
  std::vector<uint8_t> buffer(999, 0);
  HttpRequest req = Request("GET", Url("/data"));
  req.response_buffer = buffer.data();
  req.response_capacity = static_cast<int64_t>(buffer.size());
  HttpOutcome out = client->Send(req);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error.find("response body longer than the 999 bytes expected"), std::string::npos)
      << out.error;
  EXPECT_NE(out.error.find("GET " + Url("/data")), std::string::npos) << out.error;
  // The client stays usable afterwards.
  out = client->Send(Request("GET", Url("/hello")));
  ASSERT_TRUE(out.ok()) << out.error;
  EXPECT_EQ(out.response.body, "hello world");
}

TEST_F(HttpClientTest, ErrorBodyGoesToBodyNotBuffer) {
  auto client = MakeClient();
  std::vector<uint8_t> buffer(8, 0xAB);
  HttpRequest req = Request("GET", Url("/missing"));
  req.response_buffer = buffer.data();
  req.response_capacity = static_cast<int64_t>(buffer.size());
  HttpOutcome out = client->Send(req);
  ASSERT_TRUE(out.ok()) << out.error;
  EXPECT_EQ(out.response.status, 404);
  EXPECT_EQ(out.response.body, "<Error><Code>NoSuchKey</Code></Error>");
  for (uint8_t b : buffer) EXPECT_EQ(b, 0xAB);
}

TEST_F(HttpClientTest, SequentialRequestsReuseConnection) {
  auto client = MakeClient();
  for (int i = 0; i < 20; ++i) {
    HttpOutcome out = client->Send(Request("GET", Url("/hello")));
    ASSERT_TRUE(out.ok()) << out.error;
    ASSERT_EQ(out.response.status, 200);
  }
  EXPECT_GE(client->connections_opened(), 1);
  EXPECT_LE(client->connections_opened(), 2);
}

TEST_F(HttpClientTest, ConcurrentRequestsAllSucceed) {
  auto client = MakeClient();
  std::atomic<int> good{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20; ++i) {
        HttpOutcome out;
        if ((i + t) % 2 == 0) {
          out = client->Send(Request("GET", Url("/hello")));
          if (out.ok() && out.response.status == 200 && out.response.body == "hello world") {
            good.fetch_add(1);
          }
        } else {
          std::vector<uint8_t> buffer(data_.size());
          HttpRequest req = Request("GET", Url("/data"));
          req.response_buffer = buffer.data();
          req.response_capacity = static_cast<int64_t>(buffer.size());
          out = client->Send(req);
          if (out.ok() && out.response.status == 200 &&
              std::string(buffer.begin(), buffer.end()) == data_) {
            good.fetch_add(1);
          }
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(good.load(), 160);
  // Connections are pooled: far fewer than one per request.
  EXPECT_LE(client->connections_opened(), 16);
}

TEST_F(HttpClientTest, StalledServerBeforeHeaders) {
  HttpClientOptions options;
  options.stall_timeout_ms = 1000;
  auto client = MakeClient(options);
  HttpRequest req = Request("GET", Url("/slow?X-Amz-Signature=querysecret"));
  req.headers = {{"Authorization", "secretvalue"}};
  auto start = steady_clock::now();
  HttpOutcome out = client->Send(req);
  int64_t elapsed = MillisSince(start);
  gate_.Open();
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.failure, TransportFailure::kStalled) << out.error;
  EXPECT_LT(elapsed, 2800);
  EXPECT_GE(elapsed, 900);
  EXPECT_NE(out.error.find("GET " + Url("/slow")), std::string::npos) << out.error;
  EXPECT_NE(out.error.find("no data for 1000 ms"), std::string::npos) << out.error;
  EXPECT_EQ(out.error.find("secretvalue"), std::string::npos) << out.error;
  EXPECT_EQ(out.error.find("querysecret"), std::string::npos) << out.error;
}

TEST_F(HttpClientTest, StalledServerMidBody) {
  HttpClientOptions options;
  options.stall_timeout_ms = 1000;
  auto client = MakeClient(options);
  auto start = steady_clock::now();
  HttpOutcome out = client->Send(Request("GET", Url("/stall-body")));
  int64_t elapsed = MillisSince(start);
  gate_.Open();
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.failure, TransportFailure::kStalled) << out.error;
  EXPECT_LT(elapsed, 2800);
  EXPECT_NE(out.error.find(Url("/stall-body")), std::string::npos) << out.error;
}

TEST_F(HttpClientTest, RequestTimeoutHonored) {
  HttpClientOptions options;
  options.request_timeout_ms = 400;
  auto client = MakeClient(options);
  auto start = steady_clock::now();
  HttpOutcome out = client->Send(Request("GET", Url("/slow")));
  int64_t elapsed = MillisSince(start);
  gate_.Open();
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.failure, TransportFailure::kTimeout) << out.error;
  EXPECT_GE(elapsed, 350);
  EXPECT_LT(elapsed, 1500);
  EXPECT_NE(out.error.find("GET " + Url("/slow")), std::string::npos) << out.error;
}

TEST_F(HttpClientTest, ClosedPortIsConnectFailure) {
  auto client = MakeClient();
  std::string url = "http://127.0.0.1:" + std::to_string(ClosedPort()) + "/x";
  HttpRequest req = Request("PUT", url);
  req.headers = {{"Authorization", "secretvalue"}, {"x-amz-security-token", "secrettoken"}};
  req.body = "payload";
  HttpOutcome out = client->Send(req);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.failure, TransportFailure::kConnect) << out.error;
  EXPECT_EQ(out.error.rfind("PUT " + url + ": ", 0), 0u) << out.error;
  EXPECT_EQ(out.error.find("secretvalue"), std::string::npos) << out.error;
  EXPECT_EQ(out.error.find("secrettoken"), std::string::npos) << out.error;
  EXPECT_EQ(out.response.status, 0);
}

TEST_F(HttpClientTest, ServerClosingConnectionIsReset) {
  ClosingServer closing;
  auto client = MakeClient();
  std::string url = "http://127.0.0.1:" + std::to_string(closing.port()) + "/x";
  HttpRequest req = Request("GET", url);
  req.headers = {{"Authorization", "secretvalue"}};
  HttpOutcome out = client->Send(req);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.failure, TransportFailure::kReset) << out.error;
  EXPECT_NE(out.error.find(url), std::string::npos) << out.error;
  EXPECT_EQ(out.error.find("secretvalue"), std::string::npos) << out.error;
}

TEST_F(HttpClientTest, TlsHandshakeFailureIsTls) {
  // https:// against the plain-HTTP test server: the handshake cannot succeed.
  auto client = MakeClient();
  std::string url = "https://127.0.0.1:" + std::to_string(port_) + "/hello";
  HttpOutcome out = client->Send(Request("GET", url));
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.failure, TransportFailure::kTls) << out.error;
  EXPECT_NE(out.error.find(url), std::string::npos) << out.error;
}

TEST_F(HttpClientTest, HeaderWithLineBreakIsRejected) {
  auto client = MakeClient();
  HttpRequest req = Request("GET", Url("/hello"));
  req.headers = {{"X-Custom", "secretvalue\r\nX-Injected: 1"}};
  HttpOutcome out = client->Send(req);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.failure, TransportFailure::kOther);
  EXPECT_NE(out.error.find("X-Custom"), std::string::npos) << out.error;
  EXPECT_EQ(out.error.find("secretvalue"), std::string::npos) << out.error;
}

TEST(HttpClientMakeTest, RejectsNegativeOptions) {
  HttpClientOptions options;
  options.stall_timeout_ms = -1;
  auto client = HttpClient::Make(options);
  ASSERT_FALSE(client.ok());
  EXPECT_EQ(client.status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace sqe::net
