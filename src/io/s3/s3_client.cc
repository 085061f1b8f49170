#include "io/s3/s3_client.h"

#include <openssl/evp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <thread>

#include "columnar/civil_time.h"
#include "net/query_string.h"
#include "net/sigv4.h"

namespace sqe::io::s3 {

std::string S3Uri(const std::string& bucket, const std::string& key) {
  return "s3://" + bucket + "/" + key;
}

namespace {

// Base64 of the MD5 of `body` (Content-MD5, which DeleteObjects requires).
std::string ContentMd5(std::string_view body) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(body.data(), body.size(), digest, &length, EVP_md5(), nullptr);
  std::string out(4 * ((length + 2) / 3) + 1, '\0');
  int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), digest,
                          static_cast<int>(length));
  out.resize(static_cast<size_t>(n));
  return out;
}

std::mt19937_64& Rng() {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  return rng;
}

// The error code S3 would put in the body, for responses without one (HEAD).
std::string CodeForStatus(int status) {
  switch (status) {
    case 400:
      return "BadRequest";
    case 403:
      return "Forbidden";
    case 404:
      return "NotFound";
    case 412:
      return "PreconditionFailed";
    case 416:
      return "InvalidRange";
    case 429:
      return "TooManyRequests";
    case 500:
      return "InternalError";
    case 503:
      return "ServiceUnavailable";
    default:
      return "";
  }
}

Status StatusForHttp(int status, const std::string& code, std::string message) {
  if (status == 404) return Status::NotFound(std::move(message));
  if (status == 401 || status == 403) return Status::PermissionDenied(std::move(message));
  if (status == 412 || code == "PreconditionFailed")
    return Status::AlreadyExists(std::move(message));
  if (status == 409) return Status::Conflict(std::move(message));
  return Status::IOError(std::move(message));
}

// "bytes FIRST-LAST/TOTAL" of a 206 response.
struct ContentRange {
  int64_t first = 0;
  int64_t last = -1;
  int64_t total = 0;
};

Result<ContentRange> ParseContentRange(const net::HttpResponse& response, const std::string& what) {
  std::optional<std::string> header = response.Header("content-range");
  if (!header) return Status::IOError("S3 " + what + ": the 206 response has no Content-Range");
  ContentRange range;
  long long first = 0, last = 0, total = 0;
  char unit[8] = {0};
  if (std::sscanf(header->c_str(), "%7s %lld-%lld/%lld", unit, &first, &last, &total) != 4 ||
      std::string(unit) != "bytes" || first < 0 || total < 0 || (total > 0 && last < first)) {
    // An empty object: some servers answer "bytes 0-0/0" or "bytes */0".
    if (std::sscanf(header->c_str(), "bytes %*[^/]/%lld", &total) == 1 && total == 0) {
      return ContentRange{0, -1, 0};
    }
    return Status::IOError("S3 " + what + ": unreadable Content-Range '" + *header + "'");
  }
  range.first = first;
  range.last = last;
  range.total = total;
  return range;
}

}  // namespace

struct S3Client::Call {
  const char* method = "GET";
  IoStats::Request kind = IoStats::Request::kGet;
  const std::string* bucket = nullptr;
  std::string key;  // empty: a bucket-level request
  std::vector<std::pair<std::string, std::string>> query;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string_view body;
  uint8_t* response_buffer = nullptr;
  int64_t response_capacity = 0;
  /// For messages: "GET s3://b/k (bytes 0-99)".
  std::string what;
};

S3Client::S3Client(S3Options options, S3Endpoint endpoint, std::shared_ptr<net::HttpClient> http,
                   std::shared_ptr<IoStats> stats)
    : options_(std::move(options)),
      endpoint_(std::move(endpoint)),
      http_(std::move(http)),
      stats_(std::move(stats)),
      io_scheduler_(std::make_unique<TaskScheduler>(
          std::min(64, options_.concurrent_requests_per_file * options_.max_concurrent_files))),
      file_slots_(std::min(1024, options_.max_concurrent_files)) {}

S3Client::~S3Client() = default;

