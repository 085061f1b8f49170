#pragma once
/// FileScanTaskReader: reads one FileScanTask (scan_planner.h) into columnar Batches of
/// a projection of the table schema (spec "Scan Planning" and "Schema Evolution"):
///  - columns are matched by field id; a column the file lacks reads as the identity
///    partition value of the task's partition tuple, else the field's initial-default,
///    else null; int -> long, float -> double, decimal(P,S) -> decimal(P',S) and
///    date -> timestamp are promoted; renamed columns take the table's names;
///  - only the row groups whose first byte lies in [start, start + length) are read;
///  - rows deleted by the task's position delete files, and rows whose key is in one of
///    its equality delete files, are dropped (key columns outside the projection are
///    read and dropped again);
///  - the residual filter is applied exactly to the remaining rows.
/// Batches hold at most `batch_size` rows; one row group is buffered at a time.
/// Single-owner, not thread-safe; the DeleteLoader may be shared by many readers.

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "columnar/batch.h"
#include "columnar/selection_vector.h"
#include "common/result.h"
#include "formats/parquet/file_reader.h"
#include "iceberg/column_literal.h"
#include "iceberg/partition_spec.h"
#include "iceberg/read/delete_loader.h"
#include "iceberg/scan/scan_planner.h"
#include "io/file_system.h"

namespace sqe::iceberg {

struct TaskReaderOptions {
  /// The table schema the output columns and the residual's field ids refer to.
  std::shared_ptr<const Schema> schema;
  /// Top-level field ids to return, in order; empty: every field of `schema`.
  std::vector<int32_t> projected_ids;
  /// The task's partition spec (identity partition values for absent columns); may be
  /// nullptr.
  const PartitionSpec* spec = nullptr;
  int64_t batch_size = 8192;
  /// Conjuncts (by Iceberg field id) to skip row groups with by statistics and Bloom
  /// filters, e.g. the residual's comparisons. Each is bound to the file on its own; one
  /// that does not bind (a promoted type, a column the file lacks) is ignored.
  std::vector<parquet::Predicate> predicate;
  /// Whether the reader drops the rows the task's residual rejects (row at a time). The
  /// engine passes false: its vectorized Filter above the scan applies the whole
  /// predicate anyway, and the residual still skips row groups through `predicate`.
  bool apply_residual = true;
};

/// What a reader did (rows_read counts rows of the selected row groups).
struct TaskReadStats {
  int64_t row_groups = 0;
  int64_t row_groups_skipped = 0;  // in the task's byte range, rejected by the predicate
  int64_t rows_read = 0;
  int64_t rows_deleted_by_position = 0;
  int64_t rows_deleted_by_equality = 0;
  int64_t rows_filtered = 0;
  int64_t rows_returned = 0;
};

class FileScanTaskReader {
 public:
  /// Opens the data file and loads the task's deletes through `deletes`.
  static Result<std::unique_ptr<FileScanTaskReader>> Open(io::FileSystem& fs,
                                                          const FileScanTask& task,
                                                          TaskReaderOptions options,
                                                          DeleteLoader& deletes);
  /// The schema of the returned batches (the projection).
  const columnar::SchemaPtr& schema() const { return output_schema_; }
  /// The next non-empty batch, or nullopt at the end of the task.
  Result<std::optional<columnar::Batch>> Next();
  const TaskReadStats& stats() const { return stats_; }
  /// The Parquet reader's counters for the data file (bytes read, requests, ...).
  parquet::ReaderStats file_stats() const { return reader_->stats(); }

 private:
  FileScanTaskReader() = default;
  Status LoadRowGroup();
  /// The rows of `slice` (file positions from `base`; `del` the first position delete at or
  /// after `base`) that no delete file drops and the residual (when applied) keeps; counts
  /// the dropped ones in stats_.
  Result<columnar::SelectionVector> KeptRows(const columnar::Batch& slice, int64_t base,
                                             std::vector<int64_t>::const_iterator del);
  Result<columnar::Column> MissingColumn(int index, int64_t rows) const;

  FileScanTask task_;
  TaskReaderOptions options_;
  std::unique_ptr<parquet::ParquetFileReader> reader_;
  std::vector<NestedField> fields_;  // output fields, then extra key / filter fields
  columnar::SchemaPtr internal_schema_;
  columnar::SchemaPtr output_schema_;
  std::vector<int> row_groups_;
  std::vector<int64_t> first_row_;  // per row group of the file
  size_t next_group_ = 0;
  columnar::Batch current_;
  int64_t current_pos_ = 0;  // file position of current_'s row 0
  int64_t current_offset_ = 0;
  std::vector<int64_t> deleted_;
  std::vector<std::shared_ptr<const EqualityDeleteSet>> equality_;
  std::vector<int32_t> filter_ids_;
  /// Indices into fields_: the key columns of each equality_ set, the columns of filter_ids_.
  std::vector<std::vector<int>> key_columns_;
  std::vector<int> filter_columns_;
  TaskReadStats stats_;
};

/// Converts a column read from a file to the table's type (promotions, struct fields by
/// id). InvalidArgument naming `name` when the types cannot be reconciled.
Result<columnar::Column> ConformColumn(const columnar::Column& column,
                                       const columnar::TypePtr& target, const std::string& name);

}  // namespace sqe::iceberg
