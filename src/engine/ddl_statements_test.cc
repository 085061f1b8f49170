// CREATE/DROP SCHEMA, CREATE/DROP TABLE and ALTER TABLE through Session::Execute on an
// embedded warehouse: what the catalog stores (schema, spec, sort order, properties),
// IF [NOT] EXISTS, and the messages of every error.

#include "engine/warehouse_test_fixture.h"
#include "iceberg/table_metadata.h"

namespace sqe::engine {
namespace {

using DdlTest = WarehouseTest;

std::string TypeOf(const iceberg::TableMetadata& m, const std::string& column) {
  const iceberg::NestedField* f = m.CurrentSchema()->FindFieldByName(column);
  return f == nullptr ? "<missing>" : f->type->ToString();
}

std::vector<std::string> SpecText(const iceberg::PartitionSpec& spec,
                                  const iceberg::Schema& schema) {
  std::vector<std::string> out;
  for (const iceberg::PartitionField& f : spec.fields()) {
    out.push_back(f.name + "=" + f.transform.ToString() + "(" +
                  schema.FindNameById(f.source_id).value_or("?") + ")");
  }
  return out;
}

TEST_F(DdlTest, CreateAndDropSchema) {
  QueryResult created = Run("CREATE SCHEMA s1");
  EXPECT_EQ(created.statement_type, "CREATE SCHEMA");
  EXPECT_EQ(created.update_count, -1);
  Run("CREATE SCHEMA IF NOT EXISTS s1");
  std::string again = Error("CREATE SCHEMA s1");
  EXPECT_TRUE(Contains(again, "Schema 'iceberg.s1' already exists")) << again;
  EXPECT_TRUE(Contains(again, "line 1:1")) << again;
  EXPECT_EQ(ErrorCode("CREATE SCHEMA S1"), StatusCode::kAlreadyExists);  // names fold
  EXPECT_EQ(Rows("SHOW SCHEMAS LIKE 's1'"), std::vector<std::string>{"\"s1\""});
  EXPECT_EQ(Run("DROP SCHEMA s1").statement_type, "DROP SCHEMA");
  std::string missing = Error("DROP SCHEMA s1");
  EXPECT_TRUE(Contains(missing, "Schema 'iceberg.s1' does not exist")) << missing;
  Run("DROP SCHEMA IF EXISTS s1");
  Run("CREATE SCHEMA iceberg.s2");
  EXPECT_TRUE(Catalog()->NamespaceExists({"s2"}).value());
  std::string bad = Error("CREATE SCHEMA s3 WITH (owner = 'x')");
  EXPECT_TRUE(Contains(bad, "schema property 'owner' does not exist")) << bad;
}

TEST_F(DdlTest, SchemaLocationPlacesItsTables) {
  std::string location = (dir_ / "elsewhere" / "sales").string();
  Run("CREATE SCHEMA sales WITH (location = '" + location + "')");
  Run("CREATE TABLE sales.orders (id bigint)");
  auto m = Metadata("sales", "orders");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->location, location + "/orders");
}

TEST_F(DdlTest, DropNonEmptySchemaNeedsCascade) {
  Run("CREATE SCHEMA s");
  Run("CREATE TABLE s.a (x integer)");
  Run("CREATE TABLE s.b (x integer)");
  std::string e = Error("DROP SCHEMA s");
  EXPECT_TRUE(Contains(e, "Cannot drop non-empty schema 's'")) << e;
  EXPECT_TRUE(Contains(e, "CASCADE")) << e;
  EXPECT_TRUE(Catalog()->LoadTable({{"s"}, "a"}).ok());
  EXPECT_TRUE(Contains(Error("DROP SCHEMA s RESTRICT"), "Cannot drop non-empty schema"));
}

TEST_F(DdlTest, DropSchemaCascadeDropsTables) {
  Run("CREATE SCHEMA s");
  Run("CREATE TABLE s.a (x integer)");
  Run("CREATE TABLE s.b (x integer)");
  Run("DROP SCHEMA s CASCADE");
  EXPECT_FALSE(Catalog()->NamespaceExists({"s"}).value());
  EXPECT_EQ(CountFiles("metadata.json"), 0);
}

TEST_F(DdlTest, CreateTableMapsTypes) {
  Run("CREATE SCHEMA s");
  QueryResult r =
      Run("CREATE TABLE s.t (b boolean, ti tinyint, si smallint, i integer NOT NULL COMMENT 'key', "
          "l bigint, r real, d double, dec decimal(12, 3), v varchar(10), vb varbinary, dt date, "
          "tm time(6), ts timestamp(6), tz timestamp(6) with time zone, u uuid, "
          "a array(integer), m map(varchar, double), "
          "rw row(x bigint, y array(varchar))) COMMENT 'all the types'");
  EXPECT_EQ(r.statement_type, "CREATE TABLE");
  auto m = Metadata("s", "t");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(TypeOf(*m, "b"), "boolean");
  EXPECT_EQ(TypeOf(*m, "ti"), "int");
  EXPECT_EQ(TypeOf(*m, "si"), "int");
  EXPECT_EQ(TypeOf(*m, "i"), "int");
  EXPECT_EQ(TypeOf(*m, "l"), "long");
  EXPECT_EQ(TypeOf(*m, "r"), "float");
  EXPECT_EQ(TypeOf(*m, "d"), "double");
  EXPECT_EQ(TypeOf(*m, "dec"), "decimal(12,3)");
  EXPECT_EQ(TypeOf(*m, "v"), "string");
  EXPECT_EQ(TypeOf(*m, "vb"), "binary");
  EXPECT_EQ(TypeOf(*m, "dt"), "date");
  EXPECT_EQ(TypeOf(*m, "tm"), "time");
  EXPECT_EQ(TypeOf(*m, "ts"), "timestamp");
  EXPECT_EQ(TypeOf(*m, "tz"), "timestamptz");
  EXPECT_EQ(TypeOf(*m, "u"), "uuid");
  const iceberg::Schema& schema = *m->CurrentSchema();
  // Top-level columns take ids 1..N, nested fields the ids after them.
  ASSERT_EQ(schema.fields().size(), 18u);
  for (size_t i = 0; i < schema.fields().size(); ++i) {
    EXPECT_EQ(schema.fields()[i].id, static_cast<int32_t>(i + 1)) << schema.fields()[i].name;
  }
  const iceberg::NestedField* a = schema.FindFieldByName("a");
  EXPECT_EQ(a->type->id(), iceberg::TypeId::kList);
  EXPECT_EQ(a->type->element().id, 19);
  EXPECT_EQ(schema.FindFieldByName("m")->type->id(), iceberg::TypeId::kMap);
  EXPECT_EQ(schema.FindFieldByName("rw")->type->id(), iceberg::TypeId::kStruct);
  ASSERT_NE(schema.FindFieldByName("rw.y"), nullptr);
  EXPECT_EQ(schema.HighestFieldId(), m->last_column_id);
  const iceberg::NestedField* i = schema.FindFieldByName("i");
  EXPECT_TRUE(i->required);
  EXPECT_EQ(i->doc.value_or(""), "key");
  EXPECT_FALSE(schema.FindFieldByName("l")->required);
  EXPECT_EQ(m->properties.at("comment"), "all the types");
  EXPECT_EQ(m->format_version, 2);
  EXPECT_TRUE(m->DefaultSpec()->fields().empty());
}

TEST_F(DdlTest, NanosecondTimestampsNeedFormatVersion3) {
  Run("CREATE SCHEMA s");
  std::string e = Error("CREATE TABLE s.t (ts timestamp(9))");
  EXPECT_TRUE(Contains(e, "format_version = 3")) << e;
  Run("CREATE TABLE s.t (ts timestamp(9), tz timestamp(9) with time zone) "
      "WITH (format_version = 3)");
  auto m = Metadata("s", "t");
  EXPECT_EQ(m->format_version, 3);
  EXPECT_EQ(TypeOf(*m, "ts"), "timestamp_ns");
  EXPECT_EQ(TypeOf(*m, "tz"), "timestamptz_ns");
}

TEST_F(DdlTest, PartitioningProperty) {
  Run("CREATE SCHEMA s");
  Run("CREATE TABLE s.events (id bigint, ts timestamp(6), d date, s varchar, region varchar, "
      "t2 timestamp(6) with time zone) WITH (partitioning = ARRAY['day(ts)', 'bucket(id, 16)', "
      "'truncate(s, 4)', 'region', 'year(d)', 'hour(t2)'])");
  auto m = Metadata("s", "events");
  ASSERT_NE(m, nullptr);
  const iceberg::PartitionSpec& spec = *m->DefaultSpec();
  EXPECT_EQ(SpecText(spec, *m->CurrentSchema()),
            (std::vector<std::string>{"ts_day=day(ts)", "id_bucket=bucket[16](id)",
                                      "s_trunc=truncate[4](s)", "region=identity(region)",
                                      "d_year=year(d)", "t2_hour=hour(t2)"}));
  EXPECT_EQ(spec.fields()[0].field_id, 1000);
  EXPECT_EQ(spec.fields()[5].field_id, 1005);
  EXPECT_EQ(m->last_partition_id, 1005);
  // month and quoted, case-preserving column names
  Run("CREATE TABLE s.m (\"When\" date) WITH (partitioning = ARRAY['month(\"when\")'])");
  auto mm = Metadata("s", "m");
  EXPECT_EQ(SpecText(*mm->DefaultSpec(), *mm->CurrentSchema()),
            (std::vector<std::string>{"when_month=month(when)"}));
}

TEST_F(DdlTest, SparkPartitionedBy) {
  Run("CREATE SCHEMA s");
  Run("CREATE TABLE s.t (id bigint, ts timestamp(6), s varchar, region varchar) "
      "PARTITIONED BY (days(ts), bucket(16, id), truncate(4, s), region)");
  auto m = Metadata("s", "t");
  EXPECT_EQ(SpecText(*m->DefaultSpec(), *m->CurrentSchema()),
            (std::vector<std::string>{"ts_day=day(ts)", "id_bucket=bucket[16](id)",
                                      "s_trunc=truncate[4](s)", "region=identity(region)"}));
  std::string both =
      Error("CREATE TABLE s.u (id bigint) PARTITIONED BY (id) WITH (partitioning = ARRAY['id'])");
  EXPECT_TRUE(Contains(both, "not both")) << both;
}

TEST_F(DdlTest, PartitioningErrors) {
  Run("CREATE SCHEMA s");
  std::string missing = Error("CREATE TABLE s.t (id bigint) WITH (partitioning = ARRAY['day(x)'])");
  EXPECT_TRUE(Contains(missing, "Partitioning column 'x'")) << missing;
  EXPECT_TRUE(Contains(missing, "columns: id")) << missing;
  std::string type = Error("CREATE TABLE s.t (id bigint) WITH (partitioning = ARRAY['day(id)'])");
  EXPECT_TRUE(Contains(type, "does not apply to column 'id' of type long")) << type;
  std::string form =
      Error("CREATE TABLE s.t (id bigint) WITH (partitioning = ARRAY['bucket(id)'])");
  EXPECT_TRUE(Contains(form, "Invalid partition field declaration: 'bucket(id)'")) << form;
  std::string value = Error("CREATE TABLE s.t (id bigint) WITH (partitioning = 'id')");
  EXPECT_TRUE(Contains(value, "must be an array of strings")) << value;
  EXPECT_FALSE(Catalog()->LoadTable({{"s"}, "t"}).ok());
}

TEST_F(DdlTest, TablePropertiesSortOrderAndLocation) {
  Run("CREATE SCHEMA s");
  std::string location = (dir_ / "custom_place").string();
  Run("CREATE TABLE s.t (a integer, b varchar, c double) WITH (format_version = 1, "
      "sorted_by = ARRAY['a', 'b DESC', 'c ASC NULLS LAST'], location = '" +
      location +
      "', \"write.parquet.compression-codec\" = 'snappy', "
      "\"write.target-file-size-bytes\" = 1048576, format = 'PARQUET')");
  auto m = Metadata("s", "t");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->format_version, 1);
  EXPECT_EQ(m->location, location);
  EXPECT_EQ(m->properties.at("write.parquet.compression-codec"), "snappy");
  EXPECT_EQ(m->properties.at("write.target-file-size-bytes"), "1048576");
  const iceberg::SortOrder* order = nullptr;
  for (const iceberg::SortOrder& o : m->sort_orders) {
    if (o.order_id() == m->default_sort_order_id) order = &o;
  }
  ASSERT_NE(order, nullptr);
  ASSERT_EQ(order->fields().size(), 3u);
  EXPECT_EQ(order->fields()[0].direction, iceberg::SortDirection::kAsc);
  EXPECT_EQ(order->fields()[0].null_order, iceberg::NullOrder::kNullsFirst);
  EXPECT_EQ(order->fields()[1].direction, iceberg::SortDirection::kDesc);
  EXPECT_EQ(order->fields()[1].null_order, iceberg::NullOrder::kNullsLast);
  EXPECT_EQ(order->fields()[2].null_order, iceberg::NullOrder::kNullsLast);
  EXPECT_EQ(order->fields()[2].source_id, 3);
}

