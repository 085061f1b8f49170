#include "exec/spill_file.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <random>
#include <system_error>

#include "columnar/ipc/stream_writer.h"
#include "common/hex.h"
#include "common/logging.h"

namespace sqe::exec {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kDirectoryPrefix = "sqe-";
// Writes are gathered up to this size; a larger message body is written directly.
constexpr size_t kWriteBufferBytes = size_t{1} << 20;
constexpr int64_t kHeaderBytes = 16;

/// A random number drawn once per process: it tells this process's directories from
/// those of an earlier process that had the same pid (a restarted container is pid 1
/// every time).
uint64_t ProcessToken() {
  static const uint64_t token = [] {
    std::random_device device;
    return (static_cast<uint64_t>(device()) << 32) ^ device();
  }();
  return token;
}

Status ErrnoError(std::string_view what, const std::string& path) {
  return Status::IOError(std::string(what) + " spill file '" + path + "': " + std::strerror(errno));
}

Status WriteAll(int fd, std::string_view data, const std::string& path) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoError("cannot write", path);
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return Status::OK();
}

void AppendInt64(int64_t value, std::string* out) {
  char bytes[8];
  std::memcpy(bytes, &value, 8);  // little-endian hosts only (as the IPC codec)
  out->append(bytes, 8);
}

/// Whether a directory named sqe-<pid>-<token>-<n> belongs to a process that still runs.
/// Names that do not parse are not ours: kept.
bool OwnerAlive(const std::string& name) {
  const std::string rest = name.substr(kDirectoryPrefix.size());
  const size_t dash = rest.find('-');
  if (dash == std::string::npos || dash == 0) return true;
  const std::string pid_text = rest.substr(0, dash);
  for (char c : pid_text) {
    if (c < '0' || c > '9') return true;
  }
  const long pid = std::strtol(pid_text.c_str(), nullptr, 10);
  if (pid <= 0) return true;
  const size_t token_end = rest.find('-', dash + 1);
  const std::string token = rest.substr(
      dash + 1, token_end == std::string::npos ? std::string::npos : token_end - dash - 1);
  if (pid == static_cast<long>(::getpid())) return token == HexLower64(ProcessToken());
  return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

}  // namespace

Status SpillOffError(bool spill_enabled, const Status& exceeded) {
  if (spill_enabled || exceeded.code() != StatusCode::kResourceExhausted ||
      exceeded.message().find("memory limit") == std::string::npos ||
      exceeded.message().find("worker.spill_to_disk") != std::string::npos) {
    return exceeded;
  }
  return Status::ResourceExhausted(exceeded.message() +
                                   "; spilling to disk is off (worker.spill_to_disk)");
}

// --- SpillDirectory ---

Result<std::unique_ptr<SpillDirectory>> SpillDirectory::Create(const std::string& root) {
  if (root.empty()) return Status::InvalidArgument("no spill directory configured");
  static std::atomic<int64_t> next_directory{0};
  std::error_code error;
  fs::create_directories(root, error);
  if (error) {
    return Status::IOError("cannot create the spill directory '" + root +
                           "' (worker.spill_dir): " + error.message());
  }
  const std::string path =
      (fs::path(root) /
       (std::string(kDirectoryPrefix) + std::to_string(::getpid()) + "-" +
        HexLower64(ProcessToken()) + "-" + std::to_string(next_directory.fetch_add(1))))
          .string();
  if (!fs::create_directory(path, error) || error) {
    return Status::IOError(
        "cannot create the query's spill directory '" + path +
        "' (worker.spill_dir): " + (error ? error.message() : std::string("it already exists")));
  }
  return std::unique_ptr<SpillDirectory>(new SpillDirectory(path));
}

SpillDirectory::~SpillDirectory() {
  std::error_code error;
  fs::remove_all(path_, error);
  if (error)
    log::Warn("spill_directory_remove_failed", {{"path", path_}, {"error", error.message()}});
}

std::string SpillDirectory::NewFilePath(std::string_view tag) {
  return (fs::path(path_) /
          (std::string(tag) + "-" + std::to_string(next_file_.fetch_add(1)) + ".spill"))
      .string();
}

void SpillDirectory::RemoveStale(const std::string& root) {
  if (root.empty()) return;
  std::error_code error;
  fs::directory_iterator it(root, error);
  if (error) return;  // no spill directory yet: nothing left behind
  for (const fs::directory_entry& entry : it) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(kDirectoryPrefix, 0) != 0 || !entry.is_directory(error)) continue;
    if (OwnerAlive(name)) continue;
    fs::remove_all(entry.path(), error);
    if (error) {
      log::Warn("spill_directory_remove_failed",
                {{"path", entry.path().string()}, {"error", error.message()}});
    } else {
      log::Info("spill_directory_removed_stale", {{"path", entry.path().string()}});
    }
  }
}

// --- SpillWriter ---

Result<std::unique_ptr<SpillWriter>> SpillWriter::Open(std::string path, columnar::SchemaPtr schema,
                                                       std::atomic<int64_t>* spilled) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return ErrnoError("cannot create", path);
  std::unique_ptr<SpillWriter> writer(new SpillWriter(std::move(path), fd, schema, spilled));
  SQE_ASSIGN_OR_RETURN(columnar::ipc::EncodedMessage message, columnar::ipc::EncodeSchema(*schema));
  SQE_RETURN_NOT_OK(writer->WriteMessage(message.metadata, message.body));
  return writer;
}

SpillWriter::~SpillWriter() {
  if (fd_ >= 0) ::close(fd_);
}

