// Page iteration for one column chunk: headers, codecs, levels, row-range filtering.
// Value decoding lives in leaf_values.cc.
#include "formats/parquet/column_chunk_reader.h"

#include <algorithm>
#include <limits>
#include <memory>

#include <zlib.h>

#include "formats/parquet/encoding/levels.h"
#include "formats/parquet/leaf_values_internal.h"

namespace sqe::parquet {
namespace {

using internal::IndexRun;
using internal::LeafValues;

}  // namespace

int64_t PageRowEnd(const OffsetIndex& index, size_t k, int64_t row_group_num_rows) {
  return k + 1 < index.page_locations.size() ? index.page_locations[k + 1].first_row_index
                                             : row_group_num_rows;
}

namespace {

class ChunkDecoder {
 public:
  ChunkDecoder(const ColumnDescriptor& d, const ColumnMetaData& meta,
               const std::vector<ChunkPiece>& pieces, int64_t chunk_start,
               const ColumnChunkReadOptions& options, const RowRanges* ranges,
               ColumnChunkReadStats* stats)
      : d_(d),
        meta_(meta),
        pieces_(pieces),
        chunk_start_(chunk_start),
        options_(options),
        ranges_(ranges),
        stats_(stats) {}

  Status Init() {
    SQE_RETURN_NOT_OK(values_.Init(d_, options_.tracker));
    values_.set_max_page_bytes(options_.max_page_size);
    // Size the output once from the metadata, bounded so a lying footer cannot make us
    // reserve much: at most 8 values per stored byte and 4M values.
    const int64_t hint =
        std::min({meta_.num_values, meta_.total_uncompressed_size * 8, int64_t{1} << 22});
    if (ranges_ == nullptr && hint > 0) {
      SQE_RETURN_NOT_OK(
          values_.Reserve(hint, std::min(meta_.total_uncompressed_size, int64_t{64} << 20)));
      if (d_.max_definition_level > 0) out_.def_levels.reserve(static_cast<size_t>(hint));
      if (d_.max_repetition_level > 0) out_.rep_levels.reserve(static_cast<size_t>(hint));
    }
    SQE_ASSIGN_OR_RETURN(page_reservation_, Reservation::Make(options_.tracker, 0));
    SQE_ASSIGN_OR_RETURN(out_.levels_reservation, Reservation::Make(options_.tracker, 0));
    return Status::OK();
  }

  // Sequentially from the chunk start until the metadata's value count is reached.
  Status ReadAllPages() {
    const int64_t size = meta_.total_compressed_size;
    int64_t pos = 0;
    while (levels_seen_ < meta_.num_values) {
      if (pos >= size) {
        return Fail(pos, "chunk ends after " + std::to_string(levels_seen_) + " of its " +
                             std::to_string(meta_.num_values) + " values");
      }
      SQE_ASSIGN_OR_RETURN(int64_t consumed, ReadPage(pos, /*first_row=*/-1));
      pos += consumed;
    }
    if (levels_seen_ != meta_.num_values) {
      return Fail(pos, "chunk holds " + std::to_string(levels_seen_) +
                           " values, its metadata says " + std::to_string(meta_.num_values));
    }
    if (ranges_ == nullptr && options_.row_group_num_rows >= 0 &&
        out_.num_rows != options_.row_group_num_rows) {
      return Fail(pos, "chunk holds " + std::to_string(out_.num_rows) + " rows, its row group " +
                           std::to_string(options_.row_group_num_rows));
    }
    return Status::OK();
  }

