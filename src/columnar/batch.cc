#include "columnar/batch.h"

#include <algorithm>

namespace sqe::columnar {

Result<Batch> Batch::Make(SchemaPtr schema, std::vector<Column> columns, int64_t num_rows) {
  if (schema == nullptr) return Status::InvalidArgument("batch schema must not be null");
  if (static_cast<int>(columns.size()) != schema->num_fields()) {
    return Status::InvalidArgument("batch has " + std::to_string(columns.size()) +
                                   " columns but its schema has " +
                                   std::to_string(schema->num_fields()) + " fields");
  }
  if (num_rows < 0) return Status::InvalidArgument("batch row count must be >= 0");
  for (size_t i = 0; i < columns.size(); ++i) {
    const Field& field = schema->field(static_cast<int>(i));
    const Column& column = columns[i];
    if (column.type() == nullptr || !column.type()->Equals(*field.type())) {
      return Status::InvalidArgument(
          "column '" + field.name() + "' has type " +
          (column.type() ? column.type()->ToString() : std::string("none")) +
          " but the schema says " + field.type()->ToString());
    }
    if (column.length() != num_rows) {
      return Status::InvalidArgument("column '" + field.name() + "' has " +
                                     std::to_string(column.length()) + " rows, expected " +
                                     std::to_string(num_rows));
    }
    if (!field.nullable() && column.null_count() > 0) {
      return Status::InvalidArgument("column '" + field.name() + "' is declared not null but has " +
                                     std::to_string(column.null_count()) + " nulls");
    }
  }
  Batch batch;
  batch.schema_ = std::move(schema);
  batch.columns_ = std::move(columns);
  batch.num_rows_ = num_rows;
  return batch;
}

Result<Batch> Batch::Make(SchemaPtr schema, std::vector<Column> columns) {
  const int64_t num_rows = columns.empty() ? 0 : columns[0].length();
  return Make(std::move(schema), std::move(columns), num_rows);
}

const Column* Batch::ColumnByName(std::string_view name) const {
  if (schema_ == nullptr) return nullptr;
  const int index = schema_->FieldIndex(name);
  return index < 0 ? nullptr : &columns_[index];
}

Batch Batch::Slice(int64_t offset, int64_t length) const {
  offset = std::clamp<int64_t>(offset, 0, num_rows_);
  length = std::clamp<int64_t>(length, 0, num_rows_ - offset);
  Batch out;
  out.schema_ = schema_;
  out.num_rows_ = length;
  out.columns_.reserve(columns_.size());
  for (const Column& column : columns_) out.columns_.push_back(column.Slice(offset, length));
  return out;
}

Result<Batch> Batch::Project(const std::vector<int>& indices) const {
  if (schema_ == nullptr) return Status::InvalidArgument("cannot project an empty batch");
  SQE_ASSIGN_OR_RETURN(SchemaPtr schema, schema_->Project(indices));
  Batch out;
  out.schema_ = std::move(schema);
  out.num_rows_ = num_rows_;
  out.columns_.reserve(indices.size());
  for (int index : indices) out.columns_.push_back(columns_[index]);
  return out;
}

}  // namespace sqe::columnar
