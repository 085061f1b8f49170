#include "columnar/map_builder.h"

#include <cassert>

#include "columnar/list_offsets_internal.h"

namespace sqe::columnar {

MapBuilder::MapBuilder(TypePtr type, std::unique_ptr<ColumnBuilder> key_builder,
                       std::unique_ptr<ColumnBuilder> item_builder,
                       std::shared_ptr<MemoryTracker> tracker)
    : ColumnBuilder(std::move(type), tracker),
      offsets_(tracker),
      keys_(std::move(key_builder)),
      items_(std::move(item_builder)) {
  assert(type_->id() == TypeId::kMap && keys_ != nullptr && items_ != nullptr);
}

Status MapBuilder::CheckEntriesAligned() const {
  if (keys_->length() != items_->length()) {
    return Status::InvalidArgument(type_->ToString() + " row " +
                                   std::to_string(validity_.length() - 1) + " has " +
                                   std::to_string(keys_->length()) + " keys but " +
                                   std::to_string(items_->length()) + " values in total");
  }
  return Status::OK();
}

Status MapBuilder::AppendStarts(int64_t rows, bool valid) {
  SQE_RETURN_NOT_OK(CheckEntriesAligned());
  return AppendListStarts(*type_, keys_->length(), rows, valid, &offsets_, &validity_);
}

Status MapBuilder::Append() { return AppendStarts(1, true); }
Status MapBuilder::AppendNull() { return AppendStarts(1, false); }
Status MapBuilder::AppendNulls(int64_t n) { return AppendStarts(n, false); }

Status MapBuilder::Reserve(int64_t additional) {
  SQE_RETURN_NOT_OK(offsets_.Reserve((additional + 1) * int64_t{sizeof(int32_t)}));
  return validity_.Reserve(additional);
}

Result<Column> MapBuilder::Finish() {
  SQE_RETURN_NOT_OK(CheckEntriesAligned());
  if (keys_->null_count() > 0) {
    return Status::InvalidArgument(type_->ToString() + " keys must not be null (" +
                                   std::to_string(keys_->null_count()) + " null keys)");
  }
  const int64_t entry_count = keys_->length();
  SQE_ASSIGN_OR_RETURN(std::shared_ptr<Buffer> offsets,
                       FinishListOffsets(*type_, entry_count, &offsets_));
  const int64_t length = validity_.length();
  const int64_t null_count = validity_.null_count();
  SQE_ASSIGN_OR_RETURN(std::shared_ptr<Buffer> validity, validity_.Finish());
  SQE_ASSIGN_OR_RETURN(Column keys, keys_->Finish());
  SQE_ASSIGN_OR_RETURN(Column items, items_->Finish());
  SQE_ASSIGN_OR_RETURN(Column entries,
                       Column::Make(type_->value_field().type(), entry_count, {nullptr},
                                    {std::move(keys), std::move(items)}, 0));
  return Column::Make(type_, length, {validity, offsets}, {std::move(entries)}, null_count);
}

}  // namespace sqe::columnar