  // Only the pages of `index` that overlap ranges_ (plus the dictionary page).
  Status ReadIndexedPages(const OffsetIndex& index) {
    const auto& locs = index.page_locations;
    const int64_t size = meta_.total_compressed_size;
    if (locs.empty()) return ReadAllPages();
    int64_t first_rel = locs[0].offset - chunk_start_;
    if (first_rel < 0 || first_rel > size) {
      return Fail(0, "offset index: first page at file offset " + std::to_string(locs[0].offset) +
                         " is outside the chunk");
    }
    bool any_selected = false;
    for (size_t k = 0; k < locs.size() && !any_selected; ++k) {
      any_selected =
          ranges_->Overlaps(locs[k].first_row_index, PageRowEnd(index, k, RowGroupEnd()));
    }
    // Pages before the first data page: the dictionary (and legacy index pages).
    int64_t pos = 0;
    while (any_selected && pos < first_rel) {
      SQE_ASSIGN_OR_RETURN(int64_t consumed,
                           ReadPage(pos, -1, first_rel - pos, /*dictionary_only=*/true));
      pos += consumed;
    }
    for (size_t k = 0; k < locs.size(); ++k) {
      const PageLocation& loc = locs[k];
      const int64_t rel = loc.offset - chunk_start_;
      const int64_t end = PageRowEnd(index, k, RowGroupEnd());
      if (rel < 0 || rel >= size || loc.compressed_page_size < 0 ||
          loc.compressed_page_size > size - rel || loc.first_row_index < 0 ||
          end < loc.first_row_index) {
        return Fail(std::max<int64_t>(rel, 0),
                    "offset index: page " + std::to_string(k) + " (file offset " +
                        std::to_string(loc.offset) + ", " +
                        std::to_string(loc.compressed_page_size) + " bytes, first row " +
                        std::to_string(loc.first_row_index) + ") does not fit the chunk");
      }
      if (!ranges_->Overlaps(loc.first_row_index, end)) {
        if (stats_ != nullptr) ++stats_->pages_skipped;
        continue;
      }
      SQE_ASSIGN_OR_RETURN(int64_t consumed,
                           ReadPage(rel, loc.first_row_index, loc.compressed_page_size));
      (void)consumed;
    }
    return Status::OK();
  }

  Result<LeafData> Finish() {
    SQE_ASSIGN_OR_RETURN(out_.values, values_.Finish());
    out_.num_levels = static_cast<int64_t>(
        d_.max_definition_level > 0
            ? out_.def_levels.size()
            : (d_.max_repetition_level > 0 ? out_.rep_levels.size() : out_.values.length()));
    return std::move(out_);
  }

 private:
  int64_t RowGroupEnd() const {
    return options_.row_group_num_rows >= 0 ? options_.row_group_num_rows
                                            : std::numeric_limits<int64_t>::max();
  }

  Status Fail(int64_t pos, const std::string& what) const {
    return Status::Corruption("parquet file '" + options_.file_path + "' column '" +
                              JoinPath(d_.path) + "' at offset " +
                              std::to_string(chunk_start_ + pos) + ": " + what);
  }
  Status Wrap(int64_t pos, const Status& st) const {
    if (st.ok()) return st;
    if (st.code() != StatusCode::kCorruption && st.code() != StatusCode::kNotImplemented) {
      return st;
    }
    Status failed = Fail(pos, st.message());
    return st.code() == StatusCode::kCorruption ? failed : Status::NotImplemented(failed.message());
  }

  // Decodes the page at `pos`; returns its total size (header + body).
  // The fetched bytes from chunk position `pos` to the end of the piece holding them.
  Result<std::string_view> Span(int64_t pos) const {
    const int64_t at = chunk_start_ + pos;
    for (const ChunkPiece& p : pieces_) {
      if (p.buffer != nullptr && p.offset <= at && at < p.offset + p.buffer->size()) {
        return p.buffer->view().substr(static_cast<size_t>(at - p.offset));
      }
    }
    return Fail(pos, "page bytes were not fetched (no chunk piece covers them)");
  }

