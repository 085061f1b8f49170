#include "io/file.h"

namespace sqe::io {

RandomAccessFile::~RandomAccessFile() = default;
OutputStream::~OutputStream() = default;

Status RandomAccessFile::CheckReadRange(const std::string& path, int64_t offset, int64_t length,
                                        int64_t size) {
  if (offset < 0 || length < 0 || offset > size || length > size - offset) {
    return Status::IOError("read of " + std::to_string(length) + " bytes at offset " +
                           std::to_string(offset) + " is past the end of " + path + " (" +
                           std::to_string(size) + " bytes)");
  }
  return Status::OK();
}

Status RandomAccessFile::ReadAtMany(const std::vector<ByteRange>& ranges,
                                    const std::vector<uint8_t*>& outs) {
  if (ranges.size() != outs.size()) {
    return Status::Internal("ReadAtMany: " + std::to_string(ranges.size()) + " ranges but " +
                            std::to_string(outs.size()) + " buffers for " + path());
  }
  for (size_t i = 0; i < ranges.size(); ++i) {
    SQE_RETURN_NOT_OK(ReadAt(ranges[i].offset, ranges[i].length, outs[i]));
  }
  return Status::OK();
}

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
