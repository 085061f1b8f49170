#pragma once
/// PositionDeleteWriter: a Parquet position delete file (spec "Position Delete Files"):
/// rows of (file_path: field 2147483546, pos: field 2147483545), sorted by path then
/// position as the spec requires, with the metrics readers prune by (file_path bounds).
/// The DataFile it returns has content = position deletes and, when every row names one
/// data file, referenced_data_file set (as Iceberg Java does). Positions are held in
/// memory until Close; single-owner.

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/result.h"
#include "iceberg/literal.h"
#include "iceberg/manifest/data_file.h"
#include "iceberg/schema.h"
#include "iceberg/write/data_file_writer.h"
#include "io/file_system.h"

namespace sqe::iceberg {

/// The schema of position delete files (file_path, pos; both required).
const Schema& PositionDeleteSchema();

class PositionDeleteWriter {
 public:
  /// A writer of `path` for deletes of data files in `partition` (the data files' tuple).
  PositionDeleteWriter(io::FileSystem& fs, std::string path,
                       std::vector<std::optional<Literal>> partition,
                       DataFileWriterOptions options = {});

  void Delete(std::string data_file_path, int64_t position);
  int64_t size() const { return static_cast<int64_t>(rows_.size()); }
  /// Sorts, writes and describes the file. InvalidArgument when nothing was deleted or a
  /// position is negative.
  Result<DataFile> Close();

 private:
  io::FileSystem& fs_;
  std::string path_;
  std::vector<std::optional<Literal>> partition_;
  DataFileWriterOptions options_;
  std::vector<std::pair<std::string, int64_t>> rows_;
};

}  // namespace sqe::iceberg
