#pragma once
/// The subcommands of sqe-parquet, the inspection tool for Parquet files: `schema`
/// (the columnar schema and the Parquet leaf columns), `meta` (row groups, column
/// chunks, encodings, codecs, sizes, statistics, page index and bloom filter presence)
/// and `cat` (rows as a table or as JSON lines in the Trino JSON value encoding), and `rewrite`
/// (re-encode with our writer). Each writes to `out` and returns a Status whose message names the
/// file on failure.

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "common/status.h"

namespace sqe::tools {

Status PrintParquetSchema(const std::string& path, std::ostream& out);
Status PrintParquetMeta(const std::string& path, std::ostream& out);

enum class CatFormat { kTable, kJsonLines };

struct CatOptions {
  int64_t limit = -1;                // < 0: all rows
  std::vector<std::string> columns;  // empty: all top-level columns
  CatFormat format = CatFormat::kTable;
};
Status PrintParquetRows(const std::string& path, const CatOptions& options, std::ostream& out);

/// `rewrite IN OUT`: reads IN with our reader and writes it with our writer (how tests
/// drive the writer from outside, and a way to re-encode a file). Prints the metrics the
/// writer returns.
struct RewriteOptions {
  std::string codec = "zstd";  // zstd, snappy, gzip, lz4, brotli, none
  int level = -1000;           // codec default
  int page_version = 1;
  int64_t row_group_rows = 0;  // 0: writer default
  int64_t page_bytes = 0;      // 0: writer default
  bool dictionary = true;
};
Status RewriteParquet(const std::string& in, const std::string& out_path,
                      const RewriteOptions& options, std::ostream& out);

}  // namespace sqe::tools