Result<std::shared_ptr<S3Client>> S3Client::Make(S3Options options,
                                                 std::shared_ptr<IoStats> stats) {
  SQE_RETURN_NOT_OK(ValidateS3Options(options));
  SQE_ASSIGN_OR_RETURN(S3Endpoint endpoint,
                       ParseS3Endpoint(options.endpoint, options.region, options.allow_http));
  net::HttpClientOptions http_options;
  http_options.connect_timeout_ms = options.connect_timeout_ms;
  http_options.request_timeout_ms = options.request_timeout_ms;
  http_options.stall_timeout_ms = options.stall_timeout_ms;
  http_options.verify_tls = options.verify_tls;
  http_options.ca_bundle = options.ca_bundle;
  http_options.max_idle_connections =
      std::max(16, options.concurrent_requests_per_file * options.max_concurrent_files);
  SQE_ASSIGN_OR_RETURN(auto http, net::HttpClient::Make(http_options));
  return std::shared_ptr<S3Client>(
      new S3Client(std::move(options), std::move(endpoint), std::move(http), std::move(stats)));
}

std::string S3Client::UrlFor(const Call& call, std::string* host, std::string* path) const {
  std::string encoded_key = net::UriEncode(call.key, false);
  if (options_.path_style) {
    *host = endpoint_.authority;
    *path = "/" + *call.bucket + (call.key.empty() ? "" : "/" + encoded_key);
  } else {
    *host = *call.bucket + "." + endpoint_.authority;
    *path = "/" + encoded_key;
  }
  return endpoint_.scheme + "://" + *host + *path + net::QueryString(call.query);
}

Result<net::HttpResponse> S3Client::Execute(const Call& call, IoStats* stats) {
  std::string host, path;
  net::HttpRequest request;
  request.method = call.method;
  request.url = UrlFor(call, &host, &path);
  request.body = call.body;
  request.response_buffer = call.response_buffer;
  request.response_capacity = call.response_capacity;

  net::SignableRequest signable;
  signable.method = call.method;
  signable.path = path;
  signable.query = call.query;
  signable.headers = call.headers;
  signable.headers.emplace_back("host", host);
  signable.payload_sha256 = net::Sha256Hex(call.body);
  const bool anonymous = options_.credentials.access_key_id.empty();

  std::string last_error;
  for (int attempt = 1;; ++attempt) {
    for (IoStats* s : {stats_.get(), stats}) {
      if (s == nullptr) continue;
      s->AddRequest(call.kind);
      if (attempt > 1) s->AddRetry();
    }
    request.headers = signable.headers;
    if (anonymous) {
      request.headers.emplace_back("x-amz-content-sha256", signable.payload_sha256);
    } else {
      int64_t now = std::chrono::duration_cast<std::chrono::seconds>(
                        std::chrono::system_clock::now().time_since_epoch())
                        .count();
      SQE_ASSIGN_OR_RETURN(auto signed_request, net::SignRequest(signable, options_.credentials,
                                                                 options_.region, "s3", now));
      for (auto& header : signed_request.headers) request.headers.push_back(std::move(header));
    }

    net::HttpOutcome outcome = http_->Send(request);
    bool retryable = false;
    Status failure;
    if (!outcome.ok()) {
      retryable = net::IsRetryableTransportFailure(outcome.failure);
      std::string message = "S3 " + call.what + " failed: " + outcome.error;
      bool timed_out = outcome.failure == net::TransportFailure::kTimeout ||
                       outcome.failure == net::TransportFailure::kStalled;
      failure = timed_out ? Status::DeadlineExceeded(std::move(message))
                          : Status::IOError(std::move(message));
    } else {
      const net::HttpResponse& response = outcome.response;
      if (response.status >= 200 && response.status < 300) {
        int64_t body = response.body_bytes;
        for (IoStats* s : {stats_.get(), stats}) {
          if (s == nullptr) continue;
          if (call.kind == IoStats::Request::kGet) s->AddBytesRead(body);
          if (call.kind == IoStats::Request::kPut) {
            s->AddBytesWritten(static_cast<int64_t>(call.body.size()));
          }
        }
        return std::move(outcome.response);
      }
      std::optional<S3ErrorBody> error = ParseErrorBody(response.body);
      std::string code = error ? error->code : CodeForStatus(response.status);
      retryable = net::IsRetryableHttpStatus(response.status, code);
      std::string message = "S3 " + call.what + " failed: HTTP " + std::to_string(response.status) +
                            (code.empty() ? "" : " " + code);
      if (error && !error->message.empty()) message += ": " + error->message;
      message += " (bucket '" + *call.bucket + "'";
      if (error && !error->request_id.empty()) message += ", request id " + error->request_id;
      message += ")";
      if (anonymous && (response.status == 401 || response.status == 403)) {
        message +=
            "; no S3 credentials are configured: set storage.s3_access_key and "
            "storage.s3_secret_key, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY";
      }
      failure = StatusForHttp(response.status, code, std::move(message));
    }
    if (!retryable || attempt >= options_.retry.max_attempts) {
      if (attempt > 1) {
        return Status(failure.code(),
                      failure.message() + " [after " + std::to_string(attempt) + " attempts]");
      }
      return failure;
    }
    std::this_thread::sleep_for(
        std::chrono::milliseconds(net::BackoffDelayMs(options_.retry, attempt, Rng())));
  }
}

