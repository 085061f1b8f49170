#include "io/storage_uri.h"

#include <gtest/gtest.h>

namespace sqe::io {
namespace {

TEST(StorageUriTest, LocalForms) {
  EXPECT_EQ(ParseStorageUri("/data/a.parquet")->path, "/data/a.parquet");
  EXPECT_EQ(ParseStorageUri("relative/a")->path, "relative/a");
  auto f = ParseStorageUri("file:///data/a.parquet");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->kind, StorageUri::Kind::kLocal);
  EXPECT_EQ(f->path, "/data/a.parquet");
  // Hadoop's single-slash form, as Iceberg Java writes local locations.
  auto hadoop = ParseStorageUri("file:/data/wh/db/t/metadata/v1.metadata.json");
  ASSERT_TRUE(hadoop.ok());
  EXPECT_EQ(hadoop->kind, StorageUri::Kind::kLocal);
  EXPECT_EQ(hadoop->path, "/data/wh/db/t/metadata/v1.metadata.json");
}

TEST(StorageUriTest, S3Forms) {
  for (const char* scheme : {"s3", "s3a", "s3n"}) {
    auto u = ParseStorageUri(std::string(scheme) + "://bucket/warehouse/db/t/data/x.parquet");
    ASSERT_TRUE(u.ok()) << scheme;
    EXPECT_EQ(u->kind, StorageUri::Kind::kS3);
    EXPECT_EQ(u->bucket, "bucket");
    EXPECT_EQ(u->key, "warehouse/db/t/data/x.parquet");
  }
  auto root = ParseStorageUri("s3://bucket");
  ASSERT_TRUE(root.ok());
  EXPECT_EQ(root->key, "");
}

TEST(StorageUriTest, BadLocationsNameThemselves) {
  auto no_bucket = ParseStorageUri("s3:///key");
  EXPECT_EQ(no_bucket.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(no_bucket.status().message().find("s3:///key"), std::string::npos);
  auto scheme = ParseStorageUri("gs://bucket/key");
  EXPECT_EQ(scheme.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(scheme.status().message().find("gs"), std::string::npos);
  EXPECT_FALSE(ParseStorageUri("").ok());
  EXPECT_FALSE(ParseStorageUri("file://").ok());
}

}  // namespace
}  // namespace sqe::io