  // Decodes the page at `pos` (at most `limit` bytes when >= 0); returns its total size
  // (header + body).
  Result<int64_t> ReadPage(int64_t pos, int64_t first_row, int64_t limit = -1,
                           bool dictionary_only = false) {
    SQE_ASSIGN_OR_RETURN(std::string_view rest, Span(pos));
    const int64_t chunk_left = meta_.total_compressed_size - pos;
    if (static_cast<int64_t>(rest.size()) > chunk_left) rest = rest.substr(0, chunk_left);
    if (limit >= 0 && static_cast<int64_t>(rest.size()) > limit) rest = rest.substr(0, limit);
    const int64_t size = static_cast<int64_t>(rest.size());
    size_t header_size = 0;
    auto header = DecodeThrift<PageHeader>(rest, chunk_start_ + pos, &header_size);
    if (!header.ok()) return Wrap(pos, header.status());
    const PageHeader& h = *header;
    const int64_t body_pos = static_cast<int64_t>(header_size);
    if (h.compressed_page_size < 0 || h.compressed_page_size > size - body_pos) {
      return Fail(pos, "page of " + std::to_string(h.compressed_page_size) +
                           " compressed bytes runs past the chunk's end (" +
                           std::to_string(size - body_pos) + " bytes left)");
    }
    if (h.uncompressed_page_size < 0 || h.uncompressed_page_size > options_.max_page_size ||
        (meta_.total_uncompressed_size > 0 &&
         h.uncompressed_page_size > meta_.total_uncompressed_size)) {
      return Fail(pos, "page claims " + std::to_string(h.uncompressed_page_size) +
                           " uncompressed bytes (chunk total " +
                           std::to_string(meta_.total_uncompressed_size) + ", limit " +
                           std::to_string(options_.max_page_size) + ")");
    }
    const uint8_t* body = reinterpret_cast<const uint8_t*>(rest.data()) + body_pos;
    if (options_.verify_checksums && h.crc.has_value()) {
      // CRC32 of the page bytes after the header, as stored (parquet.thrift PageHeader.crc).
      uLong crc = crc32(0L, Z_NULL, 0);
      const uint8_t* p = body;
      for (int64_t left = h.compressed_page_size; left > 0;) {
        const uInt take = static_cast<uInt>(std::min<int64_t>(left, int64_t{1} << 30));
        crc = crc32(crc, p, take);
        p += take;
        left -= take;
      }
      if (static_cast<uint32_t>(crc) != static_cast<uint32_t>(*h.crc)) {
        return Fail(pos, "page checksum mismatch (header CRC32 " +
                             std::to_string(static_cast<uint32_t>(*h.crc)) + ", data " +
                             std::to_string(static_cast<uint32_t>(crc)) + ")");
      }
    }
    const int64_t total = static_cast<int64_t>(header_size) + h.compressed_page_size;
    Status st;
    switch (h.type) {
      case PageType::kDictionaryPage:
        st = DictionaryPage(h, body, pos);
        break;
      case PageType::kDataPage:
      case PageType::kDataPageV2:
        if (dictionary_only) return Fail(pos, "data page before the offset index's first page");
        st = DataPage(h, body, pos, first_row);
        break;
      default:
        return total;  // index pages and unknown page types carry no values
    }
    SQE_RETURN_NOT_OK(st);
    if (stats_ != nullptr) ++stats_->pages_read;
    return total;
  }

  // The page body decompressed (or as is); valid until the next page.
  Result<const uint8_t*> Inflate(const uint8_t* data, int64_t compressed, int64_t uncompressed,
                                 bool compressed_flag, int64_t pos) {
    if (!compressed_flag || meta_.codec == CompressionCodec::kUncompressed) {
      if (compressed != uncompressed) {
        return Fail(pos, "uncompressed page data of " + std::to_string(compressed) +
                             " bytes, header says " + std::to_string(uncompressed));
      }
      return data;
    }
    if (page_buffer_size_ < uncompressed) {
      // Not zero-filled: the codec writes every byte or fails.
      SQE_RETURN_NOT_OK(page_reservation_.Resize(uncompressed));
      page_buffer_.reset();
      page_buffer_ = std::make_unique_for_overwrite<uint8_t[]>(static_cast<size_t>(uncompressed));
      page_buffer_size_ = uncompressed;
    }
    Status st = DecompressInto(
        meta_.codec,
        std::string_view(reinterpret_cast<const char*>(data), static_cast<size_t>(compressed)),
        page_buffer_.get(), uncompressed);
    if (!st.ok()) return Wrap(pos, st);
    return static_cast<const uint8_t*>(page_buffer_.get());
  }

