#pragma once
/// The commands of sqe-fs, the storage tool: put/get/stat/ls/rm on local paths and
/// s3:// URIs through the same FileSystem the engine uses, plus read-ranges and
/// parquet-scan, which replay read patterns and report the requests they cost (the
/// integration tests and bench/ drive the S3 client through these).

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "common/result.h"
#include "io/io_stats.h"
#include "io/s3/storage_file_systems.h"

namespace sqe::tools {

/// What every command needs: the file systems and the stats they count into.
struct FsToolContext {
  std::unique_ptr<io::s3::StorageFileSystems> file_systems;
  std::shared_ptr<io::IoStats> stats = std::make_shared<io::IoStats>();
};

Status FsPut(FsToolContext& ctx, const std::string& uri, const std::string& source, bool overwrite);
Status FsGet(FsToolContext& ctx, const std::string& uri, int64_t offset, int64_t length,
             const std::string& destination, std::ostream& out);
Status FsStat(FsToolContext& ctx, const std::string& uri, std::ostream& out);
Status FsList(FsToolContext& ctx, const std::string& prefix, std::ostream& out);
Status FsRemove(FsToolContext& ctx, const std::vector<std::string>& uris);

struct ReadRangesOptions {
  /// "offset:length" entries; empty with `pattern` set: generated from the pattern.
  std::vector<std::string> ranges;
  /// "chunk:hole": ranges of `chunk` bytes separated by `hole` bytes over each file.
  std::string pattern;
  int64_t coalesce_threshold = int64_t{1} << 20;
  /// Known file size (skips the size request); -1: unknown.
  int64_t size = -1;
  /// Read this many times (re-opening the file each time).
  int repeat = 1;
  /// Print the sha256 of the bytes read (off for benchmarks: hashing costs more than S3).
  bool digest = true;
};
/// Reads the ranges of every file (files concurrently) and prints one JSON line per
/// file: bytes, sha256 of the ranges' bytes in order, and the requests it cost.
Status FsReadRanges(FsToolContext& ctx, const std::vector<std::string>& uris,
                    const ReadRangesOptions& options, std::ostream& out);

struct ParquetScanOptions {
  int repeat = 1;
  int64_t footer_cache_size = int64_t{64} << 20;
  int64_t coalesce_threshold = int64_t{1} << 20;
  int64_t size = -1;
};
/// Opens the Parquet file `repeat` times (one shared footer cache) and reads every row
/// group; prints one JSON line per pass: rows, footer cache hit, requests, bytes.
Status FsParquetScan(FsToolContext& ctx, const std::string& uri, const ParquetScanOptions& options,
                     std::ostream& out);

}  // namespace sqe::tools
