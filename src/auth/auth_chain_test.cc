// The auth chain over real keys files: header parsing, api_key and anonymous providers,
// provider order, issued tokens, and messages that never carry a credential.
#include "auth/auth_chain.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "auth/api_key_authenticator.h"

namespace sqe::auth {
namespace {

std::string Base64(const std::string& in) {
  static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  uint32_t acc = 0;
  int bits = 0;
  for (unsigned char c : in) {
    acc = (acc << 8) | c;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out.push_back(k[(acc >> bits) & 63]);
    }
  }
  if (bits > 0) out.push_back(k[(acc << (6 - bits)) & 63]);
  while (out.size() % 4) out.push_back('=');
  return out;
}

class AuthChainTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("sqe-auth-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
    keys_ = (dir_ / "keys.toml").string();
    std::ofstream(keys_) << "[[keys]]\nkey = \"sqe_alpha0123456789\"\nuser = \"etl\"\n"
                            "roles = [\"writer\"]\n\n[[keys]]\nkey = \"sqe_beta0123456789\"\n"
                            "user = \"bi\"\nroles = [\"reader\", \"analyst\"]\n";
    std::filesystem::permissions(
        keys_, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  config::AuthConfig ApiKeyConfig() const {
    config::AuthConfig auth;
    config::AuthProviderConfig p;
    p.type = "api_key";
    p.keys_file = keys_;
    auth.providers.push_back(p);
    return auth;
  }

  std::filesystem::path dir_;
  std::string keys_;
};

TEST(Credentials, ParsesBearerBasicAndRejectsTheRest) {
  auto none = ParseAuthorizationHeader("");
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->kind, Credentials::Kind::kNone);
  auto bearer = ParseAuthorizationHeader("bearer   tok123 ");
  ASSERT_TRUE(bearer.ok());
  EXPECT_EQ(bearer->kind, Credentials::Kind::kBearer);
  EXPECT_EQ(bearer->secret.Expose(), "tok123");
  auto basic = ParseAuthorizationHeader("Basic " + Base64("alice:pa:ss"));
  ASSERT_TRUE(basic.ok()) << basic.status().ToString();
  EXPECT_EQ(basic->kind, Credentials::Kind::kBasic);
  EXPECT_EQ(basic->user, "alice");
  EXPECT_EQ(basic->secret.Expose(), "pa:ss");
  for (const char* bad : {"Bearer ", "Basic !!!!",
                          "Basic "
                          "bm9jb2xvbg==",
                          "Digest abc", "sqe_alpha0123456789"}) {
    auto r = ParseAuthorizationHeader(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), StatusCode::kUnauthenticated) << bad;
    EXPECT_EQ(r.status().message().find("alpha"), std::string::npos);
  }
}

TEST_F(AuthChainTest, ApiKeysAsBearerOrBasicPassword) {
  auto chain = MakeAuthChain(ApiKeyConfig());
  ASSERT_TRUE(chain.ok()) << chain.status().ToString();
  auto etl = (*chain)->AuthenticateHeader("Bearer sqe_alpha0123456789");
  ASSERT_TRUE(etl.ok()) << etl.status().ToString();
  EXPECT_EQ(etl->user, "etl");
  EXPECT_EQ(etl->roles, std::vector<std::string>{"writer"});
  EXPECT_EQ(etl->provider, "api_key");
  auto bi = (*chain)->AuthenticateHeader("Basic " + Base64("whoever:sqe_beta0123456789"));
  ASSERT_TRUE(bi.ok());
  EXPECT_EQ(bi->user, "bi");

  for (const std::string& header : {std::string(""), std::string("Bearer sqe_alpha0123456780"),
                                    std::string("Bearer other"), "Basic " + Base64("etl:wrong")}) {
    auto r = (*chain)->AuthenticateHeader(header);
    ASSERT_FALSE(r.ok()) << header;
    EXPECT_EQ(r.status().code(), StatusCode::kUnauthenticated) << header;
    EXPECT_EQ(r.status().message().find("sqe_alpha"), std::string::npos) << r.status().message();
    EXPECT_EQ(r.status().message().find("wrong"), std::string::npos) << r.status().message();
  }
  EXPECT_FALSE((*chain)->allows_anonymous());
}

