#include "columnar/bitmap_builder.h"

namespace sqe::columnar {

Status BitmapBuilder::AppendN(int64_t n, bool value) {
  if (n <= 0) return Status::OK();
  SQE_RETURN_NOT_OK(bytes_.AppendZeros(BytesForBits(length_ + n) - bytes_.size()));
  if (value) SetBitsTo(bytes_.mutable_data(), length_, n, true);
  length_ += n;
  return Status::OK();
}

Status BitmapBuilder::AppendBits(const uint8_t* bits, int64_t offset, int64_t length) {
  if (length <= 0) return Status::OK();
  SQE_RETURN_NOT_OK(bytes_.AppendZeros(BytesForBits(length_ + length) - bytes_.size()));
  CopyBits(bits, offset, length, bytes_.mutable_data(), length_);
  length_ += length;
  return Status::OK();
}

Result<std::shared_ptr<Buffer>> BitmapBuilder::Finish() {
  length_ = 0;
  return bytes_.Finish();
}

Status ValidityBuilder::AppendNullN(int64_t n) {
  if (n <= 0) return Status::OK();
  if (!materialized_) SQE_RETURN_NOT_OK(Materialize());
  SQE_RETURN_NOT_OK(bitmap_.AppendN(n, false));
  length_ += n;
  null_count_ += n;
  return Status::OK();
}

Status ValidityBuilder::Materialize() {
  // Everything appended so far was valid.
  SQE_RETURN_NOT_OK(bitmap_.Reserve(length_ < 64 ? 64 : length_ * 2));
  SQE_RETURN_NOT_OK(bitmap_.AppendN(length_, true));
  materialized_ = true;
  return Status::OK();
}

Result<std::shared_ptr<Buffer>> ValidityBuilder::Finish() {
  std::shared_ptr<Buffer> out;
  if (materialized_) {
    SQE_ASSIGN_OR_RETURN(out, bitmap_.Finish());
  }
  Reset();
  return out;
}

void ValidityBuilder::Reset() {
  bitmap_.Reset();
  materialized_ = false;
  length_ = 0;
  null_count_ = 0;
}

}  // namespace sqe::columnar
