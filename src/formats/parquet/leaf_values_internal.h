#pragma once
/// LeafValues: the non-null values of one leaf column, accumulated page by page in the
/// columnar representation of the leaf's type (the LeafConversion already applied), and
/// the value decoder for every data-page encoding. Private to the column chunk reader.
///
/// Values live in growable tracked buffers: fixed-width types as `width()` bytes per value
/// (booleans one byte per value, packed into a bitmap by Finish), string/binary as int32
/// offsets + data. A dictionary is itself a LeafValues, so dictionary pages are converted
/// once and data pages gather converted values straight into the output.
/// Single-owner, not thread-safe.

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "columnar/buffer.h"
#include "columnar/column.h"
#include "common/memory_tracker.h"
#include "common/result.h"
#include "formats/parquet/parquet_types.h"
#include "formats/parquet/schema_mapping.h"

namespace sqe::parquet::internal {

/// An owned buffer that grows geometrically and can shrink. Bytes it grows by are left
/// uninitialized (every caller overwrites what it appends), so nothing is written twice;
/// Finish zeroes the padding. Growth is charged to the tracker.
class GrowableBuffer {
 public:
  explicit GrowableBuffer(std::shared_ptr<MemoryTracker> tracker = nullptr)
      : tracker_(std::move(tracker)) {}
  /// Sets the size; bytes past the old size are uninitialized.
  Status Resize(int64_t size);
  /// Makes room for `capacity` bytes without changing the size.
  Status Reserve(int64_t capacity);
  uint8_t* data() { return buffer_ ? buffer_->mutable_data() : nullptr; }
  const uint8_t* data() const { return buffer_ ? buffer_->data() : nullptr; }
  int64_t size() const { return size_; }
  /// Bytes from data() that may be read or written (>= size(); past size() they are
  /// scratch, overwritten or dropped later).
  int64_t allocated() const { return buffer_ ? buffer_->capacity() : 0; }
  /// Hands over the buffer (exactly size() bytes, zero padding) and leaves this empty.
  Result<columnar::BufferPtr> Finish();

 private:
  std::shared_ptr<MemoryTracker> tracker_;
  // buffer_->size() is the allocation; size_ <= it is what is in use.
  std::shared_ptr<columnar::Buffer> buffer_;
  int64_t size_ = 0;
};

/// A run [begin, end) of value indices to keep.
struct IndexRun {
  int64_t begin = 0;
  int64_t end = 0;
};

class LeafValues {
 public:
  LeafValues() = default;
  /// Sets up for `descriptor`'s leaf type. InvalidArgument for a conversion that does not
  /// fit the physical type (schema_mapping never produces one).
  Status Init(const ColumnDescriptor& descriptor, std::shared_ptr<MemoryTracker> tracker);

  /// Pre-sizes the buffers for about `values` values and `data_bytes` string bytes, so
  /// appending pages does not regrow them (a hint: appends past it still work).
  Status Reserve(int64_t values, int64_t data_bytes);

  int64_t size() const { return count_; }
  bool var_binary() const { return var_binary_; }
  /// Bytes per value in the fixed-width representation (0 for var-binary).
  int32_t width() const { return width_; }

  /// Decodes `n` values of a page section [data, data + size) in `encoding` and appends
  /// them. `dictionary` is required for the dictionary encodings. Corruption on any
  /// inconsistency (the message says what; the caller adds file, column and offset).
  Status DecodeAppend(Encoding encoding, const uint8_t* data, size_t size, int64_t n,
                      const LeafValues* dictionary);

  /// Bounds the bytes a DELTA_BYTE_ARRAY page may expand to (prefix sharing lets a tiny
  /// page claim gigabytes).
  void set_max_page_bytes(int64_t bytes) { max_page_bytes_ = bytes; }

  /// Drops the values at or past `base` that no run covers; runs are sorted, disjoint and
  /// lie within [base, size()).
  Status KeepRuns(int64_t base, const std::vector<IndexRun>& runs);

  /// The accumulated values as a Column of the leaf type without nulls; resets.
  Result<columnar::Column> Finish();

 private:
  Status DecodeFixedPhysical(Encoding encoding, const uint8_t* data, size_t size, int64_t n,
                             uint8_t* out);
  Status DecodeByteArrays(Encoding encoding, const uint8_t* data, size_t size, int64_t n);
  Status ConvertFixed(const uint8_t* physical, int64_t n, uint8_t* out);
  Status AppendViews(const std::string_view* views, int64_t n);
  Status AppendPlainByteArrays(const uint8_t* data, size_t size, int64_t n);
  Status Gather(const uint32_t* indices, int64_t n, const LeafValues& dictionary);
  Result<uint8_t*> GrowFixed(int64_t n);
  /// Offsets back to the single 0 of an empty var-binary column.
  Status ResetOffsets();

  const ColumnDescriptor* descriptor_ = nullptr;
  std::shared_ptr<MemoryTracker> tracker_;
  PhysicalType physical_ = PhysicalType::kBoolean;
  LeafConversion conversion_ = LeafConversion::kNone;
  int32_t physical_width_ = 0;  // bytes per fixed-width physical value
  int32_t width_ = 0;
  bool var_binary_ = false;
  bool identity_ = false;  // physical bytes are the output bytes
  int64_t max_page_bytes_ = int64_t{256} << 20;
  int64_t count_ = 0;
  GrowableBuffer values_;   // fixed width
  GrowableBuffer offsets_;  // var binary: count_ + 1 int32
  GrowableBuffer data_;     // var binary bytes
  // Per-page scratch, reused across pages.
  std::vector<uint8_t> scratch_;
  std::vector<std::string_view> views_;
  std::vector<uint32_t> indices_;
};

}  // namespace sqe::parquet::internal
