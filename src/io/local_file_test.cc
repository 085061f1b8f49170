#include "io/local_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <vector>

#include "io/memory_file.h"

namespace sqe::io {
namespace {

namespace fs = std::filesystem;

class LocalFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("sqe_io_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(LocalFileTest, WriteThenReadBack) {
  std::string path = (dir_ / "a" / "b.bin").string();
  auto out = CreateLocalFile("file://" + path);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ASSERT_TRUE((*out)->Write("hello ").ok());
  ASSERT_TRUE((*out)->Write("world").ok());
  EXPECT_EQ((*out)->Tell(), 11);
  EXPECT_FALSE(fs::exists(path)) << "visible before Close";
  ASSERT_TRUE((*out)->Close().ok());
  EXPECT_FALSE((*out)->Write("x").ok());

  auto in = OpenLocalFile(path);
  ASSERT_TRUE(in.ok());
  EXPECT_EQ(*(*in)->Size(), 11);
  auto buf = (*in)->ReadBuffer(6, 5);
  ASSERT_TRUE(buf.ok());
  EXPECT_EQ((*buf)->view(), "world");
  Status past = (*in)->ReadAt(8, 10, nullptr);
  EXPECT_EQ(past.code(), StatusCode::kIOError);
  EXPECT_NE(past.message().find(path), std::string::npos);
}

TEST_F(LocalFileTest, AbortAndDestructionLeaveNothing) {
  std::string path = (dir_ / "x.bin").string();
  {
    auto out = CreateLocalFile(path);
    ASSERT_TRUE(out.ok());
    ASSERT_TRUE((*out)->Write("partial").ok());
  }
  EXPECT_FALSE(fs::exists(path));
  EXPECT_TRUE(fs::is_empty(dir_)) << "temporary file left behind";
}

TEST_F(LocalFileTest, CreateWithoutOverwriteRefusesExistingFile) {
  std::string path = (dir_ / "y.bin").string();
  fs::create_directories(dir_);
  std::ofstream(path) << "old";
  auto out = CreateLocalFile(path, /*overwrite=*/false);
  EXPECT_EQ(out.status().code(), StatusCode::kAlreadyExists);
  auto replace = CreateLocalFile(path, /*overwrite=*/true);
  ASSERT_TRUE(replace.ok());
  ASSERT_TRUE((*replace)->Write("new").ok());
  ASSERT_TRUE((*replace)->Close().ok());
  std::ifstream f(path);
  std::string content;
  f >> content;
  EXPECT_EQ(content, "new");
}

TEST_F(LocalFileTest, MissingFileIsNotFound) {
  auto in = OpenLocalFile((dir_ / "nope").string());
  EXPECT_EQ(in.status().code(), StatusCode::kNotFound);
}

TEST(MemoryFileTest, CountsReadsAndRejectsOutOfRange) {
  MemoryFile file("0123456789");
  uint8_t out[4];
  ASSERT_TRUE(file.ReadAt(2, 4, out).ok());
  EXPECT_EQ(std::string(reinterpret_cast<char*>(out), 4), "2345");
  EXPECT_EQ(file.read_calls(), 1);
  EXPECT_EQ(file.bytes_read(), 4);
  EXPECT_FALSE(file.ReadAt(8, 4, out).ok());
  EXPECT_FALSE(file.ReadAt(-1, 1, out).ok());
}

}  // namespace
}  // namespace sqe::io
