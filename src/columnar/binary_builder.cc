#include "columnar/binary_builder.h"

#include <cassert>
#include <limits>

namespace sqe::columnar {
namespace {

constexpr int64_t kMaxOffset = std::numeric_limits<int32_t>::max();

Status DataTooLarge(const DataType& type) {
  return Status::ResourceExhausted(type.ToString() +
                                   " column data would exceed 2147483647 bytes (int32 offsets); "
                                   "split the rows over several columns");
}

}  // namespace

BinaryBuilder::BinaryBuilder(TypePtr type, std::shared_ptr<MemoryTracker> tracker)
    : ColumnBuilder(std::move(type), tracker), offsets_(tracker), data_(tracker) {
  assert(type_->layout() == Layout::kVarBinary);
}

// Appends the end offset of `rows` new rows (all at the current data size), writing the
// leading 0 first when this is the first row. All-or-nothing.
Status BinaryBuilder::AppendOffsets(int64_t rows) {
  const bool first = offsets_.size() == 0;
  SQE_RETURN_NOT_OK(offsets_.Reserve((rows + (first ? 1 : 0)) * int64_t{sizeof(int32_t)}));
  if (first) offsets_.UnsafeAppendValue<int32_t>(0);
  const auto end = static_cast<int32_t>(data_.size());
  for (int64_t i = 0; i < rows; ++i) offsets_.UnsafeAppendValue(end);
  return Status::OK();
}

Status BinaryBuilder::Append(std::string_view value) {
  const auto size = static_cast<int64_t>(value.size());
  if (data_.size() + size > kMaxOffset) return DataTooLarge(*type_);
  SQE_RETURN_NOT_OK(data_.Reserve(size));
  SQE_RETURN_NOT_OK(offsets_.Reserve(2 * int64_t{sizeof(int32_t)}));
  SQE_RETURN_NOT_OK(validity_.AppendValid());
  data_.UnsafeAppend(value.data(), size);
  return AppendOffsets(1);  // cannot fail after the Reserve above
}

Status BinaryBuilder::AppendNull() {
  SQE_RETURN_NOT_OK(offsets_.Reserve(2 * int64_t{sizeof(int32_t)}));
  SQE_RETURN_NOT_OK(validity_.AppendNull());
  return AppendOffsets(1);
}

Status BinaryBuilder::AppendNulls(int64_t n) {
  SQE_RETURN_NOT_OK(offsets_.Reserve((n + 1) * int64_t{sizeof(int32_t)}));
  SQE_RETURN_NOT_OK(validity_.AppendNullN(n));
  return AppendOffsets(n);
}

Status BinaryBuilder::Reserve(int64_t additional) {
  SQE_RETURN_NOT_OK(offsets_.Reserve((additional + 1) * int64_t{sizeof(int32_t)}));
  return validity_.Reserve(additional);
}

Result<Column> BinaryBuilder::Finish() {
  SQE_RETURN_NOT_OK(AppendOffsets(0));  // an empty column still has its leading 0
  const int64_t length = validity_.length();
  const int64_t null_count = validity_.null_count();
  SQE_ASSIGN_OR_RETURN(std::shared_ptr<Buffer> validity, validity_.Finish());
  SQE_ASSIGN_OR_RETURN(std::shared_ptr<Buffer> offsets, offsets_.Finish());
  SQE_ASSIGN_OR_RETURN(std::shared_ptr<Buffer> data, data_.Finish());
  return Column::Make(type_, length, {validity, offsets, data}, {}, null_count);
}

}  // namespace sqe::columnar
