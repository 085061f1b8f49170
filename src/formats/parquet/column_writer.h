#pragma once
/// ColumnChunkWriter: encodes one leaf column of one row group into pages (an optional
/// dictionary page, then data pages v1 or v2), compressed with the file's codec, and
/// produces the chunk's bytes, ColumnMetaData (statistics included), ColumnIndex and
/// OffsetIndex with offsets relative to the chunk start (the file writer rebases them).
/// Pages end at row boundaries, so the page index is exact for nested columns too.
/// Single-owner, not thread-safe.

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/result.h"
#include "formats/parquet/level_shredding.h"
#include "formats/parquet/metadata.h"
#include "formats/parquet/schema_mapping.h"
#include "formats/parquet/statistics_builder.h"
#include "formats/parquet/writer_options.h"

namespace sqe::parquet {

/// A finished column chunk.
struct ChunkResult {
  std::string bytes;
  ColumnMetaData meta;  // offsets relative to the start of `bytes`
  std::optional<ColumnIndex> column_index;
  OffsetIndex offset_index;  // offsets relative to the start of `bytes`
  StatisticsBuilder stats{ValueOrder::kBytes};
};

class ColumnChunkWriter {
 public:
  ColumnChunkWriter(const ColumnDescriptor& descriptor, const columnar::DataType& type,
                    const WriterOptions& options);

  /// Appends the level entries and values of one shredded batch slice.
  Status Write(const ShreddedLeaf& leaf);
  /// Encoded bytes so far plus an estimate of the open page.
  int64_t EstimatedSize() const;
  /// Closes the chunk; the writer is then ready for the next row group.
  Result<ChunkResult> Finish();

 private:
  Status FlushPage();
  std::string EncodeLevels(const std::vector<int16_t>& levels, int16_t max_level, bool prefix);
  void Reset();

  const ColumnDescriptor& desc_;
  const columnar::DataType& type_;
  const WriterOptions& options_;
  CompressionCodec codec_;
  ValueOrder order_;

  // Open page.
  std::vector<int16_t> def_, rep_;
  std::string plain_;              // PLAIN values (booleans: one byte each)
  std::vector<uint32_t> indices_;  // dictionary indices
  int64_t page_rows_ = 0;
  int64_t page_nulls_ = 0;
  StatisticsBuilder page_stats_;

  // Chunk.
  bool use_dictionary_ = false;
  bool fallback_pending_ = false;
  std::unordered_map<std::string, uint32_t> dict_index_;
  std::string dict_plain_;
  std::string pages_;  // data pages
  std::vector<PageLocation> locations_;
  ColumnIndex column_index_;
  bool column_index_valid_ = true;
  StatisticsBuilder chunk_stats_;
  int64_t num_values_ = 0;
  int64_t chunk_rows_ = 0;
  int64_t uncompressed_ = 0;
  int32_t dict_pages_data_ = 0, plain_pages_ = 0;
  std::string scratch_;
};

}  // namespace sqe::parquet
