#pragma once
/// BufferBuilder: appends bytes to an owned Buffer, growing it geometrically (at least
/// doubling) so appends are amortized O(1) with no per-value allocation. Every growth is
/// charged to the MemoryTracker given at construction and may fail with
/// ResourceExhausted. Single-owner, not thread-safe.

#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>

#include "columnar/buffer.h"
#include "common/memory_tracker.h"
#include "common/result.h"

namespace sqe::columnar {

class BufferBuilder {
 public:
  explicit BufferBuilder(std::shared_ptr<MemoryTracker> tracker = nullptr)
      : tracker_(std::move(tracker)) {}

  /// Ensures `additional` more bytes can be appended without reallocating.
  Status Reserve(int64_t additional) {
    return size_ + additional <= capacity_ ? Status::OK() : Grow(additional);
  }
  Status Append(const void* data, int64_t n) {
    SQE_RETURN_NOT_OK(Reserve(n));
    UnsafeAppend(data, n);
    return Status::OK();
  }
  Status Append(std::string_view bytes) {
    return Append(bytes.data(), static_cast<int64_t>(bytes.size()));
  }
  template <typename T>
  Status AppendValue(const T& value) {
    SQE_RETURN_NOT_OK(Reserve(sizeof(T)));
    UnsafeAppendValue(value);
    return Status::OK();
  }
  /// Appends `n` zero bytes.
  Status AppendZeros(int64_t n) {
    SQE_RETURN_NOT_OK(Reserve(n));
    size_ += n;  // capacity beyond size is always zero
    return Status::OK();
  }

  /// Appends without a capacity check: only after Reserve made room.
  void UnsafeAppend(const void* data, int64_t n) {
    if (n > 0) std::memcpy(data_ + size_, data, static_cast<size_t>(n));
    size_ += n;
  }
  template <typename T>
  void UnsafeAppendValue(const T& value) {
    std::memcpy(data_ + size_, &value, sizeof(T));
    size_ += sizeof(T);
  }

  int64_t size() const { return size_; }
  int64_t capacity() const { return capacity_; }
  /// The bytes written so far; invalidated by the next growth.
  uint8_t* mutable_data() { return data_; }
  const uint8_t* data() const { return data_; }
  template <typename T>
  T* mutable_data_as() {
    return reinterpret_cast<T*>(data_);
  }

  /// Hands over the bytes written as a Buffer of exactly size() bytes (never null) and
  /// leaves the builder empty, ready for reuse.
  Result<std::shared_ptr<Buffer>> Finish();
  /// Drops everything written (and the allocation).
  void Reset();

 private:
  Status Grow(int64_t additional);

  std::shared_ptr<MemoryTracker> tracker_;
  std::shared_ptr<Buffer> buffer_;
  uint8_t* data_ = nullptr;
  int64_t size_ = 0;
  int64_t capacity_ = 0;
};

}  // namespace sqe::columnar