Status S3Client::GetRange(const std::string& bucket, const std::string& key, int64_t offset,
                          int64_t length, uint8_t* out, IoStats* stats) {
  if (length == 0) return Status::OK();
  Call call;
  call.bucket = &bucket;
  call.key = key;
  std::string range = "bytes=" + std::to_string(offset) + "-" + std::to_string(offset + length - 1);
  call.headers = {{"range", range}};
  call.response_buffer = out;
  call.response_capacity = length;
  call.what = "GET " + S3Uri(bucket, key) + " (" + range + ")";
  // A response cut short (a connection closed mid-body that curl did not notice) is
  // retried like a reset.
  for (int attempt = 1;; ++attempt) {
    SQE_ASSIGN_OR_RETURN(net::HttpResponse response, Execute(call, stats));
    if (response.status == 206) {
      SQE_ASSIGN_OR_RETURN(ContentRange range, ParseContentRange(response, call.what));
      if (range.first != offset || range.last != offset + length - 1) {
        return Status::IOError("S3 " + call.what + " returned another range (Content-Range " +
                               *response.Header("content-range") + ")");
      }
    } else if (offset != 0) {  // 200: the whole object, so only a read from 0 fits
      return Status::IOError("S3 " + call.what + " ignored the Range header (HTTP " +
                             std::to_string(response.status) + ")");
    }
    if (response.body_bytes == length) return Status::OK();
    if (attempt >= options_.retry.max_attempts) {
      return Status::IOError("S3 " + call.what + " returned " +
                             std::to_string(response.body_bytes) + " bytes instead of " +
                             std::to_string(length) + " (HTTP " + std::to_string(response.status) +
                             ")");
    }
  }
}

Result<S3Client::Tail> S3Client::GetTail(const std::string& bucket, const std::string& key,
                                         int64_t length, IoStats* stats) {
  Call call;
  call.bucket = &bucket;
  call.key = key;
  call.headers = {{"range", "bytes=-" + std::to_string(length)}};
  call.what = "GET " + S3Uri(bucket, key) + " (last " + std::to_string(length) + " bytes)";
  auto response = Execute(call, stats);
  if (!response.ok()) {
    // An empty object has no suffix to return (416): its size comes from HEAD.
    if (response.status().message().find("HTTP 416") == std::string::npos) {
      return response.status();
    }
    SQE_ASSIGN_OR_RETURN(int64_t size, HeadObject(bucket, key, stats));
    if (size != 0) return response.status();
    return Tail{0, ""};
  }
  Tail tail;
  tail.bytes = std::move(response->body);
  if (response->status == 200) {  // the server ignored the range: the whole object
    tail.object_size = static_cast<int64_t>(tail.bytes.size());
    if (static_cast<int64_t>(tail.bytes.size()) > length) {
      tail.bytes.erase(0, tail.bytes.size() - static_cast<size_t>(length));
    }
    return tail;
  }
  SQE_ASSIGN_OR_RETURN(ContentRange range, ParseContentRange(*response, call.what));
  tail.object_size = range.total;
  if (range.total == 0) return Tail{0, ""};
  int64_t want = std::min(length, range.total);
  bool is_the_tail = range.last == range.total - 1 && range.first == range.total - want &&
                     static_cast<int64_t>(tail.bytes.size()) == want;
  if (!is_the_tail) {
    // A server that answered another range than the suffix asked for (s3rver does):
    // now that the size is known, ask for the tail by offset.
    tail.bytes.assign(static_cast<size_t>(want), '\0');
    SQE_RETURN_NOT_OK(GetRange(bucket, key, range.total - want, want,
                               reinterpret_cast<uint8_t*>(tail.bytes.data()), stats));
  }
  return tail;
}

