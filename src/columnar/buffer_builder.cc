#include "columnar/buffer_builder.h"

#include <algorithm>

namespace sqe::columnar {

Status BufferBuilder::Grow(int64_t additional) {
  if (additional < 0) return Status::InvalidArgument("negative buffer growth");
  const int64_t needed = size_ + additional;
  const int64_t target = std::max<int64_t>({needed, capacity_ * 2, Buffer::kAlignment});
  if (buffer_ == nullptr) {
    SQE_ASSIGN_OR_RETURN(buffer_, Buffer::Allocate(0, tracker_));
  }
  // The buffer's size tracks ours so Reserve copies exactly the bytes written.
  SQE_RETURN_NOT_OK(buffer_->Resize(size_));
  SQE_RETURN_NOT_OK(buffer_->Reserve(target));
  data_ = buffer_->mutable_data();
  capacity_ = buffer_->capacity();
  return Status::OK();
}

Result<std::shared_ptr<Buffer>> BufferBuilder::Finish() {
  std::shared_ptr<Buffer> out = std::move(buffer_);
  if (out == nullptr) {
    SQE_ASSIGN_OR_RETURN(out, Buffer::Allocate(0, tracker_));
  } else {
    SQE_RETURN_NOT_OK(out->Resize(size_));
  }
  Reset();
  return out;
}

void BufferBuilder::Reset() {
  buffer_.reset();
  data_ = nullptr;
  size_ = 0;
  capacity_ = 0;
}

}  // namespace sqe::columnar
