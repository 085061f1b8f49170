// Every docs/examples/*.toml loads without errors, and together they cover every provider
// type, both legacy auth forms and every catalog backend.

#include <set>

#include "config/config_testing.h"

namespace sqe::config {
namespace {

std::vector<std::filesystem::path> Examples() {
  std::vector<std::filesystem::path> out;
  std::filesystem::path dir = std::filesystem::path(testing::SourceDir()) / "docs" / "examples";
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.path().extension() == ".toml") out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(ConfigExamplesTest, EveryExampleLoadsWithoutErrors) {
  ASSERT_FALSE(testing::SourceDir().empty()) << "SQE_SOURCE_DIR is not set";
  std::vector<std::filesystem::path> examples = Examples();
  ASSERT_GE(examples.size(), 15u);
  std::set<std::string> provider_types;
  std::set<std::string> backend_types;
  bool legacy_keycloak = false;
  bool legacy_client_credentials = false;
  for (const std::filesystem::path& path : examples) {
    SCOPED_TRACE(path.filename().string());
    LoadOptions options;
    options.config_path = path.string();
    std::vector<Diagnostic> diagnostics;
    auto loaded = LoadConfig(options, &diagnostics);
    ASSERT_TRUE(loaded.ok()) << loaded.status().message();
    const Config& c = loaded->config;
    for (const AuthProviderConfig& p : c.auth.providers) provider_types.insert(p.type);
    backend_types.insert(c.catalog.backend.type);
    if (c.auth.providers.empty() && !c.auth.keycloak_url.empty()) legacy_keycloak = true;
    if (c.auth.providers.empty() && c.auth.keycloak_url.empty() && !c.auth.token_endpoint.empty()) {
      legacy_client_credentials = true;
    }
    for (const Diagnostic& d : diagnostics) {
      // The only warnings an example may cause are the deliberate ones.
      if (d.severity == Diagnostic::Severity::kWarning) {
        EXPECT_TRUE(d.message.find("anonymous") != std::string::npos) << d.message;
      }
    }
  }
  EXPECT_EQ(provider_types, (std::set<std::string>{"oidc_password", "bearer_token", "api_key",
                                                   "oidc_m2m", "aws_iam", "anonymous"}));
  EXPECT_EQ(backend_types, (std::set<std::string>{"rest", "embedded", "hms", "glue", "s3tables",
                                                  "jdbc", "hadoop"}));
  EXPECT_TRUE(legacy_keycloak);
  EXPECT_TRUE(legacy_client_credentials);
}

TEST(ConfigExamplesTest, ApiKeyExampleReadsItsKeysFileRelativeToTheExample) {
  std::filesystem::path dir = std::filesystem::path(testing::SourceDir()) / "docs" / "examples";
  LoadOptions options;
  options.config_path = (dir / "auth-api-key.toml").string();
  auto loaded = LoadConfig(options);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  const AuthProviderConfig& p = loaded->config.auth.providers.at(0);
  auto keys = LoadApiKeysFile(p.keys_file, p.key_prefix);
  ASSERT_TRUE(keys.ok()) << keys.status().message();
  EXPECT_EQ(keys->size(), 2u);
}

}  // namespace
}  // namespace sqe::config