Result<std::pair<std::string, std::string>> S3Client::HeadHeader(const std::string& bucket,
                                                                 const std::string& key,
                                                                 const char* header,
                                                                 const char* shown,
                                                                 IoStats* stats) {
  Call call;
  call.method = "HEAD";
  call.kind = IoStats::Request::kHead;
  call.bucket = &bucket;
  call.key = key;
  call.what = "HEAD " + S3Uri(bucket, key);
  SQE_ASSIGN_OR_RETURN(net::HttpResponse response, Execute(call, stats));
  std::optional<std::string> value = response.Header(header);
  if (!value) {
    return Status::IOError("S3 " + call.what + ": the response has no " + std::string(shown));
  }
  return std::make_pair(call.what, std::move(*value));
}

Result<int64_t> S3Client::HeadObject(const std::string& bucket, const std::string& key,
                                     IoStats* stats) {
  SQE_ASSIGN_OR_RETURN(auto length,
                       HeadHeader(bucket, key, "content-length", "Content-Length", stats));
  try {
    return static_cast<int64_t>(std::stoll(length.second));
  } catch (...) {
    return Status::IOError("S3 " + length.first + ": unreadable Content-Length '" + length.second +
                           "'");
  }
}

Result<int64_t> S3Client::LastModifiedMicros(const std::string& bucket, const std::string& key,
                                             IoStats* stats) {
  SQE_ASSIGN_OR_RETURN(auto modified,
                       HeadHeader(bucket, key, "last-modified", "Last-Modified", stats));
  auto micros = ParseHttpDate(modified.second);
  if (!micros.ok())
    return Status::IOError("S3 " + modified.first + ": " + micros.status().message());
  return *micros;
}

Result<int64_t> ParseHttpDate(std::string_view text) {
  static const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                  "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  const std::string s(text);
  char weekday[4] = {}, month[4] = {}, zone[4] = {};
  int day = 0, year = 0, hour = 0, minute = 0, second = 0, used = 0;
  if (std::sscanf(s.c_str(), "%3s, %d %3s %d %d:%d:%d %3s%n", weekday, &day, month, &year, &hour,
                  &minute, &second, zone, &used) != 8 ||
      used != static_cast<int>(s.size()) || std::string(zone) != "GMT" || s.size() < 4 ||
      s[3] != ',') {
    return Status::InvalidArgument("'" + s + "' is not an HTTP date");
  }
  int m = -1;
  for (int i = 0; i < 12; ++i) {
    if (std::string(month) == kMonths[i]) m = i + 1;
  }
  if (m < 0 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60 || hour < 0 ||
      minute < 0 || second < 0) {
    return Status::InvalidArgument("'" + s + "' is not an HTTP date");
  }
  const int64_t days = columnar::DaysFromCivil(year, m, day);
  return ((days * 24 + hour) * 60 + minute) * int64_t{60000000} + int64_t{second} * 1000000;
}

Status S3Client::PutObject(const std::string& bucket, const std::string& key, std::string_view body,
                           bool if_none_match, IoStats* stats) {
  Call call;
  call.method = "PUT";
  call.kind = IoStats::Request::kPut;
  call.bucket = &bucket;
  call.key = key;
  call.body = body;
  if (if_none_match) call.headers.emplace_back("if-none-match", "*");
  call.what = "PUT " + S3Uri(bucket, key);
  return Execute(call, stats).status();
}

Result<std::string> S3Client::CreateMultipartUpload(const std::string& bucket,
                                                    const std::string& key, IoStats* stats) {
  Call call;
  call.method = "POST";
  call.kind = IoStats::Request::kPut;
  call.bucket = &bucket;
  call.key = key;
  call.query = {{"uploads", ""}};
  call.what = "CreateMultipartUpload " + S3Uri(bucket, key);
  SQE_ASSIGN_OR_RETURN(net::HttpResponse response, Execute(call, stats));
  return ParseInitiateMultipartUpload(response.body);
}

