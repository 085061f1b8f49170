// ParquetWriter tests: files written by our writer are read back by pyarrow (values
// compared in the Trino JSON encoding, footer facts via ParquetFile.metadata) and by our
// own reader. The pyarrow checks are skipped unless the test-peer venv (or
// $SQE_PYARROW_PYTHON) has pyarrow.
#include "formats/parquet/file_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <sstream>

#include <unistd.h>

#include "columnar/binary_builder.h"
#include "columnar/boolean_builder.h"
#include "columnar/column_builder.h"
#include "columnar/fixed_size_binary_builder.h"
#include "columnar/fixed_width_builder.h"
#include "columnar/json_value_encoding.h"
#include "columnar/list_builder.h"
#include "columnar/map_builder.h"
#include "columnar/struct_builder.h"
#include "columnar/test_columns.h"
#include "formats/parquet/file_reader.h"
#include "formats/parquet/footer.h"
#include "formats/parquet/level_shredding.h"
#include "io/local_file.h"
#include "io/memory_file.h"

namespace sqe::parquet {
namespace {

using namespace sqe::columnar;  // NOLINT: test brevity
using columnar::testing::ValueOrDie;

std::string SourceDir() {
  const char* src = std::getenv("SQE_SOURCE_DIR");
  return src ? src : SQE_DEFAULT_SOURCE_DIR;
}

std::string Python() {
  const char* p = std::getenv("SQE_PYARROW_PYTHON");
  if (p != nullptr && *p != '\0') return p;
  std::string peers = SourceDir() + "/tests/peers/.venv/bin/python";
  if (std::filesystem::exists(peers)) return peers;
  return "python3";
}

bool HavePyarrow() {
  static const bool have =
      std::system((Python() + " -c 'import pyarrow.parquet' >/dev/null 2>&1").c_str()) == 0;
  return have;
}

std::string RunCapture(const std::string& cmd) {
  std::string out;
  FILE* f = ::popen(cmd.c_str(), "r");
  if (f == nullptr) return out;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  EXPECT_EQ(::pclose(f), 0) << cmd << "\n" << out.substr(0, 4000);
  return out;
}

std::string Dump(const std::string& path, const std::string& mode) {
  return RunCapture(Python() + " " + SourceDir() + "/src/formats/parquet/writer_test_dump.py " +
                    path + " " + mode + " 2>&1");
}

std::map<std::string, std::string> Meta(const std::string& path) {
  std::map<std::string, std::string> out;
  std::istringstream in(Dump(path, "meta"));
  std::string line;
  while (std::getline(in, line)) {
    size_t eq = line.find('=');
    if (eq != std::string::npos) out[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return out;
}

class TempDir {
 public:
  TempDir() {
    path_ = std::filesystem::temp_directory_path() /
            ("sqe_parquet_writer_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string File(const std::string& name) const { return (path_ / name).string(); }

 private:
  static inline int counter_ = 0;
  std::filesystem::path path_;
};

uint64_t Mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb3fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

// Appends one deterministic pseudo-random value of `t` (nulls at every nullable level,
// empty and null lists) derived from `h`.
Status Gen(ColumnBuilder* b, const DataType& t, uint64_t h, bool nullable) {
  h = Mix(h);
  if (nullable && h % 7 == 0) return b->AppendNull();
  const int64_t s = static_cast<int64_t>(h >> 8);
  switch (t.id()) {
    case TypeId::kBoolean:
      return static_cast<BooleanBuilder*>(b)->Append((h >> 5) & 1);
    case TypeId::kInt8:
      return static_cast<Int8Builder*>(b)->Append(static_cast<int8_t>(s));
    case TypeId::kInt16:
      return static_cast<Int16Builder*>(b)->Append(static_cast<int16_t>(s));
    case TypeId::kInt32:
      return static_cast<Int32Builder*>(b)->Append(static_cast<int32_t>(s));
    case TypeId::kInt64:
      return static_cast<Int64Builder*>(b)->Append(static_cast<int64_t>(h));
    case TypeId::kFloat32: {
      static const float kVals[] = {1.5f, -2.25f, 0.5f, 1024.75f, -0.125f, 6.75f};
      return static_cast<Float32Builder*>(b)->Append(kVals[s % 6]);
    }
    case TypeId::kFloat64: {
      static const double kVals[] = {1.5, -2.25, 0.5, 1e+20, -0.125, NAN, 7.25};
      return static_cast<Float64Builder*>(b)->Append(kVals[s % 7]);
    }
    case TypeId::kDecimal128: {
      int64_t limit = 1;
      for (int i = 0; i < std::min(t.precision(), 18); ++i) limit *= 10;
      int64_t v = s % limit;
      if (h & 2) v = -v;
      return static_cast<Decimal128Builder*>(b)->Append(Decimal128(v));
    }
    case TypeId::kString: {
      static const char* kVals[] = {"", "a", "héllo", "zz", "€uro", "b"};
      return static_cast<BinaryBuilder*>(b)->Append(std::string(kVals[s % 6]) +
                                                    std::to_string(s % 50));
    }
    case TypeId::kBinary: {
      std::string v(static_cast<size_t>(s % 5), '\0');
      for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<char>(h >> (i * 8));
      return static_cast<BinaryBuilder*>(b)->Append(v);
    }
    case TypeId::kFixedSizeBinary:
    case TypeId::kUuid: {
      std::string v(static_cast<size_t>(t.byte_width()), '\0');
      for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<char>(Mix(h + i) & 0xff);
      return static_cast<FixedSizeBinaryBuilder*>(b)->Append(v);
    }
    case TypeId::kDate32:
      return static_cast<Date32Builder*>(b)->Append(static_cast<int32_t>(s % 40000 - 20000));
    case TypeId::kTime64: {
      int64_t day = t.unit() == TimeUnit::kMicro ? 86400000000LL : 86400000000000LL;
      return static_cast<Time64Builder*>(b)->Append(s % day);
    }
    case TypeId::kTimestamp: {
      int64_t range = t.unit() == TimeUnit::kMicro ? 3000000000000000LL : 3000000000000000000LL;
      return static_cast<TimestampBuilder*>(b)->Append(s % range - range / 2);
    }
    case TypeId::kList: {
      auto* lb = static_cast<ListBuilder*>(b);
      SQE_RETURN_NOT_OK(lb->Append());
      for (uint64_t k = 0; k < (h >> 3) % 4; ++k) {
        SQE_RETURN_NOT_OK(Gen(lb->value_builder(), *t.value_field().type(), h + k + 1,
                              t.value_field().nullable()));
      }
      return Status::OK();
    }
    case TypeId::kMap: {
      auto* mb = static_cast<MapBuilder*>(b);
      SQE_RETURN_NOT_OK(mb->Append());
      for (uint64_t k = 0; k < (h >> 3) % 4; ++k) {
        // Distinct keys per map: the key is the entry index.
        if (t.key_field().type()->id() == TypeId::kString) {
          SQE_RETURN_NOT_OK(mb->key_builder_as<BinaryBuilder>()->Append("k" + std::to_string(k)));
        } else {
          SQE_RETURN_NOT_OK(mb->key_builder_as<Int32Builder>()->Append(static_cast<int32_t>(k)));
        }
        SQE_RETURN_NOT_OK(
            Gen(mb->item_builder(), *t.item_field().type(), h + k + 1, t.item_field().nullable()));
      }
      return Status::OK();
    }
    case TypeId::kStruct: {
      auto* sb = static_cast<StructBuilder*>(b);
      SQE_RETURN_NOT_OK(sb->Append());
      for (int i = 0; i < t.num_fields(); ++i) {
        SQE_RETURN_NOT_OK(
            Gen(sb->field_builder(i), *t.field(i).type(), h + 31 * (i + 1), t.field(i).nullable()));
      }
      return Status::OK();
    }
  }
  return Status::Internal("unhandled type");
}

Batch MakeBatch(const SchemaPtr& schema, int64_t rows, uint64_t seed) {
  std::vector<Column> cols;
  for (int c = 0; c < schema->num_fields(); ++c) {
    auto b = ValueOrDie(MakeBuilder(schema->field(c).type()));
    for (int64_t r = 0; r < rows; ++r) {
      columnar::testing::DieIfError(Gen(b.get(), *schema->field(c).type(),
                                        seed * 1000003 + r * 131 + c, schema->field(c).nullable()));
    }
    cols.push_back(ValueOrDie(b->Finish()));
  }
  return ValueOrDie(Batch::Make(schema, std::move(cols), rows));
}

std::string ExpectedRows(const std::vector<Batch>& batches) {
  std::string out;
  for (const Batch& b : batches) {
    for (int64_t r = 0; r < b.num_rows(); ++r) {
      columnar::testing::DieIfError(AppendJsonRowArray(b, r, &out));
      out += "\n";
    }
  }
  return out;
}

Result<std::string> ReadWholeFile(const std::string& path) {
  SQE_ASSIGN_OR_RETURN(auto file, io::OpenLocalFile(path));
  SQE_ASSIGN_OR_RETURN(int64_t size, file->Size());
  std::string data(static_cast<size_t>(size), '\0');
  SQE_RETURN_NOT_OK(file->ReadAt(0, size, reinterpret_cast<uint8_t*>(data.data())));
  return data;
}

Result<FileMetrics> WriteFile(const std::string& path, const SchemaPtr& schema,
                              const std::vector<Batch>& batches, const WriterOptions& options) {
  SQE_ASSIGN_OR_RETURN(auto out, io::CreateLocalFile(path));
  SQE_ASSIGN_OR_RETURN(auto writer, ParquetWriter::Open(std::move(out), schema, options));
  for (const Batch& b : batches) SQE_RETURN_NOT_OK(writer->Write(b));
  return writer->Close();
}

Field F(std::string name, TypePtr type, int32_t id, bool nullable = true) {
  return Field(std::move(name), std::move(type), nullable, id);
}

SchemaPtr AllTypesSchema() {
  return Schema::Make({
      F("id", Int64(), 1, false),
      F("b", Boolean(), 2),
      F("i8", Int8(), 3),
      F("i16", Int16(), 4),
      F("i32", Int32(), 5),
      F("i64", Int64(), 6),
      F("f32", Float32(), 7),
      F("f64", Float64(), 8),
      F("d9", Decimal(9, 2), 9),
      F("d18", Decimal(18, 4), 10),
      F("d38", Decimal(38, 10), 11),
      F("s", String(), 12),
      F("bin", Binary(), 13),
      F("fx", FixedSizeBinary(5), 14),
      F("uuid", Uuid(), 15),
      F("date", Date32(), 16),
      F("t", Time64(TimeUnit::kMicro), 17),
      F("ts", Timestamp(TimeUnit::kMicro), 18),
      F("tstz", TimestampTz(TimeUnit::kMicro), 19),
      F("tsns", Timestamp(TimeUnit::kNano), 20),
  });
}

SchemaPtr NestedSchema() {
  return Schema::Make({
      F("id", Int32(), 1, false),
      F("li", List(Field("element", Int32(), true, 101)), 2),
      F("lls", List(Field("element", List(Field("element", String(), true, 103)), true, 102)), 3),
      F("st",
        Struct(
            {F("a", Int64(), 104),
             F("b",
               List(Field("element", Struct({F("x", Float64(), 106), F("y", String(), 107, false)}),
                          false, 105)),
               108)}),
        4),
      F("m", Map(Field("key", String(), false, 109), Field("value", Int64(), true, 110)), 5),
      F("mi",
        Map(Field("key", Int32(), false, 111),
            Field("value", List(Field("element", Decimal(20, 3), true, 113)), true, 112)),
        6),
      F("rs", Struct({F("q", Boolean(), 114, false)}), 7, false),
  });
}

// Compares line by line so a failure shows the first differing row, not the whole file.
void ExpectPyarrowRows(const std::string& path, const std::vector<Batch>& batches) {
  std::istringstream got(Dump(path, "rows")), want(ExpectedRows(batches));
  std::string g, w;
  int64_t row = 0;
  while (true) {
    const bool more_got = static_cast<bool>(std::getline(got, g));
    const bool more_want = static_cast<bool>(std::getline(want, w));
    if (!more_got && !more_want) break;
    ASSERT_EQ(more_got, more_want) << path << ": row count differs at row " << row << ": " << g;
    ASSERT_EQ(g, w) << path << " row " << row;
    ++row;
  }
}

TEST(ParquetWriter, ShredsNestedLevels) {
  // [[1, null], [], null] as list<int32 nullable>, nullable list.
  auto type = List(Int32());
  auto b = ValueOrDie(MakeBuilder(type));
  auto* lb = static_cast<ListBuilder*>(b.get());
  SQE_ASSERT_OK(lb->Append());
  SQE_ASSERT_OK(lb->value_builder_as<Int32Builder>()->Append(1));
  SQE_ASSERT_OK(lb->value_builder()->AppendNull());
  SQE_ASSERT_OK(lb->Append());
  SQE_ASSERT_OK(lb->AppendNull());
  Column col = ValueOrDie(lb->Finish());
  auto leaves = ValueOrDie(ShredColumn(Field("l", type), col));
  ASSERT_EQ(leaves.size(), 1u);
  EXPECT_EQ(leaves[0].max_def, 3);
  EXPECT_EQ(leaves[0].max_rep, 1);
  EXPECT_EQ(leaves[0].def_levels, (std::vector<int16_t>{3, 2, 1, 0}));
  EXPECT_EQ(leaves[0].rep_levels, (std::vector<int16_t>{0, 1, 0, 0}));
  EXPECT_EQ(leaves[0].value_rows, (std::vector<int64_t>{0}));
}

TEST(ParquetWriter, AllTypesEveryCodecAndPageVersion) {
  if (!HavePyarrow()) GTEST_SKIP() << "pyarrow not available";
  TempDir dir;
  SchemaPtr schema = AllTypesSchema();
  std::vector<Batch> batches = {MakeBatch(schema, 300, 1), MakeBatch(schema, 0, 2),
                                MakeBatch(schema, 77, 3)};
  struct Case {
    CompressionCodec codec;
    int level;
    DataPageVersion version;
    const char* name;
  };
  const Case cases[] = {
      {CompressionCodec::kZstd, kDefaultCompressionLevel, DataPageVersion::kV1, "ZSTD"},
      {CompressionCodec::kZstd, 9, DataPageVersion::kV2, "ZSTD"},
      {CompressionCodec::kSnappy, kDefaultCompressionLevel, DataPageVersion::kV1, "SNAPPY"},
      {CompressionCodec::kGzip, 6, DataPageVersion::kV2, "GZIP"},
      // pyarrow names LZ4_RAW "LZ4" (and the Hadoop framing "LZ4_HADOOP").
      {CompressionCodec::kLz4, kDefaultCompressionLevel, DataPageVersion::kV1, "LZ4"},
      {CompressionCodec::kUncompressed, kDefaultCompressionLevel, DataPageVersion::kV2,
       "UNCOMPRESSED"},
  };
  int n = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.name) + (c.version == DataPageVersion::kV1 ? " v1" : " v2"));
    WriterOptions options;
    options.codec = c.codec;
    options.compression_level = c.level;
    options.page_version = c.version;
    options.data_page_values = 100;  // several pages per chunk
    options.key_value_metadata = {{"writer.test", "yes"}};
    std::string path = dir.File("all" + std::to_string(n++) + ".parquet");
    auto metrics = WriteFile(path, schema, batches, options);
    ASSERT_TRUE(metrics.ok()) << metrics.status().ToString();
    ExpectPyarrowRows(path, batches);
    auto meta = Meta(path);
    EXPECT_EQ(meta["num_rows"], "377");
    EXPECT_EQ(meta["num_row_groups"], "1");
    EXPECT_EQ(meta["created_by"].rfind("sqe version ", 0), 0u) << meta["created_by"];
    EXPECT_EQ(meta["kv.writer.test"], "yes");
    EXPECT_EQ(meta["field_id.id"], "1");
    EXPECT_EQ(meta["field_id.tsns"], "20");
    for (const Field& f : schema->fields()) {
      const std::string p = "rg0." + f.name() + ".";
      EXPECT_EQ(meta[p + "compression"], c.name) << f.name();
      EXPECT_EQ(meta[p + "has_column_index"], "True") << f.name();
      EXPECT_EQ(meta[p + "has_offset_index"], "True") << f.name();
    }
    EXPECT_EQ(meta["rg0.id.null_count"], "0");
    auto footer = ParseFooter(ValueOrDie(ReadWholeFile(path)));
    ASSERT_TRUE(footer.ok()) << footer.status().ToString();
    const CompressionCodec expected_codec =
        c.codec == CompressionCodec::kLz4 ? CompressionCodec::kLz4Raw : c.codec;
    for (const ColumnChunk& cc : footer->row_groups[0].columns) {
      EXPECT_EQ(cc.meta_data->codec, expected_codec);
    }
    EXPECT_EQ(metrics->record_count, 377);
    EXPECT_EQ(metrics->file_size, static_cast<int64_t>(std::filesystem::file_size(path)));
    EXPECT_EQ(metrics->columns.size(), 20u);
  }
}

TEST(ParquetWriter, NestedWithNullsAtEveryLevel) {
  if (!HavePyarrow()) GTEST_SKIP() << "pyarrow not available";
  TempDir dir;
  SchemaPtr schema = NestedSchema();
  std::vector<Batch> batches = {MakeBatch(schema, 500, 7), MakeBatch(schema, 33, 8)};
  for (DataPageVersion v : {DataPageVersion::kV1, DataPageVersion::kV2}) {
    WriterOptions options;
    options.page_version = v;
    options.data_page_values = 64;
    std::string path = dir.File(v == DataPageVersion::kV1 ? "n1.parquet" : "n2.parquet");
    auto metrics = WriteFile(path, schema, batches, options);
    ASSERT_TRUE(metrics.ok()) << metrics.status().ToString();
    ExpectPyarrowRows(path, batches);
    auto meta = Meta(path);
    EXPECT_EQ(meta["field_id.li.element"], "101");
    EXPECT_EQ(meta["field_id.lls.element.element"], "103");
    EXPECT_EQ(meta["field_id.st.b.element.y"], "107");
    EXPECT_EQ(meta["field_id.m.key"], "109");
    EXPECT_EQ(meta["field_id.mi.value.element"], "113");
    EXPECT_EQ(meta["rg0.lls.list.element.list.element.has_offset_index"], "True");
    // Leaves inside lists and maps get counts but no bounds; others get both.
    for (const ColumnMetrics& m : metrics->columns) {
      const bool repeated = m.field_id != 1 && m.field_id != 104 && m.field_id != 114;
      EXPECT_EQ(m.lower_bound.has_value(), !repeated) << m.field_id;
    }
  }
}

TEST(ParquetWriter, ZeroRowFiles) {
  if (!HavePyarrow()) GTEST_SKIP() << "pyarrow not available";
  TempDir dir;
  for (SchemaPtr schema : {AllTypesSchema(), NestedSchema()}) {
    std::string path = dir.File("empty.parquet");
    auto metrics = WriteFile(path, schema, {}, {});
    ASSERT_TRUE(metrics.ok()) << metrics.status().ToString();
    EXPECT_EQ(Dump(path, "rows"), "");
    EXPECT_EQ(Meta(path)["num_rows"], "0");
    EXPECT_EQ(metrics->record_count, 0);
    EXPECT_TRUE(metrics->split_offsets.empty());
    path = dir.File("empty_batch.parquet");
    metrics = WriteFile(path, schema, {MakeBatch(schema, 0, 1)}, {});
    ASSERT_TRUE(metrics.ok()) << metrics.status().ToString();
    EXPECT_EQ(Meta(path)["num_rows"], "0");
  }
}

TEST(ParquetWriter, ManyRowGroupsAndSplitOffsets) {
  if (!HavePyarrow()) GTEST_SKIP() << "pyarrow not available";
  TempDir dir;
  SchemaPtr schema = NestedSchema();
  std::vector<Batch> batches = {MakeBatch(schema, 650, 11), MakeBatch(schema, 400, 12)};
  WriterOptions options;
  options.row_group_rows = 100;
  options.data_page_values = 50;
  std::string path = dir.File("rg.parquet");
  auto metrics = WriteFile(path, schema, batches, options);
  ASSERT_TRUE(metrics.ok()) << metrics.status().ToString();
  ExpectPyarrowRows(path, batches);
  auto meta = Meta(path);
  EXPECT_EQ(meta["num_row_groups"], "11");
  ASSERT_EQ(metrics->split_offsets.size(), 11u);
  for (int g = 0; g < 11; ++g) {
    EXPECT_EQ(meta["rg" + std::to_string(g) + ".num_rows"], g < 10 ? "100" : "50");
    EXPECT_EQ(meta["rg" + std::to_string(g) + ".id.first_offset"],
              std::to_string(metrics->split_offsets[g]));
  }
  // Byte target: tiny row groups by size.
  options.row_group_rows = 0;
  options.row_group_bytes = 2000;
  path = dir.File("rg_bytes.parquet");
  metrics = WriteFile(path, schema, batches, options);
  ASSERT_TRUE(metrics.ok()) << metrics.status().ToString();
  EXPECT_GT(metrics->split_offsets.size(), 1u);
  ExpectPyarrowRows(path, batches);
}

TEST(ParquetWriter, DictionaryFallsBackToPlain) {
  if (!HavePyarrow()) GTEST_SKIP() << "pyarrow not available";
  TempDir dir;
  auto schema = Schema::Make({F("s", String(), 1), F("n", Int64(), 2)});
  BinaryBuilder sb;
  Int64Builder nb(Int64());
  for (int i = 0; i < 3000; ++i) {
    SQE_ASSERT_OK(sb.Append("value-" + std::to_string(i * 7919 % 3001)));
    SQE_ASSERT_OK(nb.Append(i % 10));
  }
  Batch batch =
      ValueOrDie(Batch::Make(schema, {ValueOrDie(sb.Finish()), ValueOrDie(nb.Finish())}, 3000));
  WriterOptions options;
  options.dictionary_page_bytes = 4000;
  options.data_page_values = 500;
  std::string path = dir.File("dict.parquet");
  auto metrics = WriteFile(path, schema, {batch}, options);
  ASSERT_TRUE(metrics.ok()) << metrics.status().ToString();
  ExpectPyarrowRows(path, {batch});
  auto meta = Meta(path);
  EXPECT_EQ(meta["rg0.s.encodings"], "PLAIN,RLE,RLE_DICTIONARY");
  EXPECT_EQ(meta["rg0.n.encodings"], "PLAIN,RLE,RLE_DICTIONARY");
  EXPECT_EQ(meta["rg0.s.min"], "value-0");
  EXPECT_EQ(meta["rg0.s.max"], "value-999");
  // Without dictionaries every page is PLAIN.
  options.dictionary = false;
  path = dir.File("plain.parquet");
  ASSERT_TRUE(WriteFile(path, schema, {batch}, options).ok());
  ExpectPyarrowRows(path, {batch});
  EXPECT_EQ(Meta(path)["rg0.s.encodings"], "PLAIN,RLE");
}

std::string LE64(int64_t v) { return std::string(reinterpret_cast<const char*>(&v), 8); }
std::string LE32(int32_t v) { return std::string(reinterpret_cast<const char*>(&v), 4); }

TEST(ParquetWriter, StatisticsAndIcebergMetrics) {
  TempDir dir;
  auto schema = Schema::Make({F("i", Int32(), 1), F("s", String(), 2), F("d", Float64(), 3),
                              F("dec", Decimal(10, 2), 4), F("bin", Binary(), 5),
                              F("l", List(Field("element", Int64(), true, 7)), 6)});
  Column i = columnar::testing::Int32s({5, -3, std::nullopt, 100});
  Column s = columnar::testing::Strings({"b", "é", std::nullopt, "abcdefghijklmnopqrstuvwxyz"});
  Column d = columnar::testing::Float64s({NAN, -1.5, 2.5, std::nullopt});
  Decimal128Builder decb(Decimal(10, 2));
  SQE_ASSERT_OK(decb.Append(Decimal128(-12345)));
  SQE_ASSERT_OK(decb.Append(Decimal128(255)));
  SQE_ASSERT_OK(decb.AppendNull());
  SQE_ASSERT_OK(decb.Append(Decimal128(0)));
  BinaryBuilder binb(Binary());
  SQE_ASSERT_OK(binb.Append(std::string(20, '\xff')));
  SQE_ASSERT_OK(binb.Append(std::string("\x01\x02", 2)));
  SQE_ASSERT_OK(binb.AppendNull());
  SQE_ASSERT_OK(binb.Append(std::string(18, '\x7f') + "\xff\xff"));
  auto lb = ValueOrDie(MakeBuilder(schema->field(5).type()));
  for (int r = 0; r < 4; ++r) {
    auto* l = static_cast<ListBuilder*>(lb.get());
    SQE_ASSERT_OK(l->Append());
    SQE_ASSERT_OK(l->value_builder_as<Int64Builder>()->Append(r));
    SQE_ASSERT_OK(l->value_builder()->AppendNull());
  }
  Batch batch = ValueOrDie(Batch::Make(
      schema,
      {i, s, d, ValueOrDie(decb.Finish()), ValueOrDie(binb.Finish()), ValueOrDie(lb->Finish())},
      4));
  std::string path = dir.File("stats.parquet");
  auto metrics = WriteFile(path, schema, {batch}, {});
  ASSERT_TRUE(metrics.ok()) << metrics.status().ToString();
  ASSERT_EQ(metrics->columns.size(), 6u);
  const ColumnMetrics& mi = metrics->columns[0];
  EXPECT_EQ(mi.field_id, 1);
  EXPECT_EQ(mi.value_count, 4);
  EXPECT_EQ(mi.null_count, 1);
  EXPECT_FALSE(mi.nan_count.has_value());
  EXPECT_EQ(mi.lower_bound, LE32(-3));
  EXPECT_EQ(mi.upper_bound, LE32(100));
  EXPECT_GT(mi.column_size, 0);
  const ColumnMetrics& ms = metrics->columns[1];
  EXPECT_EQ(ms.lower_bound, "abcdefghijklmnop");  // truncated to 16 code points
  EXPECT_EQ(ms.upper_bound, "é");                 // unsigned byte order: 0xc3 > 'b'
  const ColumnMetrics& md = metrics->columns[2];
  EXPECT_EQ(md.nan_count, 1);
  double lo = 0, hi = 0;
  std::memcpy(&lo, md.lower_bound->data(), 8);
  std::memcpy(&hi, md.upper_bound->data(), 8);
  EXPECT_EQ(lo, -1.5);
  EXPECT_EQ(hi, 2.5);
  const ColumnMetrics& mdec = metrics->columns[3];
  EXPECT_EQ(mdec.lower_bound, std::string("\xcf\xc7", 2));  // -12345 big-endian, minimal
  EXPECT_EQ(mdec.upper_bound, std::string("\x00\xff", 2));  // 255 needs a sign byte
  const ColumnMetrics& mbin = metrics->columns[4];
  EXPECT_EQ(mbin.lower_bound, std::string("\x01\x02", 2));
  EXPECT_FALSE(mbin.upper_bound.has_value());  // 16 x 0xff cannot be rounded up
  const ColumnMetrics& ml = metrics->columns[5];
  EXPECT_EQ(ml.field_id, 7);
  EXPECT_EQ(ml.value_count, 8);
  EXPECT_EQ(ml.null_count, 4);
  EXPECT_FALSE(ml.lower_bound.has_value());
  if (!HavePyarrow()) return;
  auto meta = Meta(path);
  EXPECT_EQ(meta["rg0.i.min"], "-3");
  EXPECT_EQ(meta["rg0.i.max"], "100");
  EXPECT_EQ(meta["rg0.i.null_count"], "1");
  EXPECT_EQ(meta["rg0.s.min"], "abcdefghijklmnopqrstuvwxyz");
  EXPECT_EQ(meta["rg0.s.max"], "é");
  EXPECT_EQ(meta["rg0.d.min"], "-1.5");
  EXPECT_EQ(meta["rg0.d.max"], "2.5");
  EXPECT_EQ(meta["rg0.dec.min"], "-123.45");
  EXPECT_EQ(meta["rg0.dec.max"], "2.55");
  EXPECT_EQ(meta["rg0.l.list.element.null_count"], "4");
  ExpectPyarrowRows(path, {batch});
}

TEST(ParquetWriter, RoundTripThroughOurReader) {
  for (SchemaPtr schema : {AllTypesSchema(), NestedSchema()}) {
    std::vector<Batch> batches = {MakeBatch(schema, 250, 21), MakeBatch(schema, 90, 22)};
    for (DataPageVersion v : {DataPageVersion::kV1, DataPageVersion::kV2}) {
      auto out = std::make_unique<io::MemoryOutputStream>();
      io::MemoryOutputStream* raw = out.get();
      WriterOptions options;
      options.page_version = v;
      options.row_group_rows = 128;
      options.data_page_values = 40;
      options.dictionary_page_bytes = 300;
      auto writer = ValueOrDie(ParquetWriter::Open(std::move(out), schema, options));
      for (const Batch& b : batches) SQE_ASSERT_OK(writer->Write(b));
      SQE_ASSERT_OK(writer->Close());
      auto file = std::make_shared<io::MemoryFile>(raw->data());
      auto reader = ParquetFileReader::Open(file);
      ASSERT_TRUE(reader.ok()) << reader.status().ToString();
      auto read = (*reader)->ReadAll();
      ASSERT_TRUE(read.ok()) << read.status().ToString();
      EXPECT_EQ(ExpectedRows(*read), ExpectedRows(batches));
    }
  }
}

TEST(ParquetWriter, RejectsMismatchedBatchesAndAbortsUnclosedFiles) {
  TempDir dir;
  auto schema = Schema::Make({F("i", Int32(), 1, false)});
  std::string path = dir.File("x.parquet");
  {
    auto writer = ValueOrDie(ParquetWriter::Open(ValueOrDie(io::CreateLocalFile(path)), schema));
    auto other = Schema::Make({F("i", Int64(), 1)});
    EXPECT_FALSE(writer->Write(MakeBatch(other, 3, 1)).ok());
  }
  EXPECT_FALSE(std::filesystem::exists(path));  // destroyed without Close: aborted
}

}  // namespace
}  // namespace sqe::parquet
