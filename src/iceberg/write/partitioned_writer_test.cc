// PartitionedWriter and its column-at-a-time partition routing: every transform on every
// source type it accepts agrees with Transform::Apply row by row (nulls included), the
// spec's bucket/day vectors, partition paths, files per partition read back, rolling at
// the target size, the open-writer limit, the unpartitioned path and Abort.
#include "iceberg/write/partitioned_writer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <random>
#include <set>

#include "columnar/binary_builder.h"
#include "columnar/boolean_builder.h"
#include "columnar/fixed_size_binary_builder.h"
#include "columnar/fixed_width_builder.h"
#include "columnar/struct_builder.h"
#include "columnar/test_columns.h"
#include "formats/parquet/file_reader.h"
#include "iceberg/columnar_schema.h"

namespace sqe::iceberg {
namespace {

namespace fs = std::filesystem;

NestedField F(int32_t id, std::string name, bool required, TypePtr type) {
  NestedField f;
  f.id = id;
  f.name = std::move(name);
  f.required = required;
  f.type = std::move(type);
  return f;
}

// Appends a literal of Iceberg type `type` to a builder of its columnar form.
Status AppendLiteral(columnar::ColumnBuilder& b, const Literal& v, const Type& type) {
  if (v.is_null()) return b.AppendNull();
  switch (type.id()) {
    case TypeId::kBoolean:
      return dynamic_cast<columnar::BooleanBuilder&>(b).Append(v.bool_value());
    case TypeId::kInt:
    case TypeId::kDate:
      return dynamic_cast<columnar::Int32Builder&>(b).Append(static_cast<int32_t>(v.int_value()));
    case TypeId::kFloat:
      return dynamic_cast<columnar::Float32Builder&>(b).Append(
          static_cast<float>(v.double_value()));
    case TypeId::kDouble:
      return dynamic_cast<columnar::Float64Builder&>(b).Append(v.double_value());
    case TypeId::kDecimal:
      return dynamic_cast<columnar::Decimal128Builder&>(b).Append(v.decimal_value());
    case TypeId::kString:
    case TypeId::kBinary:
      return dynamic_cast<columnar::BinaryBuilder&>(b).Append(v.bytes());
    case TypeId::kUuid:
    case TypeId::kFixed:
      return dynamic_cast<columnar::FixedSizeBinaryBuilder&>(b).Append(v.bytes());
    default:
      return dynamic_cast<columnar::Int64Builder&>(b).Append(v.int_value());
  }
}

// A batch of the columnar form of `schema` from rows of literals.
columnar::Batch MakeBatch(const Schema& schema, const std::vector<std::vector<Literal>>& rows) {
  auto target = columnar::testing::ValueOrDie(ToColumnarSchema(schema));
  std::vector<columnar::Column> columns;
  for (size_t c = 0; c < schema.fields().size(); ++c) {
    auto b = columnar::testing::ValueOrDie(columnar::MakeBuilder(target->fields()[c].type()));
    for (const auto& row : rows) {
      columnar::testing::DieIfError(AppendLiteral(*b, row[c], *schema.fields()[c].type));
    }
    columns.push_back(columnar::testing::ValueOrDie(b->Finish()));
  }
  return columnar::testing::ValueOrDie(
      columnar::Batch::Make(target, std::move(columns), static_cast<int64_t>(rows.size())));
}

Schema OneColumn(TypePtr type) { return Schema(0, {F(1, "c", false, std::move(type))}); }

PartitionSpec OneField(Transform t) {
  return PartitionSpec(0, {PartitionField{1, {}, 1000, "c_part", t, ""}});
}

// Random values of `type`, with nulls and the edges around the epoch and zero.
std::vector<Literal> RandomValues(const Type& type, int n, std::mt19937_64& rng) {
  std::vector<Literal> out;
  auto small = [&](int64_t range) {
    return static_cast<int64_t>(rng() % static_cast<uint64_t>(2 * range + 1)) - range;
  };
  const std::vector<int64_t> edges = {0, -1, 1, 2, -2, 3, 4, 15, 16, -16, 1000};
  for (int i = 0; i < n; ++i) {
    if (i % 17 == 5) {
      out.push_back(Literal::Null(type.id()));
      continue;
    }
    const bool edge = i % 7 == 0;
    int64_t e = edges[static_cast<size_t>(i) % edges.size()];
    switch (type.id()) {
      case TypeId::kBoolean:
        out.push_back(Literal::Boolean(rng() % 2 == 0));
        break;
      case TypeId::kInt:
        out.push_back(Literal::Int(static_cast<int32_t>(edge ? e : small(1000000))));
        break;
      case TypeId::kLong:
        out.push_back(Literal::Long(edge ? e : small(int64_t{1} << 50)));
        break;
      case TypeId::kFloat:
        out.push_back(Literal::Float(static_cast<float>(edge ? e : small(100)) / 4));
        break;
      case TypeId::kDouble:
        out.push_back(Literal::Double(static_cast<double>(edge ? e : small(100)) / 8));
        break;
      case TypeId::kDecimal:
        out.push_back(
            Literal::Decimal(columnar::Decimal128(edge ? e : small(100000)), type.scale()));
        break;
      case TypeId::kDate:
        out.push_back(Literal::Date(static_cast<int32_t>(edge ? e : small(40000))));
        break;
      case TypeId::kTime:
        out.push_back(Literal::Time(edge ? e : static_cast<int64_t>(rng() % 86400000000ULL)));
        break;
      case TypeId::kTimestamp:
        out.push_back(Literal::Timestamp(edge ? e : small(int64_t{3} << 50)));
        break;
      case TypeId::kTimestampTz:
        out.push_back(Literal::TimestampTz(edge ? e : small(int64_t{3} << 50)));
        break;
      case TypeId::kTimestampNs:
        out.push_back(Literal::TimestampNs(edge ? e : small(int64_t{1} << 61)));
        break;
      case TypeId::kString: {
        static const std::vector<std::string> kWords = {
            "", "a", "iceberg", "ab", "héllo wörld", "日本語テキスト", "abcd", "abcde"};
        out.push_back(Literal::String(kWords[rng() % kWords.size()] + (i % 3 ? "" : "xyz")));
        break;
      }
      case TypeId::kBinary: {
        std::string s(rng() % 7, '\0');
        for (char& ch : s) ch = static_cast<char>(rng() % 4);
        out.push_back(Literal::Binary(s));
        break;
      }
      case TypeId::kUuid:
      case TypeId::kFixed: {
        std::string s(type.id() == TypeId::kUuid ? 16 : type.length(), '\0');
        for (char& ch : s) ch = static_cast<char>(rng() % 3);
        out.push_back(type.id() == TypeId::kUuid ? Literal::Uuid(s) : Literal::Fixed(s));
        break;
      }
      default:
        ADD_FAILURE() << "no generator for " << type.ToString();
        return out;
    }
  }
  return out;
}

TEST(GroupByPartitionTest, EveryTransformAgreesWithTheLiteralPath) {
  const std::vector<TypePtr> types = {Type::Primitive(TypeId::kBoolean),
                                      Type::Primitive(TypeId::kInt),
                                      Type::Primitive(TypeId::kLong),
                                      Type::Primitive(TypeId::kFloat),
                                      Type::Primitive(TypeId::kDouble),
                                      Type::Decimal(9, 2),
                                      Type::Primitive(TypeId::kDate),
                                      Type::Primitive(TypeId::kTime),
                                      Type::Primitive(TypeId::kTimestamp),
                                      Type::Primitive(TypeId::kTimestampTz),
                                      Type::Primitive(TypeId::kTimestampNs),
                                      Type::Primitive(TypeId::kString),
                                      Type::Primitive(TypeId::kBinary),
                                      Type::Primitive(TypeId::kUuid),
                                      Type::Fixed(4)};
  const std::vector<Transform> transforms = {
      Transform::Identity(),  Transform::Bucket(16), Transform::Bucket(3), Transform::Truncate(4),
      Transform::Truncate(1), Transform::Year(),     Transform::Month(),   Transform::Day(),
      Transform::Hour(),      Transform::Void()};
  std::mt19937_64 rng(42);
  int combinations = 0;
  for (const TypePtr& type : types) {
    for (const Transform& t : transforms) {
      if (!t.CanTransform(*type)) continue;
      ++combinations;
      SCOPED_TRACE(t.ToString() + " of " + type->ToString());
      Schema schema = OneColumn(type);
      std::vector<Literal> values = RandomValues(*type, 600, rng);
      std::vector<std::vector<Literal>> rows;
      for (const Literal& v : values) rows.push_back({v});
      columnar::Batch batch = MakeBatch(schema, rows);
      auto groups = GroupByPartition(schema, OneField(t), batch);
      ASSERT_TRUE(groups.ok()) << groups.status().ToString();
      std::vector<int> seen(values.size(), 0);
      std::set<std::string> distinct;
      for (const PartitionGroup& g : *groups) {
        ASSERT_EQ(g.partition.size(), 1u);
        distinct.insert(g.partition[0]
                            ? g.partition[0]->ToString() + "/" +
                                  std::to_string(static_cast<int>(g.partition[0]->type()))
                            : "<null>");
        for (int64_t k = 0; k < g.rows.size(); ++k) {
          uint32_t r = g.rows[k];
          ++seen[r];
          auto expected = t.Apply(values[r]);
          ASSERT_TRUE(expected.ok()) << expected.status().ToString();
          if (expected->is_null()) {
            EXPECT_FALSE(g.partition[0].has_value()) << "row " << r << " " << values[r].ToString();
          } else {
            ASSERT_TRUE(g.partition[0].has_value()) << "row " << r;
            EXPECT_EQ(*g.partition[0], *expected)
                << "row " << r << " value " << values[r].ToString() << " got "
                << g.partition[0]->ToString() << " want " << expected->ToString();
          }
        }
      }
      EXPECT_EQ(distinct.size(), groups->size()) << "two groups with one partition value";
      for (size_t r = 0; r < seen.size(); ++r) ASSERT_EQ(seen[r], 1) << "row " << r;
      if (t.kind() == TransformKind::kVoid) EXPECT_EQ(groups->size(), 1u);
    }
  }
  // The spec's transform table over these 15 types: identity 15, bucket 12 x 2, truncate
  // 5 x 2, year/month/day 4 x 3, hour 3, void 15.
  EXPECT_EQ(combinations, 79);
}

TEST(GroupByPartitionTest, SpecVectors) {
  // Iceberg spec, Appendix B: hash(34) = 2017239379, hash("iceberg") = 1210000089,
  // hash(timestamp 2017-11-16T22:31:08) = -2047944441.
  Schema schema(0, {F(1, "i", false, Type::Primitive(TypeId::kInt)),
                    F(2, "s", false, Type::Primitive(TypeId::kString)),
                    F(3, "ts", false, Type::Primitive(TypeId::kTimestamp))});
  PartitionSpec spec(0, {PartitionField{1, {}, 1000, "i_bucket", Transform::Bucket(16), ""},
                         PartitionField{2, {}, 1001, "s_bucket", Transform::Bucket(16), ""},
                         PartitionField{3, {}, 1002, "ts_bucket", Transform::Bucket(16), ""},
                         PartitionField{3, {}, 1003, "ts_day", Transform::Day(), ""},
                         PartitionField{3, {}, 1004, "ts_hour", Transform::Hour(), ""}});
  columnar::Batch batch = MakeBatch(schema, {{Literal::Int(34), Literal::String("iceberg"),
                                              Literal::Timestamp(1510871468000000)}});
  auto groups = GroupByPartition(schema, spec, batch);
  ASSERT_TRUE(groups.ok()) << groups.status().ToString();
  ASSERT_EQ(groups->size(), 1u);
  const auto& p = (*groups)[0].partition;
  EXPECT_EQ(*p[0], Literal::Int(2017239379 % 16));
  EXPECT_EQ(*p[1], Literal::Int(1210000089 % 16));
  EXPECT_EQ(*p[2], Literal::Int((-2047944441 & 0x7fffffff) % 16));
  EXPECT_EQ(*p[3], Literal::Date(17486));
  EXPECT_EQ(*p[4], Literal::Int(17486 * 24 + 22));
  auto path = PartitionPath(spec, schema, p);
  ASSERT_TRUE(path.ok());
  EXPECT_EQ(*path, "i_bucket=3/s_bucket=9/ts_bucket=7/ts_day=2017-11-16/ts_hour=2017-11-16-22");
}

TEST(GroupByPartitionTest, RoutesRowsByEveryFieldWithNulls) {
  Schema schema(0, {F(1, "id", true, Type::Primitive(TypeId::kLong)),
                    F(2, "cat", false, Type::Primitive(TypeId::kString))});
  PartitionSpec spec(0, {PartitionField{2, {}, 1000, "cat", Transform::Identity(), ""},
                         PartitionField{1, {}, 1001, "id_trunc", Transform::Truncate(10), ""}});
  std::vector<std::vector<Literal>> rows;
  for (int i = 0; i < 40; ++i) {
    rows.push_back({Literal::Long(i), i % 4 == 3 ? Literal::Null(TypeId::kString)
                                                 : Literal::String(i % 2 ? "b" : "a")});
  }
  auto groups = GroupByPartition(schema, spec, MakeBatch(schema, rows));
  ASSERT_TRUE(groups.ok()) << groups.status().ToString();
  // cat in {a, b, null} x id_trunc in {0, 10, 20, 30}.
  ASSERT_EQ(groups->size(), 12u);
  EXPECT_EQ((*groups)[0].partition[0], Literal::String("a"));
  EXPECT_EQ((*groups)[0].partition[1], Literal::Long(0));
  EXPECT_EQ((*groups)[0].rows, (columnar::SelectionVector{0, 2, 4, 6, 8}));
  EXPECT_EQ((*groups)[2].partition[0], std::nullopt);
  EXPECT_EQ((*groups)[2].rows, (columnar::SelectionVector{3, 7}));
  for (const PartitionGroup& g : *groups) {
    for (int64_t k = 0; k < g.rows.size(); ++k) {
      int64_t id = g.rows[k];
      EXPECT_EQ(g.partition[1], Literal::Long(id / 10 * 10));
    }
  }
}

TEST(GroupByPartitionTest, NestedSourceAndErrors) {
  auto inner = Type::Struct({F(3, "day", false, Type::Primitive(TypeId::kDate))});
  Schema schema(
      0, {F(1, "id", true, Type::Primitive(TypeId::kLong)), F(2, "info", false, inner),
          F(4, "tags", false,
            Type::List(NestedField{5, "element", false, Type::Primitive(TypeId::kString)}))});
  auto target = *ToColumnarSchema(schema);
  columnar::Int64Builder ids(columnar::Int64());
  ASSERT_TRUE(ids.Append(1).ok());
  ASSERT_TRUE(ids.Append(2).ok());
  columnar::Int32Builder days(columnar::Date32());
  ASSERT_TRUE(days.Append(3).ok());
  ASSERT_TRUE(days.Append(9).ok());  // under a null struct row: must count as null
  auto day_col = *days.Finish();
  // Validity of info: row 0 valid, row 1 null (a boolean column's value bitmap).
  columnar::BufferPtr validity = columnar::testing::Bools({true, false}).buffers()[1];
  auto struct_col = columnar::Column::Make(target->fields()[1].type(), 2, {validity}, {day_col});
  ASSERT_TRUE(struct_col.ok()) << struct_col.status().ToString();
  auto tags = *columnar::Column::MakeAllNull(target->fields()[2].type(), 2);
  auto batch = columnar::Batch::Make(target, {*ids.Finish(), *struct_col, tags}, 2);
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  PartitionSpec by_day(0, {PartitionField{3, {}, 1000, "day", Transform::Identity(), ""}});
  auto groups = GroupByPartition(schema, by_day, *batch);
  ASSERT_TRUE(groups.ok()) << groups.status().ToString();
  ASSERT_EQ(groups->size(), 2u);
  EXPECT_EQ((*groups)[0].partition[0], Literal::Date(3));
  EXPECT_EQ((*groups)[1].partition[0], std::nullopt);

  PartitionSpec in_list(0, {PartitionField{5, {}, 1000, "tag", Transform::Identity(), ""}});
  auto bad = GroupByPartition(schema, in_list, *batch);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("'tag'"), std::string::npos) << bad.status().ToString();
}

TEST(PartitionPathTest, EscapesAndHumanValues) {
  Schema schema(0, {F(1, "s", false, Type::Primitive(TypeId::kString)),
                    F(2, "d", false, Type::Primitive(TypeId::kDate)),
                    F(3, "ts", false, Type::Primitive(TypeId::kTimestampTz)),
                    F(4, "b", false, Type::Primitive(TypeId::kBinary)),
                    F(5, "x", false, Type::Decimal(9, 2))});
  PartitionSpec spec(0, {PartitionField{1, {}, 1000, "my s", Transform::Identity(), ""},
                         PartitionField{2, {}, 1001, "d_month", Transform::Month(), ""},
                         PartitionField{2, {}, 1002, "d_year", Transform::Year(), ""},
                         PartitionField{3, {}, 1003, "ts", Transform::Identity(), ""},
                         PartitionField{4, {}, 1004, "b", Transform::Identity(), ""},
                         PartitionField{5, {}, 1005, "x", Transform::Identity(), ""},
                         PartitionField{1, {}, 1006, "gone", Transform::Void(), ""}});
  std::vector<std::optional<Literal>> p = {Literal::String("a/b c&ü"),
                                           Literal::Int(574),
                                           Literal::Int(-1),
                                           Literal::TimestampTz(1510871468000001),
                                           Literal::Binary("\x01\x02\x03"),
                                           Literal::Decimal(columnar::Decimal128(-1420), 2),
                                           std::nullopt};
  auto path = PartitionPath(spec, schema, p);
  ASSERT_TRUE(path.ok()) << path.status().ToString();
  EXPECT_EQ(*path,
            "my+s=a%2Fb+c%26%C3%BC/d_month=2017-11/d_year=1969/"
            "ts=2017-11-16T22%3A31%3A08.000001Z/b=AQID/x=-14.20/gone=null");
  EXPECT_FALSE(PartitionPath(spec, schema, {std::nullopt}).ok());
}

class PartitionedWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("sqe_partitioned_writer_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs_ = io::MakeLocalFileSystem();
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Rows id = first.., cat = cats[id % cats.size()], payload = a string of id.
  columnar::Batch Rows(int64_t first, int64_t n, const std::vector<std::string>& cats) {
    std::vector<std::vector<Literal>> rows;
    for (int64_t id = first; id < first + n; ++id) {
      const std::string& c = cats[static_cast<size_t>(id) % cats.size()];
      rows.push_back({Literal::Long(id),
                      c == "<null>" ? Literal::Null(TypeId::kString) : Literal::String(c),
                      Literal::String("payload-" + std::to_string(id * 7919))});
    }
    return MakeBatch(schema_, rows);
  }

  // The (id, cat) rows of a data file, read back.
  std::vector<std::pair<int64_t, std::optional<std::string>>> ReadBack(const DataFile& f) {
    auto file = columnar::testing::ValueOrDie(fs_->OpenForRead(f.file_path));
    auto reader = columnar::testing::ValueOrDie(parquet::ParquetFileReader::Open(std::move(file)));
    std::vector<std::pair<int64_t, std::optional<std::string>>> out;
    for (int g = 0; g < reader->num_row_groups(); ++g) {
      auto batch = columnar::testing::ValueOrDie(reader->ReadRowGroup(g));
      for (int64_t r = 0; r < batch.num_rows(); ++r) {
        const auto& cat = batch.column(1);
        out.emplace_back(batch.column(0).Value<int64_t>(r),
                         cat.IsNull(r) ? std::nullopt
                                       : std::optional<std::string>(std::string(cat.StringAt(r))));
      }
    }
    return out;
  }

  Schema schema_{0,
                 {F(1, "id", true, Type::Primitive(TypeId::kLong)),
                  F(2, "cat", false, Type::Primitive(TypeId::kString)),
                  F(3, "payload", false, Type::Primitive(TypeId::kString))}};
  PartitionSpec by_cat_{0, {PartitionField{2, {}, 1000, "cat", Transform::Identity(), ""}}};
  fs::path dir_;
  std::unique_ptr<io::FileSystem> fs_;
};

TEST_F(PartitionedWriterTest, OneFilePerPartitionReadsBack) {
  auto w = PartitionedWriter::Make(*fs_, dir_.string() + "/", schema_, by_cat_);
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  EXPECT_EQ((*w)->target_file_size_bytes(), kDefaultTargetFileSizeBytes);
  for (int b = 0; b < 3; ++b) {
    ASSERT_TRUE((*w)->Write(Rows(b * 100, 100, {"a", "b/c", "<null>"})).ok());
  }
  auto files = (*w)->Close();
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  ASSERT_EQ(files->size(), 3u);
  std::map<std::string, const DataFile*> by_dir;
  int64_t total = 0;
  for (const DataFile& f : *files) {
    std::string rel = f.file_path.substr(dir_.string().size() + 1);
    by_dir[rel.substr(0, rel.rfind('/'))] = &f;
    EXPECT_TRUE(rel.ends_with(".parquet")) << rel;
    total += f.record_count;
    auto rows = ReadBack(f);
    ASSERT_EQ(static_cast<int64_t>(rows.size()), f.record_count);
    for (const auto& [id, cat] : rows) {
      if (f.partition[0]) {
        EXPECT_EQ(cat, f.partition[0]->bytes()) << f.file_path;
      } else {
        EXPECT_EQ(cat, std::nullopt) << f.file_path;
      }
    }
  }
  EXPECT_EQ(total, 300);
  ASSERT_EQ(by_dir.size(), 3u);
  ASSERT_TRUE(by_dir.count("data/cat=a"));
  ASSERT_TRUE(by_dir.count("data/cat=b%2Fc"));
  ASSERT_TRUE(by_dir.count("data/cat=null"));
  EXPECT_EQ(by_dir["data/cat=a"]->record_count, 100);
  EXPECT_EQ(by_dir["data/cat=null"]->partition[0], std::nullopt);
  EXPECT_EQ(by_dir["data/cat=b%2Fc"]->partition[0], Literal::String("b/c"));
  // Metrics come from DataFileWriter: the partition column's bounds are its value.
  EXPECT_EQ(by_dir["data/cat=a"]->lower_bounds.at(2), "a");
}

TEST_F(PartitionedWriterTest, RollsAtTheTargetSize) {
  PartitionedWriterOptions options;
  options.file.table_properties["write.target-file-size-bytes"] = "16384";
  options.file.default_codec = "uncompressed";
  auto w = PartitionedWriter::Make(*fs_, dir_.string(), schema_, by_cat_, options);
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  EXPECT_EQ((*w)->target_file_size_bytes(), 16384);
  for (int b = 0; b < 10; ++b) ASSERT_TRUE((*w)->Write(Rows(b * 2000, 2000, {"a"})).ok());
  auto files = (*w)->Close();
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  ASSERT_GT(files->size(), 5u);
  std::set<int64_t> ids;
  for (const DataFile& f : *files) {
    // At most one check interval (1024 rows, ~30 bytes each) past the target.
    EXPECT_LT(f.file_size_in_bytes, 16384 + 1024 * 40) << f.file_path;
    for (const auto& [id, cat] : ReadBack(f)) EXPECT_TRUE(ids.insert(id).second) << id;
  }
  EXPECT_EQ(ids.size(), 20000u);
  EXPECT_EQ(*ids.begin(), 0);
  EXPECT_EQ(*ids.rbegin(), 19999);
}

TEST_F(PartitionedWriterTest, OpenWriterLimitClosesTheLeastRecentlyUsed) {
  PartitionedWriterOptions options;
  options.max_open_writers = 2;
  auto w = PartitionedWriter::Make(*fs_, dir_.string(), schema_, by_cat_, options);
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  const std::vector<std::string> cats = {"p0", "p1", "p2", "p3", "p4"};
  for (int b = 0; b < 4; ++b) ASSERT_TRUE((*w)->Write(Rows(b * 50, 50, cats)).ok());
  EXPECT_GT((*w)->evictions(), 0);
  auto files = (*w)->Close();
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  // Every batch touches 5 partitions with room for 2: each batch reopens each of them.
  EXPECT_EQ(files->size(), 20u);
  EXPECT_EQ((*w)->files_opened(), 20);
  std::map<std::string, int64_t> rows_per_cat;
  std::set<int64_t> ids;
  for (const DataFile& f : *files) {
    for (const auto& [id, cat] : ReadBack(f)) {
      ASSERT_TRUE(cat.has_value());
      EXPECT_EQ(*cat, f.partition[0]->bytes());
      EXPECT_EQ(*cat, cats[static_cast<size_t>(id) % 5]);
      ++rows_per_cat[*cat];
      EXPECT_TRUE(ids.insert(id).second);
    }
  }
  EXPECT_EQ(ids.size(), 200u);
  for (const auto& c : cats) EXPECT_EQ(rows_per_cat[c], 40) << c;
}

TEST_F(PartitionedWriterTest, UnpartitionedWritesUnderData) {
  PartitionedWriterOptions options;
  int n = 0;
  options.file_name = [&n] { return "file-" + std::to_string(n++); };
  auto w = PartitionedWriter::Make(*fs_, dir_.string(), schema_, PartitionSpec(), options);
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  ASSERT_TRUE((*w)->Write(Rows(0, 10, {"a", "b"})).ok());
  ASSERT_TRUE((*w)->Write(Rows(10, 10, {"a", "b"})).ok());
  auto files = (*w)->Close();
  ASSERT_TRUE(files.ok());
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ((*files)[0].file_path, dir_.string() + "/data/file-0.parquet");
  EXPECT_TRUE((*files)[0].partition.empty());
  EXPECT_EQ((*files)[0].record_count, 20);
  EXPECT_FALSE((*w)->Write(Rows(0, 1, {"a"})).ok()) << "writes after Close must fail";
}

TEST_F(PartitionedWriterTest, DataPathPropertyAndAbort) {
  PartitionedWriterOptions options;
  options.file.table_properties["write.data.path"] = dir_.string() + "/elsewhere/";
  options.target_file_size_bytes = 1;  // every check rolls
  auto w = PartitionedWriter::Make(*fs_, dir_.string(), schema_, by_cat_, options);
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  ASSERT_TRUE((*w)->Write(Rows(0, 10, {"a", "b"})).ok());
  EXPECT_EQ((*w)->files_opened(), 2);
  EXPECT_TRUE(fs::exists(dir_ / "elsewhere" / "cat=a"));
  size_t before = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir_ / "elsewhere")) {
    before += e.is_regular_file();
  }
  EXPECT_EQ(before, 2u);
  (*w)->Abort();
  size_t after = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir_ / "elsewhere")) {
    after += e.is_regular_file();
  }
  EXPECT_EQ(after, 0u);
}

TEST_F(PartitionedWriterTest, BadOptionsNameTheProperty) {
  PartitionedWriterOptions options;
  options.file.table_properties["write.target-file-size-bytes"] = "big";
  auto w = PartitionedWriter::Make(*fs_, dir_.string(), schema_, by_cat_, options);
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.status().message().find("write.target-file-size-bytes"), std::string::npos);
  PartitionedWriterOptions zero;
  zero.max_open_writers = 0;
  EXPECT_FALSE(PartitionedWriter::Make(*fs_, dir_.string(), schema_, by_cat_, zero).ok());
  PartitionSpec bad(0, {PartitionField{1, {}, 1000, "id_hour", Transform::Hour(), ""}});
  auto b = PartitionedWriter::Make(*fs_, dir_.string(), schema_, bad);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("id_hour"), std::string::npos) << b.status().ToString();
}

}  // namespace
}  // namespace sqe::iceberg
