// Column chunk reader on hand-built chunks: page kinds, dictionary fallback, row ranges,
// and every kind of malformed page, which must be Corruption naming file, column, offset.
#include "formats/parquet/column_chunk_reader.h"

#include <gtest/gtest.h>

#include <random>

#include "columnar/data_type.h"
#include "formats/parquet/compression.h"
#include "formats/parquet/encoding/dictionary.h"
#include "formats/parquet/encoding/plain.h"
#include "formats/parquet/encoding/rle.h"

namespace sqe::parquet {
namespace {

constexpr int64_t kChunkOffset = 1000;  // where the chunk "is" in the file

std::string Levels(const std::vector<uint32_t>& levels, int bit_width, bool v1) {
  RleBitPackedEncoder enc(bit_width);
  enc.PutBatch(levels.data(), static_cast<int64_t>(levels.size()));
  std::string body;
  enc.Finish(&body);
  if (!v1) return body;
  uint32_t len = static_cast<uint32_t>(body.size());
  return std::string(reinterpret_cast<const char*>(&len), 4) + body;
}

std::string PlainInt32(const std::vector<int32_t>& v) {
  std::string out;
  EncodePlain(v.data(), static_cast<int64_t>(v.size()), &out);
  return out;
}

std::string Page(PageHeader h, const std::string& body) {
  if (h.compressed_page_size == 0) h.compressed_page_size = static_cast<int32_t>(body.size());
  if (h.uncompressed_page_size == 0) h.uncompressed_page_size = static_cast<int32_t>(body.size());
  return EncodeThrift(h) + body;
}

// A v1 data page of `n` level slots.
std::string DataPageV1(int32_t n, Encoding e, const std::string& body) {
  PageHeader h;
  h.type = PageType::kDataPage;
  h.data_page_header.emplace();
  h.data_page_header->num_values = n;
  h.data_page_header->encoding = e;
  return Page(h, body);
}

std::string DictPage(int32_t n, const std::string& body) {
  PageHeader h;
  h.type = PageType::kDictionaryPage;
  h.dictionary_page_header.emplace();
  h.dictionary_page_header->num_values = n;
  return Page(h, body);
}

ColumnDescriptor OptionalInt32() {
  ColumnDescriptor d;
  d.path = {"a", "b"};
  d.physical_type = PhysicalType::kInt32;
  d.max_definition_level = 1;
  d.type = columnar::Int32();
  return d;
}

ColumnDescriptor OptionalString() {
  ColumnDescriptor d = OptionalInt32();
  d.physical_type = PhysicalType::kByteArray;
  d.type = columnar::String();
  return d;
}

struct Chunk {
  ColumnChunk chunk;
  columnar::BufferPtr bytes;
};

Chunk MakeChunk(const std::string& bytes, int64_t num_values, PhysicalType type,
                CompressionCodec codec = CompressionCodec::kUncompressed, bool dictionary = false) {
  Chunk c;
  ColumnMetaData& m = c.chunk.meta_data.emplace();
  m.type = type;
  m.codec = codec;
  m.num_values = num_values;
  m.total_compressed_size = static_cast<int64_t>(bytes.size());
  m.total_uncompressed_size = 1 << 20;
  m.data_page_offset = kChunkOffset;
  if (dictionary) m.dictionary_page_offset = kChunkOffset;
  c.bytes = *columnar::Buffer::CopyOf(bytes);
  return c;
}

ColumnChunkReadOptions Options() {
  ColumnChunkReadOptions o;
  o.file_path = "t.parquet";
  return o;
}

Result<LeafData> Read(const ColumnDescriptor& d, const Chunk& c,
                      const ColumnChunkReadOptions& o = Options(),
                      const RowRanges* ranges = nullptr, const OffsetIndex* index = nullptr,
                      ColumnChunkReadStats* stats = nullptr) {
  return ReadColumnChunk(d, c.chunk, c.bytes, o, ranges, index, stats);
}

std::vector<int32_t> Int32s(const LeafData& l) {
  return std::vector<int32_t>(l.values.Values<int32_t>(),
                              l.values.Values<int32_t>() + l.values.length());
}

void ExpectCorruption(const Result<LeafData>& r, const std::string& what) {
  ASSERT_FALSE(r.ok()) << what;
  EXPECT_EQ(r.status().code(), StatusCode::kCorruption) << what << ": " << r.status().ToString();
  const std::string& m = r.status().message();
  EXPECT_NE(m.find("'t.parquet'"), std::string::npos) << what << ": " << m;
  EXPECT_NE(m.find("column 'a.b'"), std::string::npos) << what << ": " << m;
  EXPECT_NE(m.find("offset"), std::string::npos) << what << ": " << m;
}

// Two v1 pages of optional int32: [1, null, 2] and [null, 3].
std::string TwoPages() {
  return DataPageV1(3, Encoding::kPlain, Levels({1, 0, 1}, 1, true) + PlainInt32({1, 2})) +
         DataPageV1(2, Encoding::kPlain, Levels({0, 1}, 1, true) + PlainInt32({3}));
}

TEST(ColumnChunkReader, V1PagesWithDefinitionLevels) {
  auto r = Read(OptionalInt32(), MakeChunk(TwoPages(), 5, PhysicalType::kInt32));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->num_levels, 5);
  EXPECT_EQ(r->num_rows, 5);
  EXPECT_EQ(r->def_levels, (std::vector<int16_t>{1, 0, 1, 0, 1}));
  EXPECT_TRUE(r->rep_levels.empty());
  EXPECT_EQ(Int32s(*r), (std::vector<int32_t>{1, 2, 3}));
}

TEST(ColumnChunkReader, DictionaryThenPlainFallback) {
  std::vector<std::string_view> dict = {"x", "yy", "zzz"};
  std::string dict_body;
  EncodePlainByteArray(dict.data(), 3, &dict_body);
  std::vector<uint32_t> idx = {2, 0, 1, 2};
  std::string idx_body;
  EncodeDictionaryIndices(idx.data(), 4, 3, &idx_body);
  std::vector<std::string_view> plain = {"p", "qq"};
  std::string plain_body;
  EncodePlainByteArray(plain.data(), 2, &plain_body);
  std::string bytes =
      DictPage(3, dict_body) +
      DataPageV1(4, Encoding::kRleDictionary, Levels({1, 1, 1, 1}, 1, true) + idx_body) +
      DataPageV1(3, Encoding::kPlain, Levels({1, 0, 1}, 1, true) + plain_body);
  ColumnChunkReadStats stats;
  auto r =
      Read(OptionalString(),
           MakeChunk(bytes, 7, PhysicalType::kByteArray, CompressionCodec::kUncompressed, true),
           Options(), nullptr, nullptr, &stats);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->values.length(), 6);
  std::vector<std::string> got;
  for (int64_t i = 0; i < 6; ++i) got.emplace_back(r->values.StringAt(i));
  EXPECT_EQ(got, (std::vector<std::string>{"zzz", "x", "yy", "zzz", "p", "qq"}));
  EXPECT_EQ(stats.pages_read, 3);
}

