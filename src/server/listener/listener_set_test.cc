#include "server/listener/listener_set.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace sqe::server {
namespace {

/// Records calls; fails Bind() on a chosen port.
class FakeListener final : public Listener {
 public:
  FakeListener(std::vector<std::string>* log, std::string name, int fail_port = -1)
      : log_(log), name_(std::move(name)), fail_port_(fail_port) {}
  Status Bind(const std::string&, int port) override {
    log_->push_back("bind " + name_);
    if (port == fail_port_) return Status::IOError("address already in use");
    port_ = port;
    return Status::OK();
  }
  Status Serve() override {
    log_->push_back("serve " + name_);
    return Status::OK();
  }
  void Stop() override {
    if (port_ != 0) log_->push_back("stop " + name_);
    port_ = 0;
  }
  int bound_port() const override { return port_; }
  std::string protocol() const override { return "fake"; }

 private:
  std::vector<std::string>* log_;
  std::string name_;
  int fail_port_;
  int port_ = 0;
};

config::ListenerSpec Spec(std::string name, std::string field, int port) {
  return config::ListenerSpec{std::move(name), std::move(field), port};
}

TEST(ListenerSetTest, BindsAllBeforeServingAny) {
  std::vector<std::string> log;
  ListenerSet set;
  set.Add(Spec("flight_sql", "coordinator.flight_sql_port", 1001),
          std::make_unique<FakeListener>(&log, "a"));
  set.Add(Spec("metrics", "metrics.prometheus_port", 1002),
          std::make_unique<FakeListener>(&log, "b"));
  ASSERT_TRUE(set.BindAll("127.0.0.1").ok());
  ASSERT_TRUE(set.ServeAll().ok());
  set.StopAll();
  EXPECT_EQ(log, (std::vector<std::string>{"bind a", "bind b", "serve a", "serve b", "stop b",
                                           "stop a"}));
}

TEST(ListenerSetTest, SamePortTwiceNamesBothFieldsAndBindsNothing) {
  std::vector<std::string> log;
  ListenerSet set;
  set.Add(Spec("flight_sql", "coordinator.flight_sql_port", 9090),
          std::make_unique<FakeListener>(&log, "a"));
  set.Add(Spec("metrics", "metrics.prometheus_port", 9090),
          std::make_unique<FakeListener>(&log, "b"));
  Status st = set.BindAll("127.0.0.1");
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("coordinator.flight_sql_port"), std::string::npos);
  EXPECT_NE(st.message().find("metrics.prometheus_port"), std::string::npos);
  EXPECT_NE(st.message().find("9090"), std::string::npos);
  EXPECT_TRUE(log.empty());
}

TEST(ListenerSetTest, BindFailureReleasesTheBoundOnesAndNamesTheField) {
  std::vector<std::string> log;
  ListenerSet set;
  set.Add(Spec("flight_sql", "coordinator.flight_sql_port", 1001),
          std::make_unique<FakeListener>(&log, "a"));
  set.Add(Spec("trino_http", "coordinator.trino_http_port", 1002),
          std::make_unique<FakeListener>(&log, "b", /*fail_port=*/1002));
  set.Add(Spec("metrics", "metrics.prometheus_port", 1003),
          std::make_unique<FakeListener>(&log, "c"));
  Status st = set.BindAll("127.0.0.1");
  EXPECT_EQ(st.code(), StatusCode::kIOError);
  EXPECT_NE(st.message().find("coordinator.trino_http_port = 1002"), std::string::npos)
      << st.message();
  EXPECT_NE(st.message().find("address already in use"), std::string::npos);
  EXPECT_EQ(log, (std::vector<std::string>{"bind a", "bind b", "stop a"}));
}

}  // namespace
}  // namespace sqe::server
