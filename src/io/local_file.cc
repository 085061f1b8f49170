#include "io/local_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <random>

namespace sqe::io {
namespace {

std::string ErrnoText(int err) { return std::strerror(err); }

class LocalRandomAccessFile final : public RandomAccessFile {
 public:
  LocalRandomAccessFile(std::string path, int fd, int64_t size)
      : path_(std::move(path)), fd_(fd), size_(size) {}
  ~LocalRandomAccessFile() override { ::close(fd_); }

  const std::string& path() const override { return path_; }
  Result<int64_t> Size() override { return size_; }

  Status ReadAt(int64_t offset, int64_t length, uint8_t* out) override {
    SQE_RETURN_NOT_OK(CheckReadRange(path_, offset, length, size_));
    int64_t done = 0;
    while (done < length) {
      ssize_t n = ::pread(fd_, out + done, static_cast<size_t>(length - done), offset + done);
      if (n < 0) {
        if (errno == EINTR) continue;
        return Status::IOError("read of " + path_ + " at offset " + std::to_string(offset + done) +
                               " failed: " + ErrnoText(errno));
      }
      if (n == 0) {
        return Status::IOError("unexpected end of " + path_ + " at offset " +
                               std::to_string(offset + done) + " (file shrank while reading?)");
      }
      done += n;
    }
    return Status::OK();
  }

 private:
  std::string path_;
  int fd_;
  int64_t size_;
};

class LocalOutputStream final : public OutputStream {
 public:
  LocalOutputStream(std::string path, std::string temp_path, int fd, bool overwrite)
      : path_(std::move(path)), temp_path_(std::move(temp_path)), fd_(fd), overwrite_(overwrite) {}
  ~LocalOutputStream() override { Abort(); }

  const std::string& path() const override { return path_; }
  int64_t Tell() const override { return position_; }

  Status Write(const uint8_t* data, int64_t size) override {
    if (fd_ < 0) return Status::IOError("write to closed file " + path_);
    int64_t done = 0;
    while (done < size) {
      ssize_t n = ::write(fd_, data + done, static_cast<size_t>(size - done));
      if (n < 0) {
        if (errno == EINTR) continue;
        return Status::IOError("write to " + path_ + " failed: " + ErrnoText(errno));
      }
      done += n;
    }
    position_ += size;
    return Status::OK();
  }
  using OutputStream::Write;

  Status Close() override {
    if (fd_ < 0) return Status::IOError("file " + path_ + " is already closed");
    if (::fsync(fd_) != 0) {
      Status st = Status::IOError("fsync of " + path_ + " failed: " + ErrnoText(errno));
      Abort();
      return st;
    }
    ::close(fd_);
    fd_ = -1;
    int rc;
    if (overwrite_) {
      rc = ::rename(temp_path_.c_str(), path_.c_str());
    } else {
      // link(2) fails with EEXIST when the target appeared meanwhile: atomic create.
      rc = ::link(temp_path_.c_str(), path_.c_str());
      if (rc == 0) ::unlink(temp_path_.c_str());
    }
    if (rc != 0) {
      int err = errno;
      ::unlink(temp_path_.c_str());
      if (err == EEXIST) return Status::AlreadyExists("file " + path_ + " already exists");
      return Status::IOError("cannot move the written file into place at " + path_ + ": " +
                             ErrnoText(err));
    }
    return Status::OK();
  }

  void Abort() override {
    if (fd_ >= 0) {
      ::close(fd_);
      fd_ = -1;
      ::unlink(temp_path_.c_str());
    }
  }

 private:
  std::string path_;
  std::string temp_path_;
  int fd_;
  bool overwrite_;
  int64_t position_ = 0;
};

}  // namespace

std::string LocalPathOf(const std::string& path_or_uri) {
  constexpr std::string_view kScheme = "file://";
  if (path_or_uri.starts_with(kScheme)) return path_or_uri.substr(kScheme.size());
  return path_or_uri;
}

Result<std::unique_ptr<RandomAccessFile>> OpenLocalFile(const std::string& path_or_uri) {
  std::string path = LocalPathOf(path_or_uri);
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    int err = errno;
    if (err == ENOENT) return Status::NotFound("file " + path + " does not exist");
    return Status::IOError("cannot open " + path + ": " + ErrnoText(err));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return Status::IOError("cannot read " + path + ": not a regular file");
  }
  return std::unique_ptr<RandomAccessFile>(
      new LocalRandomAccessFile(path, fd, static_cast<int64_t>(st.st_size)));
}

Result<std::unique_ptr<OutputStream>> CreateLocalFile(const std::string& path_or_uri,
                                                      bool overwrite) {
  std::filesystem::path path(LocalPathOf(path_or_uri));
  std::error_code ec;
  if (!overwrite && std::filesystem::exists(path, ec)) {
    return Status::AlreadyExists("file " + path.string() + " already exists");
  }
  if (path.has_parent_path()) {
    std::filesystem::create_directories(path.parent_path(), ec);
    if (ec) {
      return Status::IOError("cannot create directory " + path.parent_path().string() + ": " +
                             ec.message());
    }
  }
  std::random_device rd;
  std::string temp = (path.parent_path() / ("." + path.filename().string() + ".tmp-" +
                                            std::to_string(rd()) + std::to_string(::getpid())))
                         .string();
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    return Status::IOError("cannot create " + path.string() + ": " + ErrnoText(errno));
  }
  return std::unique_ptr<OutputStream>(new LocalOutputStream(path.string(), temp, fd, overwrite));
}

}  // namespace sqe::io
