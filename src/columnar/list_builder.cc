#include "columnar/list_builder.h"

#include <cassert>

#include "columnar/list_offsets_internal.h"

namespace sqe::columnar {

ListBuilder::ListBuilder(TypePtr type, std::unique_ptr<ColumnBuilder> value_builder,
                         std::shared_ptr<MemoryTracker> tracker)
    : ColumnBuilder(std::move(type), tracker),
      offsets_(tracker),
      values_(std::move(value_builder)) {
  assert(type_->id() == TypeId::kList && values_ != nullptr);
}

Status ListBuilder::AppendStarts(int64_t rows, bool valid) {
  return AppendListStarts(*type_, values_->length(), rows, valid, &offsets_, &validity_);
}

Status ListBuilder::Append() { return AppendStarts(1, true); }
Status ListBuilder::AppendNull() { return AppendStarts(1, false); }
Status ListBuilder::AppendNulls(int64_t n) { return AppendStarts(n, false); }

Status ListBuilder::Reserve(int64_t additional) {
  SQE_RETURN_NOT_OK(offsets_.Reserve((additional + 1) * int64_t{sizeof(int32_t)}));
  return validity_.Reserve(additional);
}

Result<Column> ListBuilder::Finish() {
  SQE_ASSIGN_OR_RETURN(std::shared_ptr<Buffer> offsets,
                       FinishListOffsets(*type_, values_->length(), &offsets_));
  const int64_t length = validity_.length();
  const int64_t null_count = validity_.null_count();
  SQE_ASSIGN_OR_RETURN(std::shared_ptr<Buffer> validity, validity_.Finish());
  SQE_ASSIGN_OR_RETURN(Column values, values_->Finish());
  return Column::Make(type_, length, {validity, offsets}, {std::move(values)}, null_count);
}

}  // namespace sqe::columnar
