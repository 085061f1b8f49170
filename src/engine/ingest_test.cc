// Session::Ingest (Flight SQL bulk ingestion) on an embedded warehouse: a table created
// from the batches' schema, appends matched by column name in one snapshot, replace, and
// the errors of each table option.

#include "columnar/test_columns.h"
#include "engine/warehouse_test_fixture.h"
#include "iceberg/table_metadata.h"

namespace sqe::engine {
namespace {

using IngestTest = WarehouseTest;
using columnar::testing::Int64s;
using columnar::testing::Strings;

columnar::SchemaPtr IdName() {
  return columnar::Schema::Make({columnar::Field("ID", columnar::Int64(), true),
                                 columnar::Field("name", columnar::String(), true)});
}

columnar::Batch MakeRows(std::vector<std::optional<int64_t>> ids,
                         std::vector<std::optional<std::string>> names) {
  int64_t n = static_cast<int64_t>(ids.size());
  return columnar::testing::ValueOrDie(
      columnar::Batch::Make(IdName(), {Int64s(ids), Strings(names)}, n));
}

IngestOptions Target(IngestOptions::IfMissing missing, IngestOptions::IfExists exists) {
  IngestOptions o;
  o.schema = "s";
  o.table = "Loaded";
  o.if_missing = missing;
  o.if_exists = exists;
  return o;
}

TEST_F(IngestTest, CreatesAppendsInOneSnapshotAndReplaces) {
  Run("CREATE SCHEMA s");
  using M = IngestOptions::IfMissing;
  using E = IngestOptions::IfExists;
  auto created = session_->Ingest(Target(M::kCreate, E::kFail), IdName(),
                                  {MakeRows({1, 2}, {"a", std::nullopt})});
  ASSERT_TRUE(created.ok()) << created.status().message();
  EXPECT_EQ(*created, 2);
  // Names fold to lower case, as CREATE TABLE's.
  EXPECT_EQ(Rows("SELECT id, name FROM s.loaded ORDER BY id"),
            (std::vector<std::string>{"1|\"a\"", "2|NULL"}));
  size_t snapshots = Metadata("s", "loaded")->snapshots.size();

  // The table exists now: FAIL refuses, APPEND adds every batch in one commit.
  EXPECT_EQ(session_->Ingest(Target(M::kCreate, E::kFail), IdName(), {MakeRows({9}, {"x"})})
                .status()
                .code(),
            StatusCode::kAlreadyExists);
  auto appended = session_->Ingest(Target(M::kFail, E::kAppend), IdName(),
                                   {MakeRows({3}, {"c"}), MakeRows({4, 5}, {"d", "e"})});
  ASSERT_TRUE(appended.ok()) << appended.status().message();
  EXPECT_EQ(*appended, 3);
  EXPECT_EQ(Metadata("s", "loaded")->snapshots.size(), snapshots + 1);
  EXPECT_EQ(Rows("SELECT count(*), sum(id) FROM s.loaded"), (std::vector<std::string>{"5|15"}));

  auto replaced =
      session_->Ingest(Target(M::kCreate, E::kReplace), IdName(), {MakeRows({7}, {"z"})});
  ASSERT_TRUE(replaced.ok()) << replaced.status().message();
  EXPECT_EQ(Rows("SELECT id, name FROM s.loaded"), (std::vector<std::string>{"7|\"z\""}));
  // The replace went through a staging table that is gone now.
  EXPECT_EQ(Rows("SELECT count(*) FROM information_schema.tables WHERE table_schema = 's'"),
            (std::vector<std::string>{"1"}));
}

TEST_F(IngestTest, AFailedReplaceKeepsTheTableItWouldHaveReplaced) {
  Run("CREATE SCHEMA s");
  Run("CREATE TABLE s.loaded AS SELECT 1 AS id, 'kept' AS name");
  // Two columns that fold to one name: the new table cannot be made.
  columnar::SchemaPtr clashing =
      columnar::Schema::Make({columnar::Field("ID", columnar::Int64(), true),
                              columnar::Field("id", columnar::Int64(), true)});
  columnar::Batch rows =
      columnar::testing::ValueOrDie(columnar::Batch::Make(clashing, {Int64s({7}), Int64s({8})}, 1));
  auto replaced =
      session_->Ingest(Target(IngestOptions::IfMissing::kCreate, IngestOptions::IfExists::kReplace),
                       clashing, {rows});
  EXPECT_FALSE(replaced.ok());
  EXPECT_EQ(Rows("SELECT id, name FROM s.loaded"), (std::vector<std::string>{"1|\"kept\""}));
  EXPECT_EQ(Rows("SELECT count(*) FROM information_schema.tables WHERE table_schema = 's'"),
            (std::vector<std::string>{"1"}));
}

TEST_F(IngestTest, MissingTablesSchemasAndMismatchedColumns) {
  Run("CREATE SCHEMA s");
  using M = IngestOptions::IfMissing;
  using E = IngestOptions::IfExists;
  EXPECT_EQ(session_->Ingest(Target(M::kFail, E::kAppend), IdName(), {MakeRows({1}, {"a"})})
                .status()
                .code(),
            StatusCode::kNotFound);
  IngestOptions elsewhere = Target(M::kCreate, E::kFail);
  elsewhere.schema = "nowhere";
  EXPECT_FALSE(session_->Ingest(elsewhere, IdName(), {MakeRows({1}, {"a"})}).ok());
  // Appending columns the table lacks fails, and nothing is written.
  Run("CREATE TABLE s.loaded (other bigint)");
  auto wrong = session_->Ingest(Target(M::kFail, E::kAppend), IdName(), {MakeRows({1}, {"a"})});
  EXPECT_FALSE(wrong.ok());
  EXPECT_EQ(Rows("SELECT count(*) FROM s.loaded"), (std::vector<std::string>{"0"}));
}

}  // namespace
}  // namespace sqe::engine
