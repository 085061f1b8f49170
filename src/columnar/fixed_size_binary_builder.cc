#include "columnar/fixed_size_binary_builder.h"

#include <cassert>

namespace sqe::columnar {

FixedSizeBinaryBuilder::FixedSizeBinaryBuilder(TypePtr type, std::shared_ptr<MemoryTracker> tracker)
    : ColumnBuilder(std::move(type), tracker), width_(type_->byte_width()), values_(tracker) {
  assert(type_->id() == TypeId::kFixedSizeBinary || type_->id() == TypeId::kUuid);
}

Status FixedSizeBinaryBuilder::Append(std::string_view value) {
  if (static_cast<int64_t>(value.size()) != width_) {
    return Status::InvalidArgument(type_->ToString() + " value must have " +
                                   std::to_string(width_) + " bytes, got " +
                                   std::to_string(value.size()));
  }
  SQE_RETURN_NOT_OK(values_.Reserve(width_));
  SQE_RETURN_NOT_OK(validity_.AppendValid());
  values_.UnsafeAppend(value.data(), width_);
  return Status::OK();
}

Status FixedSizeBinaryBuilder::AppendNull() { return AppendNulls(1); }

Status FixedSizeBinaryBuilder::AppendNulls(int64_t n) {
  SQE_RETURN_NOT_OK(values_.Reserve(n * width_));
  SQE_RETURN_NOT_OK(validity_.AppendNullN(n));
  return values_.AppendZeros(n * width_);
}

Status FixedSizeBinaryBuilder::Reserve(int64_t additional) {
  SQE_RETURN_NOT_OK(values_.Reserve(additional * width_));
  return validity_.Reserve(additional);
}

Result<Column> FixedSizeBinaryBuilder::Finish() {
  const int64_t length = validity_.length();
  const int64_t null_count = validity_.null_count();
  SQE_ASSIGN_OR_RETURN(std::shared_ptr<Buffer> validity, validity_.Finish());
  SQE_ASSIGN_OR_RETURN(std::shared_ptr<Buffer> values, values_.Finish());
  return Column::Make(type_, length, {validity, values}, {}, null_count);
}

}  // namespace sqe::columnar
