#pragma once
/// EqualityDeleteWriter: a Parquet equality delete file (spec "Equality Delete Files"): rows
/// of the equality columns (`equality_ids`, top-level primitive columns of the table
/// schema, field ids kept in the Parquet schema); a row of the table is deleted when it
/// equals one of them on those columns (nulls equal nulls). The DataFile it returns has
/// content = equality deletes and equality_ids set. Single-owner.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "columnar/batch.h"
#include "common/result.h"
#include "iceberg/literal.h"
#include "iceberg/manifest/data_file.h"
#include "iceberg/schema.h"
#include "iceberg/write/data_file_writer.h"
#include "io/file_system.h"

namespace sqe::iceberg {

class EqualityDeleteWriter {
 public:
  /// InvalidArgument when an id is not a top-level primitive column of `table_schema`, or
  /// is a float/double column (the spec forbids them as equality columns).
  static Result<std::unique_ptr<EqualityDeleteWriter>> Open(
      io::FileSystem& fs, const std::string& path, const Schema& table_schema,
      std::vector<int32_t> equality_ids, std::vector<std::optional<Literal>> partition,
      const DataFileWriterOptions& options = {});

  /// The delete schema: the equality columns, in `equality_ids` order.
  const Schema& schema() const { return schema_; }
  /// Rows with the columnar form of schema().
  Status Write(const columnar::Batch& keys);
  Result<DataFile> Close();

 private:
  EqualityDeleteWriter() = default;
  Schema schema_;
  std::vector<int32_t> ids_;
  std::unique_ptr<DataFileWriter> writer_;
};

}  // namespace sqe::iceberg
