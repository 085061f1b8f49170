#pragma once
/// The column chunk reader: decodes every page of one column chunk (data pages v1 and
/// v2, the dictionary page, every encoding and codec, dictionaries that fall back to
/// plain mid-chunk) into the leaf's definition/repetition levels and its non-null values
/// in the columnar representation of the leaf type (the descriptor's LeafConversion
/// applied). Record assembly (record_assembly.h) turns these into nested Columns.
///
/// With RowRanges and the chunk's OffsetIndex only the pages overlapping the ranges are
/// decompressed and decoded, and the rows outside the ranges are dropped from the pages
/// that are, so every column of a row group yields the same rows.
///
/// Malformed input of any kind (lying page sizes, truncated pages, dictionary indices out
/// of range, more values than the metadata declares, decompression bombs, pages past the
/// chunk) is Status::Corruption naming the file, the column path and the file offset of
/// the page. Stateless functions; thread-safe for distinct outputs.
///
/// Fuzz targets call FuzzDecodeColumnChunk (below) for "the page decoder".

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "columnar/buffer.h"
#include "columnar/column.h"
#include "common/memory_tracker.h"
#include "common/result.h"
#include "formats/parquet/compression.h"
#include "formats/parquet/metadata.h"
#include "formats/parquet/row_ranges.h"
#include "formats/parquet/schema_mapping.h"
#include "io/file.h"

namespace sqe::parquet {

/// Options and limits for one chunk read.
struct ColumnChunkReadOptions {
  /// The file the chunk comes from; only used in error messages.
  std::string file_path;
  /// Charged for every buffer the read allocates (values, levels, page scratch).
  std::shared_ptr<MemoryTracker> tracker;
  /// Rows in the chunk's row group: checked against what the pages hold, and the end of
  /// the last page's row span when pages are selected by an OffsetIndex. <= 0: unknown.
  int64_t row_group_num_rows = -1;
  /// The largest level count (values including nulls) one page may claim.
  int64_t max_page_values = int64_t{1} << 24;
  /// The largest level count (values including nulls) a chunk may claim.
  int64_t max_chunk_values = int64_t{1} << 30;
  /// The largest uncompressed page accepted (bounds decompression bombs).
  int64_t max_page_size = int64_t{256} << 20;
  /// Check the CRC32 of pages whose header carries one (Corruption on mismatch).
  bool verify_checksums = false;
};

/// The decoded leaf: levels (one per value slot, nulls included) and the non-null values.
/// `def_levels` is empty when the column's max definition level is 0 (every slot holds a
/// value), `rep_levels` when its max repetition level is 0.
struct LeafData {
  int64_t num_levels = 0;
  int64_t num_rows = 0;
  std::vector<int16_t> def_levels;
  std::vector<int16_t> rep_levels;
  /// Values of the slots whose definition level is the max, in order, no nulls.
  columnar::Column values;
  /// Accounts the level vectors to the tracker.
  Reservation levels_reservation;
};

/// Page counts of one chunk read (ReaderStats aggregates them).
struct ColumnChunkReadStats {
  int64_t pages_read = 0;     // data and dictionary pages decoded
  int64_t pages_skipped = 0;  // data pages skipped by RowRanges
};

/// The byte range a chunk occupies in the file: from the dictionary page (when there is
/// one) or the first data page, total_compressed_size bytes. Corruption for negative or
/// overflowing offsets.
Result<io::ByteRange> ColumnChunkRange(const ColumnMetaData& meta);

/// Decodes the chunk whose bytes `chunk_bytes` cover exactly ColumnChunkRange(meta).
/// `ranges` (optional) restricts the rows; `offset_index` (optional, with ranges) lets the
/// reader skip pages without reading them. `stats` (optional) is incremented.
Result<LeafData> ReadColumnChunk(const ColumnDescriptor& descriptor, const ColumnChunk& chunk,
                                 const columnar::BufferPtr& chunk_bytes,
                                 const ColumnChunkReadOptions& options,
                                 const RowRanges* ranges = nullptr,
                                 const OffsetIndex* offset_index = nullptr,
                                 ColumnChunkReadStats* stats = nullptr);

/// A fetched part of a chunk's bytes: the file range [offset, offset + buffer->size()).
struct ChunkPiece {
  int64_t offset = 0;
  columnar::BufferPtr buffer;
};

/// As above over pieces of the chunk (sorted or not): with an OffsetIndex and ranges only
/// SelectedPageRanges need to be present; otherwise the pieces must cover the chunk.
/// Reading a page no piece covers is Corruption.
Result<LeafData> ReadColumnChunk(const ColumnDescriptor& descriptor, const ColumnChunk& chunk,
                                 const std::vector<ChunkPiece>& pieces,
                                 const ColumnChunkReadOptions& options, const RowRanges* ranges,
                                 const OffsetIndex* offset_index,
                                 ColumnChunkReadStats* stats = nullptr);

/// The file byte ranges a ranged read of the chunk touches: the pages overlapping `ranges`
/// and, when any does, the bytes before the first page (the dictionary page). Empty when
/// no page overlaps; the whole chunk when the index lists no pages. Corruption for page
/// locations outside the chunk.
Result<std::vector<io::ByteRange>> SelectedPageRanges(const ColumnMetaData& meta,
                                                      const OffsetIndex& index,
                                                      const RowRanges& ranges,
                                                      int64_t row_group_num_rows);

/// The row one past the last of page `k` of `index`.
int64_t PageRowEnd(const OffsetIndex& index, size_t k, int64_t row_group_num_rows);

/// The page decoder entry point for fuzz targets: the first 8 bytes of `data` pick a
/// leaf shape (physical type, conversion, levels, codec, value count) from a fixed table,
/// the rest is taken as a column chunk and decoded and assembled. Returns the reader's
/// status; any input must return (never crash). Deterministic.
Status FuzzDecodeColumnChunk(const uint8_t* data, size_t size);

}  // namespace sqe::parquet
