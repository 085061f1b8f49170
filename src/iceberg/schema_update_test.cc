// Schema, partition and sort order evolution on real metadata: ids, rules, errors, and the
// requirements + updates ApplyTableUpdates then applies.
#include "iceberg/schema_update.h"

#include <gtest/gtest.h>

#include "iceberg/new_table.h"

namespace sqe::iceberg {
namespace {

TableMetadata Base(int format_version = 2) {
  Schema schema = *ParseSchemaJson(R"js({"type": "struct", "schema-id": 0,
      "identifier-field-ids": [1], "fields": [
      {"id": 1, "name": "id", "required": true, "type": "long"},
      {"id": 2, "name": "count", "required": false, "type": "int"},
      {"id": 3, "name": "ts", "required": false, "type": "timestamp"},
      {"id": 4, "name": "addr", "required": false, "type": {"type": "struct", "fields": [
        {"id": 5, "name": "city", "required": true, "type": "string"}]}},
      {"id": 6, "name": "price", "required": false, "type": "decimal(9,2)"}]})js");
  PartitionSpec spec = *ParsePartitionSpecJson(
      R"({"spec-id": 0, "fields": [{"source-id": 3, "field-id": 1000, "name": "ts_day", "transform": "day"}]})");
  NewTableOptions o;
  o.schema = schema;
  o.spec = spec;
  o.location = "/tmp/t";
  o.format_version = format_version;
  auto md = NewTableMetadata(o, 1);
  EXPECT_TRUE(md.ok()) << md.status().ToString();
  return *md;
}

TableMetadata Applied(const TableMetadata& base, const TableChange& change) {
  EXPECT_TRUE(CheckTableRequirements(&base, change.requirements).ok());
  auto next = ApplyTableUpdates(base, change.updates, 1);
  EXPECT_TRUE(next.ok()) << next.status().ToString();
  return *next;
}

void ExpectInvalid(const Result<TableChange>& r, const std::string& words) {
  ASSERT_FALSE(r.ok()) << words;
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument) << r.status().ToString();
  EXPECT_NE(r.status().message().find(words), std::string::npos) << r.status().message();
}

