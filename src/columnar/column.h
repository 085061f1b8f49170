#pragma once
/// Column: one Arrow array, a typed sequence of `length` values in the Arrow columnar
/// memory layout, so it can be sent over Arrow IPC / Flight without conversion.
///
/// Buffers, in Arrow's order for the type's Layout (see data_type.h):
///   kBitmap      [validity, values bitmap]
///   kFixedWidth  [validity, values]
///   kVarBinary   [validity, int32 offsets, data]
///   kList        [validity, int32 offsets] and one child (list values / map entries)
///   kStruct      [validity] and one child per field
/// The validity buffer is null when the column has no nulls. Bitmaps are LSB-first and
/// a set validity bit means "valid". `offset` shifts every logical index into the
/// buffers (Arrow's array offset), which makes Slice O(1) with shared buffers. As in
/// Arrow, a struct's offset applies to its children as well (StructField() returns the
/// child aligned with the struct's rows), while list offsets index into the child
/// directly.
///
/// A Column is an immutable value: cheap to copy (buffers are shared), safe to read from
/// any thread. Build one with a builder (column_builder.h) or Column::Make.

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "columnar/bit_util.h"
#include "columnar/buffer.h"
#include "columnar/data_type.h"
#include "columnar/decimal128.h"
#include "common/result.h"

namespace sqe::columnar {

class Column {
 public:
  /// Passed as null_count to have Make count the nulls from the validity bitmap.
  static constexpr int64_t kUnknownNullCount = -1;

  /// An empty column without a type; only useful as a placeholder to assign to.
  Column() = default;

  /// Assembles a column from its buffers and children and checks that they fit the type
  /// (buffer count and sizes, child count and types; Validate()). O(1) apart from
  /// counting nulls when null_count is kUnknownNullCount.
  static Result<Column> Make(TypePtr type, int64_t length, std::vector<BufferPtr> buffers,
                             std::vector<Column> children = {},
                             int64_t null_count = kUnknownNullCount, int64_t offset = 0);
  /// A column of `length` nulls (children, if any, are all-null too).
  static Result<Column> MakeAllNull(TypePtr type, int64_t length,
                                    std::shared_ptr<MemoryTracker> tracker = nullptr);

  const TypePtr& type() const { return type_; }
  TypeId type_id() const { return type_->id(); }
  int64_t length() const { return length_; }
  /// The logical start inside the buffers (Arrow's offset).
  int64_t offset() const { return offset_; }
  int64_t null_count() const { return null_count_; }

  /// Arrow-ordered buffers; buffers()[0] (validity) may be null.
  const std::vector<BufferPtr>& buffers() const { return buffers_; }
  const BufferPtr& validity() const { return buffers_[0]; }
  /// The raw children (unsliced: apply offset() for struct, use Offsets() for lists).
  const std::vector<Column>& children() const { return children_; }
  const Column& child(int i) const { return children_[i]; }
  int num_children() const { return static_cast<int>(children_.size()); }

  bool IsNull(int64_t i) const {
    return validity_bits_ != nullptr && !GetBit(validity_bits_, offset_ + i);
  }
  bool IsValid(int64_t i) const { return !IsNull(i); }

  /// The fixed-width values starting at row 0 of this column (offset applied).
  /// T must match the type's physical width: int8_t.., float, double, Decimal128
  /// (decimal), int32_t (date32), int64_t (time64, timestamp).
  template <typename T>
  const T* Values() const {
    return reinterpret_cast<const T*>(values_) + offset_;
  }
  template <typename T>
  T Value(int64_t i) const {
    return Values<T>()[i];
  }
  /// Boolean value of row i (the values bitmap, ignoring validity).
  bool BoolAt(int64_t i) const { return GetBit(values_, offset_ + i); }
  Decimal128 DecimalAt(int64_t i) const { return Values<Decimal128>()[i]; }

  /// The offsets of rows [0, length] (length + 1 entries) of a var-binary, list or map
  /// column, offset applied.
  const int32_t* Offsets() const { return reinterpret_cast<const int32_t*>(values_) + offset_; }
  /// Bytes of row i of a string or binary column.
  std::string_view StringAt(int64_t i) const {
    const int32_t* offsets = Offsets();
    return {reinterpret_cast<const char*>(data_) + offsets[i],
            static_cast<size_t>(offsets[i + 1] - offsets[i])};
  }
  std::string_view BinaryAt(int64_t i) const { return StringAt(i); }
  /// Bytes of row i of a fixed(n) or uuid column (n bytes).
  std::string_view FixedSizeBinaryAt(int64_t i) const {
    const int64_t width = type_->byte_width();
    return {reinterpret_cast<const char*>(values_) + (offset_ + i) * width,
            static_cast<size_t>(width)};
  }

  /// List and map: the child holding every row's elements (or entries) and the range of
  /// row i in it.
  const Column& ListValues() const { return children_[0]; }
  int64_t ListStart(int64_t i) const { return Offsets()[i]; }
  int64_t ListLength(int64_t i) const { return Offsets()[i + 1] - Offsets()[i]; }
  /// Map: the keys and values of all entries (indexed like ListValues()).
  Column MapKeys() const { return children_[0].StructField(0); }
  Column MapItems() const { return children_[0].StructField(1); }

  /// Struct: field i's values aligned with this column's rows (row j of the result is
  /// field i of row j). Cheap: a slice sharing the child's buffers.
  Column StructField(int i) const;

  /// Rows [offset, offset + length) without copying: shares every buffer. The range is
  /// clamped to the column. O(length / 64) to count the slice's nulls.
  Column Slice(int64_t offset, int64_t length) const;

  /// Checks buffer sizes and children against the type: O(1) per buffer.
  Status Validate() const;
  /// Validate() plus O(length) checks: offsets start >= 0, never decrease and stay
  /// within the data or child; strings are valid UTF-8; map keys are not null; the
  /// null count matches the bitmap.
  Status ValidateFull() const;

 private:
  void CacheDataPointers();

  TypePtr type_;
  int64_t length_ = 0;
  int64_t offset_ = 0;
  int64_t null_count_ = 0;
  std::vector<BufferPtr> buffers_;
  std::vector<Column> children_;
  // Cached raw pointers into buffers_ (valid as long as the buffers are).
  const uint8_t* validity_bits_ = nullptr;
  const uint8_t* values_ = nullptr;  // values (fixed width, bitmap) or offsets
  const uint8_t* data_ = nullptr;    // var-binary data
};

}  // namespace sqe::columnar
