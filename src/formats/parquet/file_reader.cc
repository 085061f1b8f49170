#include "formats/parquet/file_reader.h"

#include <algorithm>

#include "formats/parquet/footer.h"
#include "formats/parquet/record_assembly.h"
#include "formats/parquet/row_group_pruning.h"
#include "io/read_ranges.h"

namespace sqe::parquet {
namespace {

std::string Quoted(const std::string& s) { return "'" + s + "'"; }

}  // namespace

Result<std::unique_ptr<ParquetFileReader>> ParquetFileReader::Open(
    std::shared_ptr<io::RandomAccessFile> file, ReaderOptions options) {
  if (file == nullptr) return Status::InvalidArgument("ParquetFileReader::Open: no file");
  std::unique_ptr<ParquetFileReader> reader(new ParquetFileReader());
  reader->file_ = std::move(file);
  reader->options_ = std::move(options);
  SQE_RETURN_NOT_OK(reader->Init());
  return reader;
}

std::string ParquetFileReader::Where() const { return "parquet file " + Quoted(file_->path()); }

Status ParquetFileReader::Init() {
  const std::string where = Where();
  SQE_ASSIGN_OR_RETURN(int64_t size, file_->Size());
  if (size < static_cast<int64_t>(kParquetMagic.size() + kFooterTailSize)) {
    return Status::Corruption(where + ": " + std::to_string(size) +
                              " bytes is too small for a Parquet file");
  }
  file_size_ = size;
  std::shared_ptr<const FileMetaData> cached;
  if (options_.footer_cache) cached = options_.footer_cache->Lookup(file_->path(), size);
  if (cached) {
    metadata_ = *cached;
  } else {
    SQE_RETURN_NOT_OK(ReadFooter(size));
  }
  return InitSchema();
}

Status ParquetFileReader::ReadFooter(int64_t size) {
  const std::string where = Where();
  const int64_t tail_len =
      std::min<int64_t>(size, std::max<int64_t>(options_.footer_read_size, kFooterTailSize));
  SQE_ASSIGN_OR_RETURN(columnar::BufferPtr tail,
                       file_->ReadBuffer(size - tail_len, tail_len, options_.tracker));
  stats_.read_requests += 1;
  stats_.bytes_read += tail_len;
  std::string_view tail_view = tail->view();
  auto meta_len = ParseFooterTail(tail_view.substr(tail_view.size() - kFooterTailSize), size);
  if (!meta_len.ok()) return meta_len.status().WithContext(where);
  if (static_cast<int64_t>(*meta_len) > options_.max_footer_size) {
    return Status::Corruption(where + ": footer of " + std::to_string(*meta_len) +
                              " bytes exceeds the limit of " +
                              std::to_string(options_.max_footer_size));
  }
  const int64_t meta_offset = size - static_cast<int64_t>(kFooterTailSize) - *meta_len;
  std::string_view meta_bytes;
  columnar::BufferPtr footer;
  if (static_cast<int64_t>(*meta_len) + static_cast<int64_t>(kFooterTailSize) <= tail_len) {
    meta_bytes = tail_view.substr(tail_view.size() - kFooterTailSize - *meta_len, *meta_len);
    if (tail_len == size && tail_view.substr(0, kParquetMagic.size()) != kParquetMagic) {
      return Status::Corruption(where + ": no PAR1 magic at offset 0");
    }
  } else {
    SQE_ASSIGN_OR_RETURN(footer, file_->ReadBuffer(meta_offset, *meta_len, options_.tracker));
    stats_.read_requests += 1;
    stats_.bytes_read += *meta_len;
    meta_bytes = footer->view();
  }
  auto metadata = ParseFileMetaData(meta_bytes, static_cast<uint64_t>(meta_offset));
  if (!metadata.ok()) return metadata.status().WithContext(where);
  metadata_ = std::move(*metadata);
  if (options_.footer_cache && !metadata_.has_encryption_algorithm) {
    options_.footer_cache->Insert(file_->path(), size,
                                  std::make_shared<const FileMetaData>(metadata_),
                                  static_cast<int64_t>(*meta_len));
  }
  return Status::OK();
}

Status ParquetFileReader::InitSchema() {
  const std::string where = Where();
  if (metadata_.has_encryption_algorithm) {
    return Status::NotImplemented(where + ": encrypted files are not supported");
  }
  auto schema = FromParquetSchema(metadata_.schema);
  if (!schema.ok()) return schema.status().WithContext(where);
  file_schema_ = std::move(*schema);
  int leaf = 0;
  for (const columnar::Field& f : file_schema_.schema->fields()) {
    field_first_leaf_.push_back(leaf);
    field_leaf_count_.push_back(CountLeaves(*f.type()));
    leaf += field_leaf_count_.back();
  }
  if (leaf != static_cast<int>(file_schema_.columns.size())) {
    return Status::Internal(where + ": schema has " + std::to_string(leaf) + " leaves but " +
                            std::to_string(file_schema_.columns.size()) + " descriptors");
  }
  for (size_t i = 0; i < metadata_.row_groups.size(); ++i) {
    const RowGroup& rg = metadata_.row_groups[i];
    if (rg.columns.size() != file_schema_.columns.size()) {
      return Status::Corruption(where + ": row group " + std::to_string(i) + " has " +
                                std::to_string(rg.columns.size()) + " column chunks, the schema " +
                                std::to_string(file_schema_.columns.size()) + " leaves");
    }
    if (rg.num_rows < 0) {
      return Status::Corruption(where + ": row group " + std::to_string(i) +
                                " has a negative row count");
    }
  }
  SQE_RETURN_NOT_OK(ResolveProjection());
  return BindPredicate();
}

Status ParquetFileReader::BindPredicate() {
  for (const Predicate& p : options_.predicate) {
    auto bound = parquet::BindPredicate(p, file_schema_);
    if (bound.ok()) {
      predicate_.push_back(std::move(*bound));
      continue;
    }
    // Iceberg: a field id the file does not hold is a column added later, null here.
    if (bound.status().code() == StatusCode::kNotFound &&
        p.column.kind == ColumnRef::Kind::kFieldId) {
      if (p.op != PredicateOp::kIsNull) predicate_never_matches_ = true;
      continue;
    }
    return bound.status().WithContext(Where());
  }
  return Status::OK();
}

Result<bool> ParquetFileReader::PredicateMayMatch(int i) const {
  if (predicate_never_matches_) return false;
  if (predicate_.empty()) return true;
  BloomReadCounters io;
  auto keep = RowGroupMayMatchWithBloom(*file_, metadata_, i, predicate_, &io);
  stats_.bytes_read += io.bytes_read;
  stats_.read_requests += io.read_requests;
  return keep;
}

Result<std::optional<RowRanges>> ParquetFileReader::PredicateRowRanges(int i) const {
  return PredicateRowRanges(i, nullptr);
}

Result<std::optional<RowRanges>> ParquetFileReader::PredicateRowRanges(
    int i, std::vector<std::optional<OffsetIndex>>* offset_indexes) const {
  if (predicate_.empty()) return std::optional<RowRanges>();
  BloomReadCounters io;
  auto ranges = PageIndexRowRanges(*file_, metadata_, i, predicate_, options_.coalesce_threshold,
                                   &io, projected_leaves_, offset_indexes);
  stats_.bytes_read += io.bytes_read;
  stats_.read_requests += io.read_requests;
  return ranges;
}

Status ParquetFileReader::ResolveProjection() {
  const columnar::Schema& s = *file_schema_.schema;
  if (options_.columns.empty() && options_.field_ids.empty()) {
    for (int i = 0; i < s.num_fields(); ++i) projected_fields_.push_back(i);
  }
  for (const std::string& name : options_.columns) {
    const int index = s.FieldIndex(name);
    if (index < 0) {
      std::string names;
      for (const columnar::Field& f : s.fields()) names += (names.empty() ? "" : ", ") + f.name();
      return Status::InvalidArgument(Where() + " has no column " + Quoted(name) +
                                     " (columns: " + names + ")");
    }
    projected_fields_.push_back(index);
  }
  for (int32_t id : options_.field_ids) {
    for (int i = 0; i < s.num_fields(); ++i) {
      if (s.field(i).field_id() == id) {
        projected_fields_.push_back(i);
        break;
      }
    }
  }
  std::vector<columnar::Field> fields;
  for (int f : projected_fields_) {
    fields.push_back(s.field(f));
    for (int k = 0; k < field_leaf_count_[f]; ++k) {
      projected_leaves_.push_back(field_first_leaf_[f] + k);
    }
  }
  schema_ = columnar::Schema::Make(std::move(fields), s.metadata());
  return Status::OK();
}

Result<std::vector<std::optional<OffsetIndex>>> ParquetFileReader::ReadOffsetIndexes(int i) {
  if (i < 0 || i >= num_row_groups()) {
    return Status::InvalidArgument("row group " + std::to_string(i) + " out of range");
  }
  const RowGroup& rg = metadata_.row_groups[i];
  std::vector<std::optional<OffsetIndex>> out(projected_leaves_.size());
  std::vector<io::ByteRange> ranges;
  std::vector<size_t> which;
  for (size_t k = 0; k < projected_leaves_.size(); ++k) {
    const ColumnChunk& c = rg.columns[projected_leaves_[k]];
    if (!c.offset_index_offset || !c.offset_index_length || *c.offset_index_length <= 0) continue;
    if (*c.offset_index_offset < 0 ||
        *c.offset_index_offset > file_size_ - *c.offset_index_length) {
      return Status::Corruption(Where() + ": offset index at offset " +
                                std::to_string(*c.offset_index_offset) + " is outside the file");
    }
    ranges.push_back({*c.offset_index_offset, *c.offset_index_length});
    which.push_back(k);
  }
  if (ranges.empty()) return out;
  io::ReadRangesOptions ro;
  ro.hole_threshold = options_.coalesce_threshold;
  ro.tracker = options_.tracker;
  for (const io::ByteRange& r :
       io::CoalesceRanges(ranges, ro.hole_threshold, ro.max_merged_length)) {
    stats_.read_requests += 1;
    stats_.bytes_read += r.length;
  }
  SQE_ASSIGN_OR_RETURN(auto buffers, io::ReadRanges(*file_, ranges, ro));
  for (size_t j = 0; j < which.size(); ++j) {
    auto index = DecodeThrift<OffsetIndex>(buffers[j]->view(), ranges[j].offset);
    if (!index.ok()) {
      return index.status().WithContext(Where() + ": offset index");
    }
    out[which[j]] = std::move(*index);
  }
  return out;
}

Result<columnar::Batch> ParquetFileReader::ReadRowGroup(int i) {
  return ReadRowGroupImpl(i, nullptr, nullptr);
}

Result<columnar::Batch> ParquetFileReader::ReadRowGroup(int i, const RowRanges* ranges) {
  return ReadRowGroupImpl(i, ranges, nullptr);
}

Result<columnar::Batch> ParquetFileReader::ReadRowGroup(
    int i, const RowRanges* ranges, const std::vector<std::optional<OffsetIndex>>& offset_indexes) {
  if (offset_indexes.size() != projected_leaves_.size()) {
    return Status::InvalidArgument("ReadRowGroup: " + std::to_string(offset_indexes.size()) +
                                   " offset indexes for " +
                                   std::to_string(projected_leaves_.size()) + " projected leaves");
  }
  return ReadRowGroupImpl(i, ranges, &offset_indexes);
}

Result<columnar::Batch> ParquetFileReader::ReadRowGroupImpl(
    int i, const RowRanges* ranges,
    const std::vector<std::optional<OffsetIndex>>* supplied_indexes) {
  if (i < 0 || i >= num_row_groups()) {
    return Status::InvalidArgument(Where() + ": row group " + std::to_string(i) +
                                   " out of range (the file has " +
                                   std::to_string(num_row_groups()) + ")");
  }
  const RowGroup& rg = metadata_.row_groups[i];
  RowRanges clipped;
  if (ranges != nullptr) {
    clipped = ranges->Intersect(RowRanges::All(rg.num_rows));
    ranges = &clipped;
  }
  const int64_t num_rows = ranges != nullptr ? ranges->row_count() : rg.num_rows;
  std::vector<std::optional<OffsetIndex>> offset_indexes(projected_leaves_.size());
  if (ranges != nullptr && num_rows < rg.num_rows) {
    if (supplied_indexes != nullptr) {
      offset_indexes = *supplied_indexes;
    } else {
      SQE_ASSIGN_OR_RETURN(offset_indexes, ReadOffsetIndexes(i));
    }
  }
  // Byte ranges of the chunks: whole chunks, or with an offset index only the pages the
  // ranges select (plus the dictionary page). All fetched in one coalesced request set.
  std::vector<io::ByteRange> byte_ranges;
  std::vector<size_t> owner;  // projected leaf of each byte range
  for (size_t k = 0; k < projected_leaves_.size(); ++k) {
    const int leaf = projected_leaves_[k];
    const ColumnChunk& c = rg.columns[leaf];
    const std::string where =
        Where() + " row group " + std::to_string(i) + " column " + std::to_string(leaf);
    if (c.file_path && !c.file_path->empty()) {
      return Status::NotImplemented(where + ": column chunks in other files");
    }
    if (!c.meta_data) return Status::Corruption(where + ": no column metadata");
    auto range = ColumnChunkRange(*c.meta_data);
    if (!range.ok()) return range.status().WithContext(where);
    if (range->offset > file_size_ || range->length > file_size_ - range->offset) {
      return Status::Corruption(where + ": chunk at offset " + std::to_string(range->offset) +
                                " of " + std::to_string(range->length) +
                                " bytes is past the end of the " + std::to_string(file_size_) +
                                "-byte file");
    }
    std::vector<io::ByteRange> wanted = {*range};
    if (ranges != nullptr && offset_indexes[k]) {
      auto selected = SelectedPageRanges(*c.meta_data, *offset_indexes[k], *ranges, rg.num_rows);
      if (!selected.ok()) return selected.status().WithContext(where);
      wanted = std::move(*selected);
    }
    for (const io::ByteRange& r : wanted) {
      byte_ranges.push_back(r);
      owner.push_back(k);
    }
  }
  io::ReadRangesOptions ro;
  ro.hole_threshold = options_.coalesce_threshold;
  ro.tracker = options_.tracker;
  for (const io::ByteRange& r :
       io::CoalesceRanges(byte_ranges, ro.hole_threshold, ro.max_merged_length)) {
    stats_.read_requests += 1;
    stats_.bytes_read += r.length;
  }
  SQE_ASSIGN_OR_RETURN(std::vector<columnar::BufferPtr> buffers,
                       io::ReadRanges(*file_, byte_ranges, ro));
  std::vector<std::vector<ChunkPiece>> pieces(projected_leaves_.size());
  for (size_t j = 0; j < byte_ranges.size(); ++j) {
    pieces[owner[j]].push_back({byte_ranges[j].offset, std::move(buffers[j])});
  }
  buffers.clear();

  ColumnChunkReadOptions co;
  co.file_path = file_->path();
  co.tracker = options_.tracker;
  co.row_group_num_rows = rg.num_rows;
  co.max_page_values = options_.max_page_values;
  co.max_page_size = options_.max_page_size;
  co.verify_checksums = options_.verify_page_checksums;
  std::vector<LeafData> leaves(projected_leaves_.size());
  std::vector<const ColumnDescriptor*> descriptors(projected_leaves_.size());
  std::vector<ColumnChunkReadStats> leaf_stats(projected_leaves_.size());
  SQE_RETURN_NOT_OK(ParallelFor(
      options_.scheduler, static_cast<int64_t>(projected_leaves_.size()), options_.parallelism,
      [&](int64_t k) -> Status {
        const int leaf = projected_leaves_[k];
        descriptors[k] = &file_schema_.columns[leaf];
        SQE_ASSIGN_OR_RETURN(
            leaves[k],
            ReadColumnChunk(*descriptors[k], rg.columns[leaf], pieces[k], co, ranges,
                            offset_indexes[k] ? &*offset_indexes[k] : nullptr, &leaf_stats[k]));
        pieces[k].clear();  // the chunk's bytes are no longer needed
        return Status::OK();
      }));
  ColumnChunkReadStats chunk_stats;
  for (const ColumnChunkReadStats& ls : leaf_stats) {
    chunk_stats.pages_read += ls.pages_read;
    chunk_stats.pages_skipped += ls.pages_skipped;
  }
  stats_.pages_read += chunk_stats.pages_read;
  stats_.pages_skipped += chunk_stats.pages_skipped;

  std::vector<columnar::Column> columns;
  size_t next = 0;
  for (size_t f = 0; f < projected_fields_.size(); ++f) {
    const int field = projected_fields_[f];
    const size_t count = static_cast<size_t>(field_leaf_count_[field]);
    auto column = AssembleColumn(
        schema_->field(static_cast<int>(f)), std::span(descriptors).subspan(next, count),
        std::span<const LeafData>(leaves).subspan(next, count), num_rows, options_.tracker);
    if (!column.ok()) {
      return column.status().WithContext(Where() + " row group " + std::to_string(i));
    }
    columns.push_back(std::move(*column));
    next += count;
  }
  stats_.row_groups_read += 1;
  return columnar::Batch::Make(schema_, std::move(columns), num_rows);
}

Result<std::vector<int>> ParquetFileReader::SelectRowGroups() const {
  std::vector<int> out;
  for (int i = 0; i < num_row_groups(); ++i) {
    bool keep = true;
    if (options_.row_group_filter) {
      SQE_ASSIGN_OR_RETURN(keep, options_.row_group_filter(*this, i));
    }
    if (keep) {
      SQE_ASSIGN_OR_RETURN(keep, PredicateMayMatch(i));
    }
    if (keep) out.push_back(i);
  }
  return out;
}

Result<std::vector<columnar::Batch>> ParquetFileReader::ReadAll() {
  SQE_ASSIGN_OR_RETURN(std::vector<int> groups, SelectRowGroups());
  stats_.row_groups_skipped += num_row_groups() - static_cast<int64_t>(groups.size());
  std::vector<columnar::Batch> batches(groups.size());
  std::vector<char> pruned(groups.size(), 0);  // the page index left no rows
  SQE_RETURN_NOT_OK(ParallelFor(
      options_.scheduler, static_cast<int64_t>(groups.size()), options_.parallelism,
      [&](int64_t k) -> Status {
        const int i = groups[static_cast<size_t>(k)];
        std::optional<RowRanges> ranges;
        std::vector<std::optional<OffsetIndex>> offset_indexes;
        if (options_.row_ranges_provider) {
          SQE_ASSIGN_OR_RETURN(ranges, options_.row_ranges_provider(*this, i));
        } else {
          SQE_ASSIGN_OR_RETURN(ranges, PredicateRowRanges(i, &offset_indexes));
        }
        if (ranges && ranges->empty()) {
          pruned[static_cast<size_t>(k)] = 1;
          return Status::OK();
        }
        const bool have_indexes = offset_indexes.size() == projected_leaves_.size();
        SQE_ASSIGN_OR_RETURN(batches[static_cast<size_t>(k)],
                             ReadRowGroupImpl(i, ranges ? &*ranges : nullptr,
                                              have_indexes ? &offset_indexes : nullptr));
        return Status::OK();
      }));
  std::vector<columnar::Batch> out;
  for (size_t k = 0; k < batches.size(); ++k) {
    if (pruned[k]) {
      stats_.row_groups_skipped += 1;
    } else {
      out.push_back(std::move(batches[k]));
    }
  }
  return out;
}

ReaderStats ParquetFileReader::stats() const {
  ReaderStats s;
  s.row_groups_read = stats_.row_groups_read.load();
  s.row_groups_skipped = stats_.row_groups_skipped.load();
  s.pages_read = stats_.pages_read.load();
  s.pages_skipped = stats_.pages_skipped.load();
  s.bytes_read = stats_.bytes_read.load();
  s.read_requests = stats_.read_requests.load();
  return s;
}

}  // namespace sqe::parquet
