#include "io/memory_file.h"

#include <cstring>

namespace sqe::io {

MemoryFile::MemoryFile(std::string data, std::string path)
    : data_(std::move(data)), path_(std::move(path)) {}

Status MemoryFile::ReadAt(int64_t offset, int64_t length, uint8_t* out) {
  SQE_RETURN_NOT_OK(CheckReadRange(path_, offset, length, static_cast<int64_t>(data_.size())));
  read_calls_.fetch_add(1);
  bytes_read_.fetch_add(length);
  if (length > 0) std::memcpy(out, data_.data() + offset, static_cast<size_t>(length));
  return Status::OK();
}

Status MemoryOutputStream::Write(const uint8_t* data, int64_t size) {
  if (closed_) return Status::IOError("write to closed stream " + path_);
  data_.append(reinterpret_cast<const char*>(data), static_cast<size_t>(size));
  return Status::OK();
}

Status MemoryOutputStream::Close() {
  closed_ = true;
  return Status::OK();
}

void MemoryOutputStream::Abort() {
  data_.clear();
  closed_ = true;
}

}  // namespace sqe::io
