// Cross-check against an independent implementation: pyarrow writes a file, we parse its
// footer, map its schema and decode pages. Skipped unless a Python with pyarrow is found
// ($SQE_PYARROW_PYTHON, else python3); nothing is installed by the test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "columnar/data_type.h"
#include "formats/parquet/bloom_filter.h"
#include "formats/parquet/compression.h"
#include "formats/parquet/encoding/byte_stream_split.h"
#include "formats/parquet/encoding/delta.h"
#include "formats/parquet/encoding/dictionary.h"
#include "formats/parquet/encoding/plain.h"
#include "formats/parquet/encoding/rle.h"
#include "formats/parquet/footer.h"
#include "formats/parquet/schema_mapping.h"

namespace sqe::parquet {
namespace {

std::string Python() {
  const char* p = std::getenv("SQE_PYARROW_PYTHON");
  if (p != nullptr && *p != '\0') return p;
  const char* src = std::getenv("SQE_SOURCE_DIR");
  std::filesystem::path peers =
      std::filesystem::path(src ? src : SQE_DEFAULT_SOURCE_DIR) / "tests/peers/.venv/bin/python";
  std::string cmd = peers.string() + " -c 'import pyarrow.parquet' >/dev/null 2>&1";
  if (std::filesystem::exists(peers) && std::system(cmd.c_str()) == 0) return peers.string();
  return "python3";
}

bool HavePyarrow() {
  std::string cmd = Python() + " -c 'import pyarrow.parquet' >/dev/null 2>&1";
  return std::system(cmd.c_str()) == 0;
}

const char* kScript = R"PY(
import sys, decimal, datetime
import pyarrow as pa, pyarrow.parquet as pq
n = 100
t = pa.table({
  "id": pa.array(range(n), pa.int64()),
  "name": pa.array([None if i % 10 == 0 else "n%d" % (i % 7) for i in range(n)], pa.string()),
  "price": pa.array([decimal.Decimal(i) / 100 for i in range(n)], pa.decimal128(20, 2)),
  "ts": pa.array([i * 1000 for i in range(n)], pa.timestamp("us", tz="UTC")),
  "tags": pa.array([[str(i), None] for i in range(n)], pa.list_(pa.string())),
  "m": pa.array([[("k", i)] for i in range(n)], pa.map_(pa.string(), pa.int32())),
  "s": pa.array([{"a": i, "b": float(i)} for i in range(n)],
                pa.struct([("a", pa.int16()), ("b", pa.float64())])),
}, schema=pa.schema([
  pa.field("id", pa.int64(), nullable=False, metadata={"PARQUET:field_id": "1"}),
  pa.field("name", pa.string(), metadata={"PARQUET:field_id": "2"}),
  pa.field("price", pa.decimal128(20, 2)),
  pa.field("ts", pa.timestamp("us", tz="UTC")),
  pa.field("tags", pa.list_(pa.string())),
  pa.field("m", pa.map_(pa.string(), pa.int32())),
  pa.field("s", pa.struct([("a", pa.int16()), ("b", pa.float64())])),
]))
pq.write_table(t, sys.argv[1], compression="snappy", use_dictionary=["name"],
               data_page_version="1.0", write_page_index=True)
)PY";

std::string ReadFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(PyarrowInterop, FooterSchemaAndPages) {
  if (!HavePyarrow()) GTEST_SKIP() << "pyarrow not available";
  auto dir = std::filesystem::temp_directory_path() /
             ("sqe_parquet_interop_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "write.py") << kScript;
  std::string cmd =
      Python() + " " + (dir / "write.py").string() + " " + (dir / "t.parquet").string();
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  std::string file = ReadFile(dir / "t.parquet");
  std::filesystem::remove_all(dir);

  auto md = ParseFooter(file);
  ASSERT_TRUE(md.ok()) << md.status().ToString();
  EXPECT_EQ(md->num_rows, 100);
  ASSERT_EQ(md->row_groups.size(), 1u);
  auto ps = FromParquetSchema(md->schema);
  ASSERT_TRUE(ps.ok()) << ps.status().ToString();
  EXPECT_EQ(ps->schema->ToString(),
            "id bigint not null, name varchar, price decimal(20,2), "
            "ts timestamp(6) with time zone, tags array(varchar), m map(varchar, integer), "
            "s row(a smallint, b double)");
  EXPECT_EQ(ps->schema->field(0).field_id(), 1);
  EXPECT_EQ(ps->schema->field(1).field_id(), 2);
  const RowGroup& rg = md->row_groups[0];
  ASSERT_EQ(rg.columns.size(), ps->columns.size());
  for (size_t i = 0; i < rg.columns.size(); ++i) {
    ASSERT_TRUE(rg.columns[i].meta_data.has_value());
    EXPECT_EQ(rg.columns[i].meta_data->path_in_schema, ps->columns[i].path);
    EXPECT_EQ(rg.columns[i].meta_data->codec, CompressionCodec::kSnappy);
  }
  const ColumnDescriptor* tags = &ps->columns[4];
  EXPECT_EQ(tags->max_definition_level, 3);
  EXPECT_EQ(tags->max_repetition_level, 1);

  auto page_at = [&](int64_t offset, PageHeader* header) -> Result<std::string> {
    size_t consumed = 0;
    SQE_ASSIGN_OR_RETURN(*header, DecodeThrift<PageHeader>(std::string_view(file).substr(offset),
                                                           offset, &consumed));
    std::string_view body =
        std::string_view(file).substr(offset + consumed, header->compressed_page_size);
    return Decompress(CompressionCodec::kSnappy, body, header->uncompressed_page_size);
  };

  // "id": required int64, PLAIN, v1 data page without levels.
  {
    const ColumnMetaData& cm = *rg.columns[0].meta_data;
    PageHeader h;
    auto page = page_at(cm.data_page_offset, &h);
    ASSERT_TRUE(page.ok()) << page.status().ToString();
    ASSERT_TRUE(h.data_page_header.has_value());
    EXPECT_EQ(h.data_page_header->encoding, Encoding::kPlain);
    std::vector<int64_t> values(h.data_page_header->num_values);
    ASSERT_TRUE(DecodePlain(reinterpret_cast<const uint8_t*>(page->data()), page->size(),
                            h.data_page_header->num_values, values.data())
                    .ok());
    for (int64_t i = 0; i < static_cast<int64_t>(values.size()); ++i) EXPECT_EQ(values[i], i);
  }
  // "name": optional string, dictionary page + RLE_DICTIONARY data page with def levels.
  {
    const ColumnMetaData& cm = *rg.columns[1].meta_data;
    ASSERT_TRUE(cm.dictionary_page_offset.has_value());
    PageHeader dh;
    auto dict_page = page_at(*cm.dictionary_page_offset, &dh);
    ASSERT_TRUE(dict_page.ok()) << dict_page.status().ToString();
    ASSERT_TRUE(dh.dictionary_page_header.has_value());
    int32_t dict_n = dh.dictionary_page_header->num_values;
    std::vector<std::string_view> dict(dict_n);
    ASSERT_TRUE(DecodePlainByteArray(reinterpret_cast<const uint8_t*>(dict_page->data()),
                                     dict_page->size(), dict_n, dict.data())
                    .ok());
    PageHeader h;
    auto page = page_at(cm.data_page_offset, &h);
    ASSERT_TRUE(page.ok()) << page.status().ToString();
    ASSERT_TRUE(h.data_page_header.has_value());
    EXPECT_EQ(h.data_page_header->encoding, Encoding::kRleDictionary);
    const auto* p = reinterpret_cast<const uint8_t*>(page->data());
    uint32_t def_len;
    std::memcpy(&def_len, p, 4);
    int32_t n = h.data_page_header->num_values;
    std::vector<uint8_t> defs(n);
    RleBitPackedDecoder def_decoder(p + 4, def_len, 1);
    ASSERT_TRUE(def_decoder.GetBatch(defs.data(), n).ok());
    int64_t non_null = 0;
    for (int32_t i = 0; i < n; ++i) {
      EXPECT_EQ(defs[i], i % 10 == 0 ? 0 : 1) << i;
      non_null += defs[i];
    }
    std::vector<std::string_view> values(non_null);
    ASSERT_TRUE(DecodeDictionaryIndices(p + 4 + def_len, page->size() - 4 - def_len, dict.data(),
                                        dict_n, non_null, values.data())
                    .ok());
    int64_t k = 0;
    for (int32_t i = 0; i < n; ++i) {
      if (defs[i]) {
        EXPECT_EQ(values[k++], "n" + std::to_string(i % 7));
      }
    }
  }
  // The page index decodes.
  const ColumnChunk& id = rg.columns[0];
  ASSERT_TRUE(id.offset_index_offset.has_value());
  auto oi = DecodeThrift<OffsetIndex>(
      std::string_view(file).substr(*id.offset_index_offset, *id.offset_index_length));
  ASSERT_TRUE(oi.ok()) << oi.status().ToString();
  ASSERT_FALSE(oi->page_locations.empty());
  EXPECT_EQ(oi->page_locations[0].first_row_index, 0);
  ASSERT_TRUE(id.column_index_offset.has_value());
  auto ci = DecodeThrift<ColumnIndex>(
      std::string_view(file).substr(*id.column_index_offset, *id.column_index_length));
  ASSERT_TRUE(ci.ok()) << ci.status().ToString();
  EXPECT_EQ(ci->null_pages.size(), oi->page_locations.size());
}

const char* kEncodingsScript = R"PY(
import sys
import pyarrow as pa, pyarrow.parquet as pq
n = 1000
t = pa.table({
  "a": pa.array([i * i - 500 for i in range(n)], pa.int64()),
  "b": pa.array([(-1) ** i * i * 1000 for i in range(n)], pa.int32()),
  "c": pa.array(["v%d" % (i * 7) for i in range(n)], pa.string()),
  "d": pa.array(["prefix/%05d" % i for i in range(n)], pa.string()),
  "e": pa.array([i / 4.0 for i in range(n)], pa.float32()),
  "f": pa.array([i * 1.5e10 for i in range(n)], pa.float64()),
})
t = t.cast(pa.schema([pa.field(c, t.schema.field(c).type, nullable=False) for c in t.column_names]))
pq.write_table(t, sys.argv[1], use_dictionary=False, data_page_version="2.0",
               compression={"a": "zstd", "b": "gzip", "c": "brotli", "d": "lz4",
                            "e": "snappy", "f": "none"},
               column_encoding={"a": "DELTA_BINARY_PACKED", "b": "DELTA_BINARY_PACKED",
                                "c": "DELTA_LENGTH_BYTE_ARRAY", "d": "DELTA_BYTE_ARRAY",
                                "e": "BYTE_STREAM_SPLIT", "f": "BYTE_STREAM_SPLIT"})
)PY";

TEST(PyarrowInterop, V2PagesDeltaByteStreamSplitAndEveryCodec) {
  if (!HavePyarrow()) GTEST_SKIP() << "pyarrow not available";
  auto dir = std::filesystem::temp_directory_path() /
             ("sqe_parquet_interop2_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "write.py") << kEncodingsScript;
  std::string cmd =
      Python() + " " + (dir / "write.py").string() + " " + (dir / "t.parquet").string();
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  std::string file = ReadFile(dir / "t.parquet");
  std::filesystem::remove_all(dir);
  auto md = ParseFooter(file);
  ASSERT_TRUE(md.ok()) << md.status().ToString();
  const RowGroup& rg = md->row_groups[0];
  ASSERT_EQ(rg.columns.size(), 6u);
  const int n = 1000;

  // The values section of the first (v2) data page of column `c`, decompressed.
  auto values_of = [&](int c, Encoding want) -> std::string {
    const ColumnMetaData& cm = *rg.columns[c].meta_data;
    size_t consumed = 0;
    auto h = DecodeThrift<PageHeader>(std::string_view(file).substr(cm.data_page_offset),
                                      cm.data_page_offset, &consumed);
    EXPECT_TRUE(h.ok()) << h.status().ToString();
    if (!h.ok() || !h->data_page_header_v2) return "";
    const DataPageHeaderV2& v2 = *h->data_page_header_v2;
    EXPECT_EQ(v2.num_values, n);
    EXPECT_EQ(v2.encoding, want) << c;
    int32_t levels = v2.definition_levels_byte_length + v2.repetition_levels_byte_length;
    std::string_view body = std::string_view(file).substr(cm.data_page_offset + consumed + levels,
                                                          h->compressed_page_size - levels);
    if (!v2.is_compressed) return std::string(body);
    auto out = Decompress(cm.codec, body, h->uncompressed_page_size - levels);
    EXPECT_TRUE(out.ok()) << CompressionCodecName(cm.codec) << ": " << out.status().ToString();
    return out.ok() ? *out : "";
  };
  auto u8 = [](const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); };

  std::string a = values_of(0, Encoding::kDeltaBinaryPacked);
  DeltaBinaryPackedDecoder da;
  ASSERT_TRUE(da.Init(u8(a), a.size()).ok());
  std::vector<int64_t> av(n);
  ASSERT_TRUE(da.Decode(av.data(), n).ok());
  for (int i = 0; i < n; ++i) EXPECT_EQ(av[i], int64_t{i} * i - 500) << i;

  std::string b = values_of(1, Encoding::kDeltaBinaryPacked);
  DeltaBinaryPackedDecoder db;
  ASSERT_TRUE(db.Init(u8(b), b.size()).ok());
  std::vector<int32_t> bv(n);
  ASSERT_TRUE(db.Decode(bv.data(), n).ok());
  for (int i = 0; i < n; ++i) EXPECT_EQ(bv[i], (i % 2 ? -1 : 1) * i * 1000) << i;

  std::string c = values_of(2, Encoding::kDeltaLengthByteArray);
  std::vector<std::string_view> cv;
  ASSERT_TRUE(DecodeDeltaLengthByteArray(u8(c), c.size(), &cv).ok());
  ASSERT_EQ(cv.size(), static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) EXPECT_EQ(cv[i], "v" + std::to_string(i * 7));

  std::string d = values_of(3, Encoding::kDeltaByteArray);
  BinaryValues dv;
  ASSERT_TRUE(DecodeDeltaByteArray(u8(d), d.size(), &dv).ok());
  ASSERT_EQ(dv.size(), n);
  char buf[32];
  for (int i = 0; i < n; ++i) {
    std::snprintf(buf, sizeof(buf), "prefix/%05d", i);
    EXPECT_EQ(dv[i], buf);
  }

  std::string e = values_of(4, Encoding::kByteStreamSplit);
  std::vector<float> ev(n);
  ASSERT_TRUE(
      DecodeByteStreamSplit(u8(e), e.size(), n, 4, reinterpret_cast<uint8_t*>(ev.data())).ok());
  for (int i = 0; i < n; ++i) EXPECT_EQ(ev[i], i / 4.0f);

  std::string f = values_of(5, Encoding::kByteStreamSplit);
  std::vector<double> fv(n);
  ASSERT_TRUE(
      DecodeByteStreamSplit(u8(f), f.size(), n, 8, reinterpret_cast<uint8_t*>(fv.data())).ok());
  for (int i = 0; i < n; ++i) EXPECT_EQ(fv[i], i * 1.5e10);
}

// The other direction: a file assembled from our encoders, codecs and metadata encoding
// must read back in pyarrow. (A stand-in for the writer to come.)
struct ChunkBuilder {
  std::string file = "PAR1";
  ColumnChunk Add(std::vector<std::string> path, PhysicalType type, CompressionCodec codec,
                  int64_t num_values,
                  const std::vector<std::pair<PageHeader, std::string>>& pages) {
    ColumnMetaData cm;
    cm.type = type;
    cm.path_in_schema = std::move(path);
    cm.codec = codec;
    cm.num_values = num_values;
    const int64_t start = static_cast<int64_t>(file.size());
    cm.data_page_offset = start;
    for (auto [header, body] : pages) {
      auto compressed = Compress(codec, body);
      EXPECT_TRUE(compressed.ok());
      std::string prefix;  // v2 levels stay uncompressed
      if (header.data_page_header_v2) {
        const auto& v2 = *header.data_page_header_v2;
        int32_t levels = v2.definition_levels_byte_length + v2.repetition_levels_byte_length;
        prefix = body.substr(0, levels);
        compressed = Compress(codec, std::string_view(body).substr(levels));
      }
      header.uncompressed_page_size = static_cast<int32_t>(body.size());
      header.compressed_page_size = static_cast<int32_t>(prefix.size() + compressed->size());
      if (header.type == PageType::kDictionaryPage) {
        cm.dictionary_page_offset = static_cast<int64_t>(file.size());
        cm.data_page_offset = -1;
      } else if (cm.data_page_offset < 0) {
        cm.data_page_offset = static_cast<int64_t>(file.size());
      }
      std::string h = EncodeThrift(header);
      cm.total_uncompressed_size += static_cast<int64_t>(h.size() + body.size());
      file += h + prefix + *compressed;
      Encoding e = header.data_page_header      ? header.data_page_header->encoding
                   : header.data_page_header_v2 ? header.data_page_header_v2->encoding
                                                : Encoding::kPlain;
      if (std::find(cm.encodings.begin(), cm.encodings.end(), e) == cm.encodings.end()) {
        cm.encodings.push_back(e);
      }
    }
    cm.encodings.push_back(Encoding::kRle);
    cm.total_compressed_size = static_cast<int64_t>(file.size()) - start;
    ColumnChunk cc;
    cc.file_offset = start;
    cc.meta_data = cm;
    return cc;
  }
};

PageHeader V1Header(int32_t n, Encoding e) {
  PageHeader h;
  h.type = PageType::kDataPage;
  h.data_page_header = DataPageHeader{n, e, Encoding::kRle, Encoding::kRle, std::nullopt};
  return h;
}

TEST(PyarrowInterop, PyarrowReadsWhatWeEncode) {
  if (!HavePyarrow()) GTEST_SKIP() << "pyarrow not available";
  namespace col = sqe::columnar;
  auto schema = col::Schema::Make({col::Field("a", col::Int64(), true, 1),
                                   col::Field("b", col::String(), false, 2),
                                   col::Field("c", col::Int32(), false, 3)});
  auto elements = ToParquetSchema(*schema);
  ASSERT_TRUE(elements.ok());
  const int n = 10;
  ChunkBuilder fb;
  RowGroup rg;
  rg.num_rows = n;
  {  // a: optional int64, v1 page, def levels + PLAIN, zstd
    std::vector<uint32_t> defs;
    std::vector<int64_t> values;
    for (int i = 0; i < n; ++i) {
      defs.push_back(i % 3 == 0 ? 0 : 1);
      if (i % 3) values.push_back(int64_t{i} * 1000000007);
    }
    std::string levels;
    RleBitPackedEncoder enc(1);
    enc.PutBatch(defs.data(), n);
    enc.Finish(&levels);
    auto len = static_cast<uint32_t>(levels.size());
    std::string body(reinterpret_cast<const char*>(&len), 4);
    body += levels;
    EncodePlain(values.data(), static_cast<int64_t>(values.size()), &body);
    rg.columns.push_back(fb.Add({"a"}, PhysicalType::kInt64, CompressionCodec::kZstd, n,
                                {{V1Header(n, Encoding::kPlain), body}}));
  }
  {  // b: required string, dictionary page + RLE_DICTIONARY, snappy
    std::vector<std::string_view> dict = {"x", "yy", "zzz"};
    std::string dict_body;
    EncodePlainByteArray(dict.data(), 3, &dict_body);
    PageHeader dh;
    dh.type = PageType::kDictionaryPage;
    dh.dictionary_page_header = DictionaryPageHeader{3, Encoding::kPlain, std::nullopt};
    std::vector<uint32_t> idx;
    for (int i = 0; i < n; ++i) idx.push_back(i % 3);
    std::string body;
    EncodeDictionaryIndices(idx.data(), n, 3, &body);
    rg.columns.push_back(fb.Add({"b"}, PhysicalType::kByteArray, CompressionCodec::kSnappy, n,
                                {{dh, dict_body}, {V1Header(n, Encoding::kRleDictionary), body}}));
  }
  {  // c: required int32, v2 page, DELTA_BINARY_PACKED, gzip
    std::vector<int32_t> values;
    for (int i = 0; i < n; ++i) values.push_back(i % 2 ? -i * 77 : i * 1000);
    std::string body;
    EncodeDeltaBinaryPacked(values.data(), n, &body);
    PageHeader h;
    h.type = PageType::kDataPageV2;
    DataPageHeaderV2 v2;
    v2.num_values = n;
    v2.num_rows = n;
    v2.encoding = Encoding::kDeltaBinaryPacked;
    h.data_page_header_v2 = v2;
    rg.columns.push_back(
        fb.Add({"c"}, PhysicalType::kInt32, CompressionCodec::kGzip, n, {{h, body}}));
  }
  for (const ColumnChunk& cc : rg.columns)
    rg.total_byte_size += cc.meta_data->total_compressed_size;
  FileMetaData md;
  md.version = 1;
  md.schema = *elements;
  md.num_rows = n;
  md.row_groups = {rg};
  md.created_by = "sqe interop test";
  std::string file = fb.file + SerializeFooter(md);

  auto dir = std::filesystem::temp_directory_path() /
             ("sqe_parquet_interop3_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "ours.parquet", std::ios::binary) << file;
  std::ofstream(dir / "read.py")
      << "import sys, json\nimport pyarrow.parquet as pq\n"
         "t = pq.read_table(sys.argv[1])\n"
         "print(t.schema.field('a').metadata[b'PARQUET:field_id'].decode(), end=' ')\n"
         "print(json.dumps(t.to_pydict(), sort_keys=True))\n";
  std::string cmd = Python() + " " + (dir / "read.py").string() + " " +
                    (dir / "ours.parquet").string() + " > " + (dir / "out.txt").string();
  int rc = std::system(cmd.c_str());
  std::string out = ReadFile(dir / "out.txt");
  std::filesystem::remove_all(dir);
  ASSERT_EQ(rc, 0);
  EXPECT_EQ(out,
            "1 {\"a\": [null, 1000000007, 2000000014, null, 4000000028, 5000000035, null, "
            "7000000049, 8000000056, null], \"b\": [\"x\", \"yy\", \"zzz\", \"x\", \"yy\", "
            "\"zzz\", \"x\", \"yy\", \"zzz\", \"x\"], \"c\": [0, -77, 2000, -231, 4000, "
            "-385, 6000, -539, 8000, -693]}\n");
}

const char* kBloomScript = R"PY(
import sys
import pyarrow as pa, pyarrow.parquet as pq
t = pa.table({"id": pa.array(range(1000), pa.int64()),
              "s": pa.array(["k%d" % i for i in range(1000)])})
pq.write_table(t, sys.argv[1], bloom_filter_options={"id": {"ndv": 1000, "fpp": 0.01},
                                                     "s": {"ndv": 1000, "fpp": 0.01}})
)PY";

TEST(PyarrowInterop, BloomFiltersMatchOurHashing) {
  if (!HavePyarrow()) GTEST_SKIP() << "pyarrow not available";
  auto dir = std::filesystem::temp_directory_path() /
             ("sqe_parquet_interop4_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "write.py") << kBloomScript;
  std::string cmd =
      Python() + " " + (dir / "write.py").string() + " " + (dir / "t.parquet").string();
  int rc = std::system(cmd.c_str());
  std::string file = ReadFile(dir / "t.parquet");
  std::filesystem::remove_all(dir);
  if (rc != 0) GTEST_SKIP() << "this pyarrow cannot write Bloom filters";
  auto md = ParseFooter(file);
  ASSERT_TRUE(md.ok()) << md.status().ToString();
  auto load = [&](int c) -> Result<SplitBlockBloomFilter> {
    const ColumnMetaData& cm = *md->row_groups[0].columns[c].meta_data;
    if (!cm.bloom_filter_offset) return Status::NotFound("no bloom filter");
    size_t consumed = 0;
    SQE_ASSIGN_OR_RETURN(auto header, DecodeThrift<BloomFilterHeader>(
                                          std::string_view(file).substr(*cm.bloom_filter_offset),
                                          *cm.bloom_filter_offset, &consumed));
    return SplitBlockBloomFilter::FromFile(
        header, file.substr(*cm.bloom_filter_offset + consumed, header.num_bytes));
  };
  auto ids = load(0);
  ASSERT_TRUE(ids.ok()) << ids.status().ToString();
  auto strs = load(1);
  ASSERT_TRUE(strs.ok()) << strs.status().ToString();
  int absent_hits = 0;
  for (int64_t i = 0; i < 1000; ++i) {
    EXPECT_TRUE(ids->MightContain(XxHash64(std::string_view(reinterpret_cast<const char*>(&i), 8))))
        << i;
    EXPECT_TRUE(strs->MightContain(XxHash64("k" + std::to_string(i)))) << i;
    int64_t j = i + 5000;
    absent_hits +=
        ids->MightContain(XxHash64(std::string_view(reinterpret_cast<const char*>(&j), 8)));
    absent_hits += strs->MightContain(XxHash64("x" + std::to_string(i)));
  }
  EXPECT_LT(absent_hits, 100);
}

}  // namespace
}  // namespace sqe::parquet
