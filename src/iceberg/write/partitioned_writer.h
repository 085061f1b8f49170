#pragma once
/// PartitionedWriter: writes rows of a table as Parquet data files laid out the way the
/// table's partition spec says: each row's partition tuple is computed column-at-a-time
/// from the spec's transforms (identity, bucket[N], truncate[W], year, month, day, hour,
/// void), rows are routed to one DataFileWriter per partition, a file is rolled when it
/// reaches the target file size (write.target-file-size-bytes, Iceberg's default 512 MiB),
/// and at most `max_open_writers` files are open at once (the least recently used one is
/// closed first; later rows of its partition go to a new file). Files are named
/// <data location>/<partition path>/<uuid>.parquet, the data location being the table
/// property write.data.path or else <table location>/data.
///
/// Single-owner, not thread-safe. Destroying the writer without Close aborts the files
/// still open; Abort() also deletes the ones already finished.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "columnar/batch.h"
#include "columnar/column.h"
#include "columnar/selection_vector.h"
#include "common/memory_tracker.h"
#include "common/result.h"
#include "iceberg/literal.h"
#include "iceberg/manifest/data_file.h"
#include "iceberg/partition_spec.h"
#include "iceberg/schema.h"
#include "iceberg/write/data_file_writer.h"
#include "io/file_system.h"

namespace sqe::iceberg {

/// Iceberg's default write.target-file-size-bytes.
inline constexpr int64_t kDefaultTargetFileSizeBytes = int64_t{512} << 20;

/// The rows of a batch that share one partition tuple.
struct PartitionGroup {
  /// One value per spec field, in spec order; nullopt is a null value.
  std::vector<std::optional<Literal>> partition;
  columnar::SelectionVector rows;
};

/// Groups the rows of `batch` (the columnar form of `schema`, ToColumnarSchema) by their
/// partition tuple under `spec`, groups in the order their first row appears. An
/// unpartitioned spec gives one group of every row. InvalidArgument when a spec field's
/// source column is missing, inside a list or map, or of a type its transform does not
/// accept, or when a value has no partition value (an hour beyond the int range).
Result<std::vector<PartitionGroup>> GroupByPartition(const Schema& schema,
                                                     const PartitionSpec& spec,
                                                     const columnar::Batch& batch);

/// The spec's partition path ("category=a%2Fb/id_bucket=3/ts_day=2024-01-15"): per field
/// name=value, each URL-escaped like Java's URLEncoder, values in Iceberg's human form
/// (dates ISO, month "2024-01", hour "2024-01-15-10", binary base64, null "null").
Result<std::string> PartitionPath(const PartitionSpec& spec, const Schema& schema,
                                  const std::vector<std::optional<Literal>>& partition);

struct PartitionedWriterOptions {
  /// Codec, table properties (write.parquet.*, write.target-file-size-bytes,
  /// write.data.path) and row-group size of each file.
  DataFileWriterOptions file;
  /// > 0 overrides write.target-file-size-bytes (tests use small ones).
  int64_t target_file_size_bytes = 0;
  /// Open files at most; >= 1.
  int max_open_writers = 64;
  /// Charged for the routed copies of rows (nullptr = untracked).
  std::shared_ptr<MemoryTracker> tracker;
  /// Makes a file's base name without ".parquet"; default a random UUID.
  std::function<std::string()> file_name;
};

class PartitionedWriter {
 public:
  /// Checks the spec against the schema and the options (InvalidArgument naming the
  /// property or field at fault). `fs` must outlive the writer.
  static Result<std::unique_ptr<PartitionedWriter>> Make(io::FileSystem& fs,
                                                         const std::string& table_location,
                                                         const Schema& schema,
                                                         const PartitionSpec& spec,
                                                         PartitionedWriterOptions options = {});
  ~PartitionedWriter();
  PartitionedWriter(const PartitionedWriter&) = delete;
  PartitionedWriter& operator=(const PartitionedWriter&) = delete;

  /// Routes and writes the rows of `batch` (the columnar form of the schema).
  Status Write(const columnar::Batch& batch);
  /// Closes every open file and returns all the files written, in the order they were
  /// finished. The writer is finished afterwards.
  Result<std::vector<DataFile>> Close();
  /// Aborts the open files and deletes the finished ones (a failed write leaves nothing).
  void Abort();

  int64_t target_file_size_bytes() const { return target_file_size_; }
  /// Files opened so far (finished or open).
  int64_t files_opened() const { return files_opened_; }
  /// How many times a file was closed early to stay within max_open_writers.
  int64_t evictions() const { return evictions_; }

 private:
  struct OpenFile {
    std::vector<std::optional<Literal>> partition;
    std::unique_ptr<DataFileWriter> writer;
    uint64_t last_used = 0;
  };

  PartitionedWriter(io::FileSystem& fs, Schema schema, PartitionSpec spec,
                    PartitionedWriterOptions options)
      : fs_(fs), schema_(std::move(schema)), spec_(std::move(spec)), options_(std::move(options)) {}
  Status WriteToPartition(const std::string& key, const std::vector<std::optional<Literal>>& part,
                          const columnar::Batch& rows);
  Result<OpenFile*> FileFor(const std::string& key,
                            const std::vector<std::optional<Literal>>& part);
  Status Finish(const std::string& key);

  io::FileSystem& fs_;
  Schema schema_;
  PartitionSpec spec_;
  PartitionedWriterOptions options_;
  std::string data_location_;
  int64_t target_file_size_ = kDefaultTargetFileSizeBytes;
  std::map<std::string, OpenFile> open_;
  std::vector<DataFile> finished_;
  uint64_t use_clock_ = 0;
  int64_t files_opened_ = 0;
  int64_t evictions_ = 0;
  bool closed_ = false;
};

}  // namespace sqe::iceberg
