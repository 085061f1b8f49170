// A bounded mutation loop over every decoder (the in-tree stand-in for the fuzz targets
// to come): mutated valid inputs and random bytes must give OK or Corruption, never a crash,
// sanitizer report or huge allocation.
#include <gtest/gtest.h>

#include <random>

#include "formats/parquet/compression.h"
#include "formats/parquet/encoding/delta.h"
#include "formats/parquet/encoding/dictionary.h"
#include "formats/parquet/encoding/plain.h"
#include "formats/parquet/encoding/rle.h"
#include "formats/parquet/footer.h"
#include "formats/parquet/schema_mapping.h"

namespace sqe::parquet {
namespace {

const uint8_t* U8(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

void ExpectClean(const Status& st) {
  EXPECT_TRUE(st.ok() || st.code() == StatusCode::kCorruption ||
              st.code() == StatusCode::kNotImplemented)
      << st.ToString();
}

std::string Mutate(std::string s, std::mt19937& rng) {
  if (s.empty()) return s;
  int edits = 1 + rng() % 4;
  for (int i = 0; i < edits; ++i) {
    switch (rng() % 4) {
      case 0:
        s[rng() % s.size()] = static_cast<char>(rng());
        break;
      case 1:
        s[rng() % s.size()] ^= static_cast<char>(1 << (rng() % 8));
        break;
      case 2:
        s.resize(rng() % (s.size() + 1));
        break;
      default:
        s.insert(rng() % (s.size() + 1), 1, static_cast<char>(rng()));
        break;
    }
    if (s.empty()) break;
  }
  return s;
}

std::string SampleFooterFile() {
  FileMetaData md;
  md.num_rows = 10;
  SchemaElement root;
  root.name = "schema";
  root.num_children = 2;
  SchemaElement a;
  a.name = "a";
  a.type = PhysicalType::kInt64;
  a.repetition_type = FieldRepetitionType::kOptional;
  SchemaElement l;
  l.name = "l";
  l.type = PhysicalType::kByteArray;
  l.repetition_type = FieldRepetitionType::kRepeated;
  l.logical_type = LogicalType::Of(LogicalType::Kind::kString);
  md.schema = {root, a, l};
  RowGroup rg;
  rg.num_rows = 10;
  ColumnChunk cc;
  ColumnMetaData cm;
  cm.path_in_schema = {"a"};
  cm.encodings = {Encoding::kPlain};
  cm.statistics = Statistics{};
  cm.statistics->min_value = "12345678";
  cc.meta_data = cm;
  rg.columns = {cc, cc};
  md.row_groups = {rg};
  md.key_value_metadata = {{"k", "v"}};
  return "PAR1" + SerializeFooter(md);
}

TEST(Robustness, MutatedFootersAndSchemas) {
  std::mt19937 rng(11);
  const std::string base = SampleFooterFile();
  for (int i = 0; i < 3000; ++i) {
    std::string file = Mutate(base, rng);
    auto md = ParseFooter(file);
    ExpectClean(md.status());
    if (md.ok()) ExpectClean(FromParquetSchema(md->schema).status());
  }
}

TEST(Robustness, MutatedPageHeadersAndIndexes) {
  std::mt19937 rng(12);
  PageHeader h;
  h.type = PageType::kDataPageV2;
  h.data_page_header_v2 = DataPageHeaderV2{};
  h.data_page_header_v2->statistics = Statistics{};
  h.data_page_header_v2->statistics->max = "zz";
  ColumnIndex ci;
  ci.null_pages = {true, false};
  ci.min_values = {"", "a"};
  ci.max_values = {"", "b"};
  ci.null_counts = std::vector<int64_t>{3, 0};
  const std::string bases[] = {EncodeThrift(h), EncodeThrift(ci),
                               EncodeThrift(OffsetIndex{{{1, 2, 3}}, {}}),
                               EncodeThrift(BloomFilterHeader{32, 1, 1, 1})};
  for (int i = 0; i < 2000; ++i) {
    for (const std::string& b : bases) {
      std::string m = Mutate(b, rng);
      ExpectClean(DecodeThrift<PageHeader>(m).status());
      ExpectClean(DecodeThrift<ColumnIndex>(m).status());
      ExpectClean(DecodeThrift<OffsetIndex>(m).status());
      ExpectClean(DecodeThrift<BloomFilterHeader>(m).status());
    }
  }
}

TEST(Robustness, MutatedEncodedValues) {
  std::mt19937 rng(13);
  std::vector<int64_t> ints(300);
  for (int i = 0; i < 300; ++i) ints[i] = static_cast<int64_t>(rng()) - (i << 20);
  std::string dbp;
  EncodeDeltaBinaryPacked(ints.data(), 300, &dbp);
  std::vector<std::string_view> strs = {"alpha", "alphabet", "beta", "", "gamma"};
  std::string dlba, dba, plain;
  EncodeDeltaLengthByteArray(strs.data(), 5, &dlba);
  EncodeDeltaByteArray(strs.data(), 5, &dba);
  EncodePlainByteArray(strs.data(), 5, &plain);
  std::vector<uint32_t> idx(200);
  for (auto& v : idx) v = rng() % 5;
  std::string dict;
  EncodeDictionaryIndices(idx.data(), 200, 5, &dict);

  std::vector<int64_t> out64(400);
  std::vector<std::string_view> views(200);
  for (int i = 0; i < 3000; ++i) {
    std::string m = Mutate(dbp, rng);
    DeltaBinaryPackedDecoder d;
    Status st = d.Init(U8(m), m.size());
    ExpectClean(st);
    if (st.ok() && d.total_values() <= 400) ExpectClean(d.Decode(out64.data(), d.total_values()));

    std::vector<std::string_view> sv;
    m = Mutate(dlba, rng);
    ExpectClean(DecodeDeltaLengthByteArray(U8(m), m.size(), &sv).status());
    BinaryValues bv;
    m = Mutate(dba, rng);
    ExpectClean(DecodeDeltaByteArray(U8(m), m.size(), &bv, 1 << 20).status());
    m = Mutate(plain, rng);
    ExpectClean(DecodePlainByteArray(U8(m), m.size(), 5, views.data()).status());
    m = Mutate(dict, rng);
    ExpectClean(DecodeDictionaryIndices(U8(m), m.size(), strs.data(), 5, 200, views.data()));
    RleBitPackedDecoder r(U8(m) + 1, m.empty() ? 0 : m.size() - 1, 3);
    std::vector<uint32_t> levels(200);
    ExpectClean(r.GetBatch(levels.data(), 200));
  }
}

TEST(Robustness, MutatedCompressedPages) {
  std::mt19937 rng(14);
  std::string data;
  for (int i = 0; i < 4000; ++i) data.push_back(static_cast<char>('a' + (i * i) % 13));
  for (CompressionCodec c :
       {CompressionCodec::kSnappy, CompressionCodec::kGzip, CompressionCodec::kZstd,
        CompressionCodec::kLz4Raw, CompressionCodec::kLz4, CompressionCodec::kBrotli}) {
    auto compressed = Compress(c, data);
    ASSERT_TRUE(compressed.ok());
    for (int i = 0; i < 300; ++i) {
      std::string m = Mutate(*compressed, rng);
      ExpectClean(Decompress(c, m, static_cast<int64_t>(data.size())).status());
    }
  }
}

}  // namespace
}  // namespace sqe::parquet
