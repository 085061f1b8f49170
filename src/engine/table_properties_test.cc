// Table properties, partition fields, sort orders and the SQL -> Iceberg type mapping of
// CREATE TABLE, without an engine.

#include "engine/table_properties.h"

#include <gtest/gtest.h>

#include "sql/parser.h"

namespace sqe::engine {
namespace {

exec::Value Strings(std::vector<std::string> items) {
  exec::Value::Elements elements;
  for (std::string& s : items) elements.push_back(exec::Value::Varchar(std::move(s)));
  return exec::Value(columnar::List(columnar::String()),
                     std::make_shared<const exec::Value::Elements>(std::move(elements)));
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

iceberg::Schema EventsSchema() {
  auto schema = ToIcebergSchema({{"id", columnar::Int64(), true, std::nullopt},
                                 {"ts", columnar::Timestamp(), false, std::nullopt},
                                 {"s", columnar::String(), false, std::nullopt},
                                 {"Region", columnar::String(), false, std::nullopt}},
                                2);
  EXPECT_TRUE(schema.ok()) << schema.status().message();
  return *schema;
}

TEST(PartitionFieldTest, ParsesTrinoForms) {
  struct Case {
    const char* text;
    const char* column;
    const char* transform;
    const char* name;
  };
  const Case cases[] = {
      {"region", "region", "identity", "region"},
      {"  Region ", "region", "identity", "region"},
      {"\"Mixed Col\"", "Mixed Col", "identity", "Mixed Col"},
      {"year(d)", "d", "year", "d_year"},
      {"month(d)", "d", "month", "d_month"},
      {"DAY(ts)", "ts", "day", "ts_day"},
      {"hour( ts )", "ts", "hour", "ts_hour"},
      {"bucket(id, 16)", "id", "bucket[16]", "id_bucket"},
      {"truncate(s,4)", "s", "truncate[4]", "s_trunc"},
      {"void(x)", "x", "void", "x_null"},
      {"bucket(\"a,b\", 2)", "a,b", "bucket[2]", "a,b_bucket"},
  };
  for (const Case& c : cases) {
    auto f = ParsePartitionField(c.text);
    ASSERT_TRUE(f.ok()) << c.text << ": " << f.status().message();
    EXPECT_EQ(f->column, c.column) << c.text;
    EXPECT_EQ(f->transform.ToString(), c.transform) << c.text;
    EXPECT_EQ(f->name, c.name) << c.text;
  }
  for (const char* bad : {"bucket(id)", "bucket(id, 0)", "truncate(s, x)", "day(ts, 2)",
                          "weekday(ts)", "day(ts", "", "a b"}) {
    auto f = ParsePartitionField(bad);
    EXPECT_FALSE(f.ok()) << bad;
    if (!f.ok()) {
      EXPECT_TRUE(Contains(f.status().message(), "Invalid partition field declaration") ||
                  Contains(f.status().message(), "Invalid column name"))
          << f.status().message();
    }
  }
}

TEST(PartitionFieldTest, SparkPartitionedByItems) {
  auto statement = sql::ParseStatement(
      "CREATE TABLE t (a int) PARTITIONED BY (region, days(ts), bucket(16, id), "
      "truncate(4, s), hours(t2), bucket(id, 8))");
  ASSERT_TRUE(statement.ok()) << statement.status().message();
  const auto& create = static_cast<const sql::ast::CreateTableStatement&>(**statement);
  std::vector<std::string> texts;
  for (const auto& e : create.partitioned_by) {
    auto text = PartitionExpressionText(*e);
    ASSERT_TRUE(text.ok()) << text.status().message();
    texts.push_back(*text);
  }
  EXPECT_EQ(texts, (std::vector<std::string>{"region", "day(ts)", "bucket(id, 16)",
                                             "truncate(s, 4)", "hour(t2)", "bucket(id, 8)"}));
}

TEST(PartitionSpecTest, BuildsFieldsAgainstTheSchema) {
  iceberg::Schema schema = EventsSchema();
  auto spec = MakePartitionSpec({"day(ts)", "bucket(id, 16)", "region", "truncate(s, 2)"}, schema);
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  ASSERT_EQ(spec->fields().size(), 4u);
  EXPECT_EQ(spec->fields()[0].source_id, 2);
  EXPECT_EQ(spec->fields()[0].field_id, 1000);
  EXPECT_EQ(spec->fields()[1].name, "id_bucket");
  EXPECT_EQ(spec->fields()[2].name, "Region");  // identity keeps the column's own name
  EXPECT_EQ(spec->fields()[2].source_id, 4);
  EXPECT_EQ(spec->fields()[3].field_id, 1003);

  auto missing = MakePartitionSpec({"nope"}, schema);
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(Contains(missing.status().message(), "columns: id, ts, s, Region"));
  auto wrong_type = MakePartitionSpec({"day(s)"}, schema);
  ASSERT_FALSE(wrong_type.ok());
  EXPECT_TRUE(Contains(wrong_type.status().message(), "does not apply to column 's'"));
  auto twice = MakePartitionSpec({"day(ts)", "day(ts)"}, schema);
  ASSERT_FALSE(twice.ok());
  EXPECT_TRUE(Contains(twice.status().message(), "duplicates"));
}

TEST(SortOrderTest, DirectionsAndNullOrders) {
  iceberg::Schema schema = EventsSchema();
  auto order =
      MakeSortOrder({"id", "ts DESC", "s asc nulls last", "\"Region\" DESC NULLS FIRST"}, schema);
  ASSERT_TRUE(order.ok()) << order.status().message();
  EXPECT_EQ(order->order_id(), 1);
  ASSERT_EQ(order->fields().size(), 4u);
  EXPECT_EQ(order->fields()[0].null_order, iceberg::NullOrder::kNullsFirst);
  EXPECT_EQ(order->fields()[1].direction, iceberg::SortDirection::kDesc);
  EXPECT_EQ(order->fields()[1].null_order, iceberg::NullOrder::kNullsLast);
  EXPECT_EQ(order->fields()[2].null_order, iceberg::NullOrder::kNullsLast);
  EXPECT_EQ(order->fields()[3].source_id, 4);
  EXPECT_EQ(order->fields()[3].null_order, iceberg::NullOrder::kNullsFirst);
  EXPECT_TRUE(MakeSortOrder({}, schema)->is_unsorted());
  EXPECT_FALSE(MakeSortOrder({"id sideways"}, schema).ok());
  EXPECT_FALSE(MakeSortOrder({"zz"}, schema).ok());
}

TEST(TablePropertiesTest, KnownRawAndMisspelledNames) {
  auto options =
      ParseTableProperties({{"format_version", exec::Value::Integer(3)},
                            {"partitioning", Strings({"day(ts)"})},
                            {"sorted_by", Strings({"id"})},
                            {"location", exec::Value::Varchar("/tmp/x")},
                            {"format", exec::Value::Varchar("parquet")},
                            {"max_commit_retry", exec::Value::BigInt(9)},
                            {"data_location", exec::Value::Varchar("/tmp/data")},
                            {"parquet_bloom_filter_columns", Strings({"id"})},
                            {"write.parquet.compression-codec", exec::Value::Varchar("zstd")},
                            {"write.target-file-size-bytes", exec::Value::BigInt(1024)},
                            {"flag", exec::Value::Boolean(true)}},
                           "iceberg");
  ASSERT_TRUE(options.ok()) << options.status().message();
  EXPECT_EQ(options->format_version, 3);
  EXPECT_EQ(options->partitioning, std::vector<std::string>{"day(ts)"});
  EXPECT_EQ(options->sorted_by, std::vector<std::string>{"id"});
  EXPECT_EQ(options->location, "/tmp/x");
  const auto& p = options->iceberg_properties;
  EXPECT_EQ(p.at("write.format.default"), "parquet");
  EXPECT_EQ(p.at("commit.retry.num-retries"), "9");
  EXPECT_EQ(p.at("write.data.path"), "/tmp/data");
  EXPECT_EQ(p.at("write.parquet.bloom-filter-enabled.column.id"), "true");
  EXPECT_EQ(p.at("write.parquet.compression-codec"), "zstd");
  EXPECT_EQ(p.at("write.target-file-size-bytes"), "1024");
  EXPECT_EQ(p.at("flag"), "true");
  EXPECT_EQ(p.count("partitioning"), 0u);

  auto typo = ParseTableProperties({{"sortedby", Strings({"id"})}}, "lake");
  ASSERT_FALSE(typo.ok());
  EXPECT_TRUE(Contains(typo.status().message(),
                       "Catalog 'lake' table property 'sortedby' does not exist; did you mean "
                       "'sorted_by'?"))
      << typo.status().message();
  EXPECT_FALSE(ParseTableProperties({{"format_version", exec::Value::Integer(0)}}, "c").ok());
  EXPECT_FALSE(ParseTableProperties({{"format_version", exec::Value::Varchar("x")}}, "c").ok());
  EXPECT_FALSE(ParseTableProperties({{"partitioning", exec::Value::Varchar("id")}}, "c").ok());
  EXPECT_FALSE(
      ParseTableProperties({{"location", exec::Value::Null(columnar::String())}}, "c").ok());
  auto orc = ParseTableProperties({{"format", exec::Value::Varchar("ORC")}}, "c");
  ASSERT_FALSE(orc.ok());
  EXPECT_EQ(orc.status().code(), StatusCode::kNotImplemented);
  auto repeated = ParseTableProperties(
      {{"location", exec::Value::Varchar("a")}, {"location", exec::Value::Varchar("b")}}, "c");
  EXPECT_FALSE(repeated.ok());
}

TEST(IcebergTypesTest, SchemaIdsAndTypes) {
  auto schema = ToIcebergSchema(
      {{"a", columnar::List(columnar::Int32()), false, std::nullopt},
       {"m", columnar::Map(columnar::String(), columnar::Float64()), false, std::nullopt},
       {"r",
        columnar::Struct({columnar::Field("x", columnar::Int16()),
                          columnar::Field("y", columnar::List(columnar::String()))}),
        false, std::nullopt},
       {"k", columnar::Int64(), true, std::string("the key")}},
      2);
  ASSERT_TRUE(schema.ok()) << schema.status().message();
  const auto& f = schema->fields();
  ASSERT_EQ(f.size(), 4u);
  EXPECT_EQ(f[0].id, 1);
  EXPECT_EQ(f[3].id, 4);
  EXPECT_TRUE(f[3].required);
  EXPECT_EQ(f[3].doc.value_or(""), "the key");
  EXPECT_EQ(f[0].type->element().id, 5);
  EXPECT_EQ(f[1].type->key().id, 6);
  EXPECT_EQ(f[1].type->value().id, 7);
  EXPECT_EQ(f[2].type->fields()[0].id, 8);
  EXPECT_EQ(f[2].type->fields()[0].type->ToString(), "int");
  EXPECT_EQ(f[2].type->fields()[1].type->element().id, 10);
  EXPECT_EQ(schema->HighestFieldId(), 10);

  auto ns = ToIcebergSchema(
      {{"t", columnar::Timestamp(columnar::TimeUnit::kNano), false, std::nullopt}}, 2);
  ASSERT_FALSE(ns.ok());
  EXPECT_TRUE(Contains(ns.status().message(), "format_version = 3"));
  auto ns3 = ToIcebergSchema(
      {{"t", columnar::TimestampTz(columnar::TimeUnit::kNano), false, std::nullopt}}, 3);
  ASSERT_TRUE(ns3.ok());
  EXPECT_EQ(ns3->fields()[0].type->ToString(), "timestamptz_ns");
  auto dup = ToIcebergSchema({{"a", columnar::Int32(), false, std::nullopt},
                              {"A", columnar::Int32(), false, std::nullopt}},
                             2);
  ASSERT_FALSE(dup.ok());
  EXPECT_TRUE(Contains(dup.status().message(), "specified more than once"));
  auto unknown = ToIcebergSchema({{"n", nullptr, false, std::nullopt}}, 2);
  ASSERT_FALSE(unknown.ok());
  EXPECT_TRUE(Contains(unknown.status().message(), "Column type is unknown: n"));
}

TEST(CreateTableRequestTest, PropertiesSpecAndLocation) {
  NewTableDefinition d;
  d.columns = {{"id", columnar::Int64(), false, std::nullopt},
               {"ts", columnar::Timestamp(), false, std::nullopt}};
  d.properties = {{"partitioning", Strings({"hour(ts)"})},
                  {"write.metadata.delete-after-commit.enabled", exec::Value::Boolean(true)}};
  d.comment = "events";
  auto r = MakeCreateTableRequest(d, "iceberg", "ev", 2, "/wh/ns/");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->location, "/wh/ns/ev");
  EXPECT_EQ(r->format_version, 2);
  EXPECT_EQ(r->spec.fields().size(), 1u);
  EXPECT_EQ(r->properties.at("comment"), "events");
  EXPECT_EQ(r->properties.at("write.metadata.delete-after-commit.enabled"), "true");
  auto plain = MakeCreateTableRequest(d, "iceberg", "ev", 1, "");
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->location, "");  // the catalog's default
  EXPECT_EQ(plain->format_version, 1);
  d.partitioned_by = {"id"};
  EXPECT_FALSE(MakeCreateTableRequest(d, "iceberg", "ev", 2, "").ok());
}

}  // namespace
}  // namespace sqe::engine