TEST_F(DdlTest, PropertyErrorsAndTypoHints) {
  Run("CREATE SCHEMA s");
  std::string typo = Error("CREATE TABLE s.t (a integer) WITH (partitionning = ARRAY['a'])");
  EXPECT_TRUE(Contains(typo, "table property 'partitionning' does not exist")) << typo;
  EXPECT_TRUE(Contains(typo, "did you mean 'partitioning'")) << typo;
  std::string version = Error("CREATE TABLE s.t (a integer) WITH (format_version = 7)");
  EXPECT_TRUE(Contains(version, "must be 1, 2 or 3")) << version;
  std::string format = Error("CREATE TABLE s.t (a integer) WITH (format = 'ORC')");
  EXPECT_TRUE(Contains(format, "PARQUET")) << format;
  std::string sorted = Error("CREATE TABLE s.t (a integer) WITH (sorted_by = ARRAY['zz'])");
  EXPECT_TRUE(Contains(sorted, "Column 'zz' of sorted_by")) << sorted;
  // An unknown name that is no typo is stored as a raw Iceberg property.
  Run("CREATE TABLE s.t (a integer) WITH (my_custom_flag = true)");
  EXPECT_EQ(Metadata("s", "t")->properties.at("my_custom_flag"), "true");
}

TEST_F(DdlTest, CreateTableErrorsAndIfNotExists) {
  std::string no_schema = Error("CREATE TABLE nope.t (a integer)");
  EXPECT_TRUE(Contains(no_schema, "Schema 'iceberg.nope' does not exist")) << no_schema;
  Run("CREATE SCHEMA s");
  Run("CREATE TABLE s.t (a integer)");
  std::string exists = Error("CREATE TABLE s.t (b integer)");
  EXPECT_TRUE(Contains(exists, "Table 'iceberg.s.t' already exists")) << exists;
  EXPECT_EQ(ErrorCode("CREATE TABLE s.T (b integer)"), StatusCode::kAlreadyExists);
  Run("CREATE TABLE IF NOT EXISTS s.t (b integer)");
  EXPECT_EQ(Metadata("s", "t")->CurrentSchema()->fields()[0].name, "a");
  std::string dup = Error("CREATE TABLE s.u (a integer, A bigint)");
  EXPECT_TRUE(Contains(dup, "Column name 'a' specified more than once")) << dup;
  std::string type = Error("CREATE TABLE s.u (a nosuchtype)");
  EXPECT_TRUE(Contains(type, "nosuchtype")) << type;
  std::string unqualified = Error("CREATE TABLE u (a integer)");
  EXPECT_TRUE(Contains(unqualified, "Schema must be specified")) << unqualified;
  Run("USE s");
  Run("CREATE TABLE u (a integer)");
  EXPECT_TRUE(Catalog()->LoadTable({{"s"}, "u"}).ok());
  Run("CREATE TABLE v (LIKE u, extra varchar)");
  auto v = Metadata("s", "v");
  ASSERT_EQ(v->CurrentSchema()->fields().size(), 2u);
  EXPECT_EQ(v->CurrentSchema()->fields()[1].name, "extra");
}

