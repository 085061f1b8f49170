#pragma once
/// The file interfaces every storage backend implements (ARCHITECTURE.md, src/io):
/// RandomAccessFile for positional reads (Parquet footers, column chunks, manifests) and
/// OutputStream for sequential writes that become visible only when closed. Local disk,
/// memory (tests) and, later, S3 sit behind these two classes; readers never know which.
///
/// Thread safety: RandomAccessFile::ReadAt and Size may be called concurrently (row
/// groups are decoded in parallel). An OutputStream has a single writer.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "columnar/buffer.h"
#include "common/memory_tracker.h"
#include "common/result.h"

namespace sqe::io {

/// A byte range of a file.
struct ByteRange {
  int64_t offset = 0;
  int64_t length = 0;
  int64_t end() const { return offset + length; }
  bool operator==(const ByteRange&) const = default;
};

/// A file opened for positional reads.
class RandomAccessFile {
 public:
  virtual ~RandomAccessFile();

  /// The path or URI the file was opened with (for error messages).
  virtual const std::string& path() const = 0;
  /// Size in bytes.
  virtual Result<int64_t> Size() = 0;
  /// Reads exactly `length` bytes at `offset` into `out`. A range past the end of the
  /// file or a failed read is IOError naming the path and the range.
  virtual Status ReadAt(int64_t offset, int64_t length, uint8_t* out) = 0;
  /// Reads range i of `ranges` into outs[i] (exactly ranges[i].length bytes each). The
  /// default reads them one after another; stores where a request has latency (S3)
  /// issue them concurrently. Errors as ReadAt.
  virtual Status ReadAtMany(const std::vector<ByteRange>& ranges,
                            const std::vector<uint8_t*>& outs);

  /// Reads a range into a new (64-byte aligned) buffer charged to `tracker`.
  Result<columnar::BufferPtr> ReadBuffer(int64_t offset, int64_t length,
                                         std::shared_ptr<MemoryTracker> tracker = nullptr);

 protected:
  /// For implementations of ReadAt: IOError naming the path and the range unless
  /// [offset, offset + length) lies within a file of `size` bytes.
  static Status CheckReadRange(const std::string& path, int64_t offset, int64_t length,
                               int64_t size);
};

/// A file being written. Bytes become visible at path() only when Close() succeeds;
/// a stream destroyed or aborted before that leaves nothing behind.
class OutputStream {
 public:
  virtual ~OutputStream();

  virtual const std::string& path() const = 0;
  virtual Status Write(const uint8_t* data, int64_t size) = 0;
  Status Write(std::string_view data) {
    return Write(reinterpret_cast<const uint8_t*>(data.data()), static_cast<int64_t>(data.size()));
  }
  /// Bytes written so far.
  virtual int64_t Tell() const = 0;
  /// Makes the file durable and visible. Further writes are errors.
  virtual Status Close() = 0;
  /// Discards what was written; idempotent, never fails.
  virtual void Abort() = 0;
};

}  // namespace sqe::io
