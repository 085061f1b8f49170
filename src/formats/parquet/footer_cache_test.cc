#include "formats/parquet/footer_cache.h"

#include <gtest/gtest.h>

#include <memory>

#include "columnar/fixed_width_builder.h"
#include "formats/parquet/file_reader.h"
#include "formats/parquet/file_writer.h"
#include "io/memory_file.h"

namespace sqe::parquet {
namespace {

std::shared_ptr<const FileMetaData> Meta(int64_t rows) {
  auto m = std::make_shared<FileMetaData>();
  m->num_rows = rows;
  return m;
}

TEST(FooterCacheTest, HitsByPathAndSizeAndEvictsLeastRecentlyUsed) {
  FooterCache cache(100);
  cache.Insert("a", 10, Meta(1), 40);
  cache.Insert("b", 10, Meta(2), 40);
  EXPECT_EQ(cache.Lookup("a", 10)->num_rows, 1);  // a is now the most recent
  EXPECT_EQ(cache.Lookup("a", 11), nullptr);      // other size: another file
  cache.Insert("c", 10, Meta(3), 40);             // evicts b
  EXPECT_EQ(cache.Lookup("b", 10), nullptr);
  EXPECT_EQ(cache.Lookup("c", 10)->num_rows, 3);
  EXPECT_EQ(cache.entries(), 2u);
  EXPECT_EQ(cache.bytes(), 80);
  EXPECT_EQ(cache.hits(), 2);
  EXPECT_EQ(cache.misses(), 2);
}

TEST(FooterCacheTest, OversizedAndDisabled) {
  FooterCache cache(50);
  cache.Insert("big", 1, Meta(1), 51);
  EXPECT_EQ(cache.entries(), 0u);
  FooterCache off(0);
  off.Insert("a", 1, Meta(1), 1);
  EXPECT_EQ(off.Lookup("a", 1), nullptr);
}

std::string SmallParquetFile() {
  using namespace columnar;
  auto schema = Schema::Make({Field("id", Int64(), false, 1)});
  Int64Builder b(Int64());
  for (int64_t i = 0; i < 100; ++i) EXPECT_TRUE(b.Append(i).ok());
  auto column = b.Finish();
  EXPECT_TRUE(column.ok());
  auto batch = Batch::Make(schema, {*column}, 100);
  EXPECT_TRUE(batch.ok());
  auto out = std::make_unique<io::MemoryOutputStream>();
  io::MemoryOutputStream* raw = out.get();
  auto writer = ParquetWriter::Open(std::move(out), schema);
  EXPECT_TRUE(writer.ok());
  EXPECT_TRUE((*writer)->Write(*batch).ok());
  EXPECT_TRUE((*writer)->Close().ok());
  return raw->data();
}

TEST(FooterCacheTest, ReaderSkipsTheFooterReadOnAHit) {
  const std::string bytes = SmallParquetFile();
  auto cache = std::make_shared<FooterCache>(1 << 20);
  ReaderOptions options;
  options.footer_cache = cache;

  auto first_file = std::make_shared<io::MemoryFile>(bytes, "memory://t/data.parquet");
  auto first = ParquetFileReader::Open(first_file, options);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(first_file->read_calls(), 1);  // the speculative tail read
  EXPECT_EQ(cache->entries(), 1u);

  auto second_file = std::make_shared<io::MemoryFile>(bytes, "memory://t/data.parquet");
  auto second = ParquetFileReader::Open(second_file, options);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second_file->read_calls(), 0);
  EXPECT_EQ(cache->hits(), 1);
  EXPECT_EQ((*second)->num_rows(), 100);
  auto batch = (*second)->ReadRowGroup(0);
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  EXPECT_EQ(batch->num_rows(), 100);
  EXPECT_EQ((*second)->stats().read_requests, 1);  // only the column chunk
}

}  // namespace
}  // namespace sqe::parquet
