// Schema / spec / property evolution committed through a real catalog with
// CommitTableChange: racing writers both land (the loser replays on fresh metadata), and
// a change that breaks a rule commits nothing.
#include <gtest/gtest.h>

#include <filesystem>
#include <thread>

#include "catalog/catalog_factory.h"
#include "catalog/catalog_table_operations.h"
#include "iceberg/schema_update.h"
#include "iceberg/write/metadata_commit.h"
#include "io/s3/s3_options.h"

namespace sqe::catalog {
namespace {

namespace fs = std::filesystem;

TEST(TableEvolution, RacingSchemaChangesBothLandAndBadOnesCommitNothing) {
  fs::path dir = fs::temp_directory_path() / ("sqe_evolution_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  auto file_systems = std::make_shared<io::s3::StorageFileSystems>(io::s3::S3Options{});
  auto made = MakeEmbeddedCatalog((dir / "wh").string(), "iceberg", 2, file_systems);
  ASSERT_TRUE(made.ok()) << made.status().ToString();
  std::unique_ptr<Catalog> catalog = std::move(*made);
  ASSERT_TRUE(catalog->CreateNamespace({"db"}, {}).ok());
  CreateTableRequest request;
  request.schema = *iceberg::ParseSchemaJson(
      R"({"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "id", "required": true, "type": "long"}]})");
  TableIdentifier id{{"db"}, "t"};
  ASSERT_TRUE(catalog->CreateTable(id, request).ok());

  constexpr int kWriters = 4;
  std::vector<Status> results(kWriters);
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; ++w) {
    threads.emplace_back([&, w] {
      auto own = MakeEmbeddedCatalog((dir / "wh").string(), "iceberg", 2, file_systems);
      if (!own.ok()) {
        results[w] = own.status();
        return;
      }
      CatalogTableOperations ops(**own, id, io::MakeLocalFileSystem());
      iceberg::SchemaUpdate update;
      update.AddColumn("", "c" + std::to_string(w),
                       iceberg::Type::Primitive(iceberg::TypeId::kInt));
      results[w] = iceberg::CommitTableChange(ops, [&](const iceberg::TableMetadata& base) {
                     return update.Apply(base);
                   }).status();
    });
  }
  for (auto& t : threads) t.join();
  for (const Status& s : results) ASSERT_TRUE(s.ok()) << s.ToString();
  auto loaded = catalog->LoadTable(id);
  ASSERT_TRUE(loaded.ok());
  const iceberg::Schema& schema = *loaded->metadata->CurrentSchema();
  ASSERT_EQ(schema.fields().size(), 1u + kWriters);
  std::set<int32_t> ids;
  for (const auto& f : schema.fields()) ids.insert(f.id);
  EXPECT_EQ(ids.size(), 1u + kWriters);
  EXPECT_EQ(loaded->metadata->last_column_id, 1 + kWriters);

  CatalogTableOperations ops(*catalog, id, io::MakeLocalFileSystem());
  const std::string before = loaded->metadata_location;
  auto bad = iceberg::CommitTableChange(ops, [](const iceberg::TableMetadata& base) {
    return iceberg::SchemaUpdate().DeleteColumn("nope").Apply(base);
  });
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(catalog->LoadTable(id)->metadata_location, before);

  auto props = iceberg::CommitTableChange(ops, iceberg::PropertiesChange({{"owner", "qa"}}, {}));
  ASSERT_TRUE(props.ok()) << props.status().ToString();
  EXPECT_EQ(props->properties.at("owner"), "qa");
  // Setting what is already set commits nothing.
  const std::string after_props = catalog->LoadTable(id)->metadata_location;
  ASSERT_TRUE(
      iceberg::CommitTableChange(ops, iceberg::PropertiesChange({{"owner", "qa"}}, {})).ok());
  EXPECT_EQ(catalog->LoadTable(id)->metadata_location, after_props);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace sqe::catalog
