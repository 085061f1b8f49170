#include "io/s3/storage_file_systems.h"

#include "io/s3/s3_file_system.h"
#include "io/storage_uri.h"

namespace sqe::io::s3 {

StorageFileSystems::StorageFileSystems(Result<S3Options> s3_options,
                                       std::shared_ptr<IoStats> process_stats)
    : s3_options_(std::move(s3_options)), process_stats_(std::move(process_stats)) {}

Result<std::shared_ptr<S3Client>> StorageFileSystems::SharedS3Client() {
  if (!s3_options_.ok()) return s3_options_.status();
  std::lock_guard lock(mutex_);
  if (!client_) {
    SQE_ASSIGN_OR_RETURN(client_, S3Client::Make(*s3_options_, process_stats_));
  }
  return client_;
}

Result<std::unique_ptr<FileSystem>> StorageFileSystems::ForUri(const std::string& uri,
                                                               std::shared_ptr<IoStats> stats) {
  SQE_ASSIGN_OR_RETURN(StorageUri parsed, ParseStorageUri(uri));
  if (parsed.kind == StorageUri::Kind::kLocal) return MakeLocalFileSystem(std::move(stats));
  SQE_ASSIGN_OR_RETURN(auto client, SharedS3Client());
  return MakeS3FileSystem(std::move(client), std::move(stats));
}

Result<std::unique_ptr<FileSystem>> StorageFileSystems::ForS3WithCredentials(
    const net::AwsCredentials& credentials, std::shared_ptr<IoStats> stats) {
  if (!s3_options_.ok()) return s3_options_.status();
  std::shared_ptr<S3Client> client;
  {
    std::lock_guard lock(mutex_);
    auto it = vended_clients_.find(credentials.access_key_id);
    // A refreshed token for the same key id replaces the client.
    if (it != vended_clients_.end() &&
        it->second->options().credentials.session_token == credentials.session_token &&
        it->second->options().credentials.secret_access_key == credentials.secret_access_key) {
      client = it->second;
    } else {
      S3Options options = *s3_options_;
      options.credentials = credentials;
      SQE_ASSIGN_OR_RETURN(client, S3Client::Make(std::move(options), process_stats_));
      vended_clients_[credentials.access_key_id] = client;
    }
  }
  return MakeS3FileSystem(std::move(client), std::move(stats));
}

}  // namespace sqe::io::s3
