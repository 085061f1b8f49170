#pragma once
/// The subcommands of sqe-parquet, the inspection tool for Parquet files: `schema`
/// (the columnar schema and the Parquet leaf columns), `meta` (row groups, column
/// chunks, encodings, codecs, sizes, statistics, page index and bloom filter presence)
/// and `cat` (rows as a table or as JSON lines in the Trino JSON value encoding). Each
/// writes to `out` and returns a Status whose message names the file on failure.

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

}  // namespace sqe::tools
