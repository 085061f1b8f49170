#pragma once
/// ParquetFileReader: reads a Parquet file into columnar Batches, one per row group.
/// Open reads and parses the footer (one speculative tail read, a second only for large
/// footers), maps the schema and resolves the projection; ReadRowGroup fetches all
/// projected column chunks of a row group with one coalesced io::ReadRanges call, decodes
/// them (column_chunk_reader.h) and assembles nested columns (record_assembly.h).
/// ReadAll decodes the selected row groups in parallel (ParallelFor).
///
/// Pruning seam (for predicate/statistics/page-index/bloom pruning, which live elsewhere):
///  - ReaderOptions::row_group_filter decides per row group whether ReadAll reads it
///    (SelectRowGroups() applies it; skipped groups count in ReaderStats).
///  - ReadRowGroup(i, const RowRanges*) reads only the given rows of row group i: with
///    the chunks' OffsetIndex (read here, or passed in when page pruning already read it
///    with ReadOffsetIndexes) only the overlapping pages are fetched and decoded; every
///    column returns exactly the same rows.
///  - ReaderOptions::row_ranges_provider lets ReadAll ask for RowRanges per row group.
///  - ReaderOptions::predicate drives the built-in pruning (row_group_pruning.h): row
///    groups by statistics then Bloom filters, rows by the page index.
///
/// With a scheduler, ReadAll decodes row groups in parallel and ReadRowGroup the column
/// chunks of one row group (nested ParallelFor is safe).
///
/// Thread safety: after Open, every const method and ReadRowGroup/ReadAll may be called
/// concurrently (stats are atomic counters; the file must allow concurrent ReadAt).

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "columnar/batch.h"
#include "columnar/schema.h"
#include "common/memory_tracker.h"
#include "common/result.h"
#include "common/task_scheduler.h"
#include "formats/parquet/column_chunk_reader.h"
#include "formats/parquet/footer_cache.h"
#include "formats/parquet/metadata.h"
#include "formats/parquet/predicate.h"
#include "formats/parquet/row_ranges.h"
#include "formats/parquet/schema_mapping.h"
#include "io/file.h"

namespace sqe::parquet {

class ParquetFileReader;

struct ReaderOptions {
  /// Top-level columns to read, by name, in the order given. Empty (and `field_ids`
  /// empty): every column. An unknown name is InvalidArgument listing the columns.
  std::vector<std::string> columns;
  /// Top-level columns by Iceberg field id (appended after `columns`). An id the file
  /// does not hold is skipped (Iceberg: a column added after the file was written).
  std::vector<int32_t> field_ids;
  /// Runs ReadAll's row groups; nullptr: sequential on the calling thread.
  TaskScheduler* scheduler = nullptr;
  /// Row groups decoded at once by ReadAll (<= 0: scheduler threads + 1).
  int parallelism = 0;
  /// Column chunks closer than this are fetched in one read ([storage] coalesce_threshold).
  int64_t coalesce_threshold = int64_t{1} << 20;
  /// Charged for every buffer the reader allocates (chunk bytes, values, levels).
  std::shared_ptr<MemoryTracker> tracker;
  /// Pruning seam: return false to skip row group `index` in ReadAll. Called by
  /// SelectRowGroups with the reader (for metadata, schema and the file) and the index.
  std::function<Result<bool>(const ParquetFileReader& reader, int index)> row_group_filter;
  /// Pruning seam: the rows of row group `index` ReadAll should read (std::nullopt: all).
  std::function<Result<std::optional<RowRanges>>(const ParquetFileReader& reader, int index)>
      row_ranges_provider;
  /// A conjunction of simple predicates (predicate.h), bound to the file schema at Open
  /// (NotFound / InvalidArgument for an unknown column or a literal of the wrong type; a
  /// predicate on an Iceberg field id the file lacks sees an all-null column). ReadAll
  /// then skips row groups by statistics and Bloom filters and, unless row_ranges_provider
  /// is set, reads only the rows of the pages the page index keeps. Returned rows are a
  /// superset of the matching ones: the engine still filters.
  std::vector<Predicate> predicate;
  /// Footer bytes read speculatively with the tail (saves a request for most files).
  int64_t footer_read_size = int64_t{64} << 10;
  /// Limits for a page (see ColumnChunkReadOptions).
  int64_t max_page_values = int64_t{1} << 24;
  int64_t max_page_size = int64_t{256} << 20;
  /// Verify page CRC32s where the writer stored them (off by default, as in other readers).
  bool verify_page_checksums = false;
  /// The largest footer accepted.
  int64_t max_footer_size = int64_t{64} << 20;
  /// Decoded footers shared across opens ([storage] footer_cache_size); a hit costs no
  /// read beyond the file's Size(). nullptr: no cache.
  std::shared_ptr<FooterCache> footer_cache;
};

/// Counters of what the reader did (monotonic, summed over all reads).
struct ReaderStats {
  int64_t row_groups_read = 0;
  int64_t row_groups_skipped = 0;
  int64_t pages_read = 0;
  int64_t pages_skipped = 0;
  int64_t bytes_read = 0;
  int64_t read_requests = 0;
};

class ParquetFileReader {
 public:
  /// Reads the footer and resolves the projection. Corruption for a malformed footer or
  /// schema, InvalidArgument for an unknown column name.
  static Result<std::unique_ptr<ParquetFileReader>> Open(std::shared_ptr<io::RandomAccessFile> file,
                                                         ReaderOptions options = {});

