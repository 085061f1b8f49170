#include "io/memory_file.h"

#include <cstring>

namespace sqe::io {

MemoryFile::MemoryFile(std::string data, std::string path)
    : data_(std::move(data)), path_(std::move(path)) {}

Status MemoryFile::ReadAt(int64_t offset, int64_t length, uint8_t* out) {
  const auto size = static_cast<int64_t>(data_.size());
  if (offset < 0 || length < 0 || offset > size || length > size - offset) {
    return Status::IOError("read of " + std::to_string(length) + " bytes at offset " +
                           std::to_string(offset) + " is past the end of " + path_ + " (" +
                           std::to_string(size) + " bytes)");
  }
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
