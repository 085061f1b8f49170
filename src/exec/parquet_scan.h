#pragma once
/// ParquetScan: the source operator of the table function
/// read_parquet('path' | 'glob' | ARRAY['a', 'b']). Paths are expanded first (Describe):
/// `*` and `?` match within one path segment, `**` matches any number of whole segments,
/// on local paths and s3:// alike (through FileSystem::List); the first file's schema is
/// the scan's, so the binder can bind columns before anything runs. At execution every
/// file's footer is read (in parallel) and must have the first file's columns (an error
/// names the file that differs); the morsels are (file, row group) pairs left after
/// statistics and Bloom filter pruning by the pushed-down predicate, handed out to the
/// pipeline threads; each row group is read with page-index pruning and returned in
/// batches of at most ExecContext::batch_size rows. Counters land in stats(): bytes_read,
/// files_read, row_groups_read / row_groups_pruned, and the others in extra.
///
/// Thread safety: GetData runs concurrently on different source states; Prepare may be
/// called from any thread.

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "exec/physical_operator.h"
#include "formats/parquet/file_reader.h"
#include "formats/parquet/predicate.h"
#include "io/file_system.h"

namespace sqe::exec {

/// The files a read_parquet call reads and their (first file's) schema.
struct ParquetScanSource {
  std::vector<io::FileInfo> files;
  columnar::SchemaPtr schema;
};

/// What a read_parquet scan reads.
struct ParquetScanSpec {
  /// The paths / globs as the query wrote them (EXPLAIN).
  std::vector<std::string> patterns;
  ParquetScanSource source;
  /// The file system of the paths; nullptr: ExecContext::fs.
  std::shared_ptr<io::FileSystem> fs;
  /// Output columns by name, in order; empty: every column of source.schema.
  std::vector<std::string> columns;
  /// Pushed-down conjuncts (columns by name) for row-group, page and Bloom pruning.
  std::vector<parquet::Predicate> predicate;
};

class ParquetScan : public PhysicalOperator {
 public:
  /// Expands each path or glob (in order, duplicates dropped). NotFound for a plain path
  /// that does not exist or a glob that matches nothing; InvalidArgument for an empty
  /// path, `***`, a `**` that is not a whole segment, or a wildcard in an S3 bucket name.
  static Result<std::vector<io::FileInfo>> ExpandPaths(const std::vector<std::string>& patterns,
                                                       io::FileSystem& fs);
  /// Expands the paths and reads the first file's schema (every column nullable).
  static Result<ParquetScanSource> Describe(const std::vector<std::string>& patterns,
                                            io::FileSystem& fs);
  /// The schema of `columns` (by name) of `source` (every column when empty).
  static Result<columnar::SchemaPtr> OutputSchema(const ParquetScanSource& source,
                                                  const std::vector<std::string>& columns);
  /// Whether `path` matches glob `pattern` (the segment rules above).
  static bool GlobMatches(std::string_view pattern, std::string_view path);

  /// `output_schema` must have OutputSchema()'s types (names may differ).
  ParquetScan(ParquetScanSpec spec, columnar::SchemaPtr output_schema);
  ~ParquetScan() override;

  const ParquetScanSpec& spec() const { return spec_; }
  /// Opens every file and selects the row groups (once; later calls return its status).
  Status Prepare(ExecContext& ctx);

  std::string Details() const override;
  bool IsSource() const override { return true; }
  Result<std::unique_ptr<OperatorState>> MakeSourceState(ExecContext& ctx) override;
  Result<std::optional<columnar::Batch>> GetData(ExecContext& ctx, OperatorState& state) override;
  int64_t SourceParallelism() const override;

 private:
  class State;
  friend class State;
  struct Morsel {
    int file = 0;
    int row_group = 0;
  };
  Status PrepareLocked(ExecContext& ctx);
  void RefreshExtra();

  ParquetScanSpec spec_;
  io::FileSystem* fs_ = nullptr;

  mutable std::mutex mutex_;
  std::atomic<bool> prepared_{false};
  Status prepare_status_;
  std::vector<std::unique_ptr<parquet::ParquetFileReader>> readers_;
  std::vector<Morsel> morsels_;
  std::atomic<size_t> next_morsel_{0};
  std::atomic<int64_t> num_morsels_{0};
  int64_t row_groups_total_ = 0;
  int64_t row_groups_pruned_by_stats_ = 0;
  std::atomic<int64_t> row_groups_pruned_by_pages_{0};
  std::atomic<int64_t> row_groups_read_{0};
};

}  // namespace sqe::exec
