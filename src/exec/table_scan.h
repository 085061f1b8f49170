#pragma once
/// IcebergTableScan: the source operator that reads an Iceberg table. It plans once
/// (PlanScan: snapshot choice, partition and metrics pruning, delete matching, splits at
/// target_split_size), lazily on the first GetData or in an explicit Prepare, then hands
/// the file scan tasks out to the pipeline threads: each GetData returns the next batch of
/// its thread's current task and pulls a new task when that one is done. Every task reader
/// shares one DeleteLoader (a delete file is read once per scan), skips row groups by the
/// residual's Parquet-expressible conjuncts, and applies deletes and the residual exactly.
/// What pruning and reading did lands in stats(): bytes_read, files_read / files_pruned,
/// row_groups_read / row_groups_pruned, and the other counters in extra.
///
/// Thread safety: GetData runs concurrently on different source states; Prepare and
/// EstimateRows may be called from any thread.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "catalog/catalog.h"
#include "exec/physical_operator.h"
#include "exec/value.h"
#include "iceberg/expr/expression.h"
#include "iceberg/read/delete_loader.h"
#include "iceberg/read/file_scan_task_reader.h"
#include "iceberg/scan/scan_planner.h"
#include "io/file_system.h"

namespace sqe::exec {

/// Reserved field ids of the Iceberg hidden columns a scan returns besides the table's
/// columns when IcebergScanSpec::field_ids asks for them: "$path" (the data file's path;
/// Iceberg's `_file` id) and "$file_modified_time" (the file's last-modified time as
/// timestamp(6) with time zone, NULL where the file system cannot tell; Trino's type is
/// timestamp(3) with time zone).
inline constexpr int32_t kPathFieldId = 2147483646;
inline constexpr int32_t kFileModifiedTimeFieldId = 2147483646 - 1000;

/// The hidden columns with their reserved field ids, in the order tables list them.
const std::vector<std::pair<columnar::Field, int32_t>>& IcebergHiddenColumns();

/// What an Iceberg table scan reads.
struct IcebergScanSpec {
  catalog::LoadedTable table;
  /// The table's file system (catalog::TableFileSystem); nullptr: ExecContext::fs.
  std::shared_ptr<io::FileSystem> fs;
  /// Top-level columns to read, in output order (hidden columns by their reserved ids).
  std::vector<int32_t> field_ids;
  /// Unbound pushed-down conjuncts (may be nullptr). Conjuncts that do not bind to the
  /// table schema are dropped at planning: the engine filters exactly anyway.
  iceberg::expr::ExprPtr filter;
  std::optional<int64_t> snapshot_id;
  std::optional<std::string> ref;
  std::optional<int64_t> as_of_timestamp_ms;
  /// [query] target_task_size / read.split.target-size.
  int64_t target_split_size = int64_t{128} << 20;
  /// Whether the scan drops the rows `filter` rejects itself (exactly, row at a time in the
  /// task reader). The planner passes false: its vectorized Filter above the scan applies
  /// the predicate anyway, and `filter` still prunes files, row groups and pages.
  bool filter_rows = true;
};

/// Reorders a planned scan's tasks so their rows come out sorted (iceberg/scan/
/// task_ordering.h): returns why that order is sorted ("sort order"), or "" when it left
/// the tasks alone.
using TaskOrdering =
    std::function<std::string(const iceberg::TableMetadata& metadata, const iceberg::Schema& schema,
                              std::vector<iceberg::FileScanTask>* tasks)>;

class IcebergTableScan : public PhysicalOperator {
 public:
  /// `output_schema` must have the types OutputSchema() gives (names may differ).
  IcebergTableScan(IcebergScanSpec spec, columnar::SchemaPtr output_schema);
  ~IcebergTableScan() override;

  /// The columnar schema of `field_ids` of the table's current schema (the default
  /// output schema). InvalidArgument naming an id the table does not have.
  static Result<columnar::SchemaPtr> OutputSchema(const catalog::LoadedTable& table,
                                                  const std::vector<int32_t>& field_ids);

  const IcebergScanSpec& spec() const { return spec_; }

  /// Plans the scan (once; later calls return the first call's status).
  Status Prepare(ExecContext& ctx);
  /// total-records of the scanned snapshot's summary (0 for a table without snapshots).
  Result<int64_t> EstimateRows() const;
  /// The planner's counters (valid after Prepare).
  iceberg::ScanStats scan_stats() const;
  /// The filter actually handed to PlanScan (after dropping unbindable conjuncts).
  iceberg::expr::ExprPtr planned_filter() const;
  /// Before Prepare: once planned, `ordering` may put the tasks in sorted order; the scan
  /// then reads them in that order on one thread (SourceIsOrdered), so an ORDER BY above
  /// it needs no sort.
  void SetTaskOrdering(TaskOrdering ordering) { task_ordering_ = std::move(ordering); }
  /// Why the tasks are in sorted order; "" when they are not (valid after Prepare).
  std::string ordered_by() const;
  bool SourceIsOrdered() const override { return ordered_.load(std::memory_order_acquire); }

  std::string Details() const override;
  bool IsSource() const override { return true; }
  Result<std::unique_ptr<OperatorState>> MakeSourceState(ExecContext& ctx) override;
  Result<std::optional<columnar::Batch>> GetData(ExecContext& ctx, OperatorState& state) override;
  /// The number of tasks once planned; 0 (no limit) before.
  int64_t SourceParallelism() const override;

 private:
  class State;
  friend class State;
  Status PlanLocked(ExecContext& ctx);
  /// The hidden column values of `task`'s rows ("$path", "$file_modified_time").
  Status HiddenValues(const iceberg::FileScanTask& task, Value* path, Value* modified_time);
  /// Adds what a finished (or abandoned) task reader did and refreshes stats().extra.
  void AddReaderStats(const iceberg::TaskReadStats& task, int64_t bytes_read);
  void RefreshExtra();

  IcebergScanSpec spec_;
  io::FileSystem* fs_ = nullptr;
  /// The field ids the task readers read (spec_.field_ids without the hidden ones; one
  /// narrow placeholder column when only hidden columns are asked for).
  std::vector<int32_t> read_ids_;
  /// Per output column: its index in the reader's batches, or kPathFieldId /
  /// kFileModifiedTimeFieldId negated for a hidden column.
  std::vector<int64_t> output_from_;
  bool has_hidden_ = false;
  /// Data files a "$path" conjunct removed from the plan (counted in files_pruned).
  int64_t files_pruned_by_path_ = 0;

  mutable std::mutex mutex_;
  std::atomic<bool> planned_{false};
  Status plan_status_;
  iceberg::ScanPlan plan_;
  iceberg::expr::ExprPtr planned_filter_;
  std::unique_ptr<iceberg::DeleteLoader> deletes_;
  /// total-data-files of the scanned snapshot's summary (-1 unknown): files_pruned
  /// counts the files of manifests skipped whole too.
  int64_t snapshot_data_files_ = -1;
  TaskOrdering task_ordering_;
  std::string ordered_by_;
  std::atomic<bool> ordered_{false};
  std::atomic<size_t> next_task_{0};
  std::atomic<int64_t> tasks_{0};

  std::atomic<int64_t> row_groups_read_{0};
  std::atomic<int64_t> row_groups_skipped_{0};
  std::atomic<int64_t> rows_read_{0};
  std::atomic<int64_t> rows_deleted_{0};
  std::atomic<int64_t> rows_filtered_{0};
};

}  // namespace sqe::exec
