// Fuzz target: the Parquet footer. Hostile bytes go through the compact-thrift decoder
// of FileMetaData and, when that succeeds, through the schema mapping, as a reader does
// after opening a file; the same bytes are also tried as the other thrift structures a
// reader decodes from a file (page header, column index, offset index, bloom filter
// header). Anything but a Status is a bug.
#include <string_view>

#include "columnar/data_type.h"
#include "columnar/schema.h"
#include "formats/parquet/footer.h"
#include "formats/parquet/metadata.h"
#include "formats/parquet/schema_mapping.h"
#include "fuzz_target.h"

using namespace sqe;
using namespace sqe::parquet;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto metadata = ParseFileMetaData(bytes, 0);
  if (metadata.ok()) {
    auto schema = FromParquetSchema(metadata->schema);
    (void)schema;
  }
  (void)ParseFooter(bytes);
  (void)DecodeThrift<PageHeader>(bytes);
  (void)DecodeThrift<ColumnIndex>(bytes);
  (void)DecodeThrift<OffsetIndex>(bytes);
  (void)DecodeThrift<BloomFilterHeader>(bytes);
  return 0;
}

std::vector<std::string> SqeFuzzSeeds() {
  using namespace sqe::columnar;
  std::vector<Field> fields = {
      Field("id", Int64(), false, 1),
      Field("name", String(), true, 2),
      Field("price", Decimal(20, 2), true, 3),
      Field("ts", TimestampTz(), true, 4),
      Field("tags", List(String()), true, 5),
      Field("attrs", Map(String(), Int32()), true, 6),
      Field("point", Struct({Field("x", Float64()), Field("y", Float32())}), true, 7),
      Field("day", Date32(), true, 8),
      Field("u", Uuid(), true, 9),
  };
  auto elements = ToParquetSchema(*Schema::Make(fields));
  if (!elements.ok()) return {};
  FileMetaData md;
  md.version = 2;
  md.schema = *elements;
  md.num_rows = 100;
  md.created_by = "sqe fuzz seed";
  auto mapped = FromParquetSchema(md.schema);
  if (!mapped.ok()) return {};
  RowGroup rg;
  rg.num_rows = 100;
  int64_t offset = 4;
  for (const ColumnDescriptor& col : mapped->columns) {
    ColumnChunk chunk;
    ColumnMetaData meta;
    meta.type = col.physical_type;
    meta.encodings = {Encoding::kPlain, Encoding::kRle, Encoding::kRleDictionary};
    meta.path_in_schema = col.path;
    meta.codec = CompressionCodec::kZstd;
    meta.num_values = 100;
    meta.total_uncompressed_size = 1000;
    meta.total_compressed_size = 500;
    meta.data_page_offset = offset;
    Statistics stats;
    stats.min_value = std::string(8, '\0');
    stats.max_value = std::string(8, '\x7f');
    stats.null_count = 3;
    meta.statistics = stats;
    chunk.meta_data = meta;
    chunk.file_offset = offset;
    chunk.offset_index_offset = offset + 400;
    chunk.offset_index_length = 20;
    offset += 500;
    rg.columns.push_back(chunk);
  }
  rg.total_byte_size = offset;
  md.row_groups = {rg, rg};
  md.key_value_metadata = {KeyValue{"iceberg.schema", std::string("{}")}};

  std::vector<std::string> seeds;
  seeds.push_back(EncodeThrift(md));
  seeds.push_back("PAR1" + std::string(16, '\0') + SerializeFooter(md));

  PageHeader page;
  page.type = PageType::kDataPage;
  page.uncompressed_page_size = 100;
  page.compressed_page_size = 80;
  DataPageHeader data_page;
  data_page.num_values = 10;
  page.data_page_header = data_page;
  seeds.push_back(EncodeThrift(page));

  OffsetIndex oi;
  oi.page_locations = {{4, 100, 0}, {104, 100, 50}};
  seeds.push_back(EncodeThrift(oi));
  ColumnIndex ci;
  ci.null_pages = {false, true};
  ci.min_values = {"a", ""};
  ci.max_values = {"z", ""};
  ci.null_counts = {0, 50};
  seeds.push_back(EncodeThrift(ci));
  return seeds;
}
