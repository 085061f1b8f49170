#pragma once
/// In-memory files: a RandomAccessFile over a byte string (tests, fuzzing, data already
/// in memory) that can count its reads, and an OutputStream collecting bytes in memory.

#include <atomic>
#include <memory>
#include <string>

#include "io/file.h"

namespace sqe::io {

/// A read-only file over `data`. Counts ReadAt calls and bytes read (tests assert
/// coalescing and pruning through these).
class MemoryFile final : public RandomAccessFile {
 public:
  explicit MemoryFile(std::string data, std::string path = "memory://file");

  const std::string& path() const override { return path_; }
  Result<int64_t> Size() override { return static_cast<int64_t>(data_.size()); }
  Status ReadAt(int64_t offset, int64_t length, uint8_t* out) override;

  int64_t read_calls() const { return read_calls_.load(); }
  int64_t bytes_read() const { return bytes_read_.load(); }
  const std::string& data() const { return data_; }

 private:
  std::string data_;
  std::string path_;
  std::atomic<int64_t> read_calls_{0};
  std::atomic<int64_t> bytes_read_{0};
};

/// Collects written bytes; Close marks it closed, Abort clears it.
class MemoryOutputStream final : public OutputStream {
 public:
  explicit MemoryOutputStream(std::string path = "memory://out") : path_(std::move(path)) {}

  const std::string& path() const override { return path_; }
  Status Write(const uint8_t* data, int64_t size) override;
  using OutputStream::Write;
  int64_t Tell() const override { return static_cast<int64_t>(data_.size()); }
  Status Close() override;
  void Abort() override;

  bool closed() const { return closed_; }
  const std::string& data() const { return data_; }

 private:
  std::string path_;
  std::string data_;
  bool closed_ = false;
};

}  // namespace sqe::io