TEST_F(DdlTest, DropTablePurgesFiles) {
  Run("CREATE SCHEMA s");
  Run("CREATE TABLE s.t (a integer)");
  Run("INSERT INTO s.t VALUES (1), (2)");
  EXPECT_GT(CountFiles("/s/t/data/"), 0);
  EXPECT_EQ(Run("DROP TABLE s.t").statement_type, "DROP TABLE");
  EXPECT_EQ(CountFiles("/s/t/"), 0);
  std::string missing = Error("DROP TABLE s.t");
  EXPECT_TRUE(Contains(missing, "Table 'iceberg.s.t' does not exist")) << missing;
  EXPECT_EQ(ErrorCode("DROP TABLE s.t"), StatusCode::kNotFound);
  Run("DROP TABLE IF EXISTS s.t");
  // The name is free again.
  Run("CREATE TABLE s.t (b varchar)");
  EXPECT_EQ(Rows("SELECT count(*) FROM s.t"), std::vector<std::string>{"0"});
}

TEST_F(DdlTest, AlterTableRename) {
  Run("CREATE SCHEMA s");
  Run("CREATE SCHEMA other");
  Run("CREATE TABLE s.t (a integer)");
  Run("INSERT INTO s.t VALUES (7)");
  EXPECT_EQ(Run("ALTER TABLE s.t RENAME TO u").statement_type, "RENAME TABLE");
  EXPECT_FALSE(Catalog()->LoadTable({{"s"}, "t"}).ok());
  EXPECT_EQ(Rows("SELECT a FROM s.u"), std::vector<std::string>{"7"});
  Run("CREATE TABLE s.t (a integer)");
  std::string taken = Error("ALTER TABLE s.t RENAME TO s.u");
  EXPECT_TRUE(Contains(taken, "Target table 'iceberg.s.u' already exists")) << taken;
  Run("ALTER TABLE s.u RENAME TO other.moved");
  EXPECT_EQ(Rows("SELECT a FROM other.moved"), std::vector<std::string>{"7"});
  std::string missing = Error("ALTER TABLE s.nope RENAME TO x");
  EXPECT_TRUE(Contains(missing, "Table 'iceberg.s.nope' does not exist")) << missing;
  Run("ALTER TABLE IF EXISTS s.nope RENAME TO x");
}

