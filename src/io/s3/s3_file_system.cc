#include "io/s3/s3_file_system.h"

#include <algorithm>
#include <map>

#include "io/s3/s3_file.h"
#include "io/storage_uri.h"

namespace sqe::io::s3 {
namespace {

Result<StorageUri> ParseS3Uri(const std::string& uri) {
  SQE_ASSIGN_OR_RETURN(StorageUri parsed, ParseStorageUri(uri));
  if (parsed.kind != StorageUri::Kind::kS3) {
    return Status::InvalidArgument("'" + uri + "' is not an s3:// URI (the S3 file system " +
                                   "reads s3://bucket/key, s3a:// and s3n://)");
  }
  return parsed;
}

class S3FileSystem final : public FileSystem {
 public:
  S3FileSystem(std::shared_ptr<S3Client> client, std::shared_ptr<IoStats> stats)
      : client_(std::move(client)), stats_(std::move(stats)) {}

  Result<std::unique_ptr<RandomAccessFile>> OpenForRead(const std::string& path) override {
    SQE_ASSIGN_OR_RETURN(StorageUri uri, ParseS3Uri(path));
    if (uri.key.empty())
      return Status::InvalidArgument("'" + path + "' names a bucket, not a file");
    return std::unique_ptr<RandomAccessFile>(
        std::make_unique<S3File>(client_, uri.bucket, uri.key, std::nullopt, stats_));
  }

  Result<std::unique_ptr<RandomAccessFile>> OpenForReadWithSize(const std::string& path,
                                                                int64_t size) override {
    SQE_ASSIGN_OR_RETURN(StorageUri uri, ParseS3Uri(path));
    if (uri.key.empty())
      return Status::InvalidArgument("'" + path + "' names a bucket, not a file");
    if (size < 0) return Status::InvalidArgument("negative size for " + path);
    return std::unique_ptr<RandomAccessFile>(
        std::make_unique<S3File>(client_, uri.bucket, uri.key, size, stats_));
  }

  Result<std::unique_ptr<OutputStream>> OpenForWrite(const std::string& path,
                                                     bool overwrite) override {
    SQE_ASSIGN_OR_RETURN(StorageUri uri, ParseS3Uri(path));
    if (uri.key.empty() || uri.key.back() == '/') {
      return Status::InvalidArgument("'" + path + "' is not a file name (it ends with '/')");
    }
    if (!overwrite) {
      // Early, clear refusal; a single-PUT file is also created with If-None-Match, so a
      // concurrent writer still loses atomically on stores that honor it.
      auto size = client_->HeadObject(uri.bucket, uri.key, stats_.get());
      if (size.ok()) return Status::AlreadyExists(path + " already exists");
      if (size.status().code() != StatusCode::kNotFound) return size.status();
    }
    return std::unique_ptr<OutputStream>(
        std::make_unique<S3OutputStream>(client_, uri.bucket, uri.key, overwrite, stats_));
  }

  Result<int64_t> LastModifiedMicros(const std::string& path) override {
    SQE_ASSIGN_OR_RETURN(StorageUri uri, ParseS3Uri(path));
    return client_->LastModifiedMicros(uri.bucket, uri.key, stats_.get());
  }

  Result<std::vector<FileInfo>> List(const std::string& prefix) override {
    SQE_ASSIGN_OR_RETURN(StorageUri uri, ParseS3Uri(prefix));
    std::vector<FileInfo> out;
    std::string token;
    do {
      SQE_ASSIGN_OR_RETURN(ListObjectsPage page,
                           client_->ListObjectsV2(uri.bucket, uri.key, token, 1000, stats_.get()));
      for (const S3ObjectEntry& object : page.objects) {
        if (object.key.empty() || object.key.back() == '/') continue;  // folder markers
        out.push_back({S3Uri(uri.bucket, object.key), object.size});
      }
      if (page.is_truncated && page.next_continuation_token.empty()) {
        return Status::IOError("S3 listing of " + prefix +
                               " is truncated but has no continuation token");
      }
      token = page.is_truncated ? page.next_continuation_token : "";
    } while (!token.empty());
    std::sort(out.begin(), out.end(),
              [](const FileInfo& a, const FileInfo& b) { return a.path < b.path; });
    return out;
  }

  Status Delete(const std::vector<std::string>& paths) override {
    std::map<std::string, std::vector<std::string>> keys_by_bucket;
    for (const std::string& path : paths) {
      SQE_ASSIGN_OR_RETURN(StorageUri uri, ParseS3Uri(path));
      if (uri.key.empty())
        return Status::InvalidArgument("'" + path + "' names a bucket, not a file");
      keys_by_bucket[uri.bucket].push_back(uri.key);
    }
    Status first;
    for (const auto& [bucket, keys] : keys_by_bucket) {
      for (size_t begin = 0; begin < keys.size(); begin += 1000) {
        std::vector<std::string> batch(
            keys.begin() + static_cast<std::ptrdiff_t>(begin),
            keys.begin() + static_cast<std::ptrdiff_t>(std::min(keys.size(), begin + 1000)));
        auto errors = client_->DeleteObjects(bucket, batch, stats_.get());
        if (!errors.ok()) {
          if (first.ok()) first = errors.status();
          continue;
        }
        if (!errors->empty() && first.ok()) {
          const DeleteError& e = errors->front();
          first = Status::IOError("S3 could not delete " + std::to_string(errors->size()) + " of " +
                                  std::to_string(batch.size()) + " keys, first " +
                                  S3Uri(bucket, e.key) + ": " + e.code + ": " + e.message);
        }
      }
    }
    return first;
  }

  Status Rename(const std::string& from, const std::string& to) override {
    return Status::NotImplemented("S3 has no rename (" + from + " -> " + to +
                                  "): write the file at its final key instead");
  }

 private:
  std::shared_ptr<S3Client> client_;
  std::shared_ptr<IoStats> stats_;
};

}  // namespace

std::unique_ptr<FileSystem> MakeS3FileSystem(std::shared_ptr<S3Client> client,
                                             std::shared_ptr<IoStats> stats) {
  return std::make_unique<S3FileSystem>(std::move(client), std::move(stats));
}

}  // namespace sqe::io::s3
