#include "columnar/buffer.h"

#include <cassert>
#include <cstring>
#include <new>

namespace sqe::columnar {
namespace {

// What an empty buffer points at: aligned, readable, never written.
alignas(Buffer::kAlignment) const uint8_t kEmptyBytes[Buffer::kAlignment] = {};

// Largest capacity we attempt; beyond it rounding would overflow.
constexpr int64_t kMaxCapacity = int64_t{1} << 52;

int64_t RoundUpToAlignment(int64_t n) {
  return (n + Buffer::kAlignment - 1) & ~(Buffer::kAlignment - 1);
}

uint8_t* AllocateAligned(int64_t bytes) {
  return static_cast<uint8_t*>(::operator new(static_cast<size_t>(bytes),
                                              std::align_val_t(Buffer::kAlignment), std::nothrow));
}

void FreeAligned(uint8_t* p) { ::operator delete(p, std::align_val_t(Buffer::kAlignment)); }

}  // namespace

Result<std::shared_ptr<Buffer>> Buffer::Allocate(int64_t size,
                                                 std::shared_ptr<MemoryTracker> tracker) {
  if (size < 0) return Status::InvalidArgument("buffer size must be >= 0");
  std::shared_ptr<Buffer> buffer(new Buffer());
  buffer->owned_ = true;
  buffer->tracker_ = std::move(tracker);
  buffer->data_ = const_cast<uint8_t*>(kEmptyBytes);
  SQE_RETURN_NOT_OK(buffer->Resize(size));
  return buffer;
}

Result<std::shared_ptr<Buffer>> Buffer::AllocateUninitialized(
    int64_t size, std::shared_ptr<MemoryTracker> tracker) {
  if (size < 0) return Status::InvalidArgument("buffer size must be >= 0");
  if (size > kMaxCapacity) {
    return Status::ResourceExhausted("buffer of " + std::to_string(size) +
                                     " bytes exceeds the largest supported allocation");
  }
  std::shared_ptr<Buffer> buffer(new Buffer());
  buffer->owned_ = true;
  buffer->tracker_ = std::move(tracker);
  buffer->data_ = const_cast<uint8_t*>(kEmptyBytes);
  if (size == 0) return buffer;
  const int64_t capacity = RoundUpToAlignment(size);
  if (buffer->tracker_ != nullptr) SQE_RETURN_NOT_OK(buffer->tracker_->TryReserve(capacity));
  uint8_t* fresh = AllocateAligned(capacity);
  if (fresh == nullptr) {
    if (buffer->tracker_ != nullptr) buffer->tracker_->Release(capacity);
    return Status::ResourceExhausted("out of memory allocating a buffer of " +
                                     std::to_string(capacity) + " bytes");
  }
  std::memset(fresh + size, 0, static_cast<size_t>(capacity - size));
  buffer->data_ = fresh;
  buffer->size_ = size;
  buffer->capacity_ = capacity;
  buffer->allocated_ = capacity;
  return buffer;
}

Result<std::shared_ptr<Buffer>> Buffer::CopyOf(std::string_view data,
                                               std::shared_ptr<MemoryTracker> tracker) {
  SQE_ASSIGN_OR_RETURN(auto buffer,
                       Allocate(static_cast<int64_t>(data.size()), std::move(tracker)));
  if (!data.empty()) std::memcpy(buffer->mutable_data(), data.data(), data.size());
  return buffer;
}

BufferPtr Buffer::Slice(BufferPtr parent, int64_t offset, int64_t length) {
  assert(offset >= 0 && length >= 0 && offset + length <= parent->size());
  std::shared_ptr<Buffer> slice(new Buffer());
  slice->data_ = const_cast<uint8_t*>(parent->data()) + offset;
  slice->size_ = length;
  slice->capacity_ = length;
  slice->owner_ = std::move(parent);
  return slice;
}

BufferPtr Buffer::Wrap(const uint8_t* data, int64_t size, std::shared_ptr<const void> owner) {
  std::shared_ptr<Buffer> wrapped(new Buffer());
  wrapped->data_ = size > 0 ? const_cast<uint8_t*>(data) : const_cast<uint8_t*>(kEmptyBytes);
  wrapped->size_ = size;
  wrapped->capacity_ = size;
  wrapped->owner_ = std::move(owner);
  return wrapped;
}

Buffer::~Buffer() {
  if (owned_ && allocated_ > 0) {
    FreeAligned(data_);
    if (tracker_ != nullptr) tracker_->Release(allocated_);
  }
}

Status Buffer::Reserve(int64_t capacity) {
  assert(owned_ && "Buffer::Reserve on a slice or wrapped buffer");
  if (capacity <= capacity_) return Status::OK();
  if (capacity > kMaxCapacity) {
    return Status::ResourceExhausted("buffer of " + std::to_string(capacity) +
                                     " bytes exceeds the largest supported allocation");
  }
  const int64_t new_capacity = RoundUpToAlignment(capacity);
  if (new_capacity <= allocated_) {
    // Truncate left allocated bytes past the capacity: zero them and take them back.
    std::memset(data_ + capacity_, 0, static_cast<size_t>(new_capacity - capacity_));
    capacity_ = new_capacity;
    return Status::OK();
  }
  const int64_t extra = new_capacity - allocated_;
  if (tracker_ != nullptr) SQE_RETURN_NOT_OK(tracker_->TryReserve(extra));
  uint8_t* fresh = AllocateAligned(new_capacity);
  if (fresh == nullptr) {
    if (tracker_ != nullptr) tracker_->Release(extra);
    return Status::ResourceExhausted("out of memory allocating a buffer of " +
                                     std::to_string(new_capacity) + " bytes");
  }
  if (size_ > 0) std::memcpy(fresh, data_, static_cast<size_t>(size_));
  std::memset(fresh + size_, 0, static_cast<size_t>(new_capacity - size_));
  if (allocated_ > 0) FreeAligned(data_);
  data_ = fresh;
  capacity_ = new_capacity;
  allocated_ = new_capacity;
  return Status::OK();
}

Status Buffer::Resize(int64_t size) {
  assert(owned_ && "Buffer::Resize on a slice or wrapped buffer");
  if (size < 0) return Status::InvalidArgument("buffer size must be >= 0");
  SQE_RETURN_NOT_OK(Reserve(size));
  if (size < size_ && capacity_ > 0) {
    // Keep the bytes past size zero, so padding never leaks stale data into IPC output.
    std::memset(data_ + size, 0, static_cast<size_t>(size_ - size));
  }
  size_ = size;
  return Status::OK();
}

void Buffer::Truncate(int64_t size) {
  assert(owned_ && size >= 0 && size <= size_);
  if (capacity_ == 0) return;
  const int64_t boundary = RoundUpToAlignment(size);
  std::memset(data_ + size, 0, static_cast<size_t>(boundary - size));
  size_ = size;
  capacity_ = boundary;
}

bool Buffer::Equals(const Buffer& other) const {
  return size_ == other.size_ &&
         (size_ == 0 || std::memcmp(data_, other.data_, static_cast<size_t>(size_)) == 0);
}

}  // namespace sqe::columnar