  Status DictionaryPage(const PageHeader& h, const uint8_t* body, int64_t pos) {
    if (!h.dictionary_page_header) return Fail(pos, "dictionary page without its header");
    if (has_dictionary_) return Fail(pos, "a second dictionary page in the chunk");
    if (levels_seen_ > 0) return Fail(pos, "dictionary page after data pages");
    const DictionaryPageHeader& dh = *h.dictionary_page_header;
    if (dh.encoding != Encoding::kPlain && dh.encoding != Encoding::kPlainDictionary) {
      return Fail(pos, "dictionary page encoded " + std::string(EncodingName(dh.encoding)));
    }
    if (dh.num_values < 0 || dh.num_values > options_.max_page_values) {
      return Fail(pos, "dictionary page claims " + std::to_string(dh.num_values) + " values");
    }
    SQE_ASSIGN_OR_RETURN(const uint8_t* data, Inflate(body, h.compressed_page_size,
                                                      h.uncompressed_page_size, true, pos));
    SQE_RETURN_NOT_OK(Wrap(pos, dictionary_.Init(d_, options_.tracker)));
    dictionary_.set_max_page_bytes(options_.max_page_size);
    SQE_RETURN_NOT_OK(
        Wrap(pos, dictionary_.DecodeAppend(Encoding::kPlain, data, h.uncompressed_page_size,
                                           dh.num_values, nullptr)));
    has_dictionary_ = true;
    return Status::OK();
  }

  // Grows the level vectors by n, charging the tracker before allocating (so a refused
  // reservation is a Status, never an allocation failure).
  Status GrowLevels(int64_t n) {
    std::vector<int16_t>* vectors[2] = {d_.max_definition_level > 0 ? &out_.def_levels : nullptr,
                                        d_.max_repetition_level > 0 ? &out_.rep_levels : nullptr};
    int64_t bytes = 0;
    int64_t new_capacity[2] = {0, 0};
    for (int k = 0; k < 2; ++k) {
      if (vectors[k] == nullptr) continue;
      const int64_t size = static_cast<int64_t>(vectors[k]->size()) + n;
      const int64_t cap = static_cast<int64_t>(vectors[k]->capacity());
      new_capacity[k] = size <= cap ? cap : std::max(size, cap * 2);
      bytes += new_capacity[k] * int64_t{sizeof(int16_t)};
    }
    SQE_RETURN_NOT_OK(out_.levels_reservation.Resize(bytes));
    for (int k = 0; k < 2; ++k) {
      if (vectors[k] == nullptr) continue;
      vectors[k]->reserve(static_cast<size_t>(new_capacity[k]));
      vectors[k]->resize(vectors[k]->size() + static_cast<size_t>(n));
    }
    return Status::OK();
  }

