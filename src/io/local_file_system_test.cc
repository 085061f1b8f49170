#include <gtest/gtest.h>

#include <filesystem>

#include "io/file_system.h"

namespace sqe::io {
namespace {

namespace fs = std::filesystem;

class LocalFileSystemTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("sqe_fs_test_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs_ = MakeLocalFileSystem();
  }
  void TearDown() override { fs::remove_all(dir_); }

  void Write(const std::string& path, const std::string& data) {
    auto out = fs_->OpenForWrite(path, true);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    ASSERT_TRUE((*out)->Write(data).ok());
    ASSERT_TRUE((*out)->Close().ok());
  }

  fs::path dir_;
  std::unique_ptr<FileSystem> fs_;
};

TEST_F(LocalFileSystemTest, WriteListReadRenameDelete) {
  std::string base = dir_.string();
  Write(base + "/t/data/a.parquet", "aaaa");
  Write(base + "/t/data/b.parquet", "bb");
  Write(base + "/t/metadata/v1.json", "{}");
  auto data = fs_->List("file://" + base + "/t/data/");
  ASSERT_TRUE(data.ok());
  EXPECT_EQ(*data, (std::vector<FileInfo>{{base + "/t/data/a.parquet", 4},
                                          {base + "/t/data/b.parquet", 2}}));
  auto partial = fs_->List(base + "/t/data/a");
  ASSERT_TRUE(partial.ok());
  EXPECT_EQ(partial->size(), 1u);
  EXPECT_EQ(fs_->List(base + "/t")->size(), 3u);
  EXPECT_TRUE(fs_->List(base + "/nothing/here")->empty());

  auto in = fs_->OpenForRead(base + "/t/data/a.parquet");
  ASSERT_TRUE(in.ok());
  EXPECT_EQ(*(*in)->Size(), 4);

  ASSERT_TRUE(fs_->Rename(base + "/t/data/b.parquet", base + "/t/data/c.parquet").ok());
  EXPECT_FALSE(fs::exists(base + "/t/data/b.parquet"));
  auto again = fs_->OpenForWrite(base + "/t/data/c.parquet", false);
  EXPECT_EQ(again.status().code(), StatusCode::kAlreadyExists);

  ASSERT_TRUE(fs_->Delete({base + "/t/data/a.parquet", base + "/t/data/c.parquet",
                           base + "/t/data/missing.parquet"})
                  .ok());
  EXPECT_TRUE(fs_->List(base + "/t/data/")->empty());
}

TEST_F(LocalFileSystemTest, RenameOfMissingFileNamesIt) {
  Status st = fs_->Rename(dir_.string() + "/nope", dir_.string() + "/other");
  EXPECT_EQ(st.code(), StatusCode::kIOError);
  EXPECT_NE(st.message().find("nope"), std::string::npos);
}

}  // namespace
}  // namespace sqe::io
