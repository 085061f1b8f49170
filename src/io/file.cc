#include "io/file.h"

namespace sqe::io {

RandomAccessFile::~RandomAccessFile() = default;
OutputStream::~OutputStream() = default;

Result<columnar::BufferPtr> RandomAccessFile::ReadBuffer(int64_t offset, int64_t length,
                                                         std::shared_ptr<MemoryTracker> tracker) {
  if (offset < 0 || length < 0) {
    return Status::InvalidArgument("invalid read range at offset " + std::to_string(offset) +
                                   " length " + std::to_string(length) + " of " + path());
  }
  SQE_ASSIGN_OR_RETURN(auto buffer, columnar::Buffer::Allocate(length, std::move(tracker)));
  SQE_RETURN_NOT_OK(ReadAt(offset, length, buffer->mutable_data()));
  return columnar::BufferPtr(std::move(buffer));
}

}  // namespace sqe::io
