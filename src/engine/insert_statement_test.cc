// INSERT and CREATE TABLE AS SELECT through Session::Execute on an embedded warehouse:
// rows read back, column lists and implicit casts, NOT NULL, partitioned writes, the
// snapshot each statement commits, concurrent inserts, and that failures leave no files.

#include <atomic>
#include <thread>

#include "engine/warehouse_test_fixture.h"
#include "iceberg/table_metadata.h"

namespace sqe::engine {
namespace {

using InsertTest = WarehouseTest;

TEST_F(InsertTest, InsertValuesAndReadBack) {
  Run("CREATE SCHEMA s");
  Run("CREATE TABLE s.t (id bigint, name varchar, amount decimal(10, 2), d date, ok boolean)");
  QueryResult r =
      Run("INSERT INTO s.t VALUES (1, 'one', 10.5, date '2024-01-01', true), "
          "(2, 'two', 20.25, date '2024-02-02', false), (3, NULL, NULL, NULL, NULL)");
  EXPECT_EQ(r.statement_type, "INSERT");
  EXPECT_EQ(r.update_count, 3);
  ASSERT_EQ(r.schema->num_fields(), 1);
  EXPECT_EQ(r.schema->field(0).name(), "rows");
  EXPECT_EQ(r.num_rows(), 1);
  EXPECT_EQ(Rows("SELECT * FROM s.t ORDER BY id"),
            (std::vector<std::string>{"1|\"one\"|\"10.50\"|\"2024-01-01\"|true",
                                      "2|\"two\"|\"20.25\"|\"2024-02-02\"|false",
                                      "3|NULL|NULL|NULL|NULL"}));
  auto m = Metadata("s", "t");
  ASSERT_NE(m->CurrentSnapshot(), nullptr);
  EXPECT_EQ(m->CurrentSnapshot()->Operation(), "append");
  EXPECT_EQ(m->CurrentSnapshot()->summary.at("added-records"), "3");
  // One snapshot per INSERT.
  // amount * 2 is decimal(20,2): Trino does not narrow it into decimal(10,2) implicitly.
  std::string narrowing =
      Error("INSERT INTO s.t SELECT id + 10, upper(name), amount * 2, d, ok FROM s.t");
  EXPECT_TRUE(Contains(narrowing, "Query: [bigint, varchar, decimal(20,2), date, boolean]"))
      << narrowing;
  Run("INSERT INTO s.t SELECT id + 10, upper(name), CAST(amount * 2 AS decimal(10, 2)), d, ok "
      "FROM s.t WHERE id < 3");
  EXPECT_EQ(Metadata("s", "t")->snapshots.size(), 2u);
  EXPECT_EQ(Rows("SELECT count(*), sum(amount) FROM s.t"), std::vector<std::string>{"5|\"92.25\""});
}

TEST_F(InsertTest, ColumnListCastsAndOmittedColumns) {
  Run("CREATE SCHEMA s");
  Run("CREATE TABLE s.t (a bigint, b varchar, c decimal(12, 3), d double, e integer)");
  // integer -> bigint, decimal(3,1) -> decimal(12,3), integer -> double; b and e are NULL.
  QueryResult r = Run("INSERT INTO s.t (d, c, a) VALUES (2, 1.5, 7)");
  EXPECT_EQ(r.update_count, 1);
  EXPECT_EQ(Rows("SELECT a, b, c, d = 2, e FROM s.t"),
            std::vector<std::string>{"7|NULL|\"1.500\"|true|NULL"});
  Run("INSERT INTO s.t (B, a) VALUES ('x', 8)");  // column names are case-insensitive
  EXPECT_EQ(Rows("SELECT a, b FROM s.t ORDER BY a"),
            (std::vector<std::string>{"7|NULL", "8|\"x\""}));
  // A NULL-only column takes the table's type.
  Run("INSERT INTO s.t VALUES (9, NULL, NULL, NULL, NULL)");
  Run("INSERT INTO s.t (a, e) SELECT 10, NULL");
  EXPECT_EQ(Rows("SELECT count(*) FROM s.t WHERE e IS NULL"), std::vector<std::string>{"4"});

  std::string missing = Error("INSERT INTO s.t (a, zz) VALUES (1, 2)");
  EXPECT_TRUE(Contains(missing, "Insert column name does not exist: zz")) << missing;
  std::string twice = Error("INSERT INTO s.t (a, A) VALUES (1, 2)");
  EXPECT_TRUE(Contains(twice, "specified more than once")) << twice;
}

TEST_F(InsertTest, MismatchedTypesNameTheColumns) {
  Run("CREATE SCHEMA s");
  Run("CREATE TABLE s.t (a bigint, b varchar)");
  std::string e = Error("INSERT INTO s.t VALUES ('x', 'y')");
  EXPECT_TRUE(Contains(e,
                       "Insert query has mismatched column types: Table: [bigint, varchar], "
                       "Query: [varchar, varchar]"))
      << e;
  std::string count = Error("INSERT INTO s.t VALUES (1)");
  EXPECT_TRUE(Contains(count, "Table: [bigint, varchar], Query: [integer]")) << count;
  std::string narrowing = Error("INSERT INTO s.t (a) VALUES (1.5e0)");
  EXPECT_TRUE(Contains(narrowing, "Table: [bigint], Query: [double]")) << narrowing;
  std::string no_table = Error("INSERT INTO s.nope VALUES (1)");
  EXPECT_TRUE(Contains(no_table, "Table 'iceberg.s.nope' does not exist")) << no_table;
  EXPECT_EQ(CountFiles("/data/"), 0);
}

TEST_F(InsertTest, NullIntoNotNullColumn) {
  Run("CREATE SCHEMA s");
  Run("CREATE TABLE s.t (id bigint NOT NULL, v varchar)");
  std::string literal = Error("INSERT INTO s.t VALUES (NULL, 'x')");
  EXPECT_TRUE(Contains(literal, "NULL value not allowed for NOT NULL column: id")) << literal;
  std::string omitted = Error("INSERT INTO s.t (v) VALUES ('x')");
  EXPECT_TRUE(Contains(omitted, "NULL value not allowed for NOT NULL column: id")) << omitted;
  // Nulls that only show up while running fail too, and leave no data file behind.
  Run("CREATE TABLE s.src (id bigint, v varchar)");
  Run("INSERT INTO s.src VALUES (1, 'a'), (NULL, 'b')");
  int files_before = CountFiles(".parquet");
  std::string runtime = Error("INSERT INTO s.t SELECT id, v FROM s.src");
  EXPECT_TRUE(Contains(runtime, "NULL value not allowed for NOT NULL column: id")) << runtime;
  EXPECT_EQ(CountFiles(".parquet"), files_before);
  EXPECT_EQ(Metadata("s", "t")->CurrentSnapshot(), nullptr);
  Run("INSERT INTO s.t SELECT id, v FROM s.src WHERE id IS NOT NULL");
  EXPECT_EQ(Rows("SELECT id, v FROM s.t"), std::vector<std::string>{"1|\"a\""});
}

TEST_F(InsertTest, FailedInsertLeavesNoFiles) {
  Run("CREATE SCHEMA s");
  Run("CREATE TABLE s.t (a integer)");
  Run("CREATE TABLE s.src (v varchar)");
  Run("INSERT INTO s.src VALUES ('1'), ('2'), ('x')");
  int files_before = CountFiles(".parquet");
  std::string e = Error("INSERT INTO s.t SELECT CAST(v AS integer) FROM s.src");
  EXPECT_TRUE(Contains(e, "x")) << e;
  EXPECT_EQ(CountFiles(".parquet"), files_before);
  EXPECT_EQ(Metadata("s", "t")->CurrentSnapshot(), nullptr);
}

TEST_F(InsertTest, PartitionedInsertWritesPartitionDirectories) {
  Run("CREATE SCHEMA s");
  Run("CREATE TABLE s.ev (id bigint, ts timestamp(6), region varchar) "
      "WITH (partitioning = ARRAY['day(ts)', 'region'])");
  QueryResult r =
      Run("INSERT INTO s.ev VALUES (1, timestamp '2024-01-01 10:00:00', 'eu'), "
          "(2, timestamp '2024-01-01 11:00:00', 'us'), (3, timestamp '2024-01-02 00:00:00', 'eu'), "
          "(4, timestamp '2024-01-01 12:00:00', 'eu')");
  EXPECT_EQ(r.update_count, 4);
  EXPECT_EQ(CountFiles("/ev/data/ts_day=2024-01-01/region=eu/"), 1);
  EXPECT_EQ(CountFiles("/ev/data/ts_day=2024-01-01/region=us/"), 1);
  EXPECT_EQ(CountFiles("/ev/data/ts_day=2024-01-02/region=eu/"), 1);
  auto m = Metadata("s", "ev");
  EXPECT_EQ(m->CurrentSnapshot()->summary.at("added-data-files"), "3");
  EXPECT_EQ(Rows("SELECT id FROM s.ev WHERE region = 'eu' ORDER BY id"),
            (std::vector<std::string>{"1", "3", "4"}));
  EXPECT_EQ(Rows("SELECT count(*) FROM s.ev WHERE ts >= timestamp '2024-01-02 00:00:00'"),
            std::vector<std::string>{"1"});
}

TEST_F(InsertTest, TablePropertiesReachTheWriter) {
  Run("CREATE SCHEMA s");
  Run("CREATE TABLE s.t (id bigint, pad varchar) WITH (\"write.target-file-size-bytes\" = 1, "
      "\"write.parquet.compression-codec\" = 'uncompressed')");
  Run("INSERT INTO s.t SELECT x, 'abcdefghij' FROM (VALUES 1, 2, 3) AS v(x)");
  // A target size of one byte rolls a file per write check: at least one file, all rows there.
  EXPECT_GE(CountFiles("/t/data/"), 1);
  EXPECT_EQ(Rows("SELECT count(*) FROM s.t"), std::vector<std::string>{"3"});
}

TEST_F(InsertTest, CreateTableAsSelect) {
  Run("CREATE SCHEMA s");
  Run("CREATE TABLE s.src (id integer, name varchar, amount decimal(10, 2))");
  Run("INSERT INTO s.src VALUES (1, 'a', 1.25), (2, 'b', 2.5), (3, NULL, NULL)");
  QueryResult r = Run("CREATE TABLE s.copy AS SELECT id, name, amount * 2 AS twice FROM s.src");
  EXPECT_EQ(r.statement_type, "CREATE TABLE");
  EXPECT_EQ(r.update_count, 3);
  EXPECT_EQ(Rows("SELECT * FROM s.copy ORDER BY id"),
            (std::vector<std::string>{"1|\"a\"|\"2.50\"", "2|\"b\"|\"5.00\"", "3|NULL|NULL"}));
  auto m = Metadata("s", "copy");
  EXPECT_EQ(m->CurrentSchema()->FindFieldByName("id")->type->ToString(), "int");
  EXPECT_EQ(m->CurrentSchema()->FindFieldByName("twice")->type->ToString(), "decimal(20,2)");

  // Column aliases, properties and WITH NO DATA.
  r =
      Run("CREATE TABLE s.empty (x, y) WITH (partitioning = ARRAY['x']) AS "
          "SELECT id, name FROM s.src WITH NO DATA");
  EXPECT_EQ(r.update_count, 0);
  m = Metadata("s", "empty");
  EXPECT_EQ(m->CurrentSchema()->fields()[0].name, "x");
  EXPECT_EQ(m->DefaultSpec()->fields().size(), 1u);
  EXPECT_EQ(m->CurrentSnapshot(), nullptr);
  EXPECT_EQ(Rows("SELECT count(*) FROM s.empty"), std::vector<std::string>{"0"});

  // Partitioned CTAS writes through the spec.
  Run("CREATE TABLE s.parts WITH (partitioning = ARRAY['bucket(id, 4)']) AS SELECT * FROM s.src");
  EXPECT_EQ(Rows("SELECT count(*) FROM s.parts"), std::vector<std::string>{"3"});
  EXPECT_GE(CountFiles("/parts/data/id_bucket="), 1);

  std::string exists = Error("CREATE TABLE s.copy AS SELECT 1 AS z");
  EXPECT_TRUE(Contains(exists, "Table 'iceberg.s.copy' already exists")) << exists;
  EXPECT_EQ(Run("CREATE TABLE IF NOT EXISTS s.copy AS SELECT 1 AS z").update_count, 0);
  std::string unknown = Error("CREATE TABLE s.n AS SELECT 1 AS a, NULL AS b");
  EXPECT_TRUE(Contains(unknown, "Column type is unknown: b")) << unknown;
  std::string unnamed = Error("CREATE TABLE s.n AS SELECT 1 + 1");
  EXPECT_TRUE(Contains(unnamed, "Column name not specified at position 1")) << unnamed;
  std::string aliases = Error("CREATE TABLE s.n (a, b) AS SELECT 1 AS x");
  EXPECT_TRUE(Contains(aliases, "Column alias list has 2 entries")) << aliases;
  EXPECT_FALSE(Catalog()->LoadTable({{"s"}, "n"}).ok());
}

TEST_F(InsertTest, FailedCtasDropsTheTable) {
  Run("CREATE SCHEMA s");
  Run("CREATE TABLE s.src (v varchar)");
  Run("INSERT INTO s.src VALUES ('1'), ('x')");
  int files_before = CountFiles(".parquet");
  std::string e = Error("CREATE TABLE s.bad AS SELECT CAST(v AS integer) AS n FROM s.src");
  EXPECT_FALSE(Catalog()->LoadTable({{"s"}, "bad"}).ok());
  EXPECT_EQ(CountFiles("/bad/"), 0);
  EXPECT_EQ(CountFiles(".parquet"), files_before);
}

TEST_F(InsertTest, ConcurrentInsertsAllLand) {
  Run("CREATE SCHEMA s");
  Run("CREATE TABLE s.t (writer integer, n integer)");
  constexpr int kWriters = 4;
  constexpr int kInserts = 5;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int w = 0; w < kWriters; ++w) {
    threads.emplace_back([&, w]() {
      std::unique_ptr<Session> session = engine_->NewSession("writer" + std::to_string(w));
      for (int i = 0; i < kInserts; ++i) {
        auto r = session->Execute("INSERT INTO s.t VALUES (" + std::to_string(w) + ", " +
                                  std::to_string(i) + ")");
        if (!r.ok()) {
          ADD_FAILURE() << r.status().message();
          failures.fetch_add(1);
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(Rows("SELECT count(*), count(DISTINCT writer * 100 + n) FROM s.t"),
            std::vector<std::string>{std::to_string(kWriters * kInserts) + "|" +
                                     std::to_string(kWriters * kInserts)});
  EXPECT_EQ(Metadata("s", "t")->snapshots.size(), static_cast<size_t>(kWriters * kInserts));
}

TEST_F(InsertTest, ParallelWritersCommitOneSnapshot) {
  Run("CREATE SCHEMA s");
  Run("CREATE TABLE s.src (id bigint, region varchar)");
  for (int i = 0; i < 6; ++i) {
    Run("INSERT INTO s.src SELECT x + " + std::to_string(i * 1000) +
        ", CASE WHEN x % 2 = 0 THEN 'eu' ELSE 'us' END FROM (VALUES 1, 2, 3, 4, 5) AS v(x)");
  }
  Run("CREATE TABLE s.dst (id bigint, region varchar) WITH (partitioning = ARRAY['region'])");
  Run("SET SESSION threads = 2");
  QueryResult r = Run("INSERT INTO s.dst SELECT * FROM s.src");
  EXPECT_EQ(r.update_count, 30);
  auto m = Metadata("s", "dst");
  EXPECT_EQ(m->snapshots.size(), 1u);
  EXPECT_EQ(m->CurrentSnapshot()->summary.at("added-records"), "30");
  EXPECT_EQ(Rows("SELECT region, count(*) FROM s.dst GROUP BY region ORDER BY region"),
            (std::vector<std::string>{"\"eu\"|12", "\"us\"|18"}));
  EXPECT_EQ(Rows("SELECT count(DISTINCT id) FROM s.dst"), std::vector<std::string>{"30"});
}

TEST_F(InsertTest, UseSchemaAndUnqualifiedNames) {
  Run("CREATE SCHEMA s");
  Run("USE s");
  Run("CREATE TABLE t (a integer)");
  Run("INSERT INTO t VALUES (1)");
  Run("CREATE TABLE \"Mixed Case\" AS SELECT a AS \"Col\" FROM t");
  EXPECT_EQ(Rows("SELECT \"col\" FROM \"mixed case\""), std::vector<std::string>{"1"});
  EXPECT_EQ(Rows("SELECT count(*) FROM iceberg.s.t"), std::vector<std::string>{"1"});
}

}  // namespace
}  // namespace sqe::engine
