#pragma once
/// S3Client: the S3 REST operations SQE uses (ranged GET, HEAD, PUT with If-None-Match,
/// multipart upload, ListObjectsV2, DeleteObjects), signed with SigV4 and sent through
/// the shared libcurl client with path-style or virtual-host addressing. Every request is
/// retried with backoff and jitter on throttling, 5xx and broken connections
/// (S3Options::retry), counted in IoStats, and every failure is a Status naming the
/// operation, the s3:// URI (so the bucket), the HTTP status and S3's error code; no
/// credential ever appears in one.
///
/// Thread safety: every method may be called concurrently.

#include <cstdint>
#include <memory>
#include <semaphore>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/result.h"
#include "common/task_scheduler.h"
#include "io/io_stats.h"
#include "io/s3/s3_options.h"
#include "io/s3/s3_xml.h"
#include "net/http_client.h"

namespace sqe::io::s3 {

class S3Client {
 public:
  /// InvalidArgument for a bad endpoint or option (see ParseS3Endpoint, ValidateS3Options).
  /// `stats` (may be null) counts every request of this client, e.g. process-wide.
  static Result<std::shared_ptr<S3Client>> Make(S3Options options,
                                                std::shared_ptr<IoStats> stats = nullptr);
  ~S3Client();

  const S3Options& options() const { return options_; }
  /// Runs the concurrent pieces of large reads (concurrent_requests_per_file each).
  TaskScheduler* io_scheduler() { return io_scheduler_.get(); }
  /// Held by a file while it has requests in flight (max_concurrent_files).
  std::counting_semaphore<1024>& file_slots() { return file_slots_; }

  // Every operation counts into the client's stats and into `stats` when not null.

  /// Reads exactly `length` bytes at `offset` into `out`.
  Status GetRange(const std::string& bucket, const std::string& key, int64_t offset, int64_t length,
                  uint8_t* out, IoStats* stats);
  /// The last `length` bytes of an object (all of it when smaller) and its size, in one
  /// request (a suffix range).
  struct Tail {
    int64_t object_size = 0;
    std::string bytes;
  };
  Result<Tail> GetTail(const std::string& bucket, const std::string& key, int64_t length,
                       IoStats* stats);
  /// Object size; NotFound when there is no such key.
  Result<int64_t> HeadObject(const std::string& bucket, const std::string& key, IoStats* stats);
  /// The object's Last-Modified time (HEAD), microseconds since the epoch; NotFound when
  /// there is no such key.
  Result<int64_t> LastModifiedMicros(const std::string& bucket, const std::string& key,
                                     IoStats* stats);

  /// One-request upload. `if_none_match`: AlreadyExists when the key exists.
  Status PutObject(const std::string& bucket, const std::string& key, std::string_view body,
                   bool if_none_match, IoStats* stats);
  Result<std::string> CreateMultipartUpload(const std::string& bucket, const std::string& key,
                                            IoStats* stats);
  /// Uploads one part; returns its ETag.
  Result<std::string> UploadPart(const std::string& bucket, const std::string& key,
                                 const std::string& upload_id, int part_number,
                                 std::string_view body, IoStats* stats);
  Status CompleteMultipartUpload(const std::string& bucket, const std::string& key,
                                 const std::string& upload_id,
                                 const std::vector<CompletedPart>& parts, bool if_none_match,
                                 IoStats* stats);
  Status AbortMultipartUpload(const std::string& bucket, const std::string& key,
                              const std::string& upload_id, IoStats* stats);

  /// One page of keys starting with `prefix` (after `continuation_token` when not empty).
  Result<ListObjectsPage> ListObjectsV2(const std::string& bucket, const std::string& prefix,
                                        const std::string& continuation_token, int max_keys,
                                        IoStats* stats);
  /// Deletes up to 1000 keys in one request; returns the keys S3 could not delete.
  Result<std::vector<DeleteError>> DeleteObjects(const std::string& bucket,
                                                 const std::vector<std::string>& keys,
                                                 IoStats* stats);

 private:
  struct Call;
  S3Client(S3Options options, S3Endpoint endpoint, std::shared_ptr<net::HttpClient> http,
           std::shared_ptr<IoStats> stats);
  /// Sends `call` with retries; the 2xx response, or the failure as a Status.
  Result<net::HttpResponse> Execute(const Call& call, IoStats* stats);
  /// HEAD of the object: {"HEAD s3://...", the value of response header `header`};
  /// IOError naming `shown` when the response lacks it.
  Result<std::pair<std::string, std::string>> HeadHeader(const std::string& bucket,
                                                         const std::string& key, const char* header,
                                                         const char* shown, IoStats* stats);
  std::string UrlFor(const Call& call, std::string* host, std::string* path) const;

  const S3Options options_;
  const S3Endpoint endpoint_;
  std::shared_ptr<net::HttpClient> http_;
  std::shared_ptr<IoStats> stats_;
  std::unique_ptr<TaskScheduler> io_scheduler_;
  std::counting_semaphore<1024> file_slots_;
};

/// "s3://bucket/key".
std::string S3Uri(const std::string& bucket, const std::string& key);

/// An HTTP date ("Sun, 06 Nov 1994 08:49:37 GMT", RFC 9110's IMF-fixdate) as microseconds
/// since the epoch; InvalidArgument for any other form.
Result<int64_t> ParseHttpDate(std::string_view text);

}  // namespace sqe::io::s3
