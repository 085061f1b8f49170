// Fuzz target: a whole Parquet file through ParquetFileReader (footer, schema mapping,
// projection, chunk fetching, every page, record assembly), also with row ranges and
// checksums on. Seeds are small files assembled in memory from our encoders. Anything
// but a Status is a bug.
#include <memory>
#include <string>
#include <vector>

#include "columnar/data_type.h"
#include "columnar/schema.h"
#include "formats/parquet/encoding/dictionary.h"
#include "formats/parquet/encoding/plain.h"
#include "formats/parquet/encoding/rle.h"
#include "formats/parquet/file_reader.h"
#include "formats/parquet/footer.h"
#include "formats/parquet/schema_mapping.h"
#include "fuzz_target.h"
#include "io/memory_file.h"
#include "parquet_seed_pages.h"

using namespace sqe;
using namespace sqe::parquet;
using namespace sqe::parquet::fuzz_seeds;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  ReaderOptions options;
  options.verify_page_checksums = size % 2 == 0;
  auto reader =
      ParquetFileReader::Open(std::make_shared<io::MemoryFile>(std::move(bytes)), options);
  if (!reader.ok()) return 0;
  (void)(*reader)->ReadAll();
  if ((*reader)->num_row_groups() > 0) {
    RowRanges some = RowRanges::FromRanges({{1, 3}});
    (void)(*reader)->ReadRowGroup(0, &some);
  }
  return 0;
}

namespace {

// A 4-row file: id bigint not null, name varchar (dictionary), tags array(integer).
std::string SeedFile() {
  using columnar::Field;
  auto schema = columnar::Schema::Make({Field("id", columnar::Int64(), false, 1),
                                        Field("name", columnar::String(), true, 2),
                                        Field("tags", columnar::List(columnar::Int32()), true, 3)});
  auto elements = ToParquetSchema(*schema);
  if (!elements.ok()) return {};
  auto mapped = FromParquetSchema(*elements);
  if (!mapped.ok()) return {};

  std::vector<std::string> chunks;
  const std::vector<int64_t> ids = {1, 2, 3, 4};
  std::string id_body;
  EncodePlain(ids.data(), 4, &id_body);
  chunks.push_back(Page(PageType::kDataPage, 4, Encoding::kPlain, id_body));

  std::vector<std::string_view> dict = {"ann", "bob"};
  std::string dict_body;
  EncodePlainByteArray(dict.data(), 2, &dict_body);
  std::vector<uint32_t> idx = {1, 0, 1};
  std::string idx_body;
  EncodeDictionaryIndices(idx.data(), 3, 2, &idx_body);
  chunks.push_back(
      Page(PageType::kDictionaryPage, 2, Encoding::kPlain, dict_body) +
      Page(PageType::kDataPage, 4, Encoding::kRleDictionary, Levels({1, 0, 1, 1}, 1) + idx_body));

  // tags: [7, null], null, [], [8]
  const std::vector<int32_t> tags = {7, 8};
  std::string tag_values;
  EncodePlain(tags.data(), 2, &tag_values);
  chunks.push_back(Page(PageType::kDataPage, 5, Encoding::kPlain,
                        Levels({0, 1, 0, 0, 0}, 1) + Levels({3, 2, 0, 1, 3}, 2) + tag_values));
  const int64_t values[] = {4, 4, 5};

  std::string file(kParquetMagic);
  FileMetaData md;
  md.version = 2;
  md.schema = *elements;
  md.num_rows = 4;
  RowGroup rg;
  rg.num_rows = 4;
  for (size_t i = 0; i < chunks.size(); ++i) {
    const ColumnDescriptor& d = mapped->columns[i];
    ColumnChunk c;
    ColumnMetaData& m = c.meta_data.emplace();
    m.type = d.physical_type;
    m.path_in_schema = d.path;
    m.codec = CompressionCodec::kUncompressed;
    m.num_values = values[i];
    m.total_compressed_size = static_cast<int64_t>(chunks[i].size());
    m.total_uncompressed_size = m.total_compressed_size;
    m.data_page_offset = static_cast<int64_t>(file.size());
    if (i == 1) {
      m.dictionary_page_offset = m.data_page_offset;
      m.data_page_offset += static_cast<int64_t>(
          Page(PageType::kDictionaryPage, 2, Encoding::kPlain, dict_body).size());
    }
    c.file_offset = static_cast<int64_t>(file.size());
    file += chunks[i];
    rg.columns.push_back(std::move(c));
    rg.total_byte_size += m.total_compressed_size;
  }
  md.row_groups = {rg};
  return file + SerializeFooter(md);
}

}  // namespace

std::vector<std::string> SqeFuzzSeeds() { return {SeedFile()}; }