  Status DataPage(const PageHeader& h, const uint8_t* body, int64_t pos, int64_t first_row) {
    const bool v2 = h.type == PageType::kDataPageV2;
    if (v2 ? !h.data_page_header_v2 : !h.data_page_header) {
      return Fail(pos, "data page without its header");
    }
    const int64_t n = v2 ? h.data_page_header_v2->num_values : h.data_page_header->num_values;
    const Encoding encoding = v2 ? h.data_page_header_v2->encoding : h.data_page_header->encoding;
    if (n < 0 || n > options_.max_page_values || n > meta_.num_values - levels_seen_) {
      return Fail(pos, "data page claims " + std::to_string(n) + " values (" +
                           std::to_string(meta_.num_values - levels_seen_) +
                           " left of the chunk's " + std::to_string(meta_.num_values) + ")");
    }
    const int64_t level_base = static_cast<int64_t>(
        d_.max_definition_level > 0 ? out_.def_levels.size() : out_.rep_levels.size());
    SQE_RETURN_NOT_OK(GrowLevels(n));
    int16_t* def = d_.max_definition_level > 0 ? out_.def_levels.data() + level_base : nullptr;
    int16_t* rep = d_.max_repetition_level > 0 ? out_.rep_levels.data() + level_base : nullptr;
    const uint8_t* values = nullptr;
    int64_t values_size = 0;
    if (!v2) {
      SQE_ASSIGN_OR_RETURN(const uint8_t* data, Inflate(body, h.compressed_page_size,
                                                        h.uncompressed_page_size, true, pos));
      size_t left = static_cast<size_t>(h.uncompressed_page_size);
      if (rep != nullptr) {
        auto used = DecodeV1Levels(h.data_page_header->repetition_level_encoding, data, left,
                                   d_.max_repetition_level, n, rep);
        if (!used.ok()) return Wrap(pos, used.status());
        data += *used;
        left -= *used;
      }
      if (def != nullptr) {
        auto used = DecodeV1Levels(h.data_page_header->definition_level_encoding, data, left,
                                   d_.max_definition_level, n, def);
        if (!used.ok()) return Wrap(pos, used.status());
        data += *used;
        left -= *used;
      }
      values = data;
      values_size = static_cast<int64_t>(left);
    } else {
      const DataPageHeaderV2& h2 = *h.data_page_header_v2;
      const int64_t rep_len = h2.repetition_levels_byte_length;
      const int64_t def_len = h2.definition_levels_byte_length;
      if (rep_len < 0 || def_len < 0 || rep_len + def_len > h.compressed_page_size ||
          rep_len + def_len > h.uncompressed_page_size) {
        return Fail(pos, "v2 page level sections of " + std::to_string(rep_len) + " + " +
                             std::to_string(def_len) + " bytes do not fit the page");
      }
      if (rep != nullptr) {
        SQE_RETURN_NOT_OK(
            Wrap(pos, DecodeV2Levels(body, rep_len, d_.max_repetition_level, n, rep)));
      }
      if (def != nullptr) {
        SQE_RETURN_NOT_OK(
            Wrap(pos, DecodeV2Levels(body + rep_len, def_len, d_.max_definition_level, n, def)));
      }
      values_size = h.uncompressed_page_size - rep_len - def_len;
      SQE_ASSIGN_OR_RETURN(
          values, Inflate(body + rep_len + def_len, h.compressed_page_size - rep_len - def_len,
                          values_size, h2.is_compressed, pos));
    }
    int64_t defined = n;
    if (def != nullptr) {
      defined = 0;
      const int16_t max_def = d_.max_definition_level;
      for (int64_t i = 0; i < n; ++i) defined += def[i] == max_def;
    }
    const int64_t value_base = values_.size();
    SQE_RETURN_NOT_OK(
        Wrap(pos, values_.DecodeAppend(encoding, values, static_cast<size_t>(values_size), defined,
                                       has_dictionary_ ? &dictionary_ : nullptr)));
    levels_seen_ += n;
    return AccountRows(pos, level_base, value_base, n, first_row);
  }