TEST(ColumnChunkReader, V2PageLevelsUncompressedValuesCompressed) {
  for (bool compressed : {true, false}) {
    std::string levels = Levels({1, 1, 0, 1}, 1, false);
    std::string values = PlainInt32({7, 8, 9});
    std::string stored = compressed ? *Compress(CompressionCodec::kSnappy, values) : values;
    PageHeader h;
    h.type = PageType::kDataPageV2;
    h.data_page_header_v2.emplace();
    h.data_page_header_v2->num_values = 4;
    h.data_page_header_v2->num_rows = 4;
    h.data_page_header_v2->num_nulls = 1;
    h.data_page_header_v2->definition_levels_byte_length = static_cast<int32_t>(levels.size());
    h.data_page_header_v2->is_compressed = compressed;
    h.compressed_page_size = static_cast<int32_t>(levels.size() + stored.size());
    h.uncompressed_page_size = static_cast<int32_t>(levels.size() + values.size());
    auto r = Read(OptionalInt32(), MakeChunk(Page(h, levels + stored), 4, PhysicalType::kInt32,
                                             CompressionCodec::kSnappy));
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(Int32s(*r), (std::vector<int32_t>{7, 8, 9}));
    EXPECT_EQ(r->def_levels, (std::vector<int16_t>{1, 1, 0, 1}));
  }
}