  const FileMetaData& metadata() const { return metadata_; }
  /// The whole file's schema and leaf descriptors.
  const ParquetSchema& file_schema() const { return file_schema_; }
  /// The schema of the batches this reader returns (the projection).
  const columnar::SchemaPtr& schema() const { return schema_; }
  /// Indices into file_schema().schema of the projected top-level fields.
  const std::vector<int>& projected_fields() const { return projected_fields_; }
  /// Indices into file_schema().columns (= RowGroup.columns) of the projected leaves.
  const std::vector<int>& projected_leaves() const { return projected_leaves_; }
  const std::shared_ptr<io::RandomAccessFile>& file() const { return file_; }
  const ReaderOptions& options() const { return options_; }
  int num_row_groups() const { return static_cast<int>(metadata_.row_groups.size()); }
  int64_t num_rows() const { return metadata_.num_rows; }

  /// Reads row group `i` (all its rows) as one batch of schema().
  Result<columnar::Batch> ReadRowGroup(int i);
  /// Reads only the rows of `ranges` (nullptr: all rows). Uses the chunks' OffsetIndex
  /// when the file has one so non-overlapping pages are skipped undecoded.
  Result<columnar::Batch> ReadRowGroup(int i, const RowRanges* ranges);
  /// As above with the offset indexes already read (ReadOffsetIndexes(i)'s result), so
  /// page pruning and the read share one fetch.
  Result<columnar::Batch> ReadRowGroup(
      int i, const RowRanges* ranges,
      const std::vector<std::optional<OffsetIndex>>& offset_indexes);
  /// The row groups ReadAll reads: all, minus those row_group_filter or the predicate's
  /// statistics and Bloom filters reject.
  Result<std::vector<int>> SelectRowGroups() const;
  /// Reads the selected row groups (in parallel), one batch per row group in file order;
  /// a group whose RowRanges come out empty is skipped (and counted) instead.
  Result<std::vector<columnar::Batch>> ReadAll();

  /// The OffsetIndex of each projected leaf of row group `i` (projected_leaves() order),
  /// std::nullopt where the file has none. One coalesced read.
  Result<std::vector<std::optional<OffsetIndex>>> ReadOffsetIndexes(int i);

  /// ReaderOptions::predicate as bound to this file.
  const std::vector<BoundPredicate>& bound_predicate() const { return predicate_; }
  /// Whether row group `i` may hold rows matching the predicate (statistics, then Bloom
  /// filters; true without a predicate). Counts the filter reads.
  Result<bool> PredicateMayMatch(int i) const;
  /// The rows of row group `i` the page index keeps for the predicate; std::nullopt
  /// without a predicate or a page index for its columns. Counts the index reads.
  Result<std::optional<RowRanges>> PredicateRowRanges(int i) const;
  /// As above, also returning (when RowRanges result) the OffsetIndex of each projected
  /// leaf fetched with the same requests, for ReadRowGroup(i, ranges, offset_indexes).
  Result<std::optional<RowRanges>> PredicateRowRanges(
      int i, std::vector<std::optional<OffsetIndex>>* offset_indexes) const;

  /// A snapshot of the counters.
  ReaderStats stats() const;

 private:
  ParquetFileReader() = default;
  Status Init();
  Status ReadFooter(int64_t size);
  Status InitSchema();
  /// "parquet file '<path>'": how every error of this reader names the file.
  std::string Where() const;
  Status ResolveProjection();
  Status BindPredicate();
  Result<columnar::Batch> ReadRowGroupImpl(
      int i, const RowRanges* ranges,
      const std::vector<std::optional<OffsetIndex>>* offset_indexes);

  std::shared_ptr<io::RandomAccessFile> file_;
  ReaderOptions options_;
  FileMetaData metadata_;
  ParquetSchema file_schema_;
  columnar::SchemaPtr schema_;
  std::vector<int> projected_fields_;
  std::vector<int> projected_leaves_;
  // Per top-level field of the file: its first leaf and leaf count.
  std::vector<int> field_first_leaf_;
  std::vector<int> field_leaf_count_;
  int64_t file_size_ = 0;
  std::vector<BoundPredicate> predicate_;
  bool predicate_never_matches_ = false;  // a conjunct on an absent (all-null) column

  struct AtomicStats {
    std::atomic<int64_t> row_groups_read{0};
    std::atomic<int64_t> row_groups_skipped{0};
    std::atomic<int64_t> pages_read{0};
    std::atomic<int64_t> pages_skipped{0};
    std::atomic<int64_t> bytes_read{0};
    std::atomic<int64_t> read_requests{0};
  };
  mutable AtomicStats stats_;
};

}  // namespace sqe::parquet
