// Metadata files on disk: gzip metadata (write.metadata.compression-codec=gzip) written
// and read by the embedded catalog, and hostile gzip files that must fail as Corruption.
#include "catalog/metadata_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "catalog/catalog_factory.h"
#include "formats/parquet/compression.h"
#include "iceberg/new_table.h"
#include "io/s3/s3_options.h"

namespace sqe::catalog {
namespace {

namespace fs = std::filesystem;

class MetadataFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("sqe_metadata_file_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    file_systems_ = std::make_shared<io::s3::StorageFileSystems>(io::s3::S3Options{});
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Write(const std::string& name, const std::string& bytes) {
    std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  static std::string ReadAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  fs::path dir_;
  std::shared_ptr<io::s3::StorageFileSystems> file_systems_;
};

TEST_F(MetadataFileTest, GzipTablesWriteAndReadGzipMetadata) {
  auto catalog = MakeEmbeddedCatalog((dir_ / "wh").string(), "iceberg", 2, file_systems_);
  ASSERT_TRUE(catalog.ok()) << catalog.status().ToString();
  ASSERT_TRUE((*catalog)->CreateNamespace({"db"}, {}).ok());
  CreateTableRequest request;
  request.schema = *iceberg::ParseSchemaJson(
      R"({"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "id", "required": true, "type": "long"}]})");
  request.properties["write.metadata.compression-codec"] = "gzip";
  TableIdentifier id{{"db"}, "t"};
  auto created = (*catalog)->CreateTable(id, request);
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  EXPECT_TRUE(created->metadata_location.ends_with(".gz.metadata.json"))
      << created->metadata_location;
  std::string bytes = ReadAll(created->metadata_location);
  ASSERT_GE(bytes.size(), 2u);
  EXPECT_EQ(static_cast<uint8_t>(bytes[0]), 0x1f);
  EXPECT_EQ(static_cast<uint8_t>(bytes[1]), 0x8b);

  auto committed =
      (*catalog)->CommitTable(id, {}, {iceberg::TableUpdate::SetProperties({{"owner", "qa"}})});
  ASSERT_TRUE(committed.ok()) << committed.status().ToString();
  EXPECT_TRUE(committed->metadata_location.ends_with(".gz.metadata.json"));
  EXPECT_EQ(iceberg::MetadataFileVersion(committed->metadata_location), 1);
  auto loaded = (*catalog)->LoadTable(id);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_EQ(loaded->metadata->properties.at("owner"), "qa");
  EXPECT_EQ(loaded->metadata->metadata_log.size(), 1u);

  // Back to plain JSON when the property goes away.
  iceberg::TableUpdate remove;
  remove.action = iceberg::TableUpdate::Action::kRemoveProperties;
  remove.removals = {"write.metadata.compression-codec"};
  auto plain = (*catalog)->CommitTable(id, {}, {remove});
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  EXPECT_FALSE(IsGzipMetadataLocation(plain->metadata_location)) << plain->metadata_location;
  EXPECT_EQ(ReadAll(plain->metadata_location).front(), '{');
}

TEST_F(MetadataFileTest, HostileGzipIsCorruption) {
  const std::string json = R"({"format-version": 2})";
  std::string gz = *parquet::Compress(parquet::CompressionCodec::kGzip, json);
  // Truncated stream.
  auto truncated = ReadMetadataFile(*file_systems_, Write("a.gz.metadata.json", gz.substr(0, 20)));
  ASSERT_FALSE(truncated.ok());
  EXPECT_EQ(truncated.status().code(), StatusCode::kCorruption) << truncated.status().ToString();
  EXPECT_NE(truncated.status().message().find("a.gz.metadata.json"), std::string::npos);
  // A trailer claiming more than the bound (a bomb) fails before inflating.
  std::string bomb = gz;
  bomb[bomb.size() - 1] = '\x7f';
  auto big = ReadMetadataFile(*file_systems_, Write("b.gz.metadata.json", bomb), 1 << 20);
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.status().code(), StatusCode::kCorruption) << big.status().ToString();
  // A trailer that lies about the size.
  std::string lying = gz;
  lying[lying.size() - 4] = static_cast<char>(lying[lying.size() - 4] + 1);
  auto liar = ReadMetadataFile(*file_systems_, Write("c.gz.metadata.json", lying));
  ASSERT_FALSE(liar.ok());
  EXPECT_EQ(liar.status().code(), StatusCode::kCorruption) << liar.status().ToString();
  // Valid gzip of invalid metadata is the parser's error, naming the file.
  auto incomplete = ReadMetadataFile(*file_systems_, Write("d.gz.metadata.json", gz));
  ASSERT_FALSE(incomplete.ok());
  EXPECT_NE(incomplete.status().message().find("d.gz.metadata.json"), std::string::npos);
}

}  // namespace
}  // namespace sqe::catalog
