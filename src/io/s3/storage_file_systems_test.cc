#include "io/s3/storage_file_systems.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace sqe::io::s3 {
namespace {

TEST(StorageFileSystemsTest, LocalPathsWorkEvenWhenTheS3SettingsAreBad) {
  config::Config config;  // default endpoint http://s3:9000 without s3_allow_http
  StorageFileSystems file_systems(S3OptionsFromConfig(config, {}));
  auto dir = std::filesystem::temp_directory_path() / "sqe_storage_fs_test";
  std::filesystem::create_directories(dir);
  std::string path = (dir / "a.txt").string();
  auto stats = std::make_shared<IoStats>();
  auto local = file_systems.ForUri("file://" + path, stats);
  ASSERT_TRUE(local.ok()) << local.status().ToString();
  auto out = (*local)->OpenForWrite(path, true);
  ASSERT_TRUE(out.ok());
  ASSERT_TRUE((*out)->Write("hello").ok());
  ASSERT_TRUE((*out)->Close().ok());
  auto in = (*local)->OpenForRead(path);
  ASSERT_TRUE(in.ok());
  uint8_t buf[5];
  ASSERT_TRUE((*in)->ReadAt(0, 5, buf).ok());
  EXPECT_EQ(stats->Snapshot().get_requests, 1);

  // The S3 mistake surfaces, with its fix, at the first S3 access.
  auto s3 = file_systems.ForUri("s3://bucket/key");
  ASSERT_FALSE(s3.ok());
  EXPECT_NE(s3.status().message().find("s3_allow_http"), std::string::npos);
  EXPECT_FALSE(file_systems.ForUri("gs://bucket/key").ok());
  std::filesystem::remove_all(dir);
}

TEST(StorageFileSystemsTest, S3ClientIsSharedAndVendedCredentialsGetTheirOwn) {
  config::Config config;
  config.storage.s3_endpoint = "http://127.0.0.1:1";
  config.storage.s3_allow_http = true;
  StorageFileSystems file_systems(S3OptionsFromConfig(config, {}));
  auto a = file_systems.SharedS3Client();
  auto b = file_systems.SharedS3Client();
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->get(), b->get());
  net::AwsCredentials vended;
  vended.access_key_id = "VENDED";
  vended.secret_access_key = SecretString("vendedsecret");
  vended.session_token = "token";
  auto fs = file_systems.ForS3WithCredentials(vended);
  ASSERT_TRUE(fs.ok()) << fs.status().ToString();
  // Nothing listens on port 1: the request fails, naming the bucket, never the secret.
  auto listed = (*fs)->List("s3://bucket/prefix/");
  ASSERT_FALSE(listed.ok());
  EXPECT_NE(listed.status().message().find("s3://bucket/prefix/"), std::string::npos);
  EXPECT_EQ(listed.status().message().find("vendedsecret"), std::string::npos);
}

}  // namespace
}  // namespace sqe::io::s3