Status SpillWriter::WriteMessage(std::string_view metadata, std::string_view body) {
  AppendInt64(static_cast<int64_t>(metadata.size()), &buffer_);
  AppendInt64(static_cast<int64_t>(body.size()), &buffer_);
  buffer_.append(metadata);
  const int64_t bytes = kHeaderBytes + static_cast<int64_t>(metadata.size() + body.size());
  if (body.size() >= kWriteBufferBytes) {
    SQE_RETURN_NOT_OK(Flush());
    SQE_RETURN_NOT_OK(WriteAll(fd_, body, path_));
  } else {
    buffer_.append(body);
    if (buffer_.size() >= kWriteBufferBytes) SQE_RETURN_NOT_OK(Flush());
  }
  bytes_written_ += bytes;
  if (spilled_ != nullptr) spilled_->fetch_add(bytes, std::memory_order_relaxed);
  return Status::OK();
}

Status SpillWriter::Flush() {
  if (buffer_.empty()) return Status::OK();
  SQE_RETURN_NOT_OK(WriteAll(fd_, buffer_, path_));
  buffer_.clear();
  return Status::OK();
}

Status SpillWriter::Append(const columnar::Batch& batch) {
  if (fd_ < 0) return Status::Internal("spill file '" + path_ + "' is already finished");
  if (batch.num_rows() == 0) return Status::OK();
  columnar::ipc::WriteOptions options;
  options.compression = columnar::ipc::Compression::kLz4Frame;
  options.buffer_alignment = 8;
  SQE_ASSIGN_OR_RETURN(std::vector<columnar::ipc::EncodedMessage> messages,
                       columnar::ipc::EncodeBatch(batch, options));
  for (const auto& message : messages) {
    SQE_RETURN_NOT_OK(WriteMessage(message.metadata, message.body));
  }
  rows_written_ += batch.num_rows();
  return Status::OK();
}

Status SpillWriter::Finish() {
  if (fd_ < 0) return Status::Internal("spill file '" + path_ + "' is already finished");
  AppendInt64(0, &buffer_);
  AppendInt64(0, &buffer_);
  bytes_written_ += kHeaderBytes;
  if (spilled_ != nullptr) spilled_->fetch_add(kHeaderBytes, std::memory_order_relaxed);
  Status status = Flush();
  SQE_RETURN_NOT_OK(Close());
  return status;
}

Status SpillWriter::Close() {
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) return ErrnoError("cannot close", path_);
  return Status::OK();
}

// --- SpillReader ---

namespace {

columnar::ipc::ReadOptions SpillReadOptions(std::shared_ptr<MemoryTracker> tracker) {
  columnar::ipc::ReadOptions options;
  options.tracker = std::move(tracker);
  return options;
}

}  // namespace

SpillReader::SpillReader(std::string path, int fd, std::shared_ptr<MemoryTracker> tracker)
    : path_(std::move(path)),
      fd_(fd),
      tracker_(tracker),
      decoder_(SpillReadOptions(std::move(tracker))) {}

Result<std::unique_ptr<SpillReader>> SpillReader::Open(std::string path,
                                                       std::shared_ptr<MemoryTracker> tracker) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoError("cannot open", path);
  std::unique_ptr<SpillReader> reader(new SpillReader(std::move(path), fd, std::move(tracker)));
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  SQE_ASSIGN_OR_RETURN(bool more, reader->ReadMessage());
  if (!more || reader->schema() == nullptr) {
    return Status::Corruption("spill file '" + reader->path_ + "' has no schema");
  }
  return reader;
}

SpillReader::~SpillReader() {
  if (fd_ >= 0) ::close(fd_);
}

Status SpillReader::ReadExactly(void* out, int64_t length) {
  auto* dest = static_cast<char*>(out);
  while (length > 0) {
    const ssize_t n = ::read(fd_, dest, static_cast<size_t>(length));
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoError("cannot read", path_);
    }
    if (n == 0) {
      return Status::Corruption("spill file '" + path_ + "' is truncated at byte " +
                                std::to_string(offset_));
    }
    dest += n;
    length -= n;
    offset_ += n;
  }
  return Status::OK();
}

Result<bool> SpillReader::ReadMessage() {
  int64_t header[2];
  SQE_RETURN_NOT_OK(ReadExactly(header, kHeaderBytes));
  const int64_t metadata_length = header[0];
  const int64_t body_length = header[1];
  if (metadata_length == 0) return false;
  if (metadata_length < 0 || metadata_length > (int64_t{64} << 20) || body_length < 0 ||
      body_length > (int64_t{2} << 30)) {
    return Status::Corruption("spill file '" + path_ + "' has a bad message header at byte " +
                              std::to_string(offset_ - kHeaderBytes));
  }
  std::string metadata(static_cast<size_t>(metadata_length), '\0');
  SQE_RETURN_NOT_OK(ReadExactly(metadata.data(), metadata_length));
  columnar::BufferPtr body;
  if (body_length > 0) {
    SQE_ASSIGN_OR_RETURN(auto buffer,
                         columnar::Buffer::AllocateUninitialized(body_length, tracker_));
    SQE_RETURN_NOT_OK(ReadExactly(buffer->mutable_data(), body_length));
    body = std::move(buffer);
  }
  SQE_RETURN_NOT_OK(decoder_.ConsumeMessage(metadata, std::move(body)));
  return true;
}

Result<std::optional<columnar::Batch>> SpillReader::Next() {
  while (!done_) {
    std::vector<columnar::Batch> batches = decoder_.TakeBatches();
    if (!batches.empty()) {
      // One RecordBatch message decodes to one batch.
      return std::optional<columnar::Batch>(std::move(batches.front()));
    }
    SQE_ASSIGN_OR_RETURN(bool more, ReadMessage());
    if (!more) {
      done_ = true;
      ::close(fd_);
      fd_ = -1;
    }
  }
  return std::optional<columnar::Batch>();
}

}  // namespace sqe::exec