Result<std::string> S3Client::UploadPart(const std::string& bucket, const std::string& key,
                                         const std::string& upload_id, int part_number,
                                         std::string_view body, IoStats* stats) {
  Call call;
  call.method = "PUT";
  call.kind = IoStats::Request::kPut;
  call.bucket = &bucket;
  call.key = key;
  call.body = body;
  call.query = {{"partNumber", std::to_string(part_number)}, {"uploadId", upload_id}};
  call.what = "UploadPart " + std::to_string(part_number) + " of " + S3Uri(bucket, key);
  SQE_ASSIGN_OR_RETURN(net::HttpResponse response, Execute(call, stats));
  std::optional<std::string> etag = response.Header("etag");
  if (!etag || etag->empty()) {
    return Status::IOError("S3 " + call.what + ": the response has no ETag");
  }
  return *etag;
}

Status S3Client::CompleteMultipartUpload(const std::string& bucket, const std::string& key,
                                         const std::string& upload_id,
                                         const std::vector<CompletedPart>& parts,
                                         bool if_none_match, IoStats* stats) {
  std::string body = BuildCompleteMultipartUpload(parts);
  Call call;
  call.method = "POST";
  call.kind = IoStats::Request::kPut;
  call.bucket = &bucket;
  call.key = key;
  call.body = body;
  call.query = {{"uploadId", upload_id}};
  call.headers = {{"content-type", "application/xml"}};
  if (if_none_match) call.headers.emplace_back("if-none-match", "*");
  call.what = "CompleteMultipartUpload " + S3Uri(bucket, key);
  SQE_ASSIGN_OR_RETURN(net::HttpResponse response, Execute(call, stats));
  SQE_ASSIGN_OR_RETURN(auto error, ParseCompleteMultipartUpload(response.body));
  if (error) {
    std::string message = "S3 " + call.what + " failed: " + error->code + ": " + error->message +
                          " (bucket '" + bucket + "')";
    return error->code == "PreconditionFailed" ? Status::AlreadyExists(std::move(message))
                                               : Status::IOError(std::move(message));
  }
  return Status::OK();
}

Status S3Client::AbortMultipartUpload(const std::string& bucket, const std::string& key,
                                      const std::string& upload_id, IoStats* stats) {
  Call call;
  call.method = "DELETE";
  call.kind = IoStats::Request::kDelete;
  call.bucket = &bucket;
  call.key = key;
  call.query = {{"uploadId", upload_id}};
  call.what = "AbortMultipartUpload " + S3Uri(bucket, key);
  auto response = Execute(call, stats);
  // Already gone (aborted by an earlier attempt whose reply was lost) is success.
  if (!response.ok() && response.status().code() != StatusCode::kNotFound) {
    return response.status();
  }
  return Status::OK();
}

Result<ListObjectsPage> S3Client::ListObjectsV2(const std::string& bucket,
                                                const std::string& prefix,
                                                const std::string& continuation_token, int max_keys,
                                                IoStats* stats) {
  Call call;
  call.kind = IoStats::Request::kList;
  call.bucket = &bucket;
  call.query = {{"list-type", "2"}, {"max-keys", std::to_string(max_keys)}, {"prefix", prefix}};
  if (!continuation_token.empty())
    call.query.emplace_back("continuation-token", continuation_token);
  call.what = "ListObjectsV2 " + S3Uri(bucket, prefix);
  SQE_ASSIGN_OR_RETURN(net::HttpResponse response, Execute(call, stats));
  return ParseListObjectsV2(response.body);
}

Result<std::vector<DeleteError>> S3Client::DeleteObjects(const std::string& bucket,
                                                         const std::vector<std::string>& keys,
                                                         IoStats* stats) {
  if (keys.empty()) return std::vector<DeleteError>{};
  if (keys.size() > 1000) {
    return Status::InvalidArgument("DeleteObjects takes at most 1000 keys, got " +
                                   std::to_string(keys.size()));
  }
  std::string body = BuildDeleteObjects(keys, /*quiet=*/true);
  Call call;
  call.method = "POST";
  call.kind = IoStats::Request::kDelete;
  call.bucket = &bucket;
  call.body = body;
  call.query = {{"delete", ""}};
  call.headers = {{"content-md5", ContentMd5(body)}, {"content-type", "application/xml"}};
  call.what = "DeleteObjects (" + std::to_string(keys.size()) + " keys) in s3://" + bucket;
  SQE_ASSIGN_OR_RETURN(net::HttpResponse response, Execute(call, stats));
  return ParseDeleteObjectsResult(response.body);
}

}  // namespace sqe::io::s3
