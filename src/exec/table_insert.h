#pragma once
/// TableInsert: the sink of INSERT and CREATE TABLE AS SELECT. Its child produces rows in
/// the columnar form of the table's current schema (column order and types; the planner
/// casts). Every pipeline thread writes its batches through its own
/// iceberg::PartitionedWriter (the table's default partition spec, target file size and
/// codec properties); Combine collects the thread's data files; Finalize commits them
/// all as one snapshot with FastAppend through the catalog (which retries when another
/// writer commits first, so concurrent INSERTs all land). As a source it then produces
/// one row: the number of rows written (column "rows", bigint).
///
/// Failure leaves nothing behind: a failed Sink / Combine / commit, or destroying the
/// operator before a successful Finalize (the query failed elsewhere or was cancelled),
/// deletes every data file written (Abort). Only a commit whose outcome is unknown (an
/// I/O error talking to the catalog) keeps them, since the snapshot may reference them.
///
/// Thread safety: the executor's contract (physical_operator.h); Abort is safe to call
/// after the pipelines stopped.

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "exec/physical_operator.h"
#include "iceberg/manifest/data_file.h"
#include "iceberg/schema.h"
#include "io/file_system.h"

namespace sqe::exec {

/// The table a TableInsert writes.
struct TableInsertTarget {
  std::shared_ptr<catalog::Catalog> catalog;
  /// The table as loaded when the statement was planned: its current schema, default
  /// spec, properties and location are what the rows are written with.
  catalog::LoadedTable table;
  /// The table's file system (catalog::TableFileSystem): data files are written and
  /// deleted through it.
  std::shared_ptr<io::FileSystem> fs;
  /// Makes a file system for the commit's manifests (a second TableFileSystem).
  std::function<Result<std::unique_ptr<io::FileSystem>>()> make_commit_fs;
  /// "iceberg.sales.orders", for messages.
  std::string display_name;
};

struct TableInsertOptions {
  /// The codec when the table has no write.parquet.compression-codec ([catalog]
  /// parquet_compression).
  std::string default_codec = "zstd";
  /// > 0 overrides write.target-file-size-bytes (tests).
  int64_t target_file_size_bytes = 0;
  /// > 0 caps the files open at once per thread ([query] fanout_max_open_writers).
  int max_open_writers = 0;
};

class TableInsert : public PhysicalOperator {
 public:
  /// InvalidArgument when the child's columns do not match the table's in number, and
  /// NotImplemented for a table schema with types SQE cannot write.
  static Result<std::unique_ptr<TableInsert>> Make(PhysicalOperatorPtr child,
                                                   TableInsertTarget target,
                                                   TableInsertOptions options);
  ~TableInsert() override;

  std::string Details() const override;

  bool IsSink() const override { return true; }
  Result<std::unique_ptr<OperatorState>> MakeSinkState(ExecContext& ctx) override;
  Status Sink(ExecContext& ctx, const columnar::Batch& input, OperatorState& state) override;
  Status Combine(ExecContext& ctx, OperatorState& state) override;
  Status Finalize(ExecContext& ctx) override;

  bool IsSource() const override { return true; }
  Result<std::optional<columnar::Batch>> GetData(ExecContext& ctx, OperatorState& state) override;
  int64_t SourceParallelism() const override { return 1; }

  /// Deletes the data files written so far unless they were committed (idempotent).
  void Abort();

  /// After Finalize: rows written, the new snapshot (0 when no rows were written).
  int64_t rows_written() const { return rows_; }
  int64_t snapshot_id() const { return snapshot_id_; }
  const std::vector<iceberg::DataFile>& files() const { return files_; }

 private:
  TableInsert(PhysicalOperatorPtr child, TableInsertTarget target, TableInsertOptions options,
              iceberg::Schema table_schema, columnar::SchemaPtr table_columns);

  TableInsertTarget target_;
  TableInsertOptions options_;
  iceberg::Schema table_schema_;
  columnar::SchemaPtr table_columns_;  // the columnar form of table_schema_, with field ids

  std::mutex mutex_;
  std::vector<iceberg::DataFile> files_;  // combined from every thread
  int64_t rows_ = 0;
  int64_t snapshot_id_ = 0;
  bool committed_ = false;   // the files belong to the table now
  bool keep_files_ = false;  // the commit's outcome is unknown: the files may be referenced
  std::atomic<bool> emitted_{false};
};

}  // namespace sqe::exec
