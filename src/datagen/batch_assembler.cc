#include "datagen/batch_assembler.h"

namespace sqe::datagen {

BatchAssembler::BatchAssembler(columnar::SchemaPtr schema, int64_t expected_rows)
    : schema_(std::move(schema)) {
  for (int i = 0; i < schema_->num_fields(); ++i) {
    Result<std::unique_ptr<columnar::ColumnBuilder>> builder =
        columnar::MakeBuilder(schema_->field(i).type());
    if (!builder.ok()) {
      Keep(builder.status());
      builders_.push_back(std::make_unique<columnar::Int64Builder>(columnar::Int64()));
      continue;
    }
    Keep((*builder)->Reserve(expected_rows));
    builders_.push_back(std::move(*builder));
  }
}

Result<columnar::Batch> BatchAssembler::Finish(int64_t rows) {
  SQE_RETURN_NOT_OK(status_);
  std::vector<columnar::Column> columns;
  columns.reserve(builders_.size());
  for (auto& builder : builders_) {
    SQE_ASSIGN_OR_RETURN(columnar::Column column, builder->Finish());
    columns.push_back(std::move(column));
  }
  return columnar::Batch::Make(schema_, std::move(columns), rows);
}

}  // namespace sqe::datagen
