#pragma once
/// S3FileSystem: FileSystem over one S3Client (s3://, s3a://, s3n:// URIs): OpenForRead
/// and OpenForWrite make S3File / S3OutputStream, List pages through ListObjectsV2,
/// Delete batches DeleteObjects by 1000 keys. S3 has no rename: Rename is NotImplemented
/// (Iceberg never renames; writers put files at their final key).
///
/// A file system is cheap: make one per query with that query's IoStats over the
/// process's shared client (connection pool, request slots).

#include <memory>

#include "io/file_system.h"
#include "io/io_stats.h"
#include "io/s3/s3_client.h"

namespace sqe::io::s3 {

std::unique_ptr<FileSystem> MakeS3FileSystem(std::shared_ptr<S3Client> client,
                                             std::shared_ptr<IoStats> stats = nullptr);

}  // namespace sqe::io::s3
