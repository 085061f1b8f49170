#pragma once
/// Test-only: runs a pyarrow script from the test-peer venv (tests/peers/.venv, or
/// $SQE_PYARROW_PYTHON) that writes one Parquet file to sys.argv[1], and returns the file.
/// Tests skip when no Python with pyarrow is found; nothing is installed.

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include <unistd.h>

namespace sqe::parquet::testing {

inline std::string PyarrowPython() {
  const char* p = std::getenv("SQE_PYARROW_PYTHON");
  if (p != nullptr && *p != '\0') return p;
  const char* src = std::getenv("SQE_SOURCE_DIR");
  std::filesystem::path peers =
      std::filesystem::path(src ? src : SQE_DEFAULT_SOURCE_DIR) / "tests/peers/.venv/bin/python";
  if (std::filesystem::exists(peers)) return peers.string();
  return "python3";
}

inline bool HavePyarrow() {
  std::string cmd = PyarrowPython() + " -c 'import pyarrow.parquet' >/dev/null 2>&1";
  return std::system(cmd.c_str()) == 0;
}

/// The bytes of the file `script` wrote, or nullopt when the script failed.
inline std::optional<std::string> WriteWithPyarrow(const std::string& script,
                                                   const std::string& tag) {
  static int counter = 0;
  auto dir =
      std::filesystem::temp_directory_path() /
      ("sqe_pruning_" + tag + "_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "write.py") << script;
  std::string cmd =
      PyarrowPython() + " " + (dir / "write.py").string() + " " + (dir / "t.parquet").string();
  int rc = std::system(cmd.c_str());
  std::optional<std::string> out;
  if (rc == 0) {
    std::ifstream in(dir / "t.parquet", std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    out = ss.str();
  }
  std::filesystem::remove_all(dir);
  return out;
}

}  // namespace sqe::parquet::testing
