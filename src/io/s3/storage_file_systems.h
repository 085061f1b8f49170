#pragma once
/// StorageFileSystems: picks the FileSystem for a URI from the [storage] configuration:
/// local disk for bare paths and file://, S3 for s3:// s3a:// s3n://. The S3 client (its
/// connection pool and request slots) is made on first use and shared, so a bad S3
/// setting does not stop local tables from working; it is reported, with its fix, on the
/// first S3 access. Tables whose catalog vends credentials get a client of their own.
///
/// Thread safety: every method may be called concurrently.

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "io/file_system.h"
#include "io/io_stats.h"
#include "io/s3/s3_client.h"
#include "io/s3/s3_options.h"

namespace sqe::io::s3 {

class StorageFileSystems {
 public:
  /// `s3_options` may be an error (e.g. an http:// endpoint without s3_allow_http);
  /// it is returned by every S3 access.
  explicit StorageFileSystems(Result<S3Options> s3_options,
                              std::shared_ptr<IoStats> process_stats = nullptr);

  /// The file system for `uri`, counting into `stats` (per query) and the process stats.
  Result<std::unique_ptr<FileSystem>> ForUri(const std::string& uri,
                                             std::shared_ptr<IoStats> stats = nullptr);
  /// The S3 file system with credentials a catalog vended for one table.
  Result<std::unique_ptr<FileSystem>> ForS3WithCredentials(
      const net::AwsCredentials& credentials, std::shared_ptr<IoStats> stats = nullptr);
  /// The shared S3 client (made on first call).
  Result<std::shared_ptr<S3Client>> SharedS3Client();

 private:
  Result<S3Options> s3_options_;
  std::shared_ptr<IoStats> process_stats_;
  std::mutex mutex_;
  std::shared_ptr<S3Client> client_;
  std::map<std::string, std::shared_ptr<S3Client>> vended_clients_;  // by access key id
};

}  // namespace sqe::io::s3