TEST_F(DdlTest, AlterTableColumns) {
  Run("CREATE SCHEMA s");
  Run("CREATE TABLE s.t (a integer, b varchar, c real, d decimal(10, 2))");
  Run("INSERT INTO s.t VALUES (1, 'x', 1.5, 2.25)");

  EXPECT_EQ(Run("ALTER TABLE s.t ADD COLUMN e bigint COMMENT 'new'").statement_type, "ADD COLUMN");
  std::string exists = Error("ALTER TABLE s.t ADD COLUMN e bigint");
  EXPECT_TRUE(Contains(exists, "Column 'e' already exists")) << exists;
  Run("ALTER TABLE s.t ADD COLUMN IF NOT EXISTS e bigint");
  std::string required = Error("ALTER TABLE s.t ADD COLUMN f bigint NOT NULL");
  EXPECT_TRUE(Contains(required, "NOT NULL")) << required;
  EXPECT_EQ(Rows("SELECT a, e FROM s.t"), std::vector<std::string>{"1|NULL"});
  auto m = Metadata("s", "t");
  EXPECT_EQ(m->CurrentSchema()->FindFieldByName("e")->id, 5);
  EXPECT_EQ(m->CurrentSchema()->FindFieldByName("e")->doc.value_or(""), "new");

  EXPECT_EQ(Run("ALTER TABLE s.t RENAME COLUMN b TO bee").statement_type, "RENAME COLUMN");
  EXPECT_EQ(Rows("SELECT bee FROM s.t"), std::vector<std::string>{"\"x\""});
  std::string rename_missing = Error("ALTER TABLE s.t RENAME COLUMN b TO z");
  EXPECT_TRUE(Contains(rename_missing, "Column 'b' does not exist")) << rename_missing;
  Run("ALTER TABLE s.t RENAME COLUMN IF EXISTS b TO z");
  std::string clash = Error("ALTER TABLE s.t RENAME COLUMN a TO bee");
  EXPECT_TRUE(Contains(clash, "Column 'bee' already exists")) << clash;

  Run("ALTER TABLE s.t ALTER COLUMN a SET DATA TYPE bigint");
  Run("ALTER TABLE s.t ALTER COLUMN c SET DATA TYPE double");
  Run("ALTER TABLE s.t ALTER COLUMN d SET DATA TYPE decimal(20, 2)");
  m = Metadata("s", "t");
  EXPECT_EQ(TypeOf(*m, "a"), "long");
  EXPECT_EQ(TypeOf(*m, "c"), "double");
  EXPECT_EQ(TypeOf(*m, "d"), "decimal(20,2)");
  std::string narrow = Error("ALTER TABLE s.t ALTER COLUMN a SET DATA TYPE integer");
  EXPECT_TRUE(Contains(narrow, "Cannot change type of column 'a' from long to integer")) << narrow;
  std::string to_string = Error("ALTER TABLE s.t ALTER COLUMN a SET DATA TYPE varchar");
  EXPECT_TRUE(Contains(to_string, "Cannot change type")) << to_string;
  EXPECT_EQ(Rows("SELECT a, c, d FROM s.t"), std::vector<std::string>{"1|1.5|\"2.25\""});

  EXPECT_EQ(Run("ALTER TABLE s.t DROP COLUMN c").statement_type, "DROP COLUMN");
  std::string drop_missing = Error("ALTER TABLE s.t DROP COLUMN c");
  EXPECT_TRUE(Contains(drop_missing, "Column 'c' does not exist")) << drop_missing;
  Run("ALTER TABLE s.t DROP COLUMN IF EXISTS c");
  // DESCRIBE: Column, Type, Extra, Comment.
  std::vector<std::string> described;
  for (const std::string& row : Rows("DESCRIBE s.t")) {
    described.push_back(row.substr(0, row.find('|', row.find('|') + 1)));
  }
  EXPECT_EQ(described, (std::vector<std::string>{"\"a\"|\"bigint\"", "\"bee\"|\"varchar\"",
                                                 "\"d\"|\"decimal(20,2)\"", "\"e\"|\"bigint\""}));
  Run("INSERT INTO s.t VALUES (2, 'y', 3.5, 9)");
  EXPECT_EQ(Rows("SELECT a, bee, d, e FROM s.t ORDER BY a"),
            (std::vector<std::string>{"1|\"x\"|\"2.25\"|NULL", "2|\"y\"|\"3.50\"|9"}));
}

