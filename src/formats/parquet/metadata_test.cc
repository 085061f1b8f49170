#include "formats/parquet/metadata.h"

#include <gtest/gtest.h>

#include "formats/parquet/footer.h"

namespace sqe::parquet {
namespace {

FileMetaData SampleFile() {
  FileMetaData md;
  md.version = 2;
  md.num_rows = 3;
  md.created_by = "sqe test";
  SchemaElement root;
  root.name = "schema";
  root.num_children = 2;
  SchemaElement id;
  id.name = "id";
  id.type = PhysicalType::kInt64;
  id.repetition_type = FieldRepetitionType::kRequired;
  id.field_id = 1;
  id.logical_type = LogicalType::Integer(64, true);
  SchemaElement price;
  price.name = "price";
  price.type = PhysicalType::kFixedLenByteArray;
  price.type_length = 9;
  price.repetition_type = FieldRepetitionType::kOptional;
  price.converted_type = ConvertedType::kDecimal;
  price.precision = 20;
  price.scale = 2;
  price.field_id = 2;
  price.logical_type = LogicalType::Decimal(20, 2);
  md.schema = {root, id, price};

  RowGroup rg;
  rg.num_rows = 3;
  rg.total_byte_size = 100;
  rg.ordinal = 0;
  rg.file_offset = 4;
  rg.sorting_columns = {{0, false, true}};
  ColumnChunk cc;
  cc.file_offset = 0;
  ColumnMetaData cmd;
  cmd.type = PhysicalType::kInt64;
  cmd.encodings = {Encoding::kPlain, Encoding::kRleDictionary, Encoding::kRle};
  cmd.path_in_schema = {"id"};
  cmd.codec = CompressionCodec::kZstd;
  cmd.num_values = 3;
  cmd.total_compressed_size = 50;
  cmd.total_uncompressed_size = 60;
  cmd.data_page_offset = 40;
  cmd.dictionary_page_offset = 4;
  Statistics st;
  st.null_count = 0;
  st.min_value = std::string("\x01\0\0\0\0\0\0\0", 8);
  st.max_value = std::string("\x03\0\0\0\0\0\0\0", 8);
  st.is_min_value_exact = true;
  st.is_max_value_exact = false;
  cmd.statistics = st;
  cmd.encoding_stats = {{PageType::kDictionaryPage, Encoding::kPlain, 1},
                        {PageType::kDataPage, Encoding::kRleDictionary, 1}};
  cmd.key_value_metadata = {{"k", "v"}, {"only_key", std::nullopt}};
  cmd.bloom_filter_offset = 1000;
  cmd.bloom_filter_length = 64;
  SizeStatistics ss;
  ss.unencoded_byte_array_data_bytes = 7;
  ss.definition_level_histogram = {1, 2};
  cmd.size_statistics = ss;
  cc.meta_data = cmd;
  cc.offset_index_offset = 2000;
  cc.offset_index_length = 20;
  cc.column_index_offset = 2100;
  cc.column_index_length = 30;
  rg.columns = {cc, cc};
  md.row_groups = {rg};
  md.key_value_metadata = {{"iceberg.schema", "{}"}};
  md.column_orders = {ColumnOrder::kTypeDefined, ColumnOrder::kTypeDefined};
  return md;
}

TEST(Metadata, FileMetaDataRoundTrip) {
  FileMetaData md = SampleFile();
  std::string bytes = EncodeThrift(md);
  size_t consumed = 0;
  auto decoded = DecodeThrift<FileMetaData>(bytes, 0, &consumed);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(consumed, bytes.size());
  EXPECT_EQ(*decoded, md);
}

TEST(Metadata, EveryLogicalTypeRoundTrips) {
  using K = LogicalType::Kind;
  std::vector<LogicalType> types = {LogicalType::Of(K::kString),
                                    LogicalType::Of(K::kMap),
                                    LogicalType::Of(K::kList),
                                    LogicalType::Of(K::kEnum),
                                    LogicalType::Decimal(38, 10),
                                    LogicalType::Of(K::kDate),
                                    LogicalType::Time(false, LogicalTimeUnit::kMillis),
                                    LogicalType::Time(true, LogicalTimeUnit::kNanos),
                                    LogicalType::Timestamp(true, LogicalTimeUnit::kMicros),
                                    LogicalType::Timestamp(false, LogicalTimeUnit::kNanos),
                                    LogicalType::Integer(8, false),
                                    LogicalType::Integer(32, true),
                                    LogicalType::Of(K::kUnknown),
                                    LogicalType::Of(K::kJson),
                                    LogicalType::Of(K::kBson),
                                    LogicalType::Of(K::kUuid),
                                    LogicalType::Of(K::kFloat16),
                                    LogicalType::Of(K::kVariant)};
  for (const LogicalType& t : types) {
    auto back = DecodeThrift<LogicalType>(EncodeThrift(t));
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_EQ(*back, t) << static_cast<int>(t.kind);
  }
}

TEST(Metadata, PageHeadersRoundTrip) {
  PageHeader v1;
  v1.type = PageType::kDataPage;
  v1.uncompressed_page_size = 100;
  v1.compressed_page_size = 80;
  v1.crc = -12345;
  DataPageHeader dph;
  dph.num_values = 10;
  dph.encoding = Encoding::kRleDictionary;
  dph.statistics = Statistics{};
  dph.statistics->null_count = 2;
  v1.data_page_header = dph;

  PageHeader dict;
  dict.type = PageType::kDictionaryPage;
  dict.dictionary_page_header = DictionaryPageHeader{5, Encoding::kPlain, true};

  PageHeader v2;
  v2.type = PageType::kDataPageV2;
  DataPageHeaderV2 h2;
  h2.num_values = 7;
  h2.num_nulls = 1;
  h2.num_rows = 3;
  h2.encoding = Encoding::kDeltaBinaryPacked;
  h2.definition_levels_byte_length = 4;
  h2.repetition_levels_byte_length = 2;
  h2.is_compressed = false;
  v2.data_page_header_v2 = h2;

  PageHeader index;
  index.type = PageType::kIndexPage;
  index.index_page_header = IndexPageHeader{};

  for (const PageHeader& h : {v1, dict, v2, index}) {
    std::string bytes = EncodeThrift(h);
    bytes += "page data follows";
    size_t consumed = 0;
    auto back = DecodeThrift<PageHeader>(bytes, 0, &consumed);
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_EQ(*back, h);
    EXPECT_EQ(bytes.substr(consumed), "page data follows");
  }
}

TEST(Metadata, PageIndexAndBloomHeaderRoundTrip) {
  ColumnIndex ci;
  ci.null_pages = {false, true, false};
  ci.min_values = {"a", "", "m"};
  ci.max_values = {"k", "", "z"};
  ci.boundary_order = BoundaryOrder::kAscending;
  ci.null_counts = std::vector<int64_t>{0, 5, 0};
  ci.definition_level_histograms = {1, 2, 3, 4, 5, 6};
  auto ci2 = DecodeThrift<ColumnIndex>(EncodeThrift(ci));
  ASSERT_TRUE(ci2.ok()) << ci2.status().ToString();
  EXPECT_EQ(*ci2, ci);
  EXPECT_FALSE(ci2->nan_counts.has_value());

  OffsetIndex oi;
  oi.page_locations = {{4, 100, 0}, {104, 90, 1000}};
  oi.unencoded_byte_array_data_bytes = {10, 20};
  auto oi2 = DecodeThrift<OffsetIndex>(EncodeThrift(oi));
  ASSERT_TRUE(oi2.ok());
  EXPECT_EQ(*oi2, oi);

  BloomFilterHeader bf;
  bf.num_bytes = 1024;
  auto bf2 = DecodeThrift<BloomFilterHeader>(EncodeThrift(bf));
  ASSERT_TRUE(bf2.ok());
  EXPECT_EQ(*bf2, bf);
}

TEST(Metadata, UnknownFieldsAreSkipped) {
  // A KeyValue with extra fields of every kind, as a newer writer might produce.
  CompactWriter w;
  w.BeginStruct();
  w.WriteBinaryField(1, "key");
  w.WriteFieldBegin(5, CompactType::kStruct);
  w.BeginStruct();
  w.WriteI32Field(1, 7);
  w.WriteFieldBegin(2, CompactType::kList);
  w.WriteListBegin(CompactType::kBinary, 1);
  w.WriteBinary("x");
  w.EndStruct();
  w.WriteBoolField(6, true);
  w.WriteFieldBegin(7, CompactType::kDouble);
  w.WriteDouble(1.5);
  w.WriteBinaryField(2, "value");  // known field after unknown ones (long-form header)
  w.EndStruct();
  auto kv = DecodeThrift<KeyValue>(w.buffer());
  ASSERT_TRUE(kv.ok()) << kv.status().ToString();
  EXPECT_EQ(kv->key, "key");
  EXPECT_EQ(kv->value, "value");
}

TEST(Metadata, MissingRequiredFieldAndWrongTypeAreCorruption) {
  CompactWriter w;
  w.BeginStruct();
  w.WriteI32Field(1, 2);  // version only
  w.EndStruct();
  auto md = DecodeThrift<FileMetaData>(w.buffer());
  EXPECT_EQ(md.status().code(), StatusCode::kCorruption);
  EXPECT_NE(md.status().message().find("required field 2"), std::string::npos)
      << md.status().message();

  CompactWriter w2;
  w2.BeginStruct();
  w2.WriteI32Field(4, 5);  // SchemaElement.name as an i32
  w2.EndStruct();
  auto se = DecodeThrift<SchemaElement>(w2.buffer());
  EXPECT_EQ(se.status().code(), StatusCode::kCorruption);
}

TEST(Metadata, TruncatedFileMetaDataIsCorruptionNeverCrash) {
  std::string bytes = EncodeThrift(SampleFile());
  for (size_t len = 0; len < bytes.size(); ++len) {
    auto md = DecodeThrift<FileMetaData>(std::string_view(bytes).substr(0, len));
    EXPECT_FALSE(md.ok()) << len;
  }
  // Flip bytes one by one: must never crash (results may be ok or Corruption).
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::string mutated = bytes;
    mutated[i] = static_cast<char>(mutated[i] ^ 0x5a);
    auto md = DecodeThrift<FileMetaData>(mutated);
    if (!md.ok()) {
      EXPECT_EQ(md.status().code(), StatusCode::kCorruption);
    }
  }
}

TEST(Footer, RoundTripAndBadTails) {
  std::string file = "PAR1";
  file += "column chunk bytes";
  file += SerializeFooter(SampleFile());
  auto md = ParseFooter(file);
  ASSERT_TRUE(md.ok()) << md.status().ToString();
  EXPECT_EQ(*md, SampleFile());

  EXPECT_EQ(ParseFooter("PAR1PAR1").status().code(), StatusCode::kCorruption);
  std::string bad_magic = file;
  bad_magic.back() = 'X';
  EXPECT_NE(ParseFooter(bad_magic).status().message().find("magic"), std::string::npos);
  std::string bad_head = file;
  bad_head[0] = 'X';
  EXPECT_EQ(ParseFooter(bad_head).status().code(), StatusCode::kCorruption);
  std::string lying = file;
  lying[lying.size() - 8] = '\xff';
  lying[lying.size() - 7] = '\xff';
  auto st = ParseFooter(lying).status();
  EXPECT_EQ(st.code(), StatusCode::kCorruption);
  EXPECT_NE(st.message().find("file offset"), std::string::npos) << st.message();
  std::string encrypted = file;
  encrypted.replace(encrypted.size() - 4, 4, "PARE");
  EXPECT_EQ(ParseFooter(encrypted).status().code(), StatusCode::kNotImplemented);
  // Truncated files: every prefix fails cleanly.
  for (size_t len = 0; len < file.size(); len += 7) {
    EXPECT_FALSE(ParseFooter(std::string_view(file).substr(0, len)).ok());
  }
}

}  // namespace
}  // namespace sqe::parquet