TEST(ColumnChunkReader, RowRangesDropRowsAndSkipPagesWithAnOffsetIndex) {
  const std::string p0 =
      DataPageV1(3, Encoding::kPlain, Levels({1, 0, 1}, 1, true) + PlainInt32({1, 2}));
  // The second page is garbage: it must never be decoded when the ranges skip it.
  const std::string p1 = DataPageV1(2, Encoding::kPlain, std::string(9, '\xff'));
  const std::string p2 =
      DataPageV1(3, Encoding::kPlain, Levels({1, 1, 1}, 1, true) + PlainInt32({5, 6, 7}));
  Chunk c = MakeChunk(p0 + p1 + p2, 8, PhysicalType::kInt32);
  OffsetIndex index;
  index.page_locations = {
      {kChunkOffset, static_cast<int32_t>(p0.size()), 0},
      {kChunkOffset + static_cast<int64_t>(p0.size()), static_cast<int32_t>(p1.size()), 3},
      {kChunkOffset + static_cast<int64_t>(p0.size() + p1.size()), static_cast<int32_t>(p2.size()),
       5}};
  RowRanges ranges = RowRanges::FromRanges({{1, 3}, {6, 7}});
  ColumnChunkReadOptions o = Options();
  o.row_group_num_rows = 8;
  ColumnChunkReadStats stats;
  auto r = Read(OptionalInt32(), c, o, &ranges, &index, &stats);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->num_rows, 3);
  EXPECT_EQ(r->def_levels, (std::vector<int16_t>{0, 1, 1}));
  EXPECT_EQ(Int32s(*r), (std::vector<int32_t>{2, 6}));
  EXPECT_EQ(stats.pages_read, 2);
  EXPECT_EQ(stats.pages_skipped, 1);

  // Only the selected pages fetched: the pieces SelectedPageRanges names suffice.
  auto wanted = SelectedPageRanges(*c.chunk.meta_data, index, ranges, 8);
  ASSERT_TRUE(wanted.ok()) << wanted.status().ToString();
  ASSERT_EQ(wanted->size(), 2u);
  std::vector<ChunkPiece> pieces;
  for (const io::ByteRange& r : *wanted) {
    pieces.push_back(
        {r.offset, columnar::Buffer::Slice(c.bytes, r.offset - kChunkOffset, r.length)});
  }
  auto sparse = ReadColumnChunk(OptionalInt32(), c.chunk, pieces, o, &ranges, &index);
  ASSERT_TRUE(sparse.ok()) << sparse.status().ToString();
  EXPECT_EQ(Int32s(*sparse), (std::vector<int32_t>{2, 6}));
  // A selected page no piece covers is Corruption, not a read past a buffer.
  pieces.pop_back();
  ExpectCorruption(ReadColumnChunk(OptionalInt32(), c.chunk, pieces, o, &ranges, &index),
                   "missing piece");

  // Without the index every page is decoded (and the garbage page fails).
  ExpectCorruption(Read(OptionalInt32(), c, o, &ranges), "garbage page without index");
}

TEST(ColumnChunkReader, RowRangesWithRepetitionKeepWholeRecords) {
  ColumnDescriptor d = OptionalInt32();
  d.max_definition_level = 2;
  d.max_repetition_level = 1;
  // Rows: [1, 2], [], [3], [4, 5, 6]
  std::string body = Levels({0, 1, 0, 0, 0, 1, 1}, 1, true) +
                     Levels({2, 2, 1, 2, 2, 2, 2}, 2, true) + PlainInt32({1, 2, 3, 4, 5, 6});
  Chunk c = MakeChunk(DataPageV1(7, Encoding::kPlain, body), 7, PhysicalType::kInt32);
  RowRanges ranges = RowRanges::FromRanges({{1, 2}, {3, 4}});
  auto r = Read(d, c, Options(), &ranges);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->num_rows, 2);
  EXPECT_EQ(r->rep_levels, (std::vector<int16_t>{0, 0, 1, 1}));
  EXPECT_EQ(r->def_levels, (std::vector<int16_t>{1, 2, 2, 2}));
  EXPECT_EQ(Int32s(*r), (std::vector<int32_t>{4, 5, 6}));
}