TEST(SchemaUpdate, AddRenameDropWidenWithFreshIds) {
  TableMetadata base = Base();
  SchemaUpdate u;
  u.AddColumn("", "tags",
              Type::List(NestedField{0, "element", false, Type::Primitive(TypeId::kString)}))
      .AddColumn("addr", "zip", Type::Primitive(TypeId::kString))
      .RenameColumn("count", "n")
      .UpdateColumnType("count", Type::Primitive(TypeId::kLong))
      .UpdateColumnType("price", Type::Decimal(12, 2))
      .DeleteColumn("ts")
      .MakeColumnOptional("addr.city")
      .UpdateColumnDoc("id", "the key");
  auto change = u.Apply(base);
  ASSERT_TRUE(change.ok()) << change.status().ToString();
  TableMetadata next = Applied(base, *change);
  const Schema& s = *next.CurrentSchema();
  EXPECT_EQ(s.schema_id(), 1);
  EXPECT_EQ(next.schemas.size(), 2u);
  // tags = 7, its element 8, addr.zip 9: above last-column-id 6.
  EXPECT_EQ(s.FindFieldByName("tags")->id, 7);
  EXPECT_EQ(s.FindFieldByName("tags")->type->element().id, 8);
  EXPECT_EQ(s.FindFieldByName("addr.zip")->id, 9);
  EXPECT_EQ(next.last_column_id, 9);
  EXPECT_EQ(s.FindFieldByName("n")->id, 2);
  EXPECT_EQ(s.FindFieldByName("n")->type->id(), TypeId::kLong);
  EXPECT_EQ(s.FindFieldByName("price")->type->precision(), 12);
  EXPECT_EQ(s.FindFieldByName("ts"), nullptr);
  EXPECT_FALSE(s.FindFieldByName("addr.city")->required);
  EXPECT_EQ(s.FindFieldByName("id")->doc.value_or(""), "the key");
  EXPECT_EQ(s.identifier_field_ids(), std::vector<int32_t>{1});
  // The old schema is still there for time travel.
  EXPECT_NE(next.SchemaById(0)->FindFieldByName("ts"), nullptr);

  // A schema identical to the current one is no change at all.
  auto none = SchemaUpdate().UpdateColumnType("id", Type::Primitive(TypeId::kLong)).Apply(next);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

TEST(SchemaUpdate, RulesAreInvalidArgumentNamingTheColumn) {
  TableMetadata base = Base();
  auto str = Type::Primitive(TypeId::kString);
  ExpectInvalid(SchemaUpdate().AddColumn("", "count", str).Apply(base), "'count' already exists");
  ExpectInvalid(SchemaUpdate().AddColumn("", "x", str, /*required=*/true).Apply(base),
                "without an initial default");
  ExpectInvalid(SchemaUpdate().AddColumn("id", "x", str).Apply(base), "not a struct");
  ExpectInvalid(SchemaUpdate().AddColumn("nope", "x", str).Apply(base), "'nope' does not exist");
  ExpectInvalid(SchemaUpdate().RenameColumn("count", "id").Apply(base), "'id' already exists");
  ExpectInvalid(SchemaUpdate().DeleteColumn("id").Apply(base), "identifier field");
  ExpectInvalid(SchemaUpdate().UpdateColumnType("id", Type::Primitive(TypeId::kInt)).Apply(base),
                "from long to int");
  ExpectInvalid(SchemaUpdate().UpdateColumnType("price", Type::Decimal(12, 3)).Apply(base),
                "decimal");
  ExpectInvalid(SchemaUpdate().UpdateColumnType("addr", str).Apply(base), "only primitive");
  ExpectInvalid(SchemaUpdate().DeleteColumn("ts").RenameColumn("ts", "t2").Apply(base),
                "dropped by this change");
  ExpectInvalid(SchemaUpdate().SetIdentifierFields({"count"}).Apply(base), "required primitive");
  // Adding a required column with an initial default is fine (v3 defaults).
  auto with_default =
      SchemaUpdate().AddColumn("", "region", str, true, std::nullopt, "\"eu\"").Apply(base);
  ASSERT_TRUE(with_default.ok()) << with_default.status().ToString();
}

TEST(SchemaUpdate, LosingARaceIsAConflictAndReplaysOnFreshMetadata) {
  TableMetadata base = Base();
  SchemaUpdate mine;
  mine.AddColumn("", "a", Type::Primitive(TypeId::kInt));
  auto my_change = mine.Apply(base);
  ASSERT_TRUE(my_change.ok());
  // Someone else adds a column first.
  TableMetadata theirs =
      Applied(base, *SchemaUpdate().AddColumn("", "b", Type::Primitive(TypeId::kInt)).Apply(base));
  EXPECT_EQ(CheckTableRequirements(&theirs, my_change->requirements).code(), StatusCode::kConflict);
  // Replayed on the new metadata, both columns survive with distinct ids.
  TableMetadata both = Applied(theirs, *mine.Apply(theirs));
  EXPECT_EQ(both.CurrentSchema()->FindFieldByName("b")->id, 7);
  EXPECT_EQ(both.CurrentSchema()->FindFieldByName("a")->id, 8);
}

TEST(PartitionSpecUpdate, AddRemoveRenameKeepIds) {
  TableMetadata base = Base();
  auto change = PartitionSpecUpdate()
                    .AddField("id", Transform::Bucket(16))
                    .AddField("addr.city", Transform::Identity(), "city")
                    .Apply(base);
  ASSERT_TRUE(change.ok()) << change.status().ToString();
  TableMetadata next = Applied(base, *change);
  const PartitionSpec& spec = *next.DefaultSpec();
  EXPECT_EQ(spec.spec_id(), 1);
  ASSERT_EQ(spec.fields().size(), 3u);
  EXPECT_EQ(spec.fields()[1].name, "id_bucket_16");
  EXPECT_EQ(spec.fields()[1].field_id, 1001);
  EXPECT_EQ(spec.fields()[2].field_id, 1002);
  EXPECT_EQ(next.last_partition_id, 1002);

  // v2 drops a removed field; adding it back reuses its old id.
  TableMetadata dropped =
      Applied(next, *PartitionSpecUpdate().RemoveField("id_bucket_16").Apply(next));
  EXPECT_EQ(dropped.DefaultSpec()->fields().size(), 2u);
  TableMetadata readded =
      Applied(dropped, *PartitionSpecUpdate().AddField("id", Transform::Bucket(16)).Apply(dropped));
  EXPECT_EQ(readded.DefaultSpec()->fields().back().field_id, 1001);

  TableMetadata renamed =
      Applied(readded, *PartitionSpecUpdate().RenameField("city", "town").Apply(readded));
  EXPECT_EQ(renamed.DefaultSpec()->fields()[1].name, "town");

  ExpectInvalid(PartitionSpecUpdate().AddField("ts", Transform::Day()).Apply(base),
                "already partitioned");
  ExpectInvalid(PartitionSpecUpdate().AddField("addr", Transform::Identity()).Apply(base),
                "does not apply");
  ExpectInvalid(PartitionSpecUpdate().AddField("count", Transform::Day()).Apply(base),
                "does not apply");
  ExpectInvalid(PartitionSpecUpdate().RemoveField("nope").Apply(base), "no partition field 'nope'");
}

TEST(PartitionSpecUpdate, V1ReplacesARemovedFieldWithVoid) {
  TableMetadata base = Base(1);
  TableMetadata next = Applied(base, *PartitionSpecUpdate().RemoveField("ts_day").Apply(base));
  ASSERT_EQ(next.DefaultSpec()->fields().size(), 1u);
  EXPECT_EQ(next.DefaultSpec()->fields()[0].transform, Transform::Void());
  EXPECT_EQ(next.DefaultSpec()->fields()[0].field_id, 1000);
}

TEST(ReplaceSortOrder, SetsTheDefaultOrder) {
  TableMetadata base = Base();
  auto change = ReplaceSortOrder(
      base, {{"id", Transform::Identity(), SortDirection::kDesc, NullOrder::kNullsLast},
             {"ts", Transform::Day()}});
  ASSERT_TRUE(change.ok()) << change.status().ToString();
  TableMetadata next = Applied(base, *change);
  ASSERT_NE(next.DefaultSortOrder(), nullptr);
  EXPECT_EQ(next.DefaultSortOrder()->fields().size(), 2u);
  EXPECT_NE(next.default_sort_order_id, 0);
  EXPECT_EQ(next.DefaultSortOrder()->fields()[0].direction, SortDirection::kDesc);
  auto unsorted = ReplaceSortOrder(next, {});
  ASSERT_TRUE(unsorted.ok());
  EXPECT_EQ(Applied(next, *unsorted).default_sort_order_id, 0);
  ExpectInvalid(ReplaceSortOrder(base, {{"nope"}}), "'nope'");
}

}  // namespace
}  // namespace sqe::iceberg
