#include "columnar/boolean_builder.h"

namespace sqe::columnar {

BooleanBuilder::BooleanBuilder(std::shared_ptr<MemoryTracker> tracker)
    : ColumnBuilder(Boolean(), tracker), values_(tracker) {}

Status BooleanBuilder::AppendNull() {
  SQE_RETURN_NOT_OK(values_.Reserve(1));
  SQE_RETURN_NOT_OK(validity_.AppendNull());
  return values_.Append(false);
}

Status BooleanBuilder::AppendNulls(int64_t n) {
  SQE_RETURN_NOT_OK(values_.Reserve(n));
  SQE_RETURN_NOT_OK(validity_.AppendNullN(n));
  return values_.AppendN(n, false);
}

Status BooleanBuilder::Reserve(int64_t additional) {
  SQE_RETURN_NOT_OK(values_.Reserve(additional));
  return validity_.Reserve(additional);
}

Result<Column> BooleanBuilder::Finish() {
  const int64_t length = validity_.length();
  const int64_t null_count = validity_.null_count();
  SQE_ASSIGN_OR_RETURN(std::shared_ptr<Buffer> validity, validity_.Finish());
  SQE_ASSIGN_OR_RETURN(std::shared_ptr<Buffer> values, values_.Finish());
  return Column::Make(type_, length, {validity, values}, {}, null_count);
}

}  // namespace sqe::columnar
