#include "formats/parquet/column_writer.h"

#include <cstring>

#include "formats/parquet/compression.h"
#include "formats/parquet/encoding/bit_packing.h"
#include "formats/parquet/encoding/dictionary.h"
#include "formats/parquet/encoding/plain.h"
#include "formats/parquet/encoding/rle.h"

namespace sqe::parquet {
namespace {

void AppendLength(uint32_t n, std::string* out) {
  char b[4];
  std::memcpy(b, &n, 4);
  out->append(b, 4);
}

Result<std::string> CompressBody(CompressionCodec codec, const std::string& body, int level) {
  if (codec == CompressionCodec::kUncompressed) return body;
  return Compress(codec, body, level);
}

}  // namespace

ColumnChunkWriter::ColumnChunkWriter(const ColumnDescriptor& descriptor,
                                     const columnar::DataType& type, const WriterOptions& options)
    : desc_(descriptor),
      type_(type),
      options_(options),
      codec_(options.codec == CompressionCodec::kLz4 ? CompressionCodec::kLz4Raw : options.codec),
      order_(ValueOrderOf(type, descriptor.physical_type)),
      page_stats_(order_),
      chunk_stats_(order_) {
  Reset();
}

void ColumnChunkWriter::Reset() {
  def_.clear();
  rep_.clear();
  plain_.clear();
  indices_.clear();
  page_rows_ = 0;
  page_nulls_ = 0;
  page_stats_ = StatisticsBuilder(order_);
  use_dictionary_ = options_.dictionary && desc_.physical_type != PhysicalType::kBoolean;
  fallback_pending_ = false;
  dict_index_.clear();
  dict_plain_.clear();
  pages_.clear();
  locations_.clear();
  column_index_ = ColumnIndex();
  column_index_.null_counts.emplace();
  column_index_valid_ = true;
  chunk_stats_ = StatisticsBuilder(order_);
  num_values_ = 0;
  chunk_rows_ = 0;
  uncompressed_ = 0;
  dict_pages_data_ = 0;
  plain_pages_ = 0;
}

int64_t ColumnChunkWriter::EstimatedSize() const {
  int64_t levels = static_cast<int64_t>(def_.size()) / 2;
  int64_t values =
      use_dictionary_ ? static_cast<int64_t>(indices_.size()) * BitWidthOf(dict_index_.size()) / 8 +
                            static_cast<int64_t>(dict_plain_.size())
                      : static_cast<int64_t>(plain_.size());
  return static_cast<int64_t>(pages_.size()) + levels + values;
}

Status ColumnChunkWriter::Write(const ShreddedLeaf& leaf) {
  const bool byte_array = desc_.physical_type == PhysicalType::kByteArray;
  size_t next_value = 0;
  for (size_t k = 0; k < leaf.def_levels.size(); ++k) {
    const int16_t def = leaf.def_levels[k];
    const int16_t rep = leaf.rep_levels[k];
    if (rep == 0) {
      if (!def_.empty()) {
        const int64_t open = EstimatedSize() - static_cast<int64_t>(pages_.size()) -
                             (use_dictionary_ ? static_cast<int64_t>(dict_plain_.size()) : 0);
        if (fallback_pending_ || open >= options_.data_page_bytes ||
            static_cast<int64_t>(def_.size()) >= options_.data_page_values) {
          SQE_RETURN_NOT_OK(FlushPage());
        }
      }
      if (fallback_pending_) {
        use_dictionary_ = false;
        fallback_pending_ = false;
      }
      ++page_rows_;
    }
    def_.push_back(def);
    rep_.push_back(rep);
    if (def < desc_.max_definition_level) {
      ++page_nulls_;
      page_stats_.AddNulls(1);
      continue;
    }
    scratch_.clear();
    AppendRawValue(leaf.values, leaf.value_rows[next_value++], desc_.physical_type,
                   desc_.type_length, &scratch_);
    page_stats_.Update(scratch_);
    if (use_dictionary_) {
      auto [it, inserted] =
          dict_index_.try_emplace(scratch_, static_cast<uint32_t>(dict_index_.size()));
      if (inserted) {
        if (byte_array) AppendLength(static_cast<uint32_t>(scratch_.size()), &dict_plain_);
        dict_plain_ += scratch_;
        if (static_cast<int64_t>(dict_plain_.size()) > options_.dictionary_page_bytes) {
          fallback_pending_ = true;
        }
      }
      indices_.push_back(it->second);
    } else {
      if (byte_array) AppendLength(static_cast<uint32_t>(scratch_.size()), &plain_);
      plain_ += scratch_;
    }
  }
  return Status::OK();
}

std::string ColumnChunkWriter::EncodeLevels(const std::vector<int16_t>& levels, int16_t max_level,
                                            bool prefix) {
  std::string out;
  if (max_level == 0) return out;
  RleBitPackedEncoder enc(BitWidthOf(static_cast<uint64_t>(max_level)));
  for (int16_t l : levels) enc.Put(static_cast<uint32_t>(l));
  std::string body;
  enc.Finish(&body);
  if (prefix) AppendLength(static_cast<uint32_t>(body.size()), &out);
  out += body;
  return out;
}

Status ColumnChunkWriter::FlushPage() {
  if (def_.empty()) return Status::OK();
  const int64_t n = static_cast<int64_t>(def_.size());
  std::string values;
  Encoding encoding = Encoding::kPlain;
  if (use_dictionary_) {
    EncodeDictionaryIndices(indices_.data(), static_cast<int64_t>(indices_.size()),
                            static_cast<int64_t>(dict_index_.size()), &values);
    encoding = Encoding::kRleDictionary;
    ++dict_pages_data_;
  } else {
    if (desc_.physical_type == PhysicalType::kBoolean) {
      EncodePlainBoolean(reinterpret_cast<const uint8_t*>(plain_.data()),
                         static_cast<int64_t>(plain_.size()), &values);
    } else {
      values = std::move(plain_);
    }
    ++plain_pages_;
  }

  PageHeader header;
  std::string body;
  if (options_.page_version == DataPageVersion::kV1) {
    std::string raw = EncodeLevels(rep_, desc_.max_repetition_level, true);
    raw += EncodeLevels(def_, desc_.max_definition_level, true);
    raw += values;
    SQE_ASSIGN_OR_RETURN(body, CompressBody(codec_, raw, options_.compression_level));
    header.type = PageType::kDataPage;
    header.uncompressed_page_size = static_cast<int32_t>(raw.size());
    DataPageHeader dp;
    dp.num_values = static_cast<int32_t>(n);
    dp.encoding = encoding;
    header.data_page_header = dp;
  } else {
    std::string rep = EncodeLevels(rep_, desc_.max_repetition_level, false);
    std::string def = EncodeLevels(def_, desc_.max_definition_level, false);
    SQE_ASSIGN_OR_RETURN(std::string compressed,
                         CompressBody(codec_, values, options_.compression_level));
    body = rep + def + compressed;
    header.type = PageType::kDataPageV2;
    header.uncompressed_page_size = static_cast<int32_t>(rep.size() + def.size() + values.size());
    DataPageHeaderV2 dp;
    dp.num_values = static_cast<int32_t>(n);
    dp.num_nulls = static_cast<int32_t>(page_nulls_);
    dp.num_rows = static_cast<int32_t>(page_rows_);
    dp.encoding = encoding;
    dp.definition_levels_byte_length = static_cast<int32_t>(def.size());
    dp.repetition_levels_byte_length = static_cast<int32_t>(rep.size());
    dp.is_compressed = codec_ != CompressionCodec::kUncompressed;
    header.data_page_header_v2 = dp;
  }
  header.compressed_page_size = static_cast<int32_t>(body.size());
  std::string header_bytes = EncodeThrift(header);

  PageLocation loc;
  loc.offset = static_cast<int64_t>(pages_.size());
  loc.compressed_page_size = static_cast<int32_t>(header_bytes.size() + body.size());
  loc.first_row_index = chunk_rows_;
  locations_.push_back(loc);
  pages_ += header_bytes;
  pages_ += body;
  uncompressed_ += static_cast<int64_t>(header_bytes.size()) + header.uncompressed_page_size;

  const bool null_page = page_stats_.non_null_count() == 0;
  if (!null_page && !page_stats_.has_min_max()) column_index_valid_ = false;  // only NaNs
  column_index_.null_pages.push_back(null_page);
  column_index_.min_values.push_back(page_stats_.has_min_max() ? page_stats_.min() : "");
  column_index_.max_values.push_back(page_stats_.has_min_max() ? page_stats_.max() : "");
  column_index_.null_counts->push_back(page_nulls_);

  chunk_stats_.Merge(page_stats_);
  num_values_ += n;
  chunk_rows_ += page_rows_;
  def_.clear();
  rep_.clear();
  plain_.clear();
  indices_.clear();
  page_rows_ = 0;
  page_nulls_ = 0;
  page_stats_ = StatisticsBuilder(order_);
  return Status::OK();
}

Result<ChunkResult> ColumnChunkWriter::Finish() {
  SQE_RETURN_NOT_OK(FlushPage());
  ChunkResult out;
  ColumnMetaData& meta = out.meta;
  meta.type = desc_.physical_type;
  meta.path_in_schema = desc_.path;
  meta.codec = codec_;
  meta.num_values = num_values_;
  int64_t dict_size = 0;
  if (dict_pages_data_ > 0) {
    SQE_ASSIGN_OR_RETURN(std::string body,
                         CompressBody(codec_, dict_plain_, options_.compression_level));
    PageHeader header;
    header.type = PageType::kDictionaryPage;
    header.uncompressed_page_size = static_cast<int32_t>(dict_plain_.size());
    header.compressed_page_size = static_cast<int32_t>(body.size());
    DictionaryPageHeader dh;
    dh.num_values = static_cast<int32_t>(dict_index_.size());
    dh.encoding = Encoding::kPlain;
    header.dictionary_page_header = dh;
    std::string header_bytes = EncodeThrift(header);
    out.bytes = header_bytes + body;
    dict_size = static_cast<int64_t>(out.bytes.size());
    uncompressed_ += static_cast<int64_t>(header_bytes.size()) + header.uncompressed_page_size;
    meta.dictionary_page_offset = 0;
    meta.encodings.push_back(Encoding::kPlain);
    meta.encodings.push_back(Encoding::kRleDictionary);
    meta.encoding_stats.push_back({PageType::kDictionaryPage, Encoding::kPlain, 1});
    const PageType data_type =
        options_.page_version == DataPageVersion::kV1 ? PageType::kDataPage : PageType::kDataPageV2;
    meta.encoding_stats.push_back({data_type, Encoding::kRleDictionary, dict_pages_data_});
  }
  if (plain_pages_ > 0) {
    if (dict_pages_data_ == 0) meta.encodings.push_back(Encoding::kPlain);
    const PageType data_type =
        options_.page_version == DataPageVersion::kV1 ? PageType::kDataPage : PageType::kDataPageV2;
    meta.encoding_stats.push_back({data_type, Encoding::kPlain, plain_pages_});
  }
  meta.encodings.push_back(Encoding::kRle);
  out.bytes += pages_;
  meta.data_page_offset = dict_size;
  meta.total_compressed_size = static_cast<int64_t>(out.bytes.size());
  meta.total_uncompressed_size = uncompressed_;
  Statistics stats;
  stats.null_count = chunk_stats_.null_count();
  if (chunk_stats_.has_min_max()) {
    stats.min_value = chunk_stats_.min();
    stats.max_value = chunk_stats_.max();
  }
  meta.statistics = stats;

  for (PageLocation& loc : locations_) loc.offset += dict_size;
  out.offset_index.page_locations = std::move(locations_);
  if (column_index_valid_ && options_.write_page_index) {
    // Ascending when the non-null pages' bounds never decrease.
    bool ascending = true;
    int last = -1;
    for (size_t i = 0; i < column_index_.null_pages.size(); ++i) {
      if (column_index_.null_pages[i]) continue;
      if (last >= 0 &&
          (CompareRaw(order_, column_index_.min_values[i], column_index_.min_values[last]) < 0 ||
           CompareRaw(order_, column_index_.max_values[i], column_index_.max_values[last]) < 0)) {
        ascending = false;
      }
      last = static_cast<int>(i);
    }
    column_index_.boundary_order =
        ascending ? BoundaryOrder::kAscending : BoundaryOrder::kUnordered;
    out.column_index = std::move(column_index_);
  }
  out.stats = chunk_stats_;
  Reset();
  return out;
}

}  // namespace sqe::parquet
