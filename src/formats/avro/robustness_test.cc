// Hostile container files: every failure is a Corruption Status naming the file, never a
// crash or a huge allocation.
#include <gtest/gtest.h>

#include "formats/avro/avro_encoding.h"
#include "formats/avro/container_format.h"
#include "formats/avro/container_reader.h"
#include "formats/avro/container_writer.h"
#include "io/memory_file.h"

namespace sqe::avro {
namespace {

const char* kSchema = R"({"type":"record","name":"R","fields":[
    {"name":"id","type":"long"},{"name":"tags","type":{"type":"array","items":"string"}},
    {"name":"m","type":["null",{"type":"map","values":"bytes"}]}]})";

std::string GoodFile(Codec codec = Codec::kNull) {
  SchemaPtr schema = *Schema::Parse(kSchema);
  auto out = std::make_shared<io::MemoryOutputStream>();
  ContainerWriterOptions options;
  options.codec = codec;
  options.block_records = 2;
  auto writer = ContainerWriter::Open(out, schema, options).value();
  for (int i = 0; i < 5; ++i) {
    Value::MapEntries m = {{"k", Value::Bytes("v")}};
    EXPECT_TRUE(writer
                    ->Append(Value::Record({Value::Long(i),
                                            Value::Array({Value::String("a"), Value::String("b")}),
                                            Value::Map(m)}))
                    .ok());
  }
  EXPECT_TRUE(writer->Close().ok());
  return out->data();
}

Status ReadEverything(std::string bytes) {
  auto reader = ContainerReader::Open(std::move(bytes), {}, "bad.avro");
  if (!reader.ok()) return reader.status();
  return (*reader)->ReadAll().status();
}

// A header with the given metadata entries and sync "0123456789abcdef", then `blocks`.
std::string Header(const std::vector<std::pair<std::string, std::string>>& meta) {
  std::string out(kContainerMagic);
  Encoder e(&out);
  e.WriteLong(static_cast<int64_t>(meta.size()));
  for (const auto& [k, v] : meta) {
    e.WriteBytes(k);
    e.WriteBytes(v);
  }
  e.WriteLong(0);
  out += "0123456789abcdef";
  return out;
}

TEST(AvroRobustness, EveryTruncationFailsCleanly) {
  for (Codec codec : {Codec::kNull, Codec::kDeflate, Codec::kSnappy, Codec::kZstandard}) {
    const std::string file = GoodFile(codec);
    ASSERT_TRUE(ReadEverything(file).ok());
    for (size_t n = 0; n < file.size(); ++n) {
      auto reader = ContainerReader::Open(file.substr(0, n), {}, "bad.avro");
      Status st = reader.ok() ? (*reader)->ReadAll().status() : reader.status();
      // A cut exactly at a block boundary is a valid file holding fewer records.
      if (st.ok()) {
        EXPECT_LT((*reader)->records_read(), 5) << n;
        continue;
      }
      EXPECT_TRUE(st.code() == StatusCode::kCorruption) << st.ToString();
      EXPECT_NE(st.message().find("bad.avro"), std::string::npos) << st.ToString();
    }
  }
}

TEST(AvroRobustness, EveryByteFlipIsHandled) {
  const std::string file = GoodFile(Codec::kDeflate);
  for (size_t i = 0; i < file.size(); ++i) {
    std::string bad = file;
    bad[i] = static_cast<char>(bad[i] ^ 0x5a);
    (void)ReadEverything(bad);  // must not crash; many flips are still valid files
  }
}

