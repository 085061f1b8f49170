#include "columnar/fixed_width_builder.h"

#include <cassert>

namespace sqe::columnar {

template <typename T>
FixedWidthBuilder<T>::FixedWidthBuilder(TypePtr type, std::shared_ptr<MemoryTracker> tracker)
    : ColumnBuilder(std::move(type), tracker), values_(tracker) {
  assert(type_->layout() == Layout::kFixedWidth && type_->byte_width() == sizeof(T));
}

template <typename T>
Status FixedWidthBuilder<T>::AppendValues(const T* values, int64_t n, const bool* valid) {
  SQE_RETURN_NOT_OK(Reserve(n));
  if (valid == nullptr) {
    SQE_RETURN_NOT_OK(validity_.AppendValidN(n));
    values_.UnsafeAppend(values, n * static_cast<int64_t>(sizeof(T)));
    return Status::OK();
  }
  for (int64_t i = 0; i < n; ++i) {
    if (valid[i]) {
      SQE_RETURN_NOT_OK(validity_.AppendValid());
      values_.UnsafeAppendValue(values[i]);
    } else {
      SQE_RETURN_NOT_OK(validity_.AppendNull());
      values_.UnsafeAppendValue(T{});
    }
  }
  return Status::OK();
}

template <typename T>
Status FixedWidthBuilder<T>::AppendNull() {
  SQE_RETURN_NOT_OK(values_.Reserve(sizeof(T)));
  SQE_RETURN_NOT_OK(validity_.AppendNull());
  return values_.AppendZeros(sizeof(T));  // cannot fail after Reserve
}

template <typename T>
Status FixedWidthBuilder<T>::AppendNulls(int64_t n) {
  SQE_RETURN_NOT_OK(values_.Reserve(n * static_cast<int64_t>(sizeof(T))));
  SQE_RETURN_NOT_OK(validity_.AppendNullN(n));
  return values_.AppendZeros(n * static_cast<int64_t>(sizeof(T)));
}

template <typename T>
Status FixedWidthBuilder<T>::Reserve(int64_t additional) {
  SQE_RETURN_NOT_OK(values_.Reserve(additional * static_cast<int64_t>(sizeof(T))));
  return validity_.Reserve(additional);
}

template <typename T>
Result<Column> FixedWidthBuilder<T>::Finish() {
  const int64_t length = validity_.length();
  const int64_t null_count = validity_.null_count();
  SQE_ASSIGN_OR_RETURN(std::shared_ptr<Buffer> validity, validity_.Finish());
  SQE_ASSIGN_OR_RETURN(std::shared_ptr<Buffer> values, values_.Finish());
  return Column::Make(type_, length, {validity, values}, {}, null_count);
}

template class FixedWidthBuilder<int8_t>;
template class FixedWidthBuilder<int16_t>;
template class FixedWidthBuilder<int32_t>;
template class FixedWidthBuilder<int64_t>;
template class FixedWidthBuilder<float>;
template class FixedWidthBuilder<double>;
template class FixedWidthBuilder<Decimal128>;

}  // namespace sqe::columnar
