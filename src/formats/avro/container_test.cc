#include <gtest/gtest.h>

#include "formats/avro/avro_json.h"
#include "formats/avro/container_reader.h"
#include "formats/avro/container_writer.h"
#include "formats/avro/test_schemas.h"
#include "io/memory_file.h"

namespace sqe::avro {
namespace {

SchemaPtr ManifestSchema() { return *Schema::Parse(testing::kManifestEntrySchema); }

Json EntryJson(int i) {
  Json j = {{"status", i % 3},
            {"snapshot_id", i % 5 == 0 ? Json(nullptr) : Json(int64_t{1} << 40 | i)},
            {"data_file",
             {{"file_path", "s3://bucket/t/data/" + std::to_string(i) + ".parquet"},
              {"file_format", "PARQUET"},
              {"partition", {{"day", i % 7 == 0 ? Json(nullptr) : Json(19000 + i)}}},
              {"record_count", 1000 + i},
              {"column_sizes",
               Json::array({{{"key", 1}, {"value", 10 * i}}, {{"key", 2}, {"value", -i}}})},
              {"lower_bounds", Json::array({{{"key", 1}, {"value", Base64Encode("\x01\x02")}}})},
              {"split_offsets", i % 2 ? Json(nullptr) : Json::array({4, 1 << 20})},
              {"props", {{"a", "b"}, {"n", std::to_string(i)}}}}}};
  return j;
}

Value Entry(const SchemaPtr& schema, int i) {
  auto v = ValueFromJson(EntryJson(i), schema->root(), JsonBytes::kBase64);
  EXPECT_TRUE(v.ok()) << v.status().ToString();
  return *v;
}

std::string WriteFile(const SchemaPtr& schema, int n, ContainerWriterOptions options) {
  auto out = std::make_shared<io::MemoryOutputStream>();
  auto writer = ContainerWriter::Open(out, schema, options);
  EXPECT_TRUE(writer.ok());
  for (int i = 0; i < n; ++i) {
    EXPECT_TRUE((*writer)->Append(Entry(schema, i)).ok());
  }
  EXPECT_TRUE((*writer)->Close().ok());
  EXPECT_EQ((*writer)->length(), static_cast<int64_t>(out->data().size()));
  EXPECT_TRUE(out->closed());
  return out->data();
}

TEST(AvroContainer, RoundTripsEveryCodec) {
  SchemaPtr schema = ManifestSchema();
  for (Codec codec : {Codec::kNull, Codec::kDeflate, Codec::kSnappy, Codec::kZstandard}) {
    ContainerWriterOptions options;
    options.codec = codec;
    options.block_records = 7;
    options.metadata = {{"schema", "{\"type\":\"struct\"}"}, {"format-version", "2"}};
    std::string file = WriteFile(schema, 50, options);
    auto reader = ContainerReader::Open(file);
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    EXPECT_EQ((*reader)->codec(), codec);
    ASSERT_NE((*reader)->FindMetadata("format-version"), nullptr);
    EXPECT_EQ(*(*reader)->FindMetadata("format-version"), "2");
    EXPECT_EQ(*(*reader)->FindMetadata("avro.codec"), CodecName(codec));
    EXPECT_EQ((*reader)->writer_schema()->ToString(), schema->ToString());
    auto all = (*reader)->ReadAll();
    ASSERT_TRUE(all.ok()) << all.status().ToString();
    ASSERT_EQ(all->size(), 50u);
    for (int i = 0; i < 50; ++i) {
      EXPECT_EQ((*all)[i], Entry(schema, i)) << i;
      EXPECT_EQ(ValueToJson((*all)[i], schema->root(), JsonBytes::kBase64), EntryJson(i));
    }
  }
}

TEST(AvroContainer, TenThousandEntriesInSizedBlocks) {
  SchemaPtr schema = ManifestSchema();
  ContainerWriterOptions options;
  options.block_bytes = 64 * 1024;
  std::string file = WriteFile(schema, 10000, options);
  auto reader = ContainerReader::Open(file);
  ASSERT_TRUE(reader.ok());
  Value v;
  int n = 0;
  while (true) {
    auto more = (*reader)->Next(&v);
    ASSERT_TRUE(more.ok()) << more.status().ToString();
    if (!*more) break;
    if (n % 997 == 0) {
      EXPECT_EQ(v, Entry(schema, n));
    }
    ++n;
  }
  EXPECT_EQ(n, 10000);
}

TEST(AvroContainer, EmptyFileAndFixedSync) {
  SchemaPtr schema = ManifestSchema();
  ContainerWriterOptions options;
  options.sync_marker =
      std::array<uint8_t, 16>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  std::string file = WriteFile(schema, 0, options);
  EXPECT_EQ(file.substr(0, 4), std::string("Obj\x01", 4));
  EXPECT_EQ(file.substr(file.size() - 16),
            std::string("\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10"));
  auto reader = ContainerReader::Open(file);
  ASSERT_TRUE(reader.ok());
  EXPECT_TRUE((*reader)->ReadAll()->empty());
}

TEST(AvroContainer, WriterRejectsBadRecordsAndReservedKeys) {
  SchemaPtr schema = ManifestSchema();
  ContainerWriterOptions options;
  options.metadata = {{"avro.custom", "x"}};
  EXPECT_FALSE(
      ContainerWriter::Open(std::make_shared<io::MemoryOutputStream>(), schema, options).ok());
  auto out = std::make_shared<io::MemoryOutputStream>();
  auto writer = ContainerWriter::Open(out, schema, {});
  ASSERT_TRUE(writer.ok());
  Status st = (*writer)->Append(Value::Record({Value::String("wrong")}));
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  ASSERT_TRUE((*writer)->Append(Entry(schema, 1)).ok());
  ASSERT_TRUE((*writer)->Close().ok());
  auto all = (*ContainerReader::Open(out->data()))->ReadAll();
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 1u);
}

TEST(AvroContainer, HeaderLargerThanTheFirstRead) {
  SchemaPtr schema = ManifestSchema();
  ContainerWriterOptions options;
  options.metadata = {{"schema", std::string(300000, 'x')}};
  std::string file = WriteFile(schema, 3, options);
  auto reader = ContainerReader::Open(std::make_shared<io::MemoryFile>(file, "big-header.avro"));
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ((*reader)->FindMetadata("schema")->size(), 300000u);
  EXPECT_EQ((*reader)->ReadAll()->size(), 3u);
}

// Arrays and maps written with negative block counts (count, byte size) as Java may.
TEST(AvroContainer, NegativeBlockCounts) {
  auto schema = *Schema::Parse(R"({"type":"record","name":"R","fields":[
      {"name":"a","type":{"type":"array","items":"long"}},
      {"name":"m","type":{"type":"map","values":"int"}}]})");
  std::string datum;
  Encoder e(&datum);
  e.WriteLong(-2);
  e.WriteLong(2);  // byte size of the two items
  e.WriteLong(5);
  e.WriteLong(-6);
  e.WriteLong(1);
  e.WriteLong(7);
  e.WriteLong(0);
  e.WriteLong(-1);
  e.WriteLong(3);
  e.WriteBytes("k");
  e.WriteInt(9);
  e.WriteLong(0);
  Decoder d(datum);
  Value v;
  DecodeContext ctx;
  ASSERT_TRUE(DecodeDatum(&d, schema->root(), &v, &ctx).ok());
  EXPECT_TRUE(d.at_end());
  EXPECT_EQ(v, Value::Record({Value::Array({Value::Long(5), Value::Long(-6), Value::Long(7)}),
                              Value::Map({{"k", Value::Int(9)}})}));
}

}  // namespace
}  // namespace sqe::avro
