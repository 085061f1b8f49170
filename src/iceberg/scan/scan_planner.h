#pragma once
/// ScanPlanner: which files a table scan reads (spec "Scan Planning"). It picks the
/// snapshot (current, by id, by branch or tag, or as of a time), reads the manifest list,
/// skips manifests whose partition summaries cannot match the filter, reads the other
/// manifests in parallel, skips data files by partition value and by column metrics,
/// attaches the delete files that apply to each data file (by sequence number and
/// partition), and cuts the files into tasks of about `target_split_size` at their split
/// offsets (row-group starts). Every skip is counted in ScanStats, so tests and EXPLAIN
/// can show what pruning did.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "common/task_scheduler.h"
#include "iceberg/expr/evaluators.h"
#include "iceberg/expr/expression.h"
#include "iceberg/manifest/data_file.h"
#include "iceberg/table_metadata.h"

namespace sqe::iceberg {

/// Reads the manifest list of a snapshot and the entries of a manifest (the Avro files,
/// through the table's FileSystem; tests may read from elsewhere).
class ManifestSource {
 public:
  virtual ~ManifestSource();
  virtual Result<std::vector<ManifestFile>> ReadManifestList(const Snapshot& snapshot) = 0;
  /// Entries with inherited snapshot ids and sequence numbers filled in.
  virtual Result<std::vector<ManifestEntry>> ReadEntries(const ManifestFile& manifest,
                                                         const PartitionSpec& spec,
                                                         const Schema& schema) = 0;
};

struct ScanOptions {
  std::optional<int64_t> snapshot_id;
  std::optional<std::string> ref;  // a branch or tag
  std::optional<int64_t> as_of_timestamp_ms;
  /// Unbound row filter (nullptr: all rows).
  expr::ExprPtr filter;
  bool case_sensitive = true;
  /// read.split.target-size (Iceberg's default 128 MiB).
  int64_t target_split_size = int64_t{128} << 20;
  TaskScheduler* scheduler = nullptr;
  int parallelism = 0;
};

/// One unit of scan work: a byte range of a data file and the deletes to apply to it.
struct FileScanTask {
  DataFile file;
  int32_t spec_id = 0;
  int64_t data_sequence_number = 0;
  int64_t start = 0;
  int64_t length = 0;
  std::vector<DataFile> deletes;
  /// The bound filter the reader still applies to rows (Parquet pruning, then exact).
  expr::ExprPtr residual;
};

struct ScanStats {
  int64_t manifests = 0;
  int64_t manifests_skipped = 0;
  int64_t data_files = 0;
  int64_t data_files_skipped_by_partition = 0;
  int64_t data_files_skipped_by_metrics = 0;
  int64_t delete_files = 0;
  int64_t delete_files_applied = 0;
  int64_t tasks = 0;
};

struct ScanPlan {
  std::optional<int64_t> snapshot_id;  // nullopt: the table has no snapshot (empty scan)
  /// The schema to read with: the snapshot's own for time travel (snapshot id, timestamp,
  /// tag), else the table's current one (columns are read by field id either way).
  std::shared_ptr<const Schema> schema;
  std::vector<FileScanTask> tasks;
  ScanStats stats;
};

Result<ScanPlan> PlanScan(const TableMetadata& metadata, ManifestSource& manifests,
                          const ScanOptions& options);

/// The column metrics of `file` with its bounds decoded to `schema`'s types (a bound that
/// does not decode is left unknown), for the metrics evaluators.
expr::FileStats DataFileStats(const DataFile& file, const Schema& schema);

/// The byte ranges a file of `file_size` splits into for `target` bytes, cut only at
/// `split_offsets` (sorted row-group starts); one range without offsets.
std::vector<std::pair<int64_t, int64_t>> SplitFile(int64_t file_size,
                                                   const std::vector<int64_t>& split_offsets,
                                                   int64_t target);

}  // namespace sqe::iceberg