  // Counts the page's rows and, with row ranges, drops the slots of rows outside them.
  Status AccountRows(int64_t pos, int64_t level_base, int64_t value_base, int64_t n,
                     int64_t first_row) {
    const int16_t* rep =
        d_.max_repetition_level > 0 ? out_.rep_levels.data() + level_base : nullptr;
    if (first_row >= 0) next_row_ = first_row;
    if (n > 0 && rep != nullptr && rep[0] != 0 && (first_row >= 0 || next_row_ == 0)) {
      return Fail(pos, "page does not start at a record boundary");
    }
    if (ranges_ == nullptr) {
      int64_t rows = n;
      if (rep != nullptr) {
        rows = 0;
        for (int64_t i = 0; i < n; ++i) rows += rep[i] == 0;
      }
      next_row_ += rows;
      out_.num_rows += rows;
      return Status::OK();
    }
    // Walk the slots; a slot belongs to the row begun by the last repetition level 0.
    const int16_t* def =
        d_.max_definition_level > 0 ? out_.def_levels.data() + level_base : nullptr;
    const int16_t max_def = d_.max_definition_level;
    const auto& rr = ranges_->ranges();
    size_t cursor = 0;
    level_runs_.clear();
    value_runs_.clear();
    int64_t row = next_row_ - 1;
    bool keep = false;
    int64_t value_index = value_base;
    for (int64_t i = 0; i < n; ++i) {
      if (rep == nullptr || rep[i] == 0) {
        ++row;
        while (cursor < rr.size() && rr[cursor].end <= row) ++cursor;
        keep = cursor < rr.size() && rr[cursor].begin <= row;
        if (keep) ++out_.num_rows;
      }
      const bool has_value = def == nullptr || def[i] == max_def;
      if (keep) {
        if (!level_runs_.empty() && level_runs_.back().end == level_base + i) {
          ++level_runs_.back().end;
        } else {
          level_runs_.push_back({level_base + i, level_base + i + 1});
        }
        if (has_value) {
          if (!value_runs_.empty() && value_runs_.back().end == value_index) {
            ++value_runs_.back().end;
          } else {
            value_runs_.push_back({value_index, value_index + 1});
          }
        }
      }
      value_index += has_value;
    }
    next_row_ = row + 1;
    if (value_index != values_.size()) return Fail(pos, "value count does not match the levels");
    // Compact levels and values in place.
    int64_t write = level_base;
    for (const IndexRun& r : level_runs_) {
      for (int64_t i = r.begin; i < r.end; ++i, ++write) {
        if (!out_.def_levels.empty()) out_.def_levels[write] = out_.def_levels[i];
        if (!out_.rep_levels.empty()) out_.rep_levels[write] = out_.rep_levels[i];
      }
    }
    if (!out_.def_levels.empty()) out_.def_levels.resize(write);
    if (!out_.rep_levels.empty()) out_.rep_levels.resize(write);
    return Wrap(pos, values_.KeepRuns(value_base, value_runs_));
  }

  const ColumnDescriptor& d_;
  const ColumnMetaData& meta_;
  const std::vector<ChunkPiece>& pieces_;
  const int64_t chunk_start_;
  const ColumnChunkReadOptions& options_;
  const RowRanges* ranges_;
  ColumnChunkReadStats* stats_;

