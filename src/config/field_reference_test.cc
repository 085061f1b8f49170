// docs/configuration.md embeds FieldReferenceMarkdown() verbatim. When a field changes,
// regenerate the table with:
//   SQE_UPDATE_DOCS=1 ./build/asan/src/config/sqe_config_test --gtest_filter='FieldReference*'

#include <fstream>
#include <sstream>

#include "config/config_testing.h"
#include "config/schema_internal.h"

namespace sqe::config {
namespace {

using ::testing::HasSubstr;

constexpr std::string_view kBegin = "<!-- BEGIN GENERATED FIELD REFERENCE";
constexpr std::string_view kEnd = "<!-- END GENERATED FIELD REFERENCE -->\n";

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

TEST(FieldReferenceTest, DocsContainTheGeneratedReference) {
  ASSERT_FALSE(testing::SourceDir().empty()) << "SQE_SOURCE_DIR is not set";
  std::filesystem::path doc =
      std::filesystem::path(testing::SourceDir()) / "docs" / "configuration.md";
  std::string text = ReadFile(doc);
  ASSERT_FALSE(text.empty()) << doc << " is missing";
  std::string generated = FieldReferenceMarkdown();
  if (text.find(generated) != std::string::npos) return;

  const char* update = std::getenv("SQE_UPDATE_DOCS");
  size_t begin = text.find(kBegin);
  size_t end = text.find(kEnd);
  if (update != nullptr && std::string(update) == "1" && begin != std::string::npos &&
      end != std::string::npos) {
    text.replace(begin, end + kEnd.size() - begin, generated);
    std::ofstream(doc, std::ios::binary) << text;
    GTEST_SKIP() << "regenerated the field reference in " << doc;
  }
  FAIL() << doc << " does not contain the output of FieldReferenceMarkdown(); regenerate it "
         << "with SQE_UPDATE_DOCS=1 ./build/asan/src/config/sqe_config_test "
            "--gtest_filter='FieldReference*'";
}

TEST(FieldReferenceTest, ListsEveryFieldWithItsEnvName) {
  std::string generated = FieldReferenceMarkdown();
  for (const SchemaNode* field : AllFieldNodes()) {
    EXPECT_THAT(generated, HasSubstr("| `" + field->SchemaPath() + "` |"));
    EXPECT_THAT(generated, HasSubstr("`" + field->EnvName() + "`"));
  }
  EXPECT_THAT(generated, HasSubstr("| `auth.client_secret_file` | path |"));
  EXPECT_THAT(generated, HasSubstr("`SQE_MAINTENANCE__PRINCIPAL__CLIENT_SECRET_FILE`"));
  EXPECT_THAT(generated, HasSubstr("| `query.role_overrides.<role>` | integer | (none) | "
                                   "`SQE_QUERY__ROLE_OVERRIDES__<ROLE>` |"));
  EXPECT_THAT(generated, HasSubstr("| `storage.coalesce_threshold` | size | `\"1MB\"` |"));
  EXPECT_THAT(generated, HasSubstr("`8181` in local mode, else `0`"));
}

}  // namespace
}  // namespace sqe::config