TEST_F(AuthChainTest, OrderDecidesAndAnonymousTakesTheRest) {
  config::AuthConfig auth = ApiKeyConfig();
  config::AuthProviderConfig anon;
  anon.type = "anonymous";
  anon.user = "dev";
  anon.roles = {"admin"};
  auth.providers.push_back(anon);
  auto chain = MakeAuthChain(auth);
  ASSERT_TRUE(chain.ok());
  EXPECT_EQ((*chain)->AuthenticateHeader("Bearer sqe_alpha0123456789")->user, "etl");
  EXPECT_EQ((*chain)->AuthenticateHeader("")->user, "dev");
  EXPECT_EQ((*chain)->AuthenticateHeader("Bearer not-a-key")->user, "dev");
  // A key with the provider's prefix that is wrong is refused by api_key; anonymous then
  // still lets the caller in (the chain's first acceptance wins).
  EXPECT_EQ((*chain)->AuthenticateHeader("Bearer sqe_nope")->user, "dev");
  EXPECT_TRUE((*chain)->allows_anonymous());
}

TEST_F(AuthChainTest, UnimplementedProvidersFailClosed) {
  config::AuthConfig auth;
  config::AuthProviderConfig jwt;
  jwt.type = "bearer_token";
  jwt.jwks_url = "https://idp.invalid/certs";
  auth.providers.push_back(jwt);
  auto chain = MakeAuthChain(auth);
  ASSERT_TRUE(chain.ok());
  EXPECT_EQ((*chain)->not_implemented(), std::vector<std::string>{"bearer_token"});
  auto r = (*chain)->AuthenticateHeader("Bearer anything");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnauthenticated);
  EXPECT_NE(r.status().message().find("bearer_token"), std::string::npos) << r.status().message();
}

TEST_F(AuthChainTest, MissingKeysFileNamesTheProvider) {
  config::AuthConfig auth = ApiKeyConfig();
  auth.providers[0].keys_file = (dir_ / "absent.toml").string();
  auto chain = MakeAuthChain(auth);
  ASSERT_FALSE(chain.ok());
  EXPECT_NE(chain.status().ToString().find("auth.providers[0]"), std::string::npos)
      << chain.status().ToString();
}

TEST_F(AuthChainTest, IssuedTokensAuthenticateUntilTheyExpire) {
  auto chain = MakeAuthChain(ApiKeyConfig());
  ASSERT_TRUE(chain.ok());
  Identity who{"etl", {"writer"}, "api_key"};
  auto token = (*chain)->issued_tokens().Issue(who, std::chrono::seconds(3600));
  ASSERT_TRUE(token.ok());
  EXPECT_EQ(token->size(), 64u);
  auto again = (*chain)->issued_tokens().Issue(who, std::chrono::seconds(3600));
  EXPECT_NE(*token, *again);
  EXPECT_EQ(*(*chain)->AuthenticateHeader("Bearer " + *token), who);
  auto short_lived = (*chain)->issued_tokens().Issue(who, std::chrono::seconds(0));
  EXPECT_FALSE((*chain)->AuthenticateHeader("Bearer " + *short_lived).ok());
}

TEST(IssuedTokens, CapEvictsTheOldest) {
  IssuedTokens tokens(2);
  Identity a{"a", {}, "api_key"};
  auto t1 = tokens.Issue(a, std::chrono::seconds(10));
  auto t2 = tokens.Issue(a, std::chrono::seconds(20));
  auto t3 = tokens.Issue(a, std::chrono::seconds(30));
  EXPECT_EQ(tokens.size(), 2u);
  EXPECT_FALSE(tokens.Lookup(*t1).has_value());
  EXPECT_TRUE(tokens.Lookup(*t2).has_value());
  EXPECT_TRUE(tokens.Lookup(*t3).has_value());
}

}  // namespace
}  // namespace sqe::auth
