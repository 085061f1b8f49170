#pragma once
/// The S3 objects behind RandomAccessFile and OutputStream (the read pipeline of
/// [storage] lives here):
///  - S3File reads with ranged GETs. Its first read near the end of the object fetches
///    the whole tail (`tail_prefetch` bytes: footer and page index in one request), a
///    small object (<= small_file_threshold) is fetched whole by its first read, a read
///    longer than read_split_size is split into pieces, and the ranges of one ReadAtMany
///    run concurrently (concurrent_requests_per_file) while the file holds one of the
///    client's max_concurrent_files slots. Size() costs no request when the size was
///    given (a listing or an Iceberg manifest knows it), else one suffix GET that also
///    fills the tail.
///  - S3OutputStream buffers one part: a file smaller than part_size is one PUT (with
///    If-None-Match when it must not exist), a larger one a multipart upload whose parts
///    upload concurrently (concurrent_requests_per_file in flight) and which is aborted
///    on any failure or when the stream is dropped, so nothing is left behind.

#include <cstdint>
#include <deque>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "io/file.h"
#include "io/io_stats.h"
#include "io/s3/s3_client.h"

namespace sqe::io::s3 {

class S3File final : public RandomAccessFile {
 public:
  S3File(std::shared_ptr<S3Client> client, std::string bucket, std::string key,
         std::optional<int64_t> known_size, std::shared_ptr<IoStats> stats);

  const std::string& path() const override { return uri_; }
  Result<int64_t> Size() override;
  Status ReadAt(int64_t offset, int64_t length, uint8_t* out) override;
  Status ReadAtMany(const std::vector<ByteRange>& ranges,
                    const std::vector<uint8_t*>& outs) override;

 private:
  // Fills `whole_` or `tail_` as the options ask; callers hold mutex_.
  Status LoadTailLocked();
  Status LoadWholeLocked(int64_t size);

  std::shared_ptr<S3Client> client_;
  const std::string bucket_;
  const std::string key_;
  const std::string uri_;
  std::shared_ptr<IoStats> stats_;

  std::mutex mutex_;
  std::optional<int64_t> size_;
  std::string tail_;  // the last tail_.size() bytes (or the whole object, see whole_)
  bool tail_loaded_ = false;
  bool whole_ = false;  // tail_ holds every byte
};

class S3OutputStream final : public OutputStream {
 public:
  S3OutputStream(std::shared_ptr<S3Client> client, std::string bucket, std::string key,
                 bool overwrite, std::shared_ptr<IoStats> stats);
  ~S3OutputStream() override;

  const std::string& path() const override { return uri_; }
  Status Write(const uint8_t* data, int64_t size) override;
  using OutputStream::Write;
  int64_t Tell() const override { return written_; }
  Status Close() override;
  void Abort() override;

 private:
  Status UploadBufferedPart();
  Status CollectOldestPart();
  void WaitForParts();
  Status Fail(Status status);

  std::shared_ptr<S3Client> client_;
  const std::string bucket_;
  const std::string key_;
  const std::string uri_;
  const bool overwrite_;
  std::shared_ptr<IoStats> stats_;

  std::string buffer_;
  int64_t written_ = 0;
  std::string upload_id_;
  std::vector<CompletedPart> parts_;  // uploaded, in order
  struct PendingPart {
    int part_number = 0;
    std::future<Result<std::string>> etag;
  };
  std::deque<PendingPart> in_flight_;
  int next_part_number_ = 1;
  bool closed_ = false;
  bool aborted_ = false;
};

}  // namespace sqe::io::s3
