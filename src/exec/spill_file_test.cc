#include "exec/spill_file.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "columnar/test_columns.h"
#include "exec/breaker_testing.h"

namespace sqe::exec {
namespace {

namespace fs = std::filesystem;
using columnar::Batch;
using columnar::Column;
using namespace columnar::testing;  // NOLINT
using namespace exec::testing;      // NOLINT

/// A fresh empty directory under the test's temp dir, removed at the end.
class SpillFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = (fs::temp_directory_path() /
             ("sqe-spill-file-test-" + std::to_string(::getpid()) + "-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name()))
                .string();
    fs::remove_all(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  static int64_t Entries(const std::string& dir) {
    std::error_code error;
    int64_t n = 0;
    for (auto it = fs::directory_iterator(dir, error); !error && it != fs::directory_iterator();
         ++it) {
      ++n;
    }
    return n;
  }

  std::string root_;
};

std::vector<Batch> SampleBatches(columnar::SchemaPtr* schema) {
  std::vector<std::optional<int64_t>> ints;
  std::vector<std::optional<std::string>> strings;
  std::vector<std::optional<double>> doubles;
  for (int i = 0; i < 5000; ++i) {
    ints.push_back(i % 7 == 0 ? std::nullopt : std::optional<int64_t>(i * 31));
    strings.push_back(i % 11 == 0 ? std::nullopt
                                  : std::optional<std::string>("value " + std::to_string(i)));
    doubles.push_back(i * 0.5);
  }
  return MakeBatches({Int64s(ints), Strings(strings), Float64s(doubles)}, 1024, schema);
}

TEST_F(SpillFileTest, RoundTripsBatchesInOrder) {
  SQE_ASSIGN_OR_FAIL(auto dir, SpillDirectory::Create(root_));
  columnar::SchemaPtr schema;
  std::vector<Batch> batches = SampleBatches(&schema);
  const std::string path = dir->NewFilePath("sort-run");
  EXPECT_EQ(fs::path(path).parent_path().string(), dir->path());
  EXPECT_NE(path, dir->NewFilePath("sort-run"));
  SQE_ASSIGN_OR_FAIL(auto writer, SpillWriter::Open(path, schema, &dir->bytes_spilled()));
  for (const Batch& b : batches) SQE_ASSERT_OK(writer->Append(b));
  SQE_ASSERT_OK(writer->Append(batches[0].Slice(0, 0)));  // empty: skipped
  SQE_ASSERT_OK(writer->Finish());
  EXPECT_EQ(writer->rows_written(), 5000);
  EXPECT_EQ(writer->bytes_written(), static_cast<int64_t>(fs::file_size(path)));
  EXPECT_EQ(dir->bytes_spilled().load(), writer->bytes_written());
  EXPECT_FALSE(writer->Append(batches[0]).ok());

  auto tracker = MemoryTracker::Create(MemoryScope::kOperator, "reader");
  SQE_ASSIGN_OR_FAIL(auto reader, SpillReader::Open(path, tracker));
  ASSERT_TRUE(reader->schema()->Equals(*schema));
  std::vector<Batch> read;
  while (true) {
    SQE_ASSIGN_OR_FAIL(std::optional<Batch> b, reader->Next());
    if (!b) break;
    EXPECT_GT(tracker->current(), 0);  // decoded buffers are charged
    read.push_back(std::move(*b));
  }
  EXPECT_EQ(read.size(), batches.size());
  EXPECT_EQ(Rows(read), Rows(batches));
  SQE_ASSIGN_OR_FAIL(std::optional<Batch> again, reader->Next());
  EXPECT_FALSE(again.has_value());
}

TEST_F(SpillFileTest, EmptyFileHasSchemaAndNoBatches) {
  SQE_ASSIGN_OR_FAIL(auto dir, SpillDirectory::Create(root_));
  columnar::SchemaPtr schema;
  SampleBatches(&schema);
  const std::string path = dir->NewFilePath("empty");
  SQE_ASSIGN_OR_FAIL(auto writer, SpillWriter::Open(path, schema));
  SQE_ASSERT_OK(writer->Finish());
  SQE_ASSIGN_OR_FAIL(auto reader, SpillReader::Open(path));
  EXPECT_EQ(reader->schema()->num_fields(), 3);
  SQE_ASSIGN_OR_FAIL(std::optional<Batch> b, reader->Next());
  EXPECT_FALSE(b.has_value());
}

TEST_F(SpillFileTest, TruncatedFileIsCorruption) {
  SQE_ASSIGN_OR_FAIL(auto dir, SpillDirectory::Create(root_));
  columnar::SchemaPtr schema;
  std::vector<Batch> batches = SampleBatches(&schema);
  const std::string path = dir->NewFilePath("t");
  SQE_ASSIGN_OR_FAIL(auto writer, SpillWriter::Open(path, schema));
  for (const Batch& b : batches) SQE_ASSERT_OK(writer->Append(b));
  SQE_ASSERT_OK(writer->Finish());
  fs::resize_file(path, fs::file_size(path) - 100);
  SQE_ASSIGN_OR_FAIL(auto reader, SpillReader::Open(path));
  Status status;
  while (status.ok()) {
    auto next = reader->Next();
    if (!next.ok()) {
      status = next.status();
      break;
    }
    ASSERT_TRUE(next->has_value()) << "a truncated file must not end cleanly";
  }
  EXPECT_EQ(status.code(), StatusCode::kCorruption) << status.ToString();
  EXPECT_NE(status.message().find("truncated"), std::string::npos) << status.ToString();
  EXPECT_FALSE(SpillReader::Open(root_ + "/missing.spill").ok());
}

TEST_F(SpillFileTest, DirectoryIsRemovedWithEverythingInIt) {
  std::string path;
  {
    SQE_ASSIGN_OR_FAIL(auto dir, SpillDirectory::Create(root_));
    path = dir->path();
    EXPECT_TRUE(fs::is_directory(path));
    EXPECT_EQ(fs::path(path).parent_path().string(), root_);
    // An unfinished writer's partial file goes too.
    columnar::SchemaPtr schema;
    std::vector<Batch> batches = SampleBatches(&schema);
    SQE_ASSIGN_OR_FAIL(auto writer, SpillWriter::Open(dir->NewFilePath("partial"), schema));
    SQE_ASSERT_OK(writer->Append(batches[0]));
    EXPECT_EQ(Entries(path), 1);
  }
  EXPECT_FALSE(fs::exists(path));
  EXPECT_EQ(Entries(root_), 0);
}

TEST_F(SpillFileTest, DirectoriesAreDistinctAcrossThreads) {
  std::vector<std::unique_ptr<SpillDirectory>> dirs(8);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < dirs.size(); ++i) {
    threads.emplace_back([&, i] { dirs[i] = ValueOrDie(SpillDirectory::Create(root_)); });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(Entries(root_), 8);
  dirs.clear();
  EXPECT_EQ(Entries(root_), 0);
}

TEST_F(SpillFileTest, RemoveStaleKeepsLiveProcessesDirectories) {
  SQE_ASSIGN_OR_FAIL(auto mine, SpillDirectory::Create(root_));
  // A process that ran and exited: its pid is free now.
  pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ASSERT_GT(child, 0);
  int status = 0;
  ::waitpid(child, &status, 0);
  const std::string dead = root_ + "/sqe-" + std::to_string(child) + "-00000000000000aa-0";
  // An earlier process that had our pid (a restarted container): other token.
  const std::string reused = root_ + "/sqe-" + std::to_string(::getpid()) + "-00000000000000bb-3";
  const std::string foreign = root_ + "/not-ours";
  for (const std::string& d : {dead, reused, foreign}) {
    fs::create_directories(d);
    std::ofstream(d + "/x.spill") << "left over";
  }
  SpillDirectory::RemoveStale(root_);
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_FALSE(fs::exists(reused));
  EXPECT_TRUE(fs::exists(foreign));
  EXPECT_TRUE(fs::exists(mine->path()));
  SpillDirectory::RemoveStale(root_ + "/does-not-exist");  // no error, nothing to do
}

TEST_F(SpillFileTest, UncreatableRootIsIoError) {
  std::ofstream(root_ + "-file") << "a file, not a directory";
  auto dir = SpillDirectory::Create(root_ + "-file/sub");
  fs::remove(root_ + "-file");
  ASSERT_FALSE(dir.ok());
  EXPECT_EQ(dir.status().code(), StatusCode::kIOError);
  EXPECT_NE(dir.status().message().find("worker.spill_dir"), std::string::npos);
}

}  // namespace
}  // namespace sqe::exec
