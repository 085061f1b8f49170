#pragma once
/// Where a file lives: a local path (bare or file://) or an object in an S3 bucket
/// (s3://, s3a://, s3n://, all the same store). Parsing is strict: a URI with another
/// scheme, an S3 URI without a bucket, or an empty path is InvalidArgument naming it.

#include <string>
#include <string_view>

#include "common/result.h"

namespace sqe::io {

struct StorageUri {
  enum class Kind { kLocal, kS3 };
  Kind kind = Kind::kLocal;
  std::string path;    // local: the file system path
  std::string bucket;  // s3
  std::string key;     // s3: without the leading '/'
  bool operator==(const StorageUri&) const = default;
};

Result<StorageUri> ParseStorageUri(std::string_view uri);

}  // namespace sqe::io
