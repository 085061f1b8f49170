#pragma once
/// Builders for Arrow bitmaps (LSB bit order). BitmapBuilder appends bits (boolean
/// values); ValidityBuilder appends validity bits but only materializes a bitmap once
/// the first null arrives, so a column without nulls carries no validity buffer, as
/// the Arrow spec allows. Both are single-owner and not thread-safe; a failed append
/// (ResourceExhausted) leaves them unchanged.

#include <cstdint>
#include <memory>

#include "columnar/bit_util.h"
#include "columnar/buffer_builder.h"

namespace sqe::columnar {

class BitmapBuilder {
 public:
  explicit BitmapBuilder(std::shared_ptr<MemoryTracker> tracker = nullptr)
      : bytes_(std::move(tracker)) {}

  /// Ensures `additional` more bits can be appended without reallocating.
  Status Reserve(int64_t additional) {
    return bytes_.Reserve(BytesForBits(length_ + additional) - bytes_.size());
  }
  Status Append(bool value) {
    if ((length_ & 7) == 0) SQE_RETURN_NOT_OK(bytes_.AppendZeros(1));
    if (value) SetBit(bytes_.mutable_data(), length_);
    ++length_;
    return Status::OK();
  }
  /// Appends `n` copies of `value`.
  Status AppendN(int64_t n, bool value);
  /// Appends `length` bits of `bits` starting at bit `offset`.
  Status AppendBits(const uint8_t* bits, int64_t offset, int64_t length);

  int64_t length() const { return length_; }
  const uint8_t* data() const { return bytes_.data(); }

  /// The bitmap (BytesForBits(length) bytes); the builder is left empty.
  Result<std::shared_ptr<Buffer>> Finish();
  void Reset() {
    bytes_.Reset();
    length_ = 0;
  }

 private:
  BufferBuilder bytes_;
  int64_t length_ = 0;
};

class ValidityBuilder {
 public:
  explicit ValidityBuilder(std::shared_ptr<MemoryTracker> tracker = nullptr)
      : bitmap_(std::move(tracker)) {}

  // Each append either succeeds or leaves the builder unchanged.
  Status AppendValid() {
    if (materialized_) SQE_RETURN_NOT_OK(bitmap_.Append(true));
    ++length_;
    return Status::OK();
  }
  Status AppendNull() {
    if (!materialized_) SQE_RETURN_NOT_OK(Materialize());
    SQE_RETURN_NOT_OK(bitmap_.Append(false));
    ++length_;
    ++null_count_;
    return Status::OK();
  }
  Status AppendValidN(int64_t n) {
    if (materialized_) SQE_RETURN_NOT_OK(bitmap_.AppendN(n, true));
    length_ += n;
    return Status::OK();
  }
  Status AppendNullN(int64_t n);
  Status Reserve(int64_t additional) {
    return materialized_ ? bitmap_.Reserve(additional) : Status::OK();
  }

  int64_t length() const { return length_; }
  int64_t null_count() const { return null_count_; }

  /// The validity bitmap, or nullptr when no null was appended; the builder is left
  /// empty.
  Result<std::shared_ptr<Buffer>> Finish();
  void Reset();

 private:
  Status Materialize();

  BitmapBuilder bitmap_;
  bool materialized_ = false;
  int64_t length_ = 0;
  int64_t null_count_ = 0;
};

}  // namespace sqe::columnar
