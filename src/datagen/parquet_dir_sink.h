#pragma once
/// ParquetDirSink: writes each table as plain Parquet files DIR/<table>/part-<w>-<n>.parquet
/// (w the writer, n its file), zstd, rolling to a new file at `target_file_bytes`. A table
/// directory that already holds .parquet files is an AlreadyExists error unless `replace`,
/// which deletes them first (only *.parquet, nothing else).

#include <cstdint>
#include <memory>
#include <string>

#include "datagen/table_sink.h"
#include "formats/parquet/writer_options.h"

namespace sqe::datagen {

struct ParquetDirSinkOptions {
  std::string directory;
  bool replace = false;
  int64_t target_file_bytes = int64_t{512} << 20;
  parquet::WriterOptions writer;
};

/// InvalidArgument for an empty directory name; IOError when it cannot be created.
Result<std::unique_ptr<DatasetSink>> MakeParquetDirSink(ParquetDirSinkOptions options);

}  // namespace sqe::datagen
