#include "columnar/struct_builder.h"

#include <cassert>

namespace sqe::columnar {

StructBuilder::StructBuilder(TypePtr type,
                             std::vector<std::unique_ptr<ColumnBuilder>> field_builders,
                             std::shared_ptr<MemoryTracker> tracker)
    : ColumnBuilder(std::move(type), std::move(tracker)), fields_(std::move(field_builders)) {
  assert(type_->id() == TypeId::kStruct && type_->num_fields() == num_fields());
}

Status StructBuilder::Append() { return validity_.AppendValid(); }

Status StructBuilder::AppendNull() { return AppendNulls(1); }

Status StructBuilder::AppendNulls(int64_t n) {
  SQE_RETURN_NOT_OK(validity_.AppendNullN(n));
  for (auto& field : fields_) SQE_RETURN_NOT_OK(field->AppendNulls(n));
  return Status::OK();
}

Status StructBuilder::Reserve(int64_t additional) {
  SQE_RETURN_NOT_OK(validity_.Reserve(additional));
  for (auto& field : fields_) SQE_RETURN_NOT_OK(field->Reserve(additional));
  return Status::OK();
}

Result<Column> StructBuilder::Finish() {
  const int64_t length = validity_.length();
  for (int i = 0; i < num_fields(); ++i) {
    if (fields_[i]->length() != length) {
      return Status::InvalidArgument("struct field '" + type_->field(i).name() + "' has " +
                                     std::to_string(fields_[i]->length()) +
                                     " values but the struct has " + std::to_string(length) +
                                     " rows");
    }
  }
  const int64_t null_count = validity_.null_count();
  SQE_ASSIGN_OR_RETURN(std::shared_ptr<Buffer> validity, validity_.Finish());
  std::vector<Column> children;
  children.reserve(fields_.size());
  for (auto& field : fields_) {
    SQE_ASSIGN_OR_RETURN(Column child, field->Finish());
    children.push_back(std::move(child));
  }
  return Column::Make(type_, length, {validity}, std::move(children), null_count);
}

}  // namespace sqe::columnar
