#include "io/s3/s3_file.h"

#include <algorithm>
#include <cstring>
#include <future>

#include "common/logging.h"

namespace sqe::io::s3 {

S3File::S3File(std::shared_ptr<S3Client> client, std::string bucket, std::string key,
               std::optional<int64_t> known_size, std::shared_ptr<IoStats> stats)
    : client_(std::move(client)),
      bucket_(std::move(bucket)),
      key_(std::move(key)),
      uri_(S3Uri(bucket_, key_)),
      stats_(std::move(stats)),
      size_(known_size) {}

Status S3File::LoadTailLocked() {
  if (tail_loaded_) return Status::OK();
  int64_t want = std::max<int64_t>(client_->options().tail_prefetch, 8);
  if (size_) {
    int64_t size = *size_;
    int64_t length = std::min(want, size);
    tail_.resize(static_cast<size_t>(length));
    SQE_RETURN_NOT_OK(client_->GetRange(bucket_, key_, size - length, length,
                                        reinterpret_cast<uint8_t*>(tail_.data()), stats_.get()));
    whole_ = length == size;
  } else {
    SQE_ASSIGN_OR_RETURN(S3Client::Tail tail, client_->GetTail(bucket_, key_, want, stats_.get()));
    size_ = tail.object_size;
    tail_ = std::move(tail.bytes);
    whole_ = static_cast<int64_t>(tail_.size()) == tail.object_size;
  }
  tail_loaded_ = true;
  return Status::OK();
}

Status S3File::LoadWholeLocked(int64_t size) {
  if (whole_) return Status::OK();
  tail_.resize(static_cast<size_t>(size));
  SQE_RETURN_NOT_OK(client_->GetRange(bucket_, key_, 0, size,
                                      reinterpret_cast<uint8_t*>(tail_.data()), stats_.get()));
  tail_loaded_ = true;
  whole_ = true;
  return Status::OK();
}

Result<int64_t> S3File::Size() {
  std::lock_guard lock(mutex_);
  if (!size_) {
    SQE_RETURN_NOT_OK(LoadTailLocked());
  }
  return *size_;
}

Status S3File::ReadAt(int64_t offset, int64_t length, uint8_t* out) {
  return ReadAtMany({ByteRange{offset, length}}, {out});
}

Status S3File::ReadAtMany(const std::vector<ByteRange>& ranges, const std::vector<uint8_t*>& outs) {
  if (ranges.size() != outs.size()) {
    return Status::Internal("ReadAtMany: " + std::to_string(ranges.size()) + " ranges but " +
                            std::to_string(outs.size()) + " buffers for " + uri_);
  }
  SQE_ASSIGN_OR_RETURN(int64_t size, Size());
  for (const ByteRange& r : ranges)
    SQE_RETURN_NOT_OK(CheckReadRange(uri_, r.offset, r.length, size));

  const S3Options& options = client_->options();
  // Pieces still to fetch: (offset, length, destination).
  struct Piece {
    int64_t offset;
    int64_t length;
    uint8_t* out;
  };
  std::vector<Piece> pieces;
  {
    std::lock_guard lock(mutex_);
    bool small = options.small_file_threshold > 0 && size <= options.small_file_threshold;
    bool any_in_tail = false;
    int64_t tail_start = size - std::min<int64_t>(options.tail_prefetch, size);
    for (const ByteRange& r : ranges) any_in_tail |= r.length > 0 && r.offset >= tail_start;
    if (small) {
      SQE_RETURN_NOT_OK(LoadWholeLocked(size));
    } else if (any_in_tail) {
      SQE_RETURN_NOT_OK(LoadTailLocked());
    }
    int64_t cached_start = size - static_cast<int64_t>(tail_.size());
    for (size_t i = 0; i < ranges.size(); ++i) {
      const ByteRange& r = ranges[i];
      if (r.length == 0) continue;
      if (tail_loaded_ && r.offset >= cached_start) {
        std::memcpy(outs[i], tail_.data() + (r.offset - cached_start),
                    static_cast<size_t>(r.length));
        if (stats_) stats_->AddCacheHit();
        continue;
      }
      for (int64_t done = 0; done < r.length; done += options.read_split_size) {
        int64_t n = std::min(options.read_split_size, r.length - done);
        pieces.push_back({r.offset + done, n, outs[i] + done});
      }
    }
  }
  if (pieces.empty()) return Status::OK();
  client_->file_slots().acquire();
  Status status = ParallelFor(client_->io_scheduler(), static_cast<int64_t>(pieces.size()),
                              options.concurrent_requests_per_file, [&](int64_t i) {
                                const Piece& p = pieces[static_cast<size_t>(i)];
                                return client_->GetRange(bucket_, key_, p.offset, p.length, p.out,
                                                         stats_.get());
                              });
  client_->file_slots().release();
  return status;
}

S3OutputStream::S3OutputStream(std::shared_ptr<S3Client> client, std::string bucket,
                               std::string key, bool overwrite, std::shared_ptr<IoStats> stats)
    : client_(std::move(client)),
      bucket_(std::move(bucket)),
      key_(std::move(key)),
      uri_(S3Uri(bucket_, key_)),
      overwrite_(overwrite),
      stats_(std::move(stats)) {}

S3OutputStream::~S3OutputStream() { Abort(); }

Status S3OutputStream::Fail(Status status) {
  Abort();
  return status;
}

Status S3OutputStream::UploadBufferedPart() {
  if (upload_id_.empty()) {
    SQE_ASSIGN_OR_RETURN(upload_id_, client_->CreateMultipartUpload(bucket_, key_, stats_.get()));
  }
  int part_number = next_part_number_++;
  // The part uploads on the client's I/O pool while the writer fills the next one; at
  // most concurrent_requests_per_file parts (each part_size bytes) are in flight.
  auto body = std::make_shared<std::string>(std::move(buffer_));
  buffer_ = std::string();
  auto promise = std::make_shared<std::promise<Result<std::string>>>();
  in_flight_.push_back({part_number, promise->get_future()});
  // A raw client pointer: the stream outlives every part (Close and Abort wait for them),
  // and a pool thread must never drop the last reference to the client owning the pool.
  client_->io_scheduler()->Submit([client = client_.get(), bucket = bucket_, key = key_,
                                   upload_id = upload_id_, part_number, body, promise,
                                   stats = stats_] {
    promise->set_value(client->UploadPart(bucket, key, upload_id, part_number, *body, stats.get()));
  });
  while (static_cast<int>(in_flight_.size()) >= client_->options().concurrent_requests_per_file) {
    SQE_RETURN_NOT_OK(CollectOldestPart());
  }
  return Status::OK();
}

Status S3OutputStream::CollectOldestPart() {
  PendingPart pending = std::move(in_flight_.front());
  in_flight_.pop_front();
  Result<std::string> etag = pending.etag.get();
  if (!etag.ok()) return etag.status();
  parts_.push_back({pending.part_number, std::move(*etag)});
  return Status::OK();
}

void S3OutputStream::WaitForParts() {
  while (!in_flight_.empty()) {
    in_flight_.front().etag.wait();
    in_flight_.pop_front();
  }
}

Status S3OutputStream::Write(const uint8_t* data, int64_t size) {
  if (closed_ || aborted_) {
    return Status::InvalidArgument("write to " + uri_ + " after it was " +
                                   (aborted_ ? "aborted" : "closed"));
  }
  const int64_t part_size = client_->options().part_size;
  if (buffer_.capacity() < static_cast<size_t>(part_size)) {
    buffer_.reserve(static_cast<size_t>(part_size));
  }
  while (size > 0) {
    int64_t room = part_size - static_cast<int64_t>(buffer_.size());
    int64_t n = std::min(room, size);
    buffer_.append(reinterpret_cast<const char*>(data), static_cast<size_t>(n));
    data += n;
    size -= n;
    written_ += n;
    if (static_cast<int64_t>(buffer_.size()) == part_size) {
      Status s = UploadBufferedPart();
      if (!s.ok()) return Fail(std::move(s));
    }
  }
  return Status::OK();
}

Status S3OutputStream::Close() {
  if (aborted_) {
    return Status::IOError("cannot close " + uri_ + ": it was aborted (an earlier write failed)");
  }
  if (closed_) return Status::OK();
  Status s;
  if (upload_id_.empty()) {
    s = client_->PutObject(bucket_, key_, buffer_, !overwrite_, stats_.get());
  } else {
    if (!buffer_.empty()) s = UploadBufferedPart();
    while (s.ok() && !in_flight_.empty()) s = CollectOldestPart();
    if (s.ok()) {
      s = client_->CompleteMultipartUpload(bucket_, key_, upload_id_, parts_, false, stats_.get());
    }
  }
  if (!s.ok()) return Fail(std::move(s));
  closed_ = true;
  upload_id_.clear();
  buffer_.clear();
  buffer_.shrink_to_fit();
  return Status::OK();
}

void S3OutputStream::Abort() {
  if (closed_ || aborted_) return;
  aborted_ = true;
  buffer_.clear();
  buffer_.shrink_to_fit();
  WaitForParts();  // a part still uploading would otherwise outlive the abort
  if (!upload_id_.empty()) {
    Status s = client_->AbortMultipartUpload(bucket_, key_, upload_id_, stats_.get());
    if (!s.ok()) {
      log::Warn("s3_abort_multipart_failed", {{"uri", uri_}, {"error", s.message()}});
    }
    upload_id_.clear();
  }
  parts_.clear();
}

}  // namespace sqe::io::s3
