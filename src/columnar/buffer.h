#pragma once
/// Buffer: a contiguous block of bytes backing one Arrow buffer of a Column (a validity
/// bitmap, offsets, values or data). Allocations are 64-byte aligned and padded to a
/// multiple of 64 bytes (the Arrow spec's recommendation, so IPC can send them as is and
/// SIMD loops may read whole cache lines); new bytes are zeroed.
///
/// Ownership: buffers are shared through std::shared_ptr. A slice or a wrapped external
/// region keeps whatever owns the memory alive, so slices of a Column share its buffers
/// and never copy. An allocated buffer is charged (by capacity) to its MemoryTracker,
/// if any, until it is destroyed.
///
/// Thread safety: once a buffer is shared (held as BufferPtr, a pointer to const) it is
/// immutable and may be read from any thread. Only its single owner, typically a
/// builder, may mutate it through mutable_data/Reserve/Resize before sharing it.

#include <cstdint>
#include <memory>
#include <string_view>

#include "common/memory_tracker.h"
#include "common/result.h"

namespace sqe::columnar {

class Buffer;
using BufferPtr = std::shared_ptr<const Buffer>;

class Buffer {
 public:
  static constexpr int64_t kAlignment = 64;

  /// `size` zeroed bytes (capacity rounded up to 64), charged to `tracker` when given.
  /// ResourceExhausted when the tracker refuses or the allocation fails.
  static Result<std::shared_ptr<Buffer>> Allocate(int64_t size,
                                                  std::shared_ptr<MemoryTracker> tracker = nullptr);
  /// `size` bytes left uninitialized for a caller that overwrites all of them (decoders);
  /// only the padding past `size` (up to the 64-byte boundary) is zeroed. Charged like
  /// Allocate.
  static Result<std::shared_ptr<Buffer>> AllocateUninitialized(
      int64_t size, std::shared_ptr<MemoryTracker> tracker = nullptr);
  /// A new buffer holding a copy of `data`.
  static Result<std::shared_ptr<Buffer>> CopyOf(std::string_view data,
                                                std::shared_ptr<MemoryTracker> tracker = nullptr);
  /// Bytes [offset, offset + length) of `parent`, without copying; keeps `parent` alive.
  /// Precondition: the range lies within parent's size.
  static BufferPtr Slice(BufferPtr parent, int64_t offset, int64_t length);
  /// Memory owned elsewhere (an IPC message body, a mapped file), kept alive by
  /// `owner`. Not charged to any tracker: whoever allocated it accounts for it.
  static BufferPtr Wrap(const uint8_t* data, int64_t size, std::shared_ptr<const void> owner);

  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  const uint8_t* data() const { return data_; }
  int64_t size() const { return size_; }
  /// Bytes usable without reallocating (>= size); equals size for slices and wraps.
  int64_t capacity() const { return capacity_; }
  std::string_view view() const {
    return {reinterpret_cast<const char*>(data_), static_cast<size_t>(size_)};
  }
  template <typename T>
  const T* data_as() const {
    return reinterpret_cast<const T*>(data_);
  }

  /// Whether this buffer owns its allocation (false for slices and wraps).
  bool is_owner() const { return owned_; }
  /// Writable bytes; only for the single owner of an owning buffer, before sharing.
  uint8_t* mutable_data() { return data_; }
  template <typename T>
  T* mutable_data_as() {
    return reinterpret_cast<T*>(data_);
  }
  /// Grows capacity to at least `capacity` bytes (contents kept, new bytes zeroed).
  /// Owning buffers only; the extra capacity is charged to the tracker first.
  Status Reserve(int64_t capacity);
  /// Sets size, growing capacity when needed (new bytes zeroed). Owning buffers only.
  Status Resize(int64_t size);

  /// Shrinks to `size` (<= size()) zeroing only the padding up to the next 64-byte
  /// boundary: the bytes past it keep their contents but are no longer capacity (a later
  /// Reserve or Resize beyond the boundary zeroes them first), so it is O(64) however
  /// much is dropped. For builders that over-reserved uninitialized memory.
  void Truncate(int64_t size);

  /// The tracker charged for this allocation (nullptr when untracked or not owning).
  const std::shared_ptr<MemoryTracker>& tracker() const { return tracker_; }

  /// Byte-wise equality of the first size() bytes.
  bool Equals(const Buffer& other) const;

 private:
  Buffer() = default;

  uint8_t* data_ = nullptr;
  int64_t size_ = 0;
  int64_t capacity_ = 0;
  int64_t allocated_ = 0;  // bytes allocated and charged (>= capacity_ for owners)
  bool owned_ = false;
  std::shared_ptr<MemoryTracker> tracker_;
  std::shared_ptr<const void> owner_;  // what keeps a slice's or wrap's memory alive
};

}  // namespace sqe::columnar
