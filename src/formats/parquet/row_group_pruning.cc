#include "formats/parquet/row_group_pruning.h"

#include <map>

#include "formats/parquet/page_pruning.h"
#include "formats/parquet/statistics_pruning.h"
#include "io/read_ranges.h"

namespace sqe::parquet {
namespace {

// A usable [offset, offset + length) of the file, or nullopt.
std::optional<io::ByteRange> IndexRange(std::optional<int64_t> offset,
                                        std::optional<int32_t> length, int64_t file_size) {
  if (!offset || !length || *length <= 0 || *offset < 0 || *offset > file_size - *length) {
    return std::nullopt;
  }
  return io::ByteRange{*offset, *length};
}

}  // namespace

Result<bool> RowGroupMayMatchWithBloom(io::RandomAccessFile& file, const FileMetaData& metadata,
                                       int row_group, std::span<const BoundPredicate> conjunction,
                                       BloomReadCounters* counters) {
  if (!RowGroupMayMatch(metadata, row_group, conjunction)) return false;
  if (row_group < 0 || static_cast<size_t>(row_group) >= metadata.row_groups.size()) return true;
  return RowGroupBloomMayMatch(file, metadata.row_groups[row_group], conjunction, counters);
}

Result<std::optional<RowRanges>> PageIndexRowRanges(
    io::RandomAccessFile& file, const FileMetaData& metadata, int row_group,
    std::span<const BoundPredicate> conjunction, int64_t coalesce_threshold,
    BloomReadCounters* counters, std::span<const int> offset_index_columns,
    std::vector<std::optional<OffsetIndex>>* offset_indexes) {
  if (row_group < 0 || static_cast<size_t>(row_group) >= metadata.row_groups.size()) {
    return std::optional<RowRanges>();
  }
  const RowGroup& rg = metadata.row_groups[row_group];
  SQE_ASSIGN_OR_RETURN(int64_t file_size, file.Size());
  // The predicate columns with both indexes, each read once.
  std::map<int, std::pair<io::ByteRange, io::ByteRange>> wanted;
  for (const BoundPredicate& p : conjunction) {
    if (p.column < 0 || static_cast<size_t>(p.column) >= rg.columns.size()) continue;
    const ColumnChunk& c = rg.columns[p.column];
    auto ci = IndexRange(c.column_index_offset, c.column_index_length, file_size);
    auto oi = IndexRange(c.offset_index_offset, c.offset_index_length, file_size);
    if (ci && oi) wanted[p.column] = {*ci, *oi};
  }
  if (wanted.empty()) return std::optional<RowRanges>();
  std::vector<io::ByteRange> ranges;
  std::map<int, size_t> offset_range_of;  // column -> its OffsetIndex in `ranges`
  for (const auto& [column, r] : wanted) {
    ranges.push_back(r.first);
    ranges.push_back(r.second);
    offset_range_of[column] = ranges.size() - 1;
  }
  if (offset_indexes != nullptr) {
    for (int column : offset_index_columns) {
      if (column < 0 || static_cast<size_t>(column) >= rg.columns.size() ||
          offset_range_of.count(column)) {
        continue;
      }
      const ColumnChunk& c = rg.columns[column];
      if (auto oi = IndexRange(c.offset_index_offset, c.offset_index_length, file_size)) {
        ranges.push_back(*oi);
        offset_range_of[column] = ranges.size() - 1;
      }
    }
  }
  io::ReadRangesOptions ro;
  ro.hole_threshold = coalesce_threshold;
  if (counters != nullptr) {
    for (const io::ByteRange& r :
         io::CoalesceRanges(ranges, ro.hole_threshold, ro.max_merged_length)) {
      counters->read_requests += 1;
      counters->bytes_read += r.length;
    }
  }
  SQE_ASSIGN_OR_RETURN(auto buffers, io::ReadRanges(file, ranges, ro));
  std::vector<ColumnIndex> column_indexes(wanted.size());
  std::vector<OffsetIndex> predicate_offsets(wanted.size());
  std::vector<ColumnPageIndex> by_column(rg.columns.size());
  size_t k = 0;
  for (const auto& [column, r] : wanted) {
    const std::string where = "parquet file " + file.path() + " row group " +
                              std::to_string(row_group) + " column " + std::to_string(column);
    auto ci = DecodeThrift<ColumnIndex>(buffers[2 * k]->view(), r.first.offset);
    if (!ci.ok()) return ci.status().WithContext(where + ": column index");
    auto oi = DecodeThrift<OffsetIndex>(buffers[2 * k + 1]->view(), r.second.offset);
    if (!oi.ok()) return oi.status().WithContext(where + ": offset index");
    column_indexes[k] = std::move(*ci);
    predicate_offsets[k] = std::move(*oi);
    by_column[column] = {&column_indexes[k], &predicate_offsets[k]};
    ++k;
  }
  SQE_ASSIGN_OR_RETURN(RowRanges rows,
                       PruneRowRanges(conjunction, by_column, rg.num_rows, metadata.column_orders));
  if (offset_indexes != nullptr) {
    offset_indexes->assign(offset_index_columns.size(), std::nullopt);
    for (size_t j = 0; j < offset_index_columns.size(); ++j) {
      auto it = offset_range_of.find(offset_index_columns[j]);
      if (it == offset_range_of.end()) continue;
      auto oi = DecodeThrift<OffsetIndex>(buffers[it->second]->view(), ranges[it->second].offset);
      if (!oi.ok()) {
        return oi.status().WithContext("parquet file " + file.path() + " row group " +
                                       std::to_string(row_group) + " column " +
                                       std::to_string(offset_index_columns[j]) + ": offset index");
      }
      (*offset_indexes)[j] = std::move(*oi);
    }
  }
  return std::optional<RowRanges>(std::move(rows));
}

}  // namespace sqe::parquet