  LeafValues values_;
  LeafValues dictionary_;
  bool has_dictionary_ = false;
  int64_t levels_seen_ = 0;
  int64_t next_row_ = 0;
  LeafData out_;
  std::unique_ptr<uint8_t[]> page_buffer_;
  int64_t page_buffer_size_ = 0;
  Reservation page_reservation_{};
  std::vector<IndexRun> level_runs_;
  std::vector<IndexRun> value_runs_;
};

}  // namespace

Result<io::ByteRange> ColumnChunkRange(const ColumnMetaData& meta) {
  int64_t start = meta.data_page_offset;
  // Some writers store dictionary_page_offset = 0 for chunks without a dictionary.
  if (meta.dictionary_page_offset && *meta.dictionary_page_offset > 0 &&
      *meta.dictionary_page_offset < start) {
    start = *meta.dictionary_page_offset;
  }
  if (start < 0 || meta.total_compressed_size < 0 ||
      meta.total_compressed_size > std::numeric_limits<int64_t>::max() - start) {
    return Status::Corruption("parquet column chunk at offset " + std::to_string(start) + " with " +
                              std::to_string(meta.total_compressed_size) +
                              " bytes is out of range");
  }
  return io::ByteRange{start, meta.total_compressed_size};
}

Result<LeafData> ReadColumnChunk(const ColumnDescriptor& descriptor, const ColumnChunk& chunk,
                                 const columnar::BufferPtr& chunk_bytes,
                                 const ColumnChunkReadOptions& options, const RowRanges* ranges,
                                 const OffsetIndex* offset_index, ColumnChunkReadStats* stats) {
  if (chunk.meta_data) {
    auto range = ColumnChunkRange(*chunk.meta_data);
    if (range.ok() && (chunk_bytes == nullptr || chunk_bytes->size() != range->length)) {
      return Status::Corruption("parquet file '" + options.file_path + "' column '" +
                                JoinPath(descriptor.path) + "': chunk of " +
                                std::to_string(range->length) + " bytes, got " +
                                std::to_string(chunk_bytes ? chunk_bytes->size() : 0));
    }
    if (range.ok()) {
      return ReadColumnChunk(descriptor, chunk,
                             std::vector<ChunkPiece>{{range->offset, chunk_bytes}}, options, ranges,
                             offset_index, stats);
    }
  }
  return ReadColumnChunk(descriptor, chunk, std::vector<ChunkPiece>{}, options, ranges,
                         offset_index, stats);
}

Result<LeafData> ReadColumnChunk(const ColumnDescriptor& descriptor, const ColumnChunk& chunk,
                                 const std::vector<ChunkPiece>& pieces,
                                 const ColumnChunkReadOptions& options, const RowRanges* ranges,
                                 const OffsetIndex* offset_index, ColumnChunkReadStats* stats) {
  const std::string where =
      "parquet file '" + options.file_path + "' column '" + JoinPath(descriptor.path) + "'";
  if (!chunk.meta_data) return Status::Corruption(where + ": column chunk without metadata");
  if (chunk.has_crypto_metadata) {
    return Status::NotImplemented(where + ": encrypted columns are not supported");
  }
  const ColumnMetaData& meta = *chunk.meta_data;
  if (meta.type != descriptor.physical_type) {
    return Status::Corruption(where + ": chunk of type " +
                              std::string(PhysicalTypeName(meta.type)) + ", schema says " +
                              std::string(PhysicalTypeName(descriptor.physical_type)));
  }
  if (!IsCodecSupported(meta.codec)) {
    return Status::NotImplemented(where + ": codec " +
                                  std::string(CompressionCodecName(meta.codec)));
  }
  if (meta.num_values < 0) return Status::Corruption(where + ": negative num_values");
  // A column without repetition has exactly one value slot per row.
  if (descriptor.max_repetition_level == 0 && options.row_group_num_rows >= 0 &&
      meta.num_values != options.row_group_num_rows) {
    return Status::Corruption(where + ": " + std::to_string(meta.num_values) +
                              " values in a row group of " +
                              std::to_string(options.row_group_num_rows) + " rows");
  }
  if (meta.num_values > options.max_chunk_values) {
    return Status::Corruption(where + ": " + std::to_string(meta.num_values) +
                              " values exceed the limit of " +
                              std::to_string(options.max_chunk_values) + " per chunk");
  }
  auto range = ColumnChunkRange(meta);
  if (!range.ok()) return range.status().WithContext(where);
  ChunkDecoder decoder(descriptor, meta, pieces, range->offset, options, ranges, stats);
  SQE_RETURN_NOT_OK(decoder.Init());
  if (ranges != nullptr && offset_index != nullptr) {
    SQE_RETURN_NOT_OK(decoder.ReadIndexedPages(*offset_index));
  } else {
    SQE_RETURN_NOT_OK(decoder.ReadAllPages());
  }
  return decoder.Finish();
}

Result<std::vector<io::ByteRange>> SelectedPageRanges(const ColumnMetaData& meta,
                                                      const OffsetIndex& index,
                                                      const RowRanges& ranges,
                                                      int64_t row_group_num_rows) {
  SQE_ASSIGN_OR_RETURN(io::ByteRange chunk, ColumnChunkRange(meta));
  std::vector<io::ByteRange> out;
  const auto& locs = index.page_locations;
  if (locs.empty()) return std::vector<io::ByteRange>{chunk};
  for (size_t k = 0; k < locs.size(); ++k) {
    const PageLocation& loc = locs[k];
    if (loc.offset < chunk.offset || loc.compressed_page_size < 0 ||
        loc.offset - chunk.offset > chunk.length - loc.compressed_page_size) {
      return Status::Corruption("parquet offset index: page " + std::to_string(k) +
                                " at file offset " + std::to_string(loc.offset) + " (" +
                                std::to_string(loc.compressed_page_size) +
                                " bytes) is outside its column chunk");
    }
    if (ranges.Overlaps(loc.first_row_index, PageRowEnd(index, k, row_group_num_rows))) {
      out.push_back({loc.offset, loc.compressed_page_size});
    }
  }
  if (!out.empty() && locs[0].offset > chunk.offset) {
    out.insert(out.begin(), io::ByteRange{chunk.offset, locs[0].offset - chunk.offset});
  }
  return out;
}

}  // namespace sqe::parquet
