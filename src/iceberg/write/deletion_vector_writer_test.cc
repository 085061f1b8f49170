// Deletion vectors written and read back: the blob against our decoder for array and
// bitmap containers and 64-bit positions, and the Puffin file's footer and offsets.
#include "iceberg/write/deletion_vector_writer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "iceberg/read/deletion_vector.h"

namespace sqe::iceberg {
namespace {

TEST(DeletionVectorWriter, BlobsRoundTripThroughTheDecoder) {
  std::mt19937_64 rng(7);
  std::vector<std::vector<int64_t>> cases = {
      {0},
      {5, 3, 3, 65535, 65536, 70000},
      {(int64_t{1} << 32) + 1, 2, (int64_t{3} << 32)},
  };
  std::vector<int64_t> dense;  // > 4096 in one container: a bitmap container
  for (int64_t i = 0; i < 60000; i += 3) dense.push_back(i);
  cases.push_back(dense);
  std::vector<int64_t> random;
  for (int i = 0; i < 20000; ++i) random.push_back(static_cast<int64_t>(rng() % 5000000));
  cases.push_back(random);
  for (std::vector<int64_t> positions : cases) {
    auto blob = EncodeDeletionVector(positions);
    ASSERT_TRUE(blob.ok()) << blob.status().ToString();
    std::sort(positions.begin(), positions.end());
    positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
    auto decoded = DecodeDeletionVector(*blob, int64_t{1} << 40);
    ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
    EXPECT_EQ(*decoded, positions);
  }
  EXPECT_FALSE(EncodeDeletionVector({-1}).ok());
}

TEST(DeletionVectorWriter, PuffinFileDescribesEachVector) {
  auto dir =
      std::filesystem::temp_directory_path() / ("sqe_dv_writer_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto fs = io::MakeLocalFileSystem();
  const std::string path = (dir / "dv.puffin").string();
  DeletionVectorWriter writer(*fs, path);
  writer.Add("s3://b/t/data/a.parquet", {Literal::Int(3)}, {4, 1, 9});
  writer.Add("s3://b/t/data/b.parquet", {Literal::Int(4)}, {0});
  auto files = writer.Close();
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  ASSERT_EQ(files->size(), 2u);
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(bytes.substr(0, 4), "PFA1");
  EXPECT_EQ(bytes.substr(bytes.size() - 4), "PFA1");
  for (const DataFile& f : *files) {
    EXPECT_EQ(f.file_format, FileFormat::kPuffin);
    EXPECT_EQ(f.file_size_in_bytes, static_cast<int64_t>(bytes.size()));
    auto positions = DecodeDeletionVector(
        std::string_view(bytes).substr(*f.content_offset, *f.content_size_in_bytes), 100);
    ASSERT_TRUE(positions.ok()) << positions.status().ToString();
    EXPECT_EQ(static_cast<int64_t>(positions->size()), f.record_count);
  }
  EXPECT_EQ((*files)[0].referenced_data_file.value_or(""), "s3://b/t/data/a.parquet");
  EXPECT_EQ((*files)[0].record_count, 3);
  // The footer: payload size and flags before the closing magic, JSON blob metadata.
  const auto* tail = reinterpret_cast<const uint8_t*>(bytes.data() + bytes.size() - 12);
  const uint32_t payload_size = tail[0] | tail[1] << 8 | tail[2] << 16 | uint32_t{tail[3]} << 24;
  EXPECT_EQ(tail[4], 0);  // not compressed
  auto footer = nlohmann::json::parse(bytes.substr(bytes.size() - 12 - payload_size, payload_size));
  ASSERT_EQ(footer["blobs"].size(), 2u);
  EXPECT_EQ(footer["blobs"][0]["type"], "deletion-vector-v1");
  EXPECT_EQ(footer["blobs"][0]["snapshot-id"], -1);
  EXPECT_EQ(footer["blobs"][0]["properties"]["cardinality"], "3");
  EXPECT_EQ(footer["blobs"][1]["offset"], *(*files)[1].content_offset);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace sqe::iceberg
