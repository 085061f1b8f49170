#pragma once
/// DataFileWriter: writes rows of a table as one Parquet data file and describes it as
/// the DataFile a manifest records: field ids in the Parquet schema (from the table
/// schema), the codec from the table's write.parquet.compression-codec (else the
/// catalog default), and the metrics Iceberg keeps (record count, size, split offsets,
/// per-column sizes, value / null / NaN counts, lower and upper bounds). The caller
/// gives the partition tuple the rows belong to (partitioned writers route rows first).

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "columnar/batch.h"
#include "common/result.h"
#include "formats/parquet/file_writer.h"
#include "iceberg/manifest/data_file.h"
#include "iceberg/schema.h"
#include "io/file_system.h"

namespace sqe::iceberg {

struct DataFileWriterOptions {
  /// "zstd", "snappy", "gzip", "lz4", "brotli" or "uncompressed" (Iceberg's names; "none"
  /// too). Table property write.parquet.compression-codec wins when present.
  std::string default_codec = "zstd";
  std::map<std::string, std::string> table_properties;
  int64_t row_group_bytes = int64_t{128} << 20;
};

class DataFileWriter {
 public:
  /// Creates `path` (never overwriting). InvalidArgument for an unknown codec name.
  static Result<std::unique_ptr<DataFileWriter>> Open(io::FileSystem& fs, const std::string& path,
                                                      const Schema& schema,
                                                      std::vector<std::optional<Literal>> partition,
                                                      const DataFileWriterOptions& options = {});

  /// Rows with the columnar form of the table schema (ToColumnarSchema).
  Status Write(const columnar::Batch& batch);
  /// Finishes the file and returns its description.
  Result<DataFile> Close();
  /// The file's size if it were closed now, estimated (rolling at a target file size).
  int64_t EstimatedBytes() const { return writer_->EstimatedFileBytes(); }

 private:
  DataFileWriter() = default;
  std::string path_;
  std::vector<std::optional<Literal>> partition_;
  std::unique_ptr<parquet::ParquetWriter> writer_;
};

/// The Parquet codec an Iceberg codec name means.
Result<parquet::CompressionCodec> ParquetCodecFromName(const std::string& name);

}  // namespace sqe::iceberg
