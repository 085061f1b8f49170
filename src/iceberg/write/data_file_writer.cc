#include "iceberg/write/data_file_writer.h"

#include <algorithm>

#include "common/crash_point.h"
#include "iceberg/columnar_schema.h"

namespace sqe::iceberg {

Result<parquet::CompressionCodec> ParquetCodecFromName(const std::string& raw) {
  std::string name = raw;
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (name == "zstd") return parquet::CompressionCodec::kZstd;
  if (name == "snappy") return parquet::CompressionCodec::kSnappy;
  if (name == "gzip") return parquet::CompressionCodec::kGzip;
  if (name == "lz4") return parquet::CompressionCodec::kLz4Raw;
  if (name == "brotli") return parquet::CompressionCodec::kBrotli;
  if (name == "uncompressed" || name == "none") return parquet::CompressionCodec::kUncompressed;
  return Status::InvalidArgument("unknown Parquet compression codec '" + raw +
                                 "': use zstd, lz4, snappy, gzip, brotli or uncompressed");
}

Result<std::unique_ptr<DataFileWriter>> DataFileWriter::Open(
    io::FileSystem& fs, const std::string& path, const Schema& schema,
    std::vector<std::optional<Literal>> partition, const DataFileWriterOptions& options) {
  std::string codec_name = options.default_codec;
  auto it = options.table_properties.find("write.parquet.compression-codec");
  if (it != options.table_properties.end()) codec_name = it->second;
  parquet::WriterOptions writer_options;
  SQE_ASSIGN_OR_RETURN(writer_options.codec, ParquetCodecFromName(codec_name));
  writer_options.row_group_bytes = options.row_group_bytes;
  auto level = options.table_properties.find("write.parquet.compression-level");
  if (level != options.table_properties.end()) {
    try {
      writer_options.compression_level = std::stoi(level->second);
    } catch (...) {
      return Status::InvalidArgument("table property write.parquet.compression-level = '" +
                                     level->second + "' is not an integer");
    }
  }
  SQE_ASSIGN_OR_RETURN(columnar::SchemaPtr columnar_schema, ToColumnarSchema(schema));
  SQE_ASSIGN_OR_RETURN(auto out, fs.OpenForWrite(path, /*overwrite=*/false));
  std::unique_ptr<DataFileWriter> w(new DataFileWriter());
  w->path_ = path;
  w->partition_ = std::move(partition);
  SQE_ASSIGN_OR_RETURN(
      w->writer_, parquet::ParquetWriter::Open(std::move(out), columnar_schema, writer_options));
  return w;
}

Status DataFileWriter::Write(const columnar::Batch& batch) { return writer_->Write(batch); }

Result<DataFile> DataFileWriter::Close() {
  SQE_ASSIGN_OR_RETURN(parquet::FileMetrics metrics, writer_->Close());
  CrashPoint("iceberg.data_file_written");
  DataFile f;
  f.content = FileContent::kData;
  f.file_path = path_;
  f.file_format = FileFormat::kParquet;
  f.partition = partition_;
  f.record_count = metrics.record_count;
  f.file_size_in_bytes = metrics.file_size;
  f.split_offsets = metrics.split_offsets;
  for (const parquet::ColumnMetrics& c : metrics.columns) {
    f.column_sizes[c.field_id] = c.column_size;
    f.value_counts[c.field_id] = c.value_count;
    f.null_value_counts[c.field_id] = c.null_count;
    if (c.nan_count) f.nan_value_counts[c.field_id] = *c.nan_count;
    if (c.lower_bound) f.lower_bounds[c.field_id] = *c.lower_bound;
    if (c.upper_bound) f.upper_bounds[c.field_id] = *c.upper_bound;
  }
  return f;
}

}  // namespace sqe::iceberg
