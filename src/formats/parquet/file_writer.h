#pragma once
/// ParquetWriter: writes columnar Batches as one Parquet file (apache/parquet-format):
/// every columnar type including nested lists, structs and maps with nulls at every
/// level, Iceberg field ids in SchemaElement.field_id, dictionary encoding with fallback
/// to PLAIN, statistics in TYPE_ORDER, ColumnIndex + OffsetIndex before the footer, a
/// configurable codec and data page v1 or v2 (writer_options.h). Close() returns the
/// Iceberg metrics of the file (file_metrics.h).
///
/// A row group's column chunks are buffered in memory until the row group is complete,
/// then written in order. Single-owner, not thread-safe. A writer destroyed without a
/// successful Close aborts its stream, so no partial file becomes visible.

#include <memory>
#include <vector>

#include "columnar/batch.h"
#include "columnar/schema.h"
#include "common/result.h"
#include "formats/parquet/column_writer.h"
#include "formats/parquet/file_metrics.h"
#include "formats/parquet/metadata.h"
#include "formats/parquet/writer_options.h"
#include "io/file.h"

namespace sqe::parquet {

class ParquetWriter {
 public:
  /// Writes the leading magic. InvalidArgument/NotImplemented for a schema Parquet
  /// cannot hold (e.g. a struct without fields) or an unsupported codec.
  static Result<std::unique_ptr<ParquetWriter>> Open(std::unique_ptr<io::OutputStream> out,
                                                     columnar::SchemaPtr schema,
                                                     WriterOptions options = {});
  ~ParquetWriter();
  ParquetWriter(const ParquetWriter&) = delete;
  ParquetWriter& operator=(const ParquetWriter&) = delete;

  /// Appends the rows of `batch`, whose columns must have the schema's types. May close
  /// row groups (and write them) on the way. A batch of zero rows is a no-op.
  Status Write(const columnar::Batch& batch);
  /// Writes the last row group, the page indexes and the footer, then closes the stream.
  Result<FileMetrics> Close();
  /// Bytes written so far plus the buffered row group's estimated encoded size: what the
  /// file would measure if closed now, roughly (writers roll files at a target size on it).
  int64_t EstimatedFileBytes() const;

 private:
  ParquetWriter() = default;
  Status WriteSlice(const columnar::Batch& slice);
  Status FlushRowGroup();
  int64_t EstimatedRowGroupBytes() const;

  std::unique_ptr<io::OutputStream> out_;
  columnar::SchemaPtr schema_;
  WriterOptions options_;
  FileMetaData metadata_;
  std::vector<ColumnDescriptor> leaves_;
  std::vector<const columnar::DataType*> leaf_types_;
  std::vector<std::unique_ptr<ColumnChunkWriter>> writers_;
  int64_t group_rows_ = 0;
  // Per row group, per leaf; written before the footer.
  std::vector<std::vector<std::optional<ColumnIndex>>> column_indexes_;
  std::vector<std::vector<OffsetIndex>> offset_indexes_;
  // File-wide per leaf.
  std::vector<StatisticsBuilder> file_stats_;
  std::vector<int64_t> column_sizes_;
  std::vector<int64_t> value_counts_;
  std::vector<int64_t> split_offsets_;
  bool closed_ = false;
  Status error_;
};

}  // namespace sqe::parquet
