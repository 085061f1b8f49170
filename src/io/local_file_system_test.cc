#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>

#include "io/file_system.h"
#include "io/read_ranges.h"

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

// A file system made with IoStats counts one request per range it reads, so the requests
// a read pattern costs are known: 3 with coalescing off, 1 with it on.
TEST_F(LocalFileSystemTest, StatsCountTheReadsOfAPatternWithAndWithoutCoalescing) {
  std::string path = dir_.string() + "/f.bin";
  std::string data(10000, 'x');
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<char>(i * 7);
  Write(path, data);
  std::vector<ByteRange> ranges = {{0, 100}, {200, 100}, {400, 100}};
  for (int64_t hole : {int64_t{0}, int64_t{1} << 20}) {
    auto stats = std::make_shared<IoStats>();
    auto counted = MakeLocalFileSystem(stats);
    auto file = counted->OpenForRead(path);
    ASSERT_TRUE(file.ok());
    auto buffers = ReadRanges(**file, ranges, {.hole_threshold = hole});
    ASSERT_TRUE(buffers.ok()) << buffers.status().ToString();
    for (size_t i = 0; i < ranges.size(); ++i) {
      EXPECT_EQ((*buffers)[i]->view(), data.substr(ranges[i].offset, ranges[i].length));
    }
    IoStatsSnapshot s = stats->Snapshot();
    EXPECT_EQ(s.get_requests, hole == 0 ? 3 : 1) << "hole threshold " << hole;
    EXPECT_EQ(s.bytes_read, hole == 0 ? 300 : 500);
  }
  auto stats = std::make_shared<IoStats>();
  auto counted = MakeLocalFileSystem(stats);
  ASSERT_TRUE(counted->List(dir_.string()).ok());
  ASSERT_TRUE(counted->Delete({path}).ok());
  EXPECT_EQ(stats->Snapshot().list_requests, 1);
  EXPECT_EQ(stats->Snapshot().delete_requests, 1);
  EXPECT_EQ(stats->Snapshot().requests, 2);
}

TEST(IoStatsTest, SnapshotAddAndJson) {
  IoStats a;
  a.AddRequest(IoStats::Request::kGet);
  a.AddRequest(IoStats::Request::kPut);
  a.AddRetry();
  a.AddBytesRead(10);
  a.AddCacheHit();
  IoStats b;
  b.Add(a.Snapshot());
  b.Add(a.Snapshot());
  IoStatsSnapshot s = b.Snapshot();
  EXPECT_EQ(s.requests, 4);
  EXPECT_EQ(s.get_requests, 2);
  EXPECT_EQ(s.put_requests, 2);
  EXPECT_EQ(s.retries, 2);
  EXPECT_EQ(s.bytes_read, 20);
  EXPECT_EQ(s.cache_hits, 2);
  EXPECT_EQ(s.ToJson(),
            "{\"requests\":4,\"get_requests\":2,\"head_requests\":0,\"put_requests\":2,"
            "\"list_requests\":0,\"delete_requests\":0,\"retries\":2,\"bytes_read\":20,"
            "\"bytes_written\":0,\"cache_hits\":2}");
}

TEST_F(LocalFileSystemTest, RenameOfMissingFileNamesIt) {
  Status st = fs_->Rename(dir_.string() + "/nope", dir_.string() + "/other");
  EXPECT_EQ(st.code(), StatusCode::kIOError);
  EXPECT_NE(st.message().find("nope"), std::string::npos);
}

TEST_F(LocalFileSystemTest, LastModifiedIsTheFilesMtime) {
  const std::string path = (dir_ / "m.bin").string();
  Write(path, "x");
  const auto when = fs::file_time_type::clock::now() - std::chrono::hours(30);
  fs::last_write_time(path, when);
  auto micros = fs_->LastModifiedMicros("file://" + path);
  ASSERT_TRUE(micros.ok()) << micros.status().ToString();
  const auto expected = std::chrono::duration_cast<std::chrono::microseconds>(
      std::chrono::file_clock::to_sys(when).time_since_epoch());
  EXPECT_EQ(*micros, expected.count());
  auto missing = fs_->LastModifiedMicros((dir_ / "none").string());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace sqe::io
