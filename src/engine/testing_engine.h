#pragma once
/// Test support: a fresh temp directory named after the running GTest test, and an Engine on
/// an embedded warehouse there (for the tests of src/engine and of the listeners above it).

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>

#include "engine/engine.h"

namespace sqe::engine::testing {

/// `<temp>/<prefix><pid>-<test name>`, emptied and created.
inline std::filesystem::path FreshTestDirectory(const std::string& prefix) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              (prefix + std::to_string(::getpid()) + "-" +
                               ::testing::UnitTest::GetInstance()->current_test_info()->name());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

/// An Engine with an embedded catalog in `warehouse`, on `threads` query threads.
inline Result<std::shared_ptr<Engine>> OpenTestEngine(const std::filesystem::path& warehouse,
                                                      int threads = 2) {
  EngineOptions options;
  options.warehouse = warehouse.string();
  options.threads = threads;
  return Engine::Open(std::move(options));
}

}  // namespace sqe::engine::testing
