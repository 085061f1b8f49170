#include "io/s3/s3_options.h"

#include <gtest/gtest.h>

namespace sqe::io::s3 {
namespace {

TEST(S3EndpointTest, ParsesAndDefaultsToAws) {
  auto aws = ParseS3Endpoint("", "eu-west-1", false);
  ASSERT_TRUE(aws.ok());
  EXPECT_EQ(aws->scheme, "https");
  EXPECT_EQ(aws->authority, "s3.eu-west-1.amazonaws.com");
  auto local = ParseS3Endpoint("HTTP://127.0.0.1:9000/", "us-east-1", true);
  ASSERT_TRUE(local.ok()) << local.status().ToString();
  EXPECT_EQ(local->scheme, "http");
  EXPECT_EQ(local->authority, "127.0.0.1:9000");
}

TEST(S3EndpointTest, RefusesPlainHttpUnlessAllowedWithTheFix) {
  auto refused = ParseS3Endpoint("http://minio:9000", "us-east-1", false);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(refused.status().message().find("storage.s3_allow_http = true"), std::string::npos);
  EXPECT_NE(refused.status().message().find("http://minio:9000"), std::string::npos);
}

TEST(S3EndpointTest, RejectsMalformedEndpoints) {
  for (const char* bad :
       {"minio:9000", "ftp://host", "https://", "https://host/path", "https://user@host"}) {
    auto r = ParseS3Endpoint(bad, "us-east-1", true);
    EXPECT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.status().message().find("storage.s3_endpoint"), std::string::npos) << bad;
  }
}

TEST(S3CredentialsTest, ConfigWinsThenEnvironment) {
  config::StorageConfig storage;
  std::map<std::string, std::string> env = {{"AWS_ACCESS_KEY_ID", "ENVKEY"},
                                            {"AWS_SECRET_ACCESS_KEY", "envsecret"},
                                            {"AWS_SESSION_TOKEN", "envtoken"}};
  auto from_env = ResolveCredentials(storage, env);
  ASSERT_TRUE(from_env.ok());
  EXPECT_EQ(from_env->access_key_id, "ENVKEY");
  EXPECT_EQ(from_env->secret_access_key.Expose(), "envsecret");
  EXPECT_EQ(from_env->session_token, "envtoken");

  storage.s3_access_key = SecretString("CFGKEY");
  storage.s3_secret_key = SecretString("cfgsecret");
  auto from_config = ResolveCredentials(storage, env);
  ASSERT_TRUE(from_config.ok());
  EXPECT_EQ(from_config->access_key_id, "CFGKEY");
  EXPECT_EQ(from_config->secret_access_key.Expose(), "cfgsecret");
  EXPECT_EQ(from_config->session_token, "");

  auto none = ResolveCredentials(config::StorageConfig{}, {});
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->access_key_id.empty());
}

TEST(S3CredentialsTest, HalfAPairIsAnErrorWithoutTheSecret) {
  config::StorageConfig storage;
  storage.s3_secret_key = SecretString("topsecretvalue");
  auto r = ResolveCredentials(storage, {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("storage.s3_access_key"), std::string::npos);
  EXPECT_EQ(r.status().message().find("topsecretvalue"), std::string::npos);
  auto env = ResolveCredentials({}, {{"AWS_ACCESS_KEY_ID", "K"}});
  ASSERT_FALSE(env.ok());
  EXPECT_NE(env.status().message().find("AWS_SECRET_ACCESS_KEY"), std::string::npos);
}

TEST(S3OptionsTest, FromConfigMapsTheStorageSection) {
  config::Config config;
  config.storage.s3_endpoint = "http://127.0.0.1:9000";
  config.storage.s3_allow_http = true;
  config.storage.s3_path_style = false;
  config.storage.concurrent_requests_per_file = 6;
  config.storage.max_concurrent_files = 3;
  config.catalog.small_file_threshold_mb = 2;
  auto options = S3OptionsFromConfig(config, {});
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_FALSE(options->path_style);
  EXPECT_EQ(options->concurrent_requests_per_file, 6);
  EXPECT_EQ(options->max_concurrent_files, 3);
  EXPECT_EQ(options->small_file_threshold, 2 << 20);
  EXPECT_TRUE(options->verify_tls);

  config.storage.s3_allow_http = false;
  EXPECT_EQ(S3OptionsFromConfig(config, {}).status().code(), StatusCode::kInvalidArgument);
}

TEST(S3OptionsTest, PartSizeBounds) {
  S3Options options;
  options.part_size = 1 << 20;
  auto s = ValidateS3Options(options);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("5 MiB"), std::string::npos);
  options.part_size = 5 << 20;
  EXPECT_TRUE(ValidateS3Options(options).ok());
}

}  // namespace
}  // namespace sqe::io::s3