TEST(ColumnChunkReader, MalformedPagesAreCorruption) {
  const ColumnDescriptor d = OptionalInt32();
  const std::string good = TwoPages();
  // Page size past the chunk: cut the last bytes off.
  ExpectCorruption(Read(d, MakeChunk(good.substr(0, good.size() - 3), 5, PhysicalType::kInt32)),
                   "truncated page");
  // Truncated in the middle of the second header.
  const size_t first =
      DataPageV1(3, Encoding::kPlain, Levels({1, 0, 1}, 1, true) + PlainInt32({1, 2})).size();
  ExpectCorruption(Read(d, MakeChunk(good.substr(0, first + 2), 5, PhysicalType::kInt32)),
                   "truncated header");
  // More values in the pages than the metadata says, and fewer.
  ExpectCorruption(Read(d, MakeChunk(good, 4, PhysicalType::kInt32)), "more values");
  ExpectCorruption(Read(d, MakeChunk(good, 9, PhysicalType::kInt32)), "fewer values");
  // A PLAIN section too short for its values.
  ExpectCorruption(Read(d, MakeChunk(DataPageV1(3, Encoding::kPlain,
                                                Levels({1, 1, 1}, 1, true) + PlainInt32({1})),
                                     3, PhysicalType::kInt32)),
                   "short plain");
  // Levels above the max.
  ExpectCorruption(
      Read(d, MakeChunk(DataPageV1(2, Encoding::kPlain, Levels({3, 1}, 2, true) + PlainInt32({1})),
                        2, PhysicalType::kInt32)),
      "level above max");
  // An encoding the type does not have.
  ExpectCorruption(Read(d, MakeChunk(DataPageV1(1, Encoding::kDeltaByteArray,
                                                Levels({1}, 1, true) + PlainInt32({1})),
                                     1, PhysicalType::kInt32)),
                   "bad encoding");
  // Dictionary-encoded page without a dictionary.
  std::string idx;
  std::vector<uint32_t> zero = {0};
  EncodeDictionaryIndices(zero.data(), 1, 1, &idx);
  ExpectCorruption(
      Read(d, MakeChunk(DataPageV1(1, Encoding::kRleDictionary, Levels({1}, 1, true) + idx), 1,
                        PhysicalType::kInt32)),
      "no dictionary");
  // Dictionary indices past the dictionary.
  std::vector<uint32_t> big = {0, 5};
  std::string big_idx;
  EncodeDictionaryIndices(big.data(), 2, 8, &big_idx);
  const std::string dict = DictPage(2, PlainInt32({10, 20}));
  ExpectCorruption(
      Read(d, MakeChunk(
                  dict + DataPageV1(2, Encoding::kRleDictionary, Levels({1, 1}, 1, true) + big_idx),
                  2, PhysicalType::kInt32, CompressionCodec::kUncompressed, true)),
      "lying index");
  // Two dictionaries; a dictionary after data.
  ExpectCorruption(Read(d, MakeChunk(dict + dict + good, 5, PhysicalType::kInt32,
                                     CompressionCodec::kUncompressed, true)),
                   "two dictionaries");
  ExpectCorruption(
      Read(d, MakeChunk(
                  DataPageV1(3, Encoding::kPlain, Levels({1, 0, 1}, 1, true) + PlainInt32({1, 2})) +
                      dict +
                      DataPageV1(2, Encoding::kPlain, Levels({0, 1}, 1, true) + PlainInt32({3})),
                  5, PhysicalType::kInt32)),
      "dictionary after data");
  // PLAIN strings where the first value's length covers the second's length prefix: the
  // page reserves its size less 4 bytes per value, so copying the whole first value would
  // write past the reservation (ASan sees it when the chunk's size hint is small).
  std::string lying_strings = std::string("\x04\x01\x00\x00", 4) + std::string(260, 'x');
  Chunk lying = MakeChunk(DataPageV1(2, Encoding::kPlain, Levels({1, 1}, 1, true) + lying_strings),
                          2, PhysicalType::kByteArray);
  lying.chunk.meta_data->total_uncompressed_size = 0;  // no size hint
  ExpectCorruption(Read(OptionalString(), lying), "string length over the next prefix");
  // Negative value count.
  ExpectCorruption(
      Read(d, MakeChunk(DataPageV1(-1, Encoding::kPlain, ""), 1, PhysicalType::kInt32)),
      "negative count");
}

