#pragma once
/// Batch: a schema and one Column per field, all of the same length (Arrow's record
/// batch). The unit operators exchange (~2048-8192 rows). An immutable value: cheap to
/// copy (columns share their buffers), safe to read from any thread.

#include <cstdint>
#include <vector>

#include "columnar/column.h"
#include "columnar/schema.h"
#include "common/result.h"

namespace sqe::columnar {

class Batch {
 public:
  Batch() = default;

  /// Checks that there is one column per field, each of the field's type and of
  /// `num_rows` rows, and that non-nullable fields hold no nulls.
  static Result<Batch> Make(SchemaPtr schema, std::vector<Column> columns, int64_t num_rows);
  /// As above with num_rows taken from the first column (0 without columns).
  static Result<Batch> Make(SchemaPtr schema, std::vector<Column> columns);

  const SchemaPtr& schema() const { return schema_; }
  int64_t num_rows() const { return num_rows_; }
  int num_columns() const { return static_cast<int>(columns_.size()); }
  const Column& column(int i) const { return columns_[i]; }
  const std::vector<Column>& columns() const { return columns_; }
  /// The column of the first field named `name`, or nullptr.
  const Column* ColumnByName(std::string_view name) const;

  /// Rows [offset, offset + length), clamped, sharing every buffer.
  Batch Slice(int64_t offset, int64_t length) const;
  /// The columns at `indices` in that order (repeats allowed), with their fields.
  Result<Batch> Project(const std::vector<int>& indices) const;

 private:
  SchemaPtr schema_;
  std::vector<Column> columns_;
  int64_t num_rows_ = 0;
};

}  // namespace sqe::columnar