TEST(AvroRobustness, BadMagicCodecAndSync) {
  std::string file = GoodFile();
  std::string bad_magic = file;
  bad_magic[3] = '\x02';
  Status st = ReadEverything(bad_magic);
  EXPECT_EQ(st.code(), StatusCode::kCorruption);
  EXPECT_NE(st.message().find("magic"), std::string::npos);

  st = ReadEverything(Header({{"avro.schema", "\"long\""}, {"avro.codec", "lzo"}}));
  EXPECT_EQ(st.code(), StatusCode::kCorruption);
  EXPECT_NE(st.message().find("lzo"), std::string::npos);

  st = ReadEverything(Header({{"avro.codec", "null"}}));
  EXPECT_NE(st.message().find("avro.schema"), std::string::npos);

  std::string block = Header({{"avro.schema", "\"long\""}});
  Encoder e(&block);
  e.WriteLong(1);
  e.WriteLong(1);
  e.WriteLong(3);
  block += "0123456789abcdeX";
  st = ReadEverything(block);
  EXPECT_EQ(st.code(), StatusCode::kCorruption);
  EXPECT_NE(st.message().find("sync"), std::string::npos);
}

TEST(AvroRobustness, AbsurdCountsAndLengths) {
  // Metadata claiming 2^62 entries.
  std::string meta(kContainerMagic);
  Encoder(&meta).WriteLong(int64_t{1} << 62);
  EXPECT_EQ(ReadEverything(meta).code(), StatusCode::kCorruption);

  // A block claiming 10^15 records of 1 byte.
  std::string block = Header({{"avro.schema", "\"long\""}});
  Encoder e(&block);
  e.WriteLong(1000000000000000);
  e.WriteLong(1);
  e.WriteLong(3);
  block += "0123456789abcdef";
  EXPECT_EQ(ReadEverything(block).code(), StatusCode::kCorruption);

  // A block claiming more bytes than the file has.
  std::string huge = Header({{"avro.schema", "\"long\""}});
  Encoder(&huge).WriteLong(1);
  Encoder(&huge).WriteLong(int64_t{1} << 40);
  EXPECT_EQ(ReadEverything(huge).code(), StatusCode::kCorruption);

  // An array of 2^40 strings inside a small block.
  std::string arr = Header({{"avro.schema", R"({"type":"array","items":"string"})"}});
  std::string datum;
  Encoder(&datum).WriteLong(int64_t{1} << 40);
  datum += "xx";
  Encoder(&arr).WriteLong(1);
  Encoder(&arr).WriteLong(static_cast<int64_t>(datum.size()));
  arr += datum + "0123456789abcdef";
  EXPECT_EQ(ReadEverything(arr).code(), StatusCode::kCorruption);

  // An array of 2^40 nulls: zero bytes each, refused by the item budget.
  std::string nulls = Header({{"avro.schema", R"({"type":"array","items":"null"})"}});
  datum.clear();
  Encoder(&datum).WriteLong(int64_t{1} << 40);
  Encoder(&datum).WriteLong(0);
  Encoder(&nulls).WriteLong(1);
  Encoder(&nulls).WriteLong(static_cast<int64_t>(datum.size()));
  nulls += datum + "0123456789abcdef";
  EXPECT_EQ(ReadEverything(nulls).code(), StatusCode::kCorruption);

  // Trailing bytes inside a block.
  std::string trailing = Header({{"avro.schema", "\"long\""}});
  Encoder(&trailing).WriteLong(1);
  Encoder(&trailing).WriteLong(2);
  trailing += std::string("\x02\x02", 2) + "0123456789abcdef";
  EXPECT_EQ(ReadEverything(trailing).code(), StatusCode::kCorruption);
}

TEST(AvroRobustness, DeepRecursiveDatumIsRefused) {
  const char* schema =
      R"({"type":"record","name":"L","fields":[{"name":"next","type":["null","L"]}]})";
  std::string file = Header({{"avro.schema", schema}});
  std::string datum(100000, '\x02');  // branch 1 forever
  Encoder(&file).WriteLong(1);
  Encoder(&file).WriteLong(static_cast<int64_t>(datum.size()));
  file += datum + "0123456789abcdef";
  Status st = ReadEverything(file);
  EXPECT_EQ(st.code(), StatusCode::kCorruption);
  EXPECT_NE(st.message().find("deeper"), std::string::npos);
}

}  // namespace
}  // namespace sqe::avro