TEST(ColumnChunkReader, DecompressionBombsAndLyingSizesAreRejected) {
  const ColumnDescriptor d = OptionalInt32();
  const std::string body = Levels({1, 1}, 1, true) + PlainInt32({1, 2});
  const std::string packed = *Compress(CompressionCodec::kSnappy, body);
  PageHeader h;
  h.type = PageType::kDataPage;
  h.data_page_header.emplace();
  h.data_page_header->num_values = 2;
  h.compressed_page_size = static_cast<int32_t>(packed.size());
  // Claims 1 GiB uncompressed: refused before anything is allocated.
  h.uncompressed_page_size = 1 << 30;
  Chunk bomb = MakeChunk(Page(h, packed), 2, PhysicalType::kInt32, CompressionCodec::kSnappy);
  ExpectCorruption(Read(d, bomb), "bomb over chunk total");
  bomb.chunk.meta_data->total_uncompressed_size = int64_t{1} << 40;
  ExpectCorruption(Read(d, bomb), "bomb over page limit");
  // Claims a little more than the stream holds.
  h.uncompressed_page_size = static_cast<int32_t>(body.size() + 5);
  ExpectCorruption(
      Read(d, MakeChunk(Page(h, packed), 2, PhysicalType::kInt32, CompressionCodec::kSnappy)),
      "lying size");
  // v2 level sections longer than the page.
  PageHeader v2;
  v2.type = PageType::kDataPageV2;
  v2.data_page_header_v2.emplace();
  v2.data_page_header_v2->num_values = 2;
  v2.data_page_header_v2->definition_levels_byte_length = 1000;
  ExpectCorruption(Read(d, MakeChunk(Page(v2, body), 2, PhysicalType::kInt32)), "v2 levels");
  // An offset index pointing outside the chunk.
  OffsetIndex index;
  index.page_locations = {{kChunkOffset + 5000, 10, 0}};
  RowRanges all = RowRanges::All(2);
  ExpectCorruption(
      Read(d, MakeChunk(DataPageV1(2, Encoding::kPlain, body), 2, PhysicalType::kInt32), Options(),
           &all, &index),
      "offset index");
}

TEST(ColumnChunkReader, FuzzEntryPointSurvivesMutations) {
  // Seeds: an 8-byte shape prefix followed by valid chunks, then random mutations. Only
  // the absence of crashes and sanitizer reports is checked (and that seeds decode).
  std::vector<std::string> seeds;
  auto prefix = [](uint8_t shape, uint8_t codec, uint16_t n, uint8_t nesting) {
    std::string p(8, '\0');
    p[0] = static_cast<char>(shape);
    p[1] = static_cast<char>(codec);
    p[2] = static_cast<char>(n & 0xff);
    p[3] = static_cast<char>(n >> 8);
    p[4] = static_cast<char>(nesting);
    return p;
  };
  seeds.push_back(prefix(1, 0, 5, 1) + TwoPages());
  {
    std::vector<std::string_view> dict = {"x", "yy", "zzz"};
    std::string dict_body;
    EncodePlainByteArray(dict.data(), 3, &dict_body);
    std::vector<uint32_t> idx = {2, 0, 1, 2};
    std::string idx_body;
    EncodeDictionaryIndices(idx.data(), 4, 3, &idx_body);
    seeds.push_back(
        prefix(6, 0, 4, 1) + DictPage(3, dict_body) +
        DataPageV1(4, Encoding::kRleDictionary, Levels({1, 1, 1, 1}, 1, true) + idx_body));
  }
  {
    std::string body = Levels({0, 1, 0, 0, 0, 1, 1}, 1, true) +
                       Levels({3, 3, 1, 3, 3, 2, 3}, 2, true) + PlainInt32({1, 2, 3, 4, 5});
    seeds.push_back(prefix(1, 0, 7, 3) + DataPageV1(7, Encoding::kPlain, body));
  }
  for (const std::string& s : seeds) {
    Status st = FuzzDecodeColumnChunk(reinterpret_cast<const uint8_t*>(s.data()), s.size());
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
  std::mt19937 rng(12345);
  int ok = 0;
  for (int iter = 0; iter < 4000; ++iter) {
    std::string s = seeds[iter % seeds.size()];
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      const size_t pos = rng() % s.size();
      switch (rng() % 4) {
        case 0:
          s[pos] = static_cast<char>(s[pos] ^ (1 << (rng() % 8)));
          break;
        case 1:
          s[pos] = static_cast<char>(rng());
          break;
        case 2:
          s.resize(std::max<size_t>(pos, 8));
          break;
        default:
          if (pos < 8) s[pos] = static_cast<char>(rng());
      }
      if (s.size() <= 8) s += '\0';
    }
    ok += FuzzDecodeColumnChunk(reinterpret_cast<const uint8_t*>(s.data()), s.size()).ok();
  }
  SUCCEED() << ok << " mutated inputs decoded";
}

}  // namespace
}  // namespace sqe::parquet
