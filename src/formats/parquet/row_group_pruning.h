#pragma once
/// How a reader applies the pruning layer to one row group, in cost order: chunk
/// statistics (free, in the footer), then Bloom filters of = / IN columns (one read each),
/// then the page index (ColumnIndex + OffsetIndex of the predicate columns, one coalesced
/// read) to narrow the rows to RowRanges. Counts the I/O it does for ReaderStats.
/// Stateless; safe to call concurrently for different row groups.

#include <cstdint>
#include <optional>
#include <span>

#include "common/result.h"
#include "formats/parquet/bloom_pruning.h"
#include "formats/parquet/metadata.h"
#include "formats/parquet/predicate.h"
#include "formats/parquet/row_ranges.h"
#include "io/file.h"

namespace sqe::parquet {

/// Whether row group `row_group` may hold matching rows: statistics first, then Bloom
/// filters (only read when the statistics keep the group).
Result<bool> RowGroupMayMatchWithBloom(io::RandomAccessFile& file, const FileMetaData& metadata,
                                       int row_group, std::span<const BoundPredicate> conjunction,
                                       BloomReadCounters* counters = nullptr);

/// The rows of row group `row_group` the page index leaves for the conjunction, or
/// std::nullopt when no predicate column has a page index (read everything). Reads the
/// predicate columns' ColumnIndex and OffsetIndex with one coalesced request set. When
/// `offset_indexes` is given and a RowRanges results, the same requests also fetch the
/// OffsetIndex of each leaf in `offset_index_columns` (std::nullopt where it has none),
/// so the read that follows needs no second fetch.
Result<std::optional<RowRanges>> PageIndexRowRanges(
    io::RandomAccessFile& file, const FileMetaData& metadata, int row_group,
    std::span<const BoundPredicate> conjunction, int64_t coalesce_threshold,
    BloomReadCounters* counters = nullptr, std::span<const int> offset_index_columns = {},
    std::vector<std::optional<OffsetIndex>>* offset_indexes = nullptr);

}  // namespace sqe::parquet
