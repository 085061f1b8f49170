#pragma once
/// FileSystem: the one interface through which SQE reads and writes table files
/// (ARCHITECTURE.md, src/io). Local disk and S3 (io/s3) implement the same calls, so readers,
/// writers and maintenance never know where a table lives.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/result.h"
#include "io/file.h"
#include "io/io_stats.h"

namespace sqe::io {

/// One entry of a listing.
struct FileInfo {
  std::string path;  // as the file system names it (absolute local path, s3://bucket/key)
  int64_t size = 0;
  bool operator==(const FileInfo&) const = default;
};

class FileSystem {
 public:
  virtual ~FileSystem();

  virtual Result<std::unique_ptr<RandomAccessFile>> OpenForRead(const std::string& path) = 0;
  /// As OpenForRead when the caller already knows the size (a listing, an Iceberg
  /// manifest): remote stores then skip the request that would learn it.
  virtual Result<std::unique_ptr<RandomAccessFile>> OpenForReadWithSize(const std::string& path,
                                                                        int64_t size) {
    return OpenForRead(path);
  }
  /// `overwrite` false: AlreadyExists when the file exists (atomically where the store
  /// can: link(2) locally, If-None-Match on S3).
  virtual Result<std::unique_ptr<OutputStream>> OpenForWrite(const std::string& path,
                                                             bool overwrite) = 0;
  /// Files (not directories) whose path starts with `prefix`, recursively, sorted by path.
  virtual Result<std::vector<FileInfo>> List(const std::string& prefix) = 0;
  /// Deletes every path; a path that does not exist is not an error. The first failure
  /// is returned after trying all of them.
  virtual Status Delete(const std::vector<std::string>& paths) = 0;
  /// Renames `from` to `to` (replacing it). NotImplemented where the store cannot.
  virtual Status Rename(const std::string& from, const std::string& to) = 0;
  /// When the file was last modified, in microseconds since the epoch (the Iceberg hidden
  /// column "$file_modified_time"). NotImplemented where the store cannot tell.
  virtual Result<int64_t> LastModifiedMicros(const std::string& path) {
    return Status::NotImplemented("the last-modified time of '" + path +
                                  "' is not available from this file system");
  }
};

/// The local file system (bare paths and file:// URIs). With `stats`, every read
/// (ReadAt or ReadAtMany range), listing and delete is counted there.
std::unique_ptr<FileSystem> MakeLocalFileSystem(std::shared_ptr<IoStats> stats = nullptr);

}  // namespace sqe::io
