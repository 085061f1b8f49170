#include "main/server_command_line.h"

#include <gtest/gtest.h>

#include <vector>

namespace sqe::app {
namespace {

ParsedCommandLine Parse(std::vector<const char*> args) {
  args.insert(args.begin(), "sqe-server");
  return ParseServerCommandLine(static_cast<int>(args.size()), args.data());
}

TEST(ServerCommandLineTest, ParsesEveryFlag) {
  ParsedCommandLine p =
      Parse({"--config", "sqe.toml", "--mode", "local", "--set", "metrics.prometheus_port=9091",
             "--set=query.timeout_secs=5", "--check-config"});
  ASSERT_TRUE(p.command);
  EXPECT_EQ(p.command->config_path, "sqe.toml");
  EXPECT_EQ(p.command->mode, "local");
  EXPECT_EQ(p.command->set_overrides,
            (std::vector<std::string>{"metrics.prometheus_port=9091", "query.timeout_secs=5"}));
  EXPECT_TRUE(p.command->check_config);
  EXPECT_FALSE(p.command->print_config);
}

TEST(ServerCommandLineTest, NothingGivenLeavesEverythingUnset) {
  ParsedCommandLine p = Parse({});
  ASSERT_TRUE(p.command);
  EXPECT_FALSE(p.command->config_path);
  EXPECT_FALSE(p.command->mode);
  EXPECT_TRUE(p.command->set_overrides.empty());
}

TEST(ServerCommandLineTest, UsageErrorsExitTwo) {
  for (std::vector<const char*> args :
       std::vector<std::vector<const char*>>{{"--bogus"},
                                             {"--mode", "sideways"},
                                             {"--config"},
                                             {"--set", "a=1", "stray"},
                                             {"--check-config", "--print-config"}}) {
    ParsedCommandLine p = Parse(args);
    EXPECT_FALSE(p.command) << args[0];
    EXPECT_EQ(p.exit_code, kExitUsage) << args[0];
  }
}

TEST(ServerCommandLineTest, HelpAndVersionExitZero) {
  testing::internal::CaptureStdout();
  ParsedCommandLine version = Parse({"--version"});
  std::string out = testing::internal::GetCapturedStdout();
  EXPECT_FALSE(version.command);
  EXPECT_EQ(version.exit_code, kExitOk);
  EXPECT_NE(out.find("sqe-server " SQE_VERSION), std::string::npos) << out;

  testing::internal::CaptureStdout();
  ParsedCommandLine help = Parse({"--help"});
  out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(help.exit_code, kExitOk);
  EXPECT_NE(out.find("--print-config"), std::string::npos);
}

}  // namespace
}  // namespace sqe::app
