#include "config/config_testing.h"

namespace sqe::config {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::ScratchDir;

TEST(ApiKeysFileTest, LoadsKeysUsersAndRoles) {
  ScratchDir dir;
  std::string path =
      dir.Write("keys.toml",
                "[[keys]]\nkey = \"sqe_abc123def456\"\nuser = \"service-account-etl\"\n"
                "roles = [\"writer\"]\n"
                "[[keys]]\nkey = \"sqe_second\"\nuser = \"reporting\"\n");
  auto keys = LoadApiKeysFile(path, "sqe_");
  ASSERT_TRUE(keys.ok()) << keys.status().ToString();
  ASSERT_EQ(keys->size(), 2u);
  EXPECT_EQ((*keys)[0].key.Expose(), "sqe_abc123def456");
  EXPECT_EQ((*keys)[0].user, "service-account-etl");
  EXPECT_EQ((*keys)[0].roles, std::vector<std::string>{"writer"});
  EXPECT_TRUE((*keys)[1].roles.empty());
}

TEST(ApiKeysFileTest, AnEmptyFileHasNoKeys) {
  ScratchDir dir;
  auto keys = LoadApiKeysFile(dir.Write("keys.toml", ""), "sqe_");
  ASSERT_TRUE(keys.ok());
  EXPECT_TRUE(keys->empty());
}

TEST(ApiKeysFileTest, ReportsEveryProblemWithoutPrintingKeys) {
  ScratchDir dir;
  std::string path = dir.Write("keys.toml",
                               "[[keys]]\nkey = \"sqe_dup_0001\"\nuser = \"a\"\n"
                               "[[keys]]\nkey = \"sqe_dup_0001\"\nuser = \"b\"\n"
                               "[[keys]]\nkey = \"wrong_prefix_0002\"\nuser = \"c\"\n"
                               "[[keys]]\nkey = \"sqe_nouser_0003\"\n"
                               "[[keys]]\nkey = \"sqe_ok_0004\"\nuser = \"d\"\nrole = [\"x\"]\n"
                               "[[keys]]\nkey = \"sqe_ok_0005\"\nuser = \"e\"\nroles = \"admin\"\n"
                               "[[keys]]\nuser = \"f\"\n"
                               "[[key]]\nkey = \"sqe_typo\"\n");
  auto keys = LoadApiKeysFile(path, "sqe_");
  ASSERT_FALSE(keys.ok());
  const std::string& msg = keys.status().message();
  EXPECT_THAT(
      msg, AllOf(HasSubstr("keys[1]: duplicate key (the same key as keys[0])"),
                 HasSubstr("keys[2]: the key does not start with the provider's key_prefix 'sqe_'"),
                 HasSubstr("keys[3]: 'user' must be a non-empty string"),
                 HasSubstr("keys[4]: unknown field 'role'; did you mean 'roles'?"),
                 HasSubstr("keys[5]: 'roles' must be an array of strings"),
                 HasSubstr("keys[6]: 'key' must be a non-empty string"),
                 HasSubstr("unknown key 'key'; did you mean 'keys'?")));
  EXPECT_THAT(msg, HasSubstr("has 7 problems"));
  for (const char* secret : {"sqe_dup_0001", "wrong_prefix_0002", "sqe_nouser_0003", "sqe_typo"}) {
    EXPECT_THAT(msg, Not(HasSubstr(secret)));
  }
}

TEST(ApiKeysFileTest, UnreadableAndInvalidFiles) {
  auto missing = LoadApiKeysFile("/no/such/keys.toml", "sqe_");
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.status().message(), HasSubstr("'/no/such/keys.toml'"));
  ScratchDir dir;
  std::string path = dir.Write("keys.toml", "[[keys]\nkey = 1\n");
  auto invalid = LoadApiKeysFile(path, "sqe_");
  ASSERT_FALSE(invalid.ok());
  EXPECT_THAT(invalid.status().message(),
              AllOf(HasSubstr(path + ":1:"), HasSubstr("invalid TOML")));
}

}  // namespace
}  // namespace sqe::config
