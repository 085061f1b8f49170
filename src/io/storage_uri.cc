#include "io/storage_uri.h"

namespace sqe::io {

Result<StorageUri> ParseStorageUri(std::string_view uri) {
  if (uri.empty()) return Status::InvalidArgument("empty file location");
  StorageUri out;
  // Hadoop's form of a local URI, "file:/path" (what Iceberg Java writes for a local
  // warehouse), is the local path "/path".
  if (uri.starts_with("file:/") && !uri.starts_with("file://")) {
    out.path = std::string(uri.substr(5));
    return out;
  }
  size_t scheme_end = uri.find("://");
  if (scheme_end == std::string_view::npos) {
    out.path = std::string(uri);
    return out;
  }
  std::string_view scheme = uri.substr(0, scheme_end);
  std::string_view rest = uri.substr(scheme_end + 3);
  if (scheme == "file") {
    if (rest.empty())
      return Status::InvalidArgument("file location '" + std::string(uri) + "' has no path");
    out.path = std::string(rest);
    return out;
  }
  if (scheme == "s3" || scheme == "s3a" || scheme == "s3n") {
    size_t slash = rest.find('/');
    out.kind = StorageUri::Kind::kS3;
    out.bucket = std::string(rest.substr(0, slash));
    if (out.bucket.empty()) {
      return Status::InvalidArgument("S3 location '" + std::string(uri) +
                                     "' has no bucket; expected s3://bucket/key");
    }
    if (slash != std::string_view::npos) out.key = std::string(rest.substr(slash + 1));
    return out;
  }
  return Status::InvalidArgument("unsupported storage scheme '" + std::string(scheme) + "' in '" +
                                 std::string(uri) +
                                 "'; use a local path, file://, s3://, s3a:// or s3n://");
}

}  // namespace sqe::io
