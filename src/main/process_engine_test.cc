// ProcessEngine: the statement listeners of one sqe-server share one engine.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "main/server_context.h"

namespace sqe::app {
namespace {

TEST(ProcessEngineTest, EveryCallerGetsTheSameEngine) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("sqe-process-engine-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  config::Config config;
  config.catalog.backend.type = "embedded";
  config.catalog.backend.warehouse = dir.string();
  ProcessEngine process_engine(config);
  auto first = process_engine.Get();
  ASSERT_TRUE(first.ok()) << first.status().message();
  auto second = process_engine.Get();
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(first->get(), second->get());
  // A session of the shared engine sees what another made (one catalog, one engine).
  auto a = (*first)->NewSession("a");
  auto b = (*second)->NewSession("b");
  ASSERT_TRUE(a->Execute("CREATE SCHEMA shared").ok());
  auto shown = b->Execute("SHOW SCHEMAS");
  ASSERT_TRUE(shown.ok()) << shown.status().message();
  EXPECT_GT(shown->num_rows(), 0);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace sqe::app