TEST_F(DdlTest, AlterTableDropNotNullAndPartitionColumn) {
  Run("CREATE SCHEMA s");
  Run("CREATE TABLE s.t (a integer NOT NULL, b varchar) WITH (partitioning = ARRAY['b'])");
  Run("ALTER TABLE s.t ALTER COLUMN a DROP NOT NULL");
  EXPECT_FALSE(Metadata("s", "t")->CurrentSchema()->FindFieldByName("a")->required);
  std::string e = Error("ALTER TABLE s.t DROP COLUMN b");
  EXPECT_TRUE(Contains(e, "Cannot drop partition column 'b'")) << e;
  Run("CREATE TABLE s.one (a integer)");
  std::string only = Error("ALTER TABLE s.one DROP COLUMN a");
  EXPECT_TRUE(Contains(only, "only column")) << only;
}

TEST_F(DdlTest, AlterTableSetProperties) {
  Run("CREATE SCHEMA s");
  Run("CREATE TABLE s.t (id bigint, ts timestamp(6), region varchar) "
      "WITH (partitioning = ARRAY['region'], format_version = 1)");
  Run("INSERT INTO s.t VALUES (1, timestamp '2024-01-02 03:04:05', 'eu')");
  EXPECT_EQ(Run("ALTER TABLE s.t SET PROPERTIES partitioning = ARRAY['region', 'day(ts)', "
                "'bucket(id, 8)']")
                .statement_type,
            "SET PROPERTIES");
  auto m = Metadata("s", "t");
  EXPECT_EQ(m->default_spec_id, 1);
  EXPECT_EQ(SpecText(*m->DefaultSpec(), *m->CurrentSchema()),
            (std::vector<std::string>{"region=identity(region)", "ts_day=day(ts)",
                                      "id_bucket=bucket[8](id)"}));
  Run("ALTER TABLE s.t SET PROPERTIES format_version = 2");
  EXPECT_EQ(Metadata("s", "t")->format_version, 2);
  std::string down = Error("ALTER TABLE s.t SET PROPERTIES format_version = 1");
  EXPECT_TRUE(Contains(down, "Cannot downgrade")) << down;
  // v2 drops a removed partition field.
  Run("ALTER TABLE s.t SET PROPERTIES partitioning = ARRAY['day(ts)']");
  m = Metadata("s", "t");
  EXPECT_EQ(SpecText(*m->DefaultSpec(), *m->CurrentSchema()),
            (std::vector<std::string>{"ts_day=day(ts)"}));
  Run("ALTER TABLE s.t SET PROPERTIES \"write.parquet.compression-codec\" = 'gzip', "
      "sorted_by = ARRAY['id DESC']");
  m = Metadata("s", "t");
  EXPECT_EQ(m->properties.at("write.parquet.compression-codec"), "gzip");
  EXPECT_NE(m->default_sort_order_id, 0);
  std::string location = Error("ALTER TABLE s.t SET PROPERTIES location = '/x'");
  EXPECT_TRUE(Contains(location, "cannot be updated: location")) << location;
  Run("ALTER TABLE s.t SET TBLPROPERTIES ('read.split.target-size' = '1000', 'k2' = 'v2')");
  m = Metadata("s", "t");
  EXPECT_EQ(m->properties.at("read.split.target-size"), "1000");
  EXPECT_EQ(m->properties.at("k2"), "v2");
  // Rows written before and after the evolution all read back.
  Run("INSERT INTO s.t VALUES (2, timestamp '2024-01-03 00:00:00', 'us')");
  EXPECT_EQ(Rows("SELECT id, region FROM s.t ORDER BY id"),
            (std::vector<std::string>{"1|\"eu\"", "2|\"us\""}));
}

TEST_F(DdlTest, AlterTableExecuteIsNotImplemented) {
  Run("CREATE SCHEMA s");
  Run("CREATE TABLE s.t (a integer)");
  auto r = session_->Execute("ALTER TABLE s.t EXECUTE optimize");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotImplemented);
  EXPECT_TRUE(Contains(r.status().message(), "optimize")) << r.status().message();
}

}  // namespace
}  // namespace sqe::engine
