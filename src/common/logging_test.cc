#include "common/logging.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace sqe::log {
namespace {

class LoggingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SetSinkForTesting([this](std::string_view line) { lines_.emplace_back(line); });
  }
  void TearDown() override { SetSinkForTesting(nullptr); }
  std::vector<std::string> lines_;
};

TEST_F(LoggingTest, WritesKeyValueLines) {
  Info("server.listening", {{"listener", "flight_sql"}, {"port", 50051}, {"tls", false}});
  ASSERT_EQ(lines_.size(), 1u);
  EXPECT_NE(lines_[0].find("level=info event=server.listening listener=flight_sql port=50051 "
                           "tls=false"),
            std::string::npos)
      << lines_[0];
  EXPECT_EQ(lines_[0].rfind("ts=", 0), 0u);
}

TEST_F(LoggingTest, QuotesValuesWithSpaces) {
  EXPECT_EQ(FormatLine("e", {{"msg", "two words"}, {"q", "a\"b"}}),
            "event=e msg=\"two words\" q=\"a\\\"b\"");
}

TEST_F(LoggingTest, LevelFilters) {
  SetLevel(Level::kWarn);
  Info("hidden");
  Warn("shown");
  SetLevel(Level::kInfo);
  ASSERT_EQ(lines_.size(), 1u);
  EXPECT_NE(lines_[0].find("event=shown"), std::string::npos);
}

TEST_F(LoggingTest, RegisteredSecretsAreMasked) {
  RegisterSecret("Zq9-distinctive-secret");
  Error("auth.failed", {{"detail", "sent Zq9-distinctive-secret to idp"}});
  ASSERT_EQ(lines_.size(), 1u);
  EXPECT_EQ(lines_[0].find("Zq9-distinctive-secret"), std::string::npos) << lines_[0];
  EXPECT_NE(lines_[0].find("***"), std::string::npos);
}

TEST(RedactTest, CredentialShapesAreMasked) {
  EXPECT_EQ(Redact("Authorization: Bearer eyJhbGciOi.abc.def"), "Authorization: Bearer ***");
  EXPECT_EQ(Redact("basic dXNlcjpwYXNz"), "basic ***");
  EXPECT_EQ(Redact("postgresql://alice:pa55w0rd@db:5432/iceberg"),
            "postgresql://alice:***@db:5432/iceberg");
  EXPECT_EQ(Redact("client_secret=abc123&grant_type=x"), "client_secret=***&grant_type=x");
  EXPECT_EQ(Redact("password: hunter2"), "password: ***");
  EXPECT_EQ(Redact("?X-Amz-Signature=deadbeef&x=1"), "?X-Amz-Signature=***&x=1");
  EXPECT_EQ(Redact("nothing to hide"), "nothing to hide");
}

TEST(ParseLevelTest, AcceptsNamesRejectsOthers) {
  EXPECT_EQ(*ParseLevel("DEBUG"), Level::kDebug);
  EXPECT_EQ(*ParseLevel("warn"), Level::kWarn);
  EXPECT_FALSE(ParseLevel("loud").ok());
}

}  // namespace
}  // namespace sqe::log
