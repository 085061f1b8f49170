#pragma once
/// FixedWidthBuilder<T>: builds columns whose values are T-sized little-endian values:
/// integers, floats, decimal128 (T = Decimal128), date32 (int32_t), time64 and
/// timestamps (int64_t). A null row stores a zero value behind a cleared validity bit.
/// See column_builder.h for the shared contract.

#include <cstdint>
#include <string_view>

#include "columnar/buffer_builder.h"
#include "columnar/column_builder.h"
#include "columnar/decimal128.h"

namespace sqe::columnar {

template <typename T>
class FixedWidthBuilder final : public ColumnBuilder {
 public:
  /// Precondition: `type` has the kFixedWidth layout and byte_width() == sizeof(T)
  /// (checked in debug builds; MakeBuilder checks always).
  explicit FixedWidthBuilder(TypePtr type, std::shared_ptr<MemoryTracker> tracker = nullptr);

  Status Append(T value) {
    SQE_RETURN_NOT_OK(values_.Reserve(sizeof(T)));
    SQE_RETURN_NOT_OK(validity_.AppendValid());
    values_.UnsafeAppendValue(value);
    return Status::OK();
  }
  /// Appends `n` values; `valid`, when given, holds one flag per value (false = null).
  Status AppendValues(const T* values, int64_t n, const bool* valid = nullptr);
  Status AppendNull() override;
  Status AppendNulls(int64_t n) override;
  Status Reserve(int64_t additional) override;
  Result<Column> Finish() override;

  /// The value appended at row i (zero for nulls).
  T ValueAt(int64_t i) const { return reinterpret_cast<const T*>(values_.data())[i]; }

 private:
  BufferBuilder values_;
};

extern template class FixedWidthBuilder<int8_t>;
extern template class FixedWidthBuilder<int16_t>;
extern template class FixedWidthBuilder<int32_t>;
extern template class FixedWidthBuilder<int64_t>;
extern template class FixedWidthBuilder<float>;
extern template class FixedWidthBuilder<double>;
extern template class FixedWidthBuilder<Decimal128>;

using Int8Builder = FixedWidthBuilder<int8_t>;
using Int16Builder = FixedWidthBuilder<int16_t>;
using Int32Builder = FixedWidthBuilder<int32_t>;
using Int64Builder = FixedWidthBuilder<int64_t>;
using Float32Builder = FixedWidthBuilder<float>;
using Float64Builder = FixedWidthBuilder<double>;
using Decimal128Builder = FixedWidthBuilder<Decimal128>;
/// date32: days since 1970-01-01.
using Date32Builder = FixedWidthBuilder<int32_t>;
/// time64 and timestamp: ticks of the type's unit.
using Time64Builder = FixedWidthBuilder<int64_t>;
using TimestampBuilder = FixedWidthBuilder<int64_t>;

}  // namespace sqe::columnar
